import Foundation
import MPinCrypto
import OrderedJSON
import Testing

@testable import TestVectors

/// Generation: determinism, shape, and that each suite's file passes its own verifier and lint.
@Suite("vector generator")
struct VectorGeneratorTests {
    static func generate(
        _ suite: VectorSuite, curve: CurveID = .bn254cx, count: Int, seed: String = "test",
        concurrency: Int? = nil
    ) async -> String {
        JSONWriter.canonical(
            await VectorGenerator(suite: suite, curve: curve, count: count, seed: seed)
                .generate(maxConcurrency: concurrency))
    }

    @Test("the same arguments give the same bytes, on one core or many")
    func determinism() async {
        let one = await Self.generate(.mpinTwoPass, count: 4, concurrency: 1)
        let many = await Self.generate(.mpinTwoPass, count: 4, concurrency: 4)
        let again = await Self.generate(.mpinTwoPass, count: 4)
        #expect(one == many)
        #expect(one == again)
        let otherSeed = await Self.generate(.mpinTwoPass, count: 4, seed: "other")
        #expect(one != otherSeed)
    }

    @Test("every suite on both curves verifies, lints clean and counts its tests", arguments: VectorSuite.allCases)
    func suitesPass(suite: VectorSuite) async throws {
        for curve in suite.dependsOnCurve ? CurveID.allCases : [.bn254cx] {
            let text = await Self.generate(suite, curve: curve, count: 3)
            #expect(VectorLinter.lint(text: text, file: "\(suite)").isEmpty)
            let report = try SuiteFileVerifier.verify(text: text, file: "\(suite)-\(curve)", crossCheck: true)
            let summary = report.fileReport
            #expect(summary.failed == 0, "\(summary.verdicts.filter { !$0.passed }.prefix(3))")
            let parsed = try JSONParser.parse(text)
            #expect(parsed["numberOfTests"]?.intValue == summary.passed)
            #expect(text.hasSuffix("}\n"))
        }
    }

    @Test("hash-to-g1 finds ids whose first candidate x is not on the curve")
    func firstCandidateSearch() async throws {
        let text = await Self.generate(.hashToG1, count: 4)
        #expect(text.contains("\"FirstCandidateNotOnCurve\""))
        let parsed = try JSONParser.parse(text)
        let increments = (parsed["testGroups"]?.arrayValue ?? []).flatMap { $0["tests"]?.arrayValue ?? [] }
            .compactMap { $0["MAP_INCREMENTS"]?.intValue }
        #expect(increments.contains { $0 > 0 })
    }

    @Test("two-pass files hold good and wrong PINs, with E, F and KANGAROO on the wrong ones")
    func wrongPINs() async throws {
        let parsed = try JSONParser.parse(await Self.generate(.mpinTwoPass, count: 6))
        let tests = (parsed["testGroups"]?.arrayValue ?? []).flatMap { $0["tests"]?.arrayValue ?? [] }
        let wrong = tests.filter { $0["result"]?.stringValue == "invalid" }
        #expect(!wrong.isEmpty)
        for test in wrong {
            #expect(test["E"] != nil && test["F"] != nil && test["KANGAROO"] != nil)
            #expect(test["SERVER_OUTPUT"]?.intValue == -19)
        }
        #expect(tests.contains { $0["result"]?.stringValue == "valid" && $0["UT"] != nil })
        #expect(tests.contains { $0["result"]?.stringValue == "valid" && $0["UT"] == nil })
    }

    @Test("the access-number suite mirrors CheckAccessNumber, including check value 10")
    func accessNumbers() async throws {
        let parsed = try JSONParser.parse(await Self.generate(.accessNumber, count: 2))
        let groups = parsed["testGroups"]?.arrayValue ?? []
        #expect(groups.count == 3)
        func verdict(_ group: Int, _ an: String) -> String? {
            groups[group]["tests"]?.arrayValue?.first { $0["ACCESS_NUMBER"]?.stringValue == an }?["result"]?.stringValue
        }
        #expect(verdict(0, "9999990") == "valid")
        #expect(verdict(0, "6419791") == "invalid")
        #expect(verdict(0, "42a1703") == "invalid")
        #expect(verdict(1, "42a1703") == "valid")
        #expect(verdict(2, "6419791") == "valid")
        #expect(verdict(1, "") == "invalid")
    }

    @Test("files are OrderedJSON's canonical form: sorted keys, two spaces, escapes, and they read back equal")
    func canonicalJSON() throws {
        let value = JSONValue.sortedObject([
            "b": .array([.integer(-1), .bool(true), .null]), "a": .string("x\"\n\u{1}é\u{7F}"),
            "c": .sortedObject([:]), "B": .sortedObject(["z": 0, "é": 1, "y": 2]),
        ])
        #expect(value.objectMembers?.map(\.name) == ["B", "a", "b", "c"])
        let text = JSONWriter.canonical(value)
        #expect(
            text == """
                {
                  "B": {
                    "y": 2,
                    "z": 0,
                    "é": 1
                  },
                  "a": "x\\"\\n\\u0001é\\u007f",
                  "b": [
                    -1,
                    true,
                    null
                  ],
                  "c": {}
                }

                """)
        #expect(try JSONParser.parse(text) == value)
        #expect(VectorLinter.lint(text: text, file: "f").allSatisfy { !$0.message.contains("canonical") })
    }

    @Test("the committed files in Vectors/generated are regenerated byte for byte from their header's command")
    func regeneratesCommittedFiles() async throws {
        let files = SuiteFileVerifierTests.committedFiles
        #expect(files.count >= 14)
        for file in files {
            let committed = try String(contentsOfFile: file, encoding: .utf8)
            let document = try JSONParser.parse(committed)
            let suite = try #require(document["suite"]?.stringValue.flatMap(VectorSuite.init(rawValue:)))
            let curve = try #require(CurveID(rawValue: document["curve"]?.stringValue ?? "bn254cx"))
            let seed = try #require(document["seed"]?.stringValue)
            // "Generated by mpin-workbench VERSION: COMMAND"
            let header = try #require(document["header"]?.arrayValue?.first?.stringValue)
            let command = String(try #require(header.firstRange(of: ": ").map { header[$0.upperBound...] }))
            let words = command.split(separator: " ")
            let count = try #require(words.firstIndex(of: "--count").flatMap { Int(words[$0 + 1]) })
            var generator = VectorGenerator(suite: suite, curve: curve, count: count, seed: seed, command: command)
            generator.toolVersion = try #require(document["generatorVersion"]?.stringValue)
            let text = JSONWriter.canonical(await generator.generate())
            #expect(text == committed, "\(file)")
        }
    }
}
