import Foundation
import MPinCrypto
import Testing
@testable import TestVectors

@Suite("VectorVerifier")
struct VectorVerifierTests {
    let verifier = VectorVerifier()

    @Test("the first three two-pass vectors pass")
    func twoPass() throws {
        let report = try verifier.verify(path: TestPaths.fixture("two_pass_first3.txt"))
        #expect(report.format == VectorFormat.twoPass.rawValue)
        #expect(report.curve == .bn254cx)
        #expect(report.passed == 3)
        #expect(report.failed == 0)
        // Every field but the inputs MS1, MS2, MPIN_ID_HEX, DATE, PIN1, PIN2, X, Y is compared.
        #expect(report.verdicts.allSatisfy { $0.checkedFields == 16 })
    }

    @Test("one flipped hex digit fails exactly that field, with its line")
    func flippedDigit() throws {
        let report = try verifier.verify(path: TestPaths.fixture("two_pass_first3_flipped_cs1.txt"))
        #expect(report.passed == 2)
        #expect(report.failed == 1)
        let failures = report.verdicts.flatMap(\.failures)
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.vector == "block 2")
        #expect(failure.field == "CS1")
        #expect(failure.line == 36)
        #expect(failure.expected.hasPrefix("0412d3a065011d"))
        #expect(failure.actual.hasPrefix("0412d3a065010d"))
    }

    @Test("the same vectors as a JSON list (C's shape: numbers, mpin_id, test_no) pass; a wrong mpin_id fails")
    func twoPassJSON() throws {
        let document = try AMCLTextReader.read(contentsOf: TestPaths.fixture("two_pass_first3.txt"))
        let numeric: Set<String> = ["DATE", "PIN1", "PIN2", "SERVER_OUTPUT"]
        var entries: [String] = []
        for (index, block) in document.blocks.enumerated() {
            var members = block.fields.map { field in
                numeric.contains(field.key) ? "\"\(field.key)\": \(field.value)" : "\"\(field.key)\": \"\(field.value)\""
            }
            let id = String(decoding: Hex.decode(block["MPIN_ID_HEX"]!.value)!, as: UTF8.self)
            let written = index == 2 ? id + "x" : id
            members.append("\"mpin_id\": \"\(written.replacing("\"", with: "\\\""))\"")
            members.append("\"test_no\": \(index)")
            entries.append("{" + members.joined(separator: ", ") + "}")
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("two-pass-\(UInt64.random(in: 0...UInt64.max)).json").path
        try Data(("[\n" + entries.joined(separator: ",\n") + "\n]\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try verifier.verify(path: path)
        #expect(report.format == VectorFormat.twoPass.rawValue)
        #expect(report.verdicts.map(\.vector) == ["test_no 0", "test_no 1", "test_no 2"])
        #expect(report.passed == 2)
        #expect(report.verdicts[2].failures.map(\.field) == ["mpin_id"])
        #expect(report.verdicts[2].failures.first?.line == 4)
    }

    @Test("the wrong curve fails every vector")
    func wrongCurve() throws {
        let report = try VectorVerifier(curve: .bn254).verify(path: TestPaths.fixture("two_pass_first3.txt"))
        #expect(report.curve == .bn254)
        #expect(report.failed == 3)
    }

    @Test("one-pass fixtures pass (with and without time permits)", arguments: [
        "one_pass_first2.json", "one_pass_no_permit_first2.json",
    ])
    func onePass(fixture: String) throws {
        let report = try verifier.verify(path: TestPaths.fixture(fixture))
        #expect(report.format == VectorFormat.onePass.rawValue)
        #expect(report.passed == 2)
        #expect(report.failed == 0)
    }

    @Test("the AMCL-C generated subset passes, E/F/KANGAROO included")
    func generated() throws {
        let report = try verifier.verify(path: TestPaths.fixture("amcl_c_generated_subset.txt"))
        #expect(report.format == VectorFormat.amclGenerated.rawValue)
        #expect(report.verdicts.map(\.vector) == ["block 1", "PAIR_TEST 0", "TEST 0", "TEST 2", "TEST 5"])
        #expect(report.failed == 0)
        #expect(report.verdicts[0].checkedFields == 3)
        #expect(report.verdicts[2].checkedFields > report.verdicts[4].checkedFields - 3)
    }

    @Test("unreadable files give an error with file and line", arguments: [
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

    @Test("every M-Pin vector in Vectors/ passes and every key is checked or used", arguments: [
        "mpin", "generated",
    ])
    func referenceVectors(folder: String) throws {
        let files = TestPaths.vectorFiles(in: folder)
        #expect(!files.isEmpty)
        for path in files {
            let loaded = try verifier.load(path: path)
            let verdicts = verifier.check(loaded)
            let failures = verdicts.flatMap(\.failures).prefix(5).map { "\($0.vector) \($0.field)" }
            #expect(verdicts.allSatisfy { $0.passed }, "\(path): \(failures)")
            #expect(verifier.unusedKeys(loaded).isEmpty, "\(path): unused \(verifier.unusedKeys(loaded))")
        }
    }

    @Test("the arithmetic files in Vectors/ are detected and pass")
    func arithmeticVectors() throws {
        let files = TestPaths.vectorFiles(in: "arith")
        for path in files {
            let report = try verifier.verify(path: path)
            #expect(report.format.hasPrefix(VectorFormat.arithmetic.rawValue))
            #expect(report.curve == (path.hasSuffix("BN254CX.txt") ? .bn254cx : .bn254), "\(path)")
            #expect(report.verdicts.count == 10, "\(path)")
            #expect(report.failed == 0, "\(path)")
        }
    }
}
