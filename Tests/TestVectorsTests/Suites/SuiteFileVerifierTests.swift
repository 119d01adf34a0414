import Foundation
import MPinCrypto
import OrderedJSON
import TestSupport
import Testing

@testable import TestVectors

/// The verifier can fail: flipped bytes, a wrong result, renumbered tcIds; and the committed files pass.
@Suite("workbench vector files: verify")
struct SuiteFileVerifierTests {
    /// A file cut down to one test (group `group`, test `index`), renumbered 1.
    static func single(_ text: String, group: Int, index: Int) throws -> JSONValue {
        var root = try JSONParser.parse(text).uniqueMembers
        let groups = try #require(root["testGroups"]?.arrayValue)
        try #require(group < groups.count)
        var g = groups[group].uniqueMembers
        let tests = try #require(g["tests"]?.arrayValue)
        try #require(index < tests.count)
        var test = tests[index].uniqueMembers
        test["tcId"] = .integer(1)
        g["tests"] = .array([.sortedObject(test)])
        root["testGroups"] = .array([.sortedObject(g)])
        root["numberOfTests"] = .integer(1)
        return .sortedObject(root)
    }

    static func replacing(_ document: JSONValue, _ key: String, with value: JSONValue?) -> JSONValue {
        var root = document.uniqueMembers
        var g = root["testGroups"]!.arrayValue![0].uniqueMembers
        var test = g["tests"]!.arrayValue![0].uniqueMembers
        test[key] = value
        g["tests"] = .array([.sortedObject(test)])
        root["testGroups"] = .array([.sortedObject(g)])
        return .sortedObject(root)
    }

    /// The failures of the tests themselves (a file cut down to one test no longer has the groups
    /// its header's command makes: that is the file structure's business, tested on its own).
    static func failed(_ document: JSONValue) throws -> [FieldFailure] {
        try SuiteFileVerifier.verify(text: JSONWriter.canonical(document), file: "mutated").groups
            .flatMap(\.verdicts).flatMap(\.failures)
    }

    /// Every data field of the test, with one byte flipped (hex) or the value changed (integers, booleans, text).
    static func mutations(_ document: JSONValue) -> [(String, JSONValue)] {
        let test = document["testGroups"]!.arrayValue![0]["tests"]!.arrayValue![0].objectMembers!
        var out: [(String, JSONValue)] = []
        for member in test where !VectorMetaKeys.test.contains(member.name) {
            let key = member.name
            switch member.value {
            case .string(let s):
                if var bytes = Hex.decode(s), !bytes.isEmpty {
                    bytes[bytes.count / 2] ^= 0x10
                    out.append((key, .string(Hex.encode(bytes))))
                } else {
                    out.append((key, .string(s + "1")))
                }
            case .number(let literal): out.append((key, .integer(Int(literal)! + 1)))
            case .bool(let b): out.append((key, .bool(!b)))
            default: break
            }
        }
        return out
    }

    @Test(
        "a flipped byte in any field of a computed test fails that test",
        arguments: [
            (VectorSuite.mpinTwoPass, 0, 2), (.mpinTwoPass, 1, 0), (.mpinOnePass, 0, 1), (.mpinFull, 0, 2),
            (.mpinFull, 1, 0),
            (.pairing, 0, 0), (.pairing, 1, 1), (.pairing, 2, 0), (.hashToG1, 0, 1), (.hashToG1, 1, 0),
            (.encoding, 0, 0), (.encoding, 0, 1), (.encoding, 1, 0), (.pinMapping, 1, 0),
        ])
    func flippedByte(suite: VectorSuite, group: Int, index: Int) async throws {
        let text = JSONWriter.canonical(await VectorGenerator(suite: suite, count: 6, seed: "flip").generate())
        let document = try Self.single(text, group: group, index: index)
        #expect(try Self.failed(document).isEmpty)
        let mutations = Self.mutations(document)
        #expect(!mutations.isEmpty)
        for (key, value) in mutations {
            let failures = try Self.failed(Self.replacing(document, key, with: value))
            #expect(!failures.isEmpty, "\(suite) \(key) changed but the test still passes")
        }
    }

    @Test("a wrong result or expectedError fails the test, naming the field")
    func wrongResult() async throws {
        let text = JSONWriter.canonical(await VectorGenerator(suite: .mpinTwoPass, count: 3, seed: "result").generate())
        let document = try Self.single(text, group: 0, index: 0)
        let failures = try Self.failed(Self.replacing(document, "result", with: .string("invalid")))
        #expect(failures.map(\.field) == ["result"])
        let access = JSONWriter.canonical(
            await VectorGenerator(suite: .accessNumber, count: 1, seed: "result").generate())
        let one = try Self.single(access, group: 0, index: 0)
        let flipped = Self.replacing(
            Self.replacing(one, "result", with: .string("invalid")), "expectedError",
            with: .string("wrongCheckDigit"))
        #expect(Set(try Self.failed(flipped).map(\.field)) == ["result", "expectedError"])
    }

    @Test("result and expectedError failures point at the lines of those members")
    func failureLines() async throws {
        let access = JSONWriter.canonical(
            await VectorGenerator(suite: .accessNumber, count: 1, seed: "lines").generate())
        let one = try Self.single(access, group: 0, index: 0)
        let text = JSONWriter.canonical(
            Self.replacing(
                Self.replacing(one, "result", with: .string("invalid")), "expectedError",
                with: .string("wrongCheckDigit")))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(of member: String) -> Int? { lines.firstIndex { $0.contains("\"\(member)\": ") }.map { $0 + 1 } }
        let failures = try SuiteFileVerifier.verify(text: text, file: "lines").fileReport.verdicts.flatMap(\.failures)
        #expect(failures.first { $0.field == "result" }?.line == line(of: "result"))
        #expect(failures.first { $0.field == "expectedError" }?.line == line(of: "expectedError"))
        #expect(line(of: "result") != line(of: "expectedError"))
    }

    @Test("an unknown field fails: every field must be checked")
    func unknownField() async throws {
        let text = JSONWriter.canonical(await VectorGenerator(suite: .pinMapping, count: 1, seed: "unknown").generate())
        let document = try Self.single(text, group: 0, index: 0)
        #expect(try Self.failed(Self.replacing(document, "EXTRA", with: .string("00"))).map(\.field) == ["EXTRA"])
    }

    @Test("a renumbered, duplicated or swapped tcId fails the file")
    func renumbered() async throws {
        let text = JSONWriter.canonical(await VectorGenerator(suite: .pinMapping, count: 2, seed: "tcid").generate())
        for (from, to) in [
            ("\"tcId\": 2\n", "\"tcId\": 7\n"), ("\"tcId\": 2\n", "\"tcId\": 1\n"), ("\"tcId\": 3\n", "\"tcId\": 2\n"),
        ] {
            let changed = text.replacingOccurrences(of: from, with: to)
            #expect(changed != text)
            let report = try SuiteFileVerifier.verify(text: changed, file: "renumbered")
            #expect(!report.structure.isEmpty)
            #expect(report.fileReport.failed == 1)
            #expect(report.structure.allSatisfy { $0.path.hasSuffix(".tcId") })
        }
    }

    @Test("cross-check catches a relation the fast checker would also catch, from GMP alone")
    func crossCheck() async throws {
        let text = JSONWriter.canonical(await VectorGenerator(suite: .mpinTwoPass, count: 2, seed: "cross").generate())
        let document = try Self.single(text, group: 0, index: 0)
        let report = try SuiteFileVerifier.verify(text: JSONWriter.canonical(document), file: "cross", crossCheck: true)
        #expect(report.groups.allSatisfy { $0.failed == 0 })
        #expect(report.fileReport.verdicts[0].checkedFields > 40)
        let u = document["testGroups"]!.arrayValue![0]["tests"]!.arrayValue![0]["V"]!.stringValue!
        let other = document["testGroups"]!.arrayValue![0]["tests"]!.arrayValue![0]["U"]!.stringValue!
        let swapped = Self.replacing(document, "V", with: .string(other))
        let failures = try SuiteFileVerifier.verify(
            text: JSONWriter.canonical(swapped), file: "cross", crossCheck: true
        )
        .fileReport.verdicts.flatMap(\.failures).map(\.field)
        #expect(failures.contains("cross-check V"))
        #expect(u != other)
    }

    /// `Vectors/generated/**.json`.
    static var committedFiles: [String] {
        let base = URL(fileURLWithPath: RepoPaths.path("Vectors/generated"))
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
            .map { base.appendingPathComponent($0).path }.sorted()
    }

    @Test("the committed generated vectors in Vectors/generated pass, cross-checked, and lint clean")
    func committed() throws {
        let files = Self.committedFiles
        #expect(files.count >= 14)
        for file in files {
            let report = try SuiteFileVerifier.verify(path: file, crossCheck: true)
            #expect(report.fileReport.failed == 0, "\(file)")
            #expect(report.fileReport.passed > 0, "\(file)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(VectorLinter.lint(text: text, file: file).isEmpty, "\(file)")
        }
    }
}
