import Foundation
import TestSupport
import Testing

/// The `mpin-workbench` executable end to end: exit status and output (skipped when it was not built).
@Suite("mpin-workbench executable", .enabled(if: WorkbenchProcess.path != nil))
struct WorkbenchExecutableTests {
    @Test("passing vectors exit 0 with `FILE: N passed, 0 failed`")
    func passing() throws {
        let directory = try TemporaryDirectory.make("exe-vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try VectorFixtures.twoPass(in: directory).passing
        let result = try WorkbenchProcess.run(["vectors", "verify", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(path): 3 passed, 0 failed"))
    }

    @Test("a failing field exits 1 and names vector, field, expected and actual")
    func failing() throws {
        let directory = try TemporaryDirectory.make("exe-vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try VectorFixtures.twoPass(in: directory)
        let result = try WorkbenchProcess.run(["vectors", "verify", files.flipped])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(files.flipped): 2 passed, 1 failed"))
        #expect(result.stdout.contains("block 2"))
        #expect(result.stdout.contains("CS1 (line \(files.cs1Line))"))
        #expect(result.stdout.contains("expected: \(files.writtenCS1)"))
        #expect(result.stdout.contains("actual:   \(files.computedCS1)"))
    }

    @Test("an unreadable file exits 2 with file and line, even beside a failing one")
    func unreadable() throws {
        let directory = try TemporaryDirectory.make("exe-vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let malformed = VectorFixtures.path("malformed_line.txt")
        let result = try WorkbenchProcess.run([
            "vectors", "verify", try VectorFixtures.twoPass(in: directory).flipped, malformed,
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(malformed):4:"))
        #expect(result.stdout.contains("total: 2 passed, 1 failed, 1 unreadable"))
    }

    @Test("every subcommand has --help")
    func help() throws {
        for command in [[], ["vectors"], ["vectors", "verify"], ["bench"]] {
            let result = try WorkbenchProcess.run(command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("USAGE:"), "\(command)")
        }
    }

    @Test("bench --json prints one object with the ten operations")
    func benchJSON() throws {
        let result = try WorkbenchProcess.run(["bench", "--json", "--runs", "3", "--curve", "bn254"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["curve"] as? String == "bn254")
        let results = object?["results"] as? [[String: Any]] ?? []
        #expect(
            results.compactMap { $0["name"] as? String } == [
                "fp_mul", "fp_inverse", "g1_mul", "g2_mul", "gt_pow", "miller_loop", "final_exponentiation", "pairing",
                "client_1_2", "server_2",
            ])
        #expect(results.allSatisfy { ($0["runs"] as? Int) == 3 && ($0["medianNanoseconds"] as? Double ?? 0) > 0 })
    }
}
