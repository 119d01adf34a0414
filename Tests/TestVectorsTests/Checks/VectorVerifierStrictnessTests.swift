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

    func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: TestPaths.fixture(name), encoding: .utf8)
    }

    /// The text without the line `KEY = …` of the block that starts at line `blockLine` (1-based).
    static func removing(_ key: String, inBlockAt blockLine: Int, from text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = blockLine - 1
        while index < lines.count, !lines[index].isEmpty {
            if lines[index].hasPrefix("\(key) =") {
                lines.remove(at: index)
                break
            }
            index += 1
        }
        return lines.joined(separator: "\n")
    }

    static func replacing(_ key: String, with value: String, inBlockAt blockLine: Int, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = blockLine - 1
        while index < lines.count, !lines[index].isEmpty {
            if lines[index].hasPrefix("\(key) =") { lines[index] = "\(key) = \(value)," }
            index += 1
        }
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

    @Test("a two-pass vector with one output deleted fails, naming the field and the vector's line",
          arguments: twoPassOutputs)
    func twoPassOutputDeleted(key: String) throws {
        let text = Self.removing(key, inBlockAt: 26, from: try fixture("two_pass_first3.txt"))
        let report = try verify(text, name: "BN254_CX.txt")
        #expect(report.passed == 2)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.map(\.field) == [key])
        #expect(failures.first?.line == 26)
        #expect(failures.first?.expected.hasPrefix("(missing") == true)
    }

    @Test("a two-pass vector with one input deleted fails, naming it", arguments: [
        "MS1", "MS2", "MPIN_ID_HEX", "DATE", "PIN1", "PIN2", "X", "Y",
    ])
    func twoPassInputDeleted(key: String) throws {
        let text = Self.removing(key, inBlockAt: 26, from: try fixture("two_pass_first3.txt"))
        let report = try verify(text, name: "BN254_CX.txt")
        #expect(report.passed == 2)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.first?.field == key)
        #expect(failures.first?.actual.contains("required input") == true)
    }

    @Test("numbers are read in their range: DATE, PIN1, TimeValue that no 32-bit field holds fail, never become 0",
          arguments: [("DATE", "4294967296"), ("DATE", "-1"), ("DATE", "1e400"), ("PIN1", "2147483648"),
                      ("PIN2", "99999999999999999999")])
    func twoPassRanges(key: String, value: String) throws {
        let text = Self.replacing(key, with: value, inBlockAt: 26, in: try fixture("two_pass_first3.txt"))
        let report = try verify(text, name: "BN254_CX.txt")
        let failures = report.verdicts.flatMap(\.failures)
        let failure = try #require(failures.first { $0.field == key })
        #expect(failure.expected == value)
        #expect(failure.actual.hasPrefix("not a decimal integer in"))
        #expect(failure.line > 26)
    }

    @Test("a one-pass TimeValue beyond 32 bits fails instead of leaving every output unchecked")
    func onePassTimeValue() throws {
        let text = try fixture("one_pass_first2.json").replacingOccurrences(of: "1437055594", with: "4294967296")
        let report = try verify(text, name: "BN254_CXOnePass.json")
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.contains { $0.field == "TimeValue" && $0.actual == "not a decimal integer in 0...4294967295" })
        #expect(report.passed < 2)
    }

    @Test("a one-pass vector with an output deleted fails", arguments: ["U", "UT", "Y", "SEC", "TOKEN", "SERVER_OUTPUT"])
    func onePassOutputDeleted(key: String) throws {
        let text = try fixture("one_pass_first2.json")
        let pattern = try Regex("\"\(key)\": (\"[0-9a-f]*\"|-?[0-9]+),\\s*")
        let removed = text.replacing(pattern, with: "", maxReplacements: 1)
        #expect(removed != text)
        let report = try verify(removed, name: "BN254_CXOnePass.json")
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == [key])
    }

    @Test("milagro-crypto-js one-pass files give the shares without master secrets: they pass, a deleted output still fails")
    func sharesLayout() throws {
        let text = try fixture("one_pass_no_permit_first2.json")
        #expect(try verify(text, name: "MPIN_ONE_PASS_BN254CX.json").failed == 0)
        let pattern = try Regex("\"TOKEN\": \"[0-9a-f]*\",\\s*")
        let removed = text.replacing(pattern, with: "", maxReplacements: 1)
        #expect(try verify(removed, name: "MPIN_ONE_PASS_BN254CX.json").verdicts.flatMap(\.failures).map(\.field) == ["TOKEN"])
    }

    @Test("an output whose input is missing cannot be checked and fails (SS1 without MS1)")
    func outputWithoutInput() throws {
        let text = Self.removing("MS1", inBlockAt: 26, from: try fixture("two_pass_first3.txt"))
        let failures = try verify(text, name: "BN254_CX.txt").verdicts.flatMap(\.failures)
        #expect(failures.contains { $0.field == "SS1" && $0.actual == VectorFieldLedger.notComputable })
        #expect(failures.contains { $0.field == "CS1" && $0.actual == VectorFieldLedger.notComputable })
    }

    @Test("a field no check reads fails an AMCL M-Pin vector")
    func unknownField() throws {
        var lines = try fixture("two_pass_first3.txt").split(separator: "\n", omittingEmptySubsequences: false)
        lines.insert("TOKEM = 04,", at: 26)
        let report = try verify(lines.joined(separator: "\n"), name: "BN254_CX.txt")
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == ["TOKEM"])
    }

    @Test("the AMCL-C generated file: E, F and KANGAROO of a wrong PIN, and every other value, must be there",
          arguments: [(58, "E"), (58, "F"), (58, "KANGAROO"), (58, "HID"), (58, "CLIENT_KEY"), (58, "ONEPASS_V"),
                      (58, "PRECOMPUTE_G2"), (58, "CLIENT_1_RC"), (8, "PAIRING"), (8, "AQ"), (3, "PAIRING_GEN")])
    func generatedOutputDeleted(blockLine: Int, key: String) throws {
        let text = Self.removing(key, inBlockAt: blockLine, from: try fixture("amcl_c_generated_subset.txt"))
        let report = try verify(text, name: "amcl_c_vectors_BN254CX.txt")
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
        let inputsOnly = try verify("# FP ARITHMETICS - CURVE: BN254_CX\n\n#test1\nFP_1 = 03\nFP_2 = 05\n", name: "fp.txt")
        #expect(inputsOnly.verdicts.flatMap(\.failures).contains { $0.field == "(vector)" })
        // The committed files withhold FPexp in test 10 with a comment: that is not a deletion.
        let committed = RepoPaths.path("Vectors/amcl/arith/fp/test_vector_BN254CX.txt")
        let text = try String(contentsOfFile: committed, encoding: .utf8)
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
        let big = try verify(header + "#test1\nFP2_1 = [\(wide),02]\nFP2_2 = [03,04]\nFP2add = [04,06]\n", name: "fp2.txt")
        #expect(big.verdicts.flatMap(\.failures).contains { $0.field == "FP2_1" && $0.actual.contains("above 2^256") })
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let nested = try verify(header + "#test1\nFP2_1 = \(deep)\nFP2_2 = [03,04]\nFP2add = [04,06]\n", name: "fp2.txt")
        #expect(nested.verdicts.flatMap(\.failures).contains { $0.field == "FP2_1" && $0.actual.contains("nested deeper") })
    }
}
