import Foundation
import OrderedJSON
import Testing

@testable import TestVectors

/// `vectors lint`: schema, tcIds, counts, formatting; each problem names the file, the path and the tcId.
@Suite("vector lint")
struct VectorLinterTests {
    static func clean() async -> String {
        JSONWriter.canonical(await VectorGenerator(suite: .pinMapping, count: 1, seed: "lint").generate())
    }

    @Test("a generated file is clean")
    func clean() async {
        #expect(VectorLinter.lint(text: await Self.clean(), file: "f.json").isEmpty)
    }

    @Test(
        "each kind of problem is found",
        arguments: [
            ("\"tcId\": 2\n", "\"tcId\": 1\n", "duplicate tcId"),
            ("\"tcId\": 2\n", "\"tcId\": 9\n", "out of sequence"),
            ("\"numberOfTests\": ", "\"numberOfTests\": 1", "says"),
            ("\"result\": \"valid\"", "\"result\": \"fine\"", "valid, invalid or acceptable"),
            ("\"flags\": [\n", "\"flags\": [\n            \"NoSuchFlag\",\n", "has no note"),
            ("\"schema\": \"mpin-workbench-vectors-v1\"", "\"schema\": \"other\"", "unknown schema"),
            ("\"comment\": ", "\"note\": ", "comment"),
            ("{\n  \"algorithm\"", "{\n    \"algorithm\"", "not canonical"),
        ])
    func problems(from: String, to: String, message: String) async throws {
        let text = await Self.clean()
        let range = try #require(text.range(of: from))
        let broken = text.replacingCharacters(in: range, with: to)
        let problems = VectorLinter.lint(text: broken, file: "f.json")
        #expect(problems.contains { $0.message.contains(message) || $0.path.contains(message) }, "\(problems)")
        #expect(problems.allSatisfy { $0.file == "f.json" })
    }

    @Test("a problem inside a test names the tcId and the line")
    func location() async throws {
        let text = await Self.clean().replacingOccurrences(of: "\"tcId\": 3\n", with: "\"tcId\": 30\n")
        let problem = try #require(VectorLinter.lint(text: text, file: "f.json").first)
        #expect(problem.tcId == 30)
        #expect(problem.line != nil)
        #expect(problem.description.hasPrefix("f.json:\(problem.line!): testGroups[0].tests[2].tcId (tcId 30)"))
    }

    @Test("a repeated member name and a number that is not an integer are found, with line, path and tcId")
    func repeatsAndNumbers() async throws {
        let text = await Self.clean()
        let repeated = text.replacingOccurrences(of: "\"tcId\": 2\n", with: "\"tcId\": 2,\n\"tcId\": 2\n")
        #expect(repeated != text)
        let problem = try #require(VectorLinter.lint(text: repeated, file: "f.json", checkFormatting: false).first)
        // The problem is placed at the repeat and names the first place.
        let repeatLine = repeated.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0 == "\"tcId\": 2" }.map { $0 + 1 }
        #expect(problem.line == repeatLine)
        #expect(problem.description.hasPrefix("f.json:\(repeatLine!): "))
        #expect(problem.message.contains("tcId") && problem.message.contains("line \(repeatLine! - 1)"))

        let fraction = text.replacingOccurrences(of: "\"tcId\": 3\n", with: "\"tcId\": 3.0\n")
        #expect(fraction != text)
        let problems = VectorLinter.lint(text: fraction, file: "f.json", checkFormatting: false)
        #expect(
            problems.contains { $0.path == "testGroups[0].tests[2].tcId" && $0.message.contains("must be an integer") })
        #expect(
            problems.contains { $0.path == "testGroups[0].tests[2].tcId" && $0.message == "missing or not an integer" })
    }

    @Test("a trailing newline is required, and not-JSON is reported with its line")
    func formatting() async {
        let text = await Self.clean()
        #expect(
            VectorLinter.lint(text: String(text.dropLast()), file: "f").contains {
                $0.message.contains("not canonical")
            })
        #expect(VectorLinter.lint(text: "{\n\"a\": }", file: "f").first?.line == 2)
    }
}
