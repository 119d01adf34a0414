import Foundation
import MPinCrypto
import Testing
@testable import TestVectors

/// Generation: determinism, shape, and that each suite's file passes its own verifier and lint.
@Suite("vector generator")
struct VectorGeneratorTests {
    static func generate(_ suite: VectorSuite, curve: CurveID = .bn254cx, count: Int, seed: String = "test",
                         concurrency: Int? = nil) async -> String {
        await VectorGenerator(suite: suite, curve: curve, count: count, seed: seed)
            .generate(maxConcurrency: concurrency).canonicalText
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
            let parsed = try VectorJSONParser.parse(text)
            #expect(parsed.value["numberOfTests"]?.intValue == summary.passed)
            #expect(text.hasSuffix("}\n"))
        }
    }

    @Test("hash-to-g1 finds ids whose first candidate x is not on the curve")
    func firstCandidateSearch() async throws {
        let text = await Self.generate(.hashToG1, count: 4)
        #expect(text.contains("\"FirstCandidateNotOnCurve\""))
        let parsed = try VectorJSONParser.parse(text)
        let increments = (parsed.value["testGroups"]?.arrayValue ?? []).flatMap { $0["tests"]?.arrayValue ?? [] }
            .compactMap { $0["MAP_INCREMENTS"]?.intValue }
        #expect(increments.contains { $0 > 0 })
    }

    @Test("two-pass files hold good and wrong PINs, with E, F and KANGAROO on the wrong ones")
    func wrongPINs() async throws {
        let parsed = try VectorJSONParser.parse(await Self.generate(.mpinTwoPass, count: 6))
        let tests = (parsed.value["testGroups"]?.arrayValue ?? []).flatMap { $0["tests"]?.arrayValue ?? [] }
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
        let parsed = try VectorJSONParser.parse(await Self.generate(.accessNumber, count: 2))
        let groups = parsed.value["testGroups"]?.arrayValue ?? []
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

    @Test("canonical JSON: sorted keys, two spaces, escapes, and it reads back equal")
    func canonicalJSON() throws {
        let value = VectorJSON.object(["b": .array([.integer(-1), .bool(true), .null]), "a": .string("x\"\n\u{1}é"), "c": .object([:])])
        let text = value.canonicalText
        #expect(text == "{\n  \"a\": \"x\\\"\\n\\u0001é\",\n  \"b\": [\n    -1,\n    true,\n    null\n  ],\n  \"c\": {}\n}\n")
        #expect(try VectorJSONParser.parse(text).value == value)
    }
}
