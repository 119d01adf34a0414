import Foundation
import Testing

/// The `mpin-workbench` executable end to end: exit status and output (skipped when it was not built).
@Suite("mpin-workbench executable", .enabled(if: TestPaths.workbenchExecutable != nil))
struct WorkbenchExecutableTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TestPaths.workbenchExecutable))
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("passing vectors exit 0 with `FILE: N passed, 0 failed`")
    func passing() throws {
        let path = TestPaths.fixture("two_pass_first3.txt")
        let result = try run(["vectors", "verify", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(path): 3 passed, 0 failed"))
    }

    @Test("a failing field exits 1 and names vector, field, expected and actual")
    func failing() throws {
        let path = TestPaths.fixture("two_pass_first3_flipped_cs1.txt")
        let result = try run(["vectors", "verify", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(path): 2 passed, 1 failed"))
        #expect(result.stdout.contains("block 2"))
        #expect(result.stdout.contains("CS1 (line 36)"))
        #expect(result.stdout.contains("expected: 0412d3a065011d"))
        #expect(result.stdout.contains("actual:   0412d3a065010d"))
    }

    @Test("an unreadable file exits 2 with file and line, even beside a failing one")
    func unreadable() throws {
        let malformed = TestPaths.fixture("malformed_line.txt")
        let result = try run(["vectors", "verify", TestPaths.fixture("two_pass_first3_flipped_cs1.txt"), malformed])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(malformed):4:"))
        #expect(result.stdout.contains("total: 2 passed, 1 failed, 1 unreadable"))
    }

    @Test("every subcommand has --help")
    func help() throws {
        for command in [[], ["vectors"], ["vectors", "verify"], ["bench"]] {
            let result = try run(command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("USAGE:"), "\(command)")
        }
    }

    @Test("bench --json prints one object with the ten operations")
    func benchJSON() throws {
        let result = try run(["bench", "--json", "--runs", "3", "--curve", "bn254"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["curve"] as? String == "bn254")
        let results = object?["results"] as? [[String: Any]] ?? []
        #expect(results.compactMap { $0["name"] as? String } == [
            "fp_mul", "fp_inverse", "g1_mul", "g2_mul", "gt_pow", "miller_loop", "final_exponentiation", "pairing",
            "client_1_2", "server_2",
        ])
        #expect(results.allSatisfy { ($0["runs"] as? Int) == 3 && ($0["medianNanoseconds"] as? Double ?? 0) > 0 })
    }
}
