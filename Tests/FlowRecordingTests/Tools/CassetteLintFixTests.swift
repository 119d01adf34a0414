import Foundation
import Testing

@testable import FlowRecording

/// The one way to edit a cassette: edit a body's `text`, then `lint --fix` writes its `json` view
/// again from it; an edit to the view alone is undone.
@Suite struct CassetteLintFixTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lintfix-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func anEditedTextHasItsViewWrittenAgain() async throws {
        let cassette = await Fixtures.record()
        let original = cassette.canonicalText
        let target = try #require(original.range(of: #"/rps\""#), "the toy flow's settings body")
        var edited = original
        edited.replaceSubrange(target, with: #"/other\""#)
        let path = try write(edited)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The reader refuses the stale view and says what to do.
        #expect(throws: CassetteError.self) { try CassetteFile.read(path) }
        let fixed = try CassetteLint.readRebuildingViews(path)
        #expect(fixed.canonicalText.contains("\"mpinAuthServerURL\": \"/other\""))
        #expect(!fixed.canonicalText.contains("\"mpinAuthServerURL\": \"/rps\""))
        #expect(CassetteLint.check(bytes: fixed.canonicalBytes, path: path).isEmpty)
    }

    @Test func anEditToTheViewAloneIsUndone() async throws {
        let cassette = await Fixtures.record()
        let edited = cassette.canonicalText.replacing(
            "\"mpinAuthServerURL\": \"/rps\"", with: "\"mpinAuthServerURL\": \"/other\"")
        let path = try write(edited)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CassetteLint.readRebuildingViews(path) == cassette)
    }
}
