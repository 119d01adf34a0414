import Foundation
import MPinCrypto
import TestSupport
import Testing

@testable import TestVectors

/// The verifier fails what it cannot check, in every AMCL format: a vector passes only when every
/// output its inputs determine is present and equal, a missing input or a field nothing reads
/// fails, and so does a vector with nothing to check; numbers are read in their range.
@Suite("VectorVerifier: what cannot be checked fails")
struct VectorVerifierStrictnessTests {
    let verifier = VectorVerifier()

    /// Writes `text` to a new temporary file named `name` and verifies it.
    func verify(_ text: String, name: String) throws -> FileReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try verifier.verify(path: path)
    }

    /// Verifies `vectors` written in `layout`.
    func verify(_ layout: AMCLLayoutFile, _ vectors: [AMCLLayoutFile.Vector]) throws -> FileReport {
        try verify(layout.render(vectors), name: layout.fileName())
    }

    /// Three vectors of the generated two-pass suite in milagro-crypto-c's text layout; the first
    /// has time permits, so it carries every two-pass key.
    static func twoPass() throws -> [AMCLLayoutFile.Vector] { try AMCLLayoutFile.cTwoPassText.vectors(count: 3) }

    /// The text without line `line` (1-based).
    static func removingLine(_ line: Int, from text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.remove(at: line - 1)
        return lines.joined(separator: "\n")
    }

    @Test("a one-pass file [{\"TimeValue\": 5}] fails: the missing inputs are named and there is nothing to check")
    func timeValueOnly() throws {
        let report = try verify("[{\"TimeValue\": 5}]\n", name: "onepass.json")
        #expect(report.passed == 0)
        #expect(report.failed == 1)
        let failures = try #require(report.verdicts.first).failures
        #expect(failures.allSatisfy { $0.line == 1 && $0.vector == "entry 1" })
        let fields = Set(failures.map(\.field))
        #expect(fields.isSuperset(of: ["MPIN_ID_HEX", "DATE", "PIN1", "PIN2", "MS1", "MS2", "X", "(vector)"]))
        #expect(failures.contains { $0.actual.hasPrefix("nothing to check") })
    }

    static let twoPassOutputs = [
        "SS1", "SS2", "SERVER_SECRET", "HASH_MPIN_ID_HEX", "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT",
        "TOKEN", "U", "UT", "SEC", "V", "SERVER_OUTPUT",
    ]

    @Test(
        "a two-pass vector with one output deleted fails, naming the field and the vector's line",
        arguments: twoPassOutputs)
    func twoPassOutputDeleted(key: String) throws {
        var vectors = try Self.twoPass()
        vectors[0][key] = nil
        let report = try verify(.cTwoPassText, vectors)
        #expect(report.passed == 2)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.map(\.field) == [key])
        #expect(failures.first?.line == report.verdicts[0].line)
        #expect(failures.first?.expected.hasPrefix("(missing") == true)
    }

    @Test(
        "a two-pass vector with one input deleted fails, naming it",
        arguments: [
            "MS1", "MS2", "MPIN_ID_HEX", "DATE", "PIN1", "PIN2", "X", "Y",
        ])
    func twoPassInputDeleted(key: String) throws {
        var vectors = try Self.twoPass()
        vectors[0][key] = nil
        let report = try verify(.cTwoPassText, vectors)
        #expect(report.passed == 2)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.first?.field == key)
        #expect(failures.first?.actual.contains("required input") == true)
    }

    @Test(
        "numbers are read in their range: DATE, PIN1, TimeValue that no 32-bit field holds fail, never become 0",
        arguments: [
            ("DATE", "4294967296"), ("DATE", "-1"), ("DATE", "1e400"), ("PIN1", "2147483648"),
            ("PIN2", "99999999999999999999"),
        ])
    func twoPassRanges(key: String, value: String) throws {
        var vectors = try Self.twoPass()
        vectors[1][key] = .text(value)
        let report = try verify(.cTwoPassText, vectors)
        let failures = report.verdicts.flatMap(\.failures)
        let failure = try #require(failures.first { $0.field == key })
        #expect(failure.expected == value)
        #expect(failure.actual.hasPrefix("not a decimal integer in"))
        #expect(failure.line > report.verdicts[1].line)
    }

    @Test("a one-pass TimeValue beyond 32 bits fails instead of leaving every output unchecked")
    func onePassTimeValue() throws {
        var vectors = try AMCLLayoutFile.cOnePassJSON.vectors(count: 2)
        vectors[0]["TimeValue"] = .number(4_294_967_296)
        let report = try verify(.cOnePassJSON, vectors)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.contains { $0.field == "TimeValue" && $0.actual == "not a decimal integer in 0...4294967295" })
        #expect(report.passed < 2)
    }

    @Test(
        "a one-pass vector with an output deleted fails", arguments: ["U", "UT", "Y", "SEC", "TOKEN", "SERVER_OUTPUT"])
    func onePassOutputDeleted(key: String) throws {
        var vectors = try AMCLLayoutFile.cOnePassJSON.vectors(count: 2)
        #expect(vectors[0][key] != nil)
        vectors[0][key] = nil
        let report = try verify(.cOnePassJSON, vectors)
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == [key])
    }

    @Test("an output whose input is missing cannot be checked and fails (SS1 without MS1)")
    func outputWithoutInput() throws {
        var vectors = try Self.twoPass()
        vectors[0]["MS1"] = nil
        let failures = try verify(.cTwoPassText, vectors).verdicts.flatMap(\.failures)
        #expect(failures.contains { $0.field == "SS1" && $0.actual == VectorFieldLedger.notComputable })
        #expect(failures.contains { $0.field == "CS1" && $0.actual == VectorFieldLedger.notComputable })
    }

    @Test("a field no check reads fails an AMCL M-Pin vector")
    func unknownField() throws {
        var vectors = try Self.twoPass()
        vectors[0]["TOKEM"] = .text("04")
        let report = try verify(.cTwoPassText, vectors)
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == ["TOKEM"])
    }

    static let generatedFile = SharedData.vectorPath("amcl/generated/amcl_c_vectors_BN254CX.txt")
    static var hasGeneratedFile: Bool { FileManager.default.fileExists(atPath: generatedFile) }

    @Test(
        "the AMCL-C generated file: E, F and KANGAROO of a wrong PIN, and every other value, must be there",
        .enabled(
            if: hasGeneratedFile, "needs ../shared/vectors/amcl/generated/amcl_c_vectors_BN254CX.txt, absent here"),
        arguments: [
            "E", "F", "KANGAROO", "HID", "CLIENT_KEY", "ONEPASS_V", "PRECOMPUTE_G2", "CLIENT_1_RC", "PAIRING",
            "AQ", "PAIRING_GEN",
        ])
    func generatedOutputDeleted(key: String) throws {
        let text = try String(contentsOfFile: Self.generatedFile, encoding: .utf8)
        let document = try AMCLTextReader.parse(text, file: "amcl_c_vectors_BN254CX.txt")
        let field = try #require(document.blocks.lazy.compactMap { $0[key] }.first)
        let report = try verify(Self.removingLine(field.line, from: text), name: "amcl_c_vectors_BN254CX.txt")
        #expect(report.failed == 1)
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == [key])
    }

    @Test("an arithmetic block that lacks an output its inputs determine fails; a commented-out one is withheld")
    func arithmeticOutputs() throws {
        let fp = "# FP ARITHMETICS - CURVE: BN254_CX\n\n#test1\nFP_1 = 03\nFP_2 = F63C49\nFPadd = F63C4C\n"
        let report = try verify(fp, name: "test_vector_BN254CX.txt")
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.contains { $0.field == "FPsub" && $0.expected.hasPrefix("(missing") })
        #expect(!failures.contains { $0.field == "FPadd" })
        // Only inputs: every output is missing.
        let inputsOnly = try verify(
            "# FP ARITHMETICS - CURVE: BN254_CX\n\n#test1\nFP_1 = 03\nFP_2 = 05\n", name: "fp.txt")
        #expect(inputsOnly.verdicts.flatMap(\.failures).contains { $0.field == "(vector)" })
    }

    static let publishedFP = SharedData.vectorPath("amcl/arith/fp/test_vector_BN254CX.txt")

    @Test(
        "AMCL's fp file withholds FPexp in test 10 with a comment: that is not a deletion, deleting it is",
        .enabled(
            if: FileManager.default.fileExists(atPath: publishedFP),
            "needs ../shared/vectors/amcl/arith/fp, absent here"))
    func arithmeticWithheld() throws {
        let text = try String(contentsOfFile: Self.publishedFP, encoding: .utf8)
        #expect(try verify(text, name: "test_vector_BN254CX.txt").failed == 0)
        let deleted = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#FPexp") }.joined(separator: "\n")
        #expect(deleted != text)
        #expect(try verify(deleted, name: "test_vector_BN254CX.txt").failed == 1)
    }

    @Test("arithmetic: a test number no int holds, a number above 2^256 and brackets 100000 deep fail cleanly")
    func arithmeticLimits() throws {
        let header = "# FP2 ARITHMETICS - CURVE: BN254_CX\n\n"
        let block = "FP2_1 = [01,02]\nFP2_2 = [03,04]\nFP2add = [04,06]\n"
        let hugeTest = try verify(header + "# test 99999999999999999999\n" + block, name: "fp2.txt")
        #expect(hugeTest.verdicts.flatMap(\.failures).contains { $0.field == "test number" })
        let wide = String(repeating: "F", count: 65)
        let big = try verify(
            header + "#test1\nFP2_1 = [\(wide),02]\nFP2_2 = [03,04]\nFP2add = [04,06]\n", name: "fp2.txt")
        #expect(big.verdicts.flatMap(\.failures).contains { $0.field == "FP2_1" && $0.actual.contains("above 2^256") })
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let nested = try verify(
            header + "#test1\nFP2_1 = \(deep)\nFP2_2 = [03,04]\nFP2add = [04,06]\n", name: "fp2.txt")
        #expect(
            nested.verdicts.flatMap(\.failures).contains { $0.field == "FP2_1" && $0.actual.contains("nested deeper") })
    }
}
