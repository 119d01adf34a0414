import Foundation
import MPinCrypto
import TestSupport
import Testing

@testable import TestVectors

@Suite("VectorVerifier")
struct VectorVerifierTests {
    let verifier = VectorVerifier()

    /// The first `count` vectors of the generated two-pass suite in milagro-crypto-c's text layout.
    static func twoPassVectors(count: Int = 3) throws -> [AMCLLayoutFile.Vector] {
        try AMCLLayoutFile.cTwoPassText.vectors(count: count)
    }

    func verify(
        _ layout: AMCLLayoutFile, _ vectors: [AMCLLayoutFile.Vector], curve: String = "bn254cx",
        verifier: VectorVerifier? = nil
    ) throws -> FileReport {
        let path = try layout.write(vectors, curve: curve)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        return try (verifier ?? self.verifier).verify(path: path)
    }

    @Test("two-pass vectors in milagro-crypto-c's text layout pass, every field but the inputs compared")
    func twoPass() throws {
        let vectors = try Self.twoPassVectors()
        let report = try verify(.cTwoPassText, vectors)
        #expect(report.format == VectorFormat.twoPass.rawValue)
        #expect(report.curve == .bn254cx)
        #expect(report.passed == 3)
        #expect(report.failed == 0)
        // Every field but the inputs MS1, MS2, MPIN_ID_HEX, DATE, PIN1, PIN2, X, Y is compared.
        for (verdict, vector) in zip(report.verdicts, vectors) {
            #expect(verdict.checkedFields == vector.fields.count - 8)
        }
    }

    @Test("one changed hex digit fails exactly that field, with its line")
    func flippedDigit() throws {
        var vectors = try Self.twoPassVectors()
        let original = try #require(vectors[1]["CS1"]?.text)
        vectors[1].flipLastDigit(of: "CS1")
        let text = AMCLLayoutFile.cTwoPassText.render(vectors)
        let report = try verify(.cTwoPassText, vectors)
        #expect(report.passed == 2)
        #expect(report.failed == 1)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.vector == "block 2")
        #expect(failure.field == "CS1")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[failure.line - 1].hasPrefix("CS1 = \(failure.expected)"))
        #expect(failure.expected != original)
        #expect(failure.actual == original)
    }

    @Test("the same vectors as a JSON list (C's shape: numbers, mpin_id, test_no) pass; a wrong mpin_id fails")
    func twoPassJSON() throws {
        var vectors = try AMCLLayoutFile.cTwoPassJSON.vectors(count: 3)
        #expect(try verify(.cTwoPassJSON, vectors).failed == 0)
        vectors[2]["mpin_id"] = .text((vectors[2]["mpin_id"]?.text ?? "") + "x")
        let report = try verify(.cTwoPassJSON, vectors)
        #expect(report.format == VectorFormat.twoPass.rawValue)
        #expect(report.verdicts.map(\.vector) == ["test_no 0", "test_no 1", "test_no 2"])
        #expect(report.passed == 2)
        #expect(report.verdicts[2].failures.map(\.field) == ["mpin_id"])
        #expect(report.verdicts[2].failures.first?.line == 3)
    }

    @Test("vectors of one curve verified as the other fail, every one")
    func wrongCurve() throws {
        let report = try verify(.cTwoPassText, try Self.twoPassVectors(), curve: "bn254")
        #expect(report.curve == .bn254)
        #expect(report.failed == 3)
        let bn254 = try AMCLLayoutFile.cTwoPassText.vectors(curve: "bn254", count: 3)
        let cxOption = VectorVerifier(curve: .bn254cx)
        let path = try AMCLLayoutFile.cTwoPassText.write(bn254, curve: "bn254")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        // The file names its curve (header and name): the option does not override it.
        #expect(try cxOption.verify(path: path).failed == 0)
    }

    @Test(
        "unreadable files give an error with file and line",
        arguments: [
            ("malformed_line.txt", 4 as Int?), ("unknown_format.txt", 1), ("no_such_file.txt", nil),
        ])
    func unreadable(name: String, line: Int?) throws {
        let path = TestPaths.fixture(name)
        let results = verifier.verify(paths: [path])
        guard case .failure(let error) = try #require(results.first) else {
            Issue.record("expected \(name) to be unreadable")
            return
        }
        #expect(error.file == path)
        #expect(error.line == line)
    }
}
