import FlowRecording
import Foundation
import Scenarios
import Testing

/// Every committed cassette in Recordings/ replays (strict, full crypto), and every bundled
/// scenario has its cassette.
@Suite struct RecordingsReplayTests {
    @Test(arguments: RepoPaths.recordingFiles())
    func replays(_ name: String) async {
        await expectReplay(RepoPaths.recordings + "/" + name)
    }

    @Test func everyBundledScenarioHasACassette() throws {
        let enumerator = FileManager.default.enumerator(atPath: RepoPaths.recordings)
        var names: Set<String> = []
        while let entry = enumerator?.nextObject() as? String {
            if entry.hasSuffix(".json") { names.insert(((entry as NSString).lastPathComponent as NSString).deletingPathExtension) }
        }
        for file in RepoPaths.library.files() {
            let script = try ScriptParser.parse(file: file)
            #expect(names.contains(script.name), "no Recordings/\(script.name).json for \(file)")
        }
    }
}
