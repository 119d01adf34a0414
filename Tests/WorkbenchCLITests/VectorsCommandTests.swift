import Foundation
import TestSupport
import Testing

/// `vectors generate`, `verify` and `lint` through the executable (skipped when it was not built).
@Suite("mpin-workbench vectors generate/lint", .enabled(if: WorkbenchProcess.path != nil))
struct VectorsCommandTests {
    @Test(
        "generate's numeric options say their range, never 'Missing value'",
        arguments: [
            (["--count", "-1"], "'--count <count>': must be an integer from 0 to 100000"),
            (["--count", "100001"], "'--count <count>': must be an integer from 0 to 100000"),
            (["--count", "1e400"], "'--count <count>': must be an integer from 0 to 100000"),
            (["--jobs", "-1"], "'--jobs <jobs>': must be an integer from 1 to 1024"),
            (["--jobs", "0"], "'--jobs <jobs>': must be an integer from 1 to 1024"),
        ])
    func generateRanges(arguments: [String], message: String) throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("x.json").path
        let words = (["vectors", "generate", "--suite", "pairing", "--seed", "s", "--out", out] + arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        let result = try WorkbenchProcess.run(shell: "exec \"$WORKBENCH\" \(words)")
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("generate past the file-size limit gives the system's reason, not a Foundation error dump")
    func generateFileTooLarge() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("pairing.json").path
        // ulimit -f counts 512- or 1024-byte blocks; the pairing suite is far larger than 8 of either.
        let result = try WorkbenchProcess.run(
            shell:
                "trap '' XFSZ; ulimit -f 8 && exec \"$WORKBENCH\" vectors generate --suite pairing --seed s --out '\(out)'"
        )
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(out): cannot write: File too large"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Error Domain"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("generate on a full disk says 'No space left on device' (a small tmpfs, where mounting is allowed)")
    func generateFullDisk() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        guard
            try WorkbenchProcess.run(shell: "mount -t tmpfs -o size=16k tmpfs '\(directory.path)' 2>/dev/null").status
                == 0
        else { return }
        defer { _ = try? WorkbenchProcess.run(shell: "umount '\(directory.path)'") }
        let out = directory.appendingPathComponent("pairing.json").path
        let result = try WorkbenchProcess.run(
            shell: "exec \"$WORKBENCH\" vectors generate --suite pairing --seed s --out '\(out)'")
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(out): cannot write: No space left on device"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error Domain"))
    }

    @Test("verify exits 1 on the issue's examples: a one-pass file with only a TimeValue, an acceptable result")
    func verifyExamples() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let onePass = directory.appendingPathComponent("onepass.json").path
        try Data("[{\"TimeValue\": 5}]\n".utf8).write(to: URL(fileURLWithPath: onePass))
        let result = try WorkbenchProcess.run(["vectors", "verify", onePass])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(onePass): 0 passed, 1 failed"))
        #expect(result.stdout.contains("FAIL entry 1 (line 1)"))
        #expect(result.stdout.contains("MS1 is a required input of mpin-one-pass vectors"))
        #expect(result.stdout.contains("nothing to check"))

        let suite = directory.appendingPathComponent("an.json").path
        #expect(
            try WorkbenchProcess.run([
                "vectors", "generate", "--suite", "access-number", "--count", "1", "--seed", "cli", "--out", suite,
            ]).status == 0)
        let text = try String(contentsOfFile: suite, encoding: .utf8)
        try text.replacingOccurrences(of: "\"result\": \"invalid\"", with: "\"result\": \"acceptable\"")
            .write(toFile: suite, atomically: true, encoding: .utf8)
        let acceptable = try WorkbenchProcess.run(["vectors", "verify", suite])
        #expect(acceptable.status == 1)
        #expect(acceptable.stdout.contains("expected: acceptable"))
    }

    @Test(
        "options that cannot take effect are warnings: --curve on a curve-free suite (the file as without it), unused --curve and --cross-check"
    )
    func noEffect() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("an.json").path
        let generate = try WorkbenchProcess.run(
            shell: "exec \"$WORKBENCH\" vectors generate --suite access-number --curve bn254 --seed s --out '\(out)'")
        #expect(generate.status == 0, "\(generate)")
        #expect(generate.stderr.contains("warning: --curve bn254 has no effect"), "\(generate.stderr)")
        let plain = directory.appendingPathComponent("plain.json").path
        let without = try WorkbenchProcess.run(
            shell: "exec \"$WORKBENCH\" vectors generate --suite access-number --seed s --out '\(plain)'")
        #expect(without.status == 0 && without.stderr.isEmpty, "\(without)")
        #expect(
            FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: plain),
            "--curve changed the file")
        let named = try VectorFixtures.twoPass(in: directory.path).passing
        // The same vectors without the header comment, in a file whose name names no curve.
        let text = try String(contentsOfFile: named, encoding: .utf8)
        let amcl = directory.appendingPathComponent("two_pass.txt").path
        try text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
            .write(toFile: amcl, atomically: true, encoding: .utf8)
        let unnamed = try WorkbenchProcess.run(
            shell: "exec \"$WORKBENCH\" vectors verify --curve bn254 --cross-check '\(amcl)'")
        // two_pass.txt has no curve in its name or header: --curve bn254 is used, and wrong
        #expect(unnamed.status == 1)
        #expect(!unnamed.stderr.contains("--curve bn254 was not used"))
        #expect(unnamed.stderr.contains("warning: --cross-check was not used"), "\(unnamed.stderr)")
        let unused = try WorkbenchProcess.run(shell: "exec \"$WORKBENCH\" vectors verify --curve bn254 '\(named)'")
        #expect(unused.status == 0)
        #expect(unused.stderr.contains("warning: --curve bn254 was not used"), "\(unused.stderr)")
    }

    @Test("verify and lint read a pipe through /dev/stdin")
    func standardInput() throws {
        let directory = try TemporaryDirectory.make("vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let amcl = try VectorFixtures.twoPass(in: directory).passing
        let verify = try WorkbenchProcess.run(shell: "cat '\(amcl)' | \"$WORKBENCH\" vectors verify /dev/stdin")
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("/dev/stdin: 3 passed, 0 failed"))
        let suite = RepoPaths.path("Vectors/generated/pin-mapping.json")
        let lint = try WorkbenchProcess.run(shell: "cat '\(suite)' | \"$WORKBENCH\" vectors lint /dev/stdin")
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(lint.stdout.contains("/dev/stdin: ok"))
    }

    @Test("generate twice gives identical bytes; verify and lint pass")
    func generateTwice() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.json").path, b = directory.appendingPathComponent("b.json").path
        for (path, jobs) in [(a, "1"), (b, "2")] {
            let result = try WorkbenchProcess.run([
                "vectors", "generate", "--suite", "mpin-one-pass", "--curve", "bn254", "--count", "3",
                "--seed", "cli", "--out", path, "--jobs", jobs,
            ])
            #expect(result.status == 0)
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let verify = try WorkbenchProcess.run(["vectors", "verify", "--cross-check", a])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("\(a): 3 passed, 0 failed"))
        #expect(verify.stdout.contains("  group 1 MPinOnePassTest"))
        #expect(try WorkbenchProcess.run(["vectors", "lint", a]).status == 0)
    }

    @Test("lint and verify exit 1 on a broken file, naming the file and the tcId")
    func broken() throws {
        let directory = URL(fileURLWithPath: try TemporaryDirectory.make("vectors"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("an.json").path
        #expect(
            try WorkbenchProcess.run([
                "vectors", "generate", "--suite", "access-number", "--count", "1", "--seed", "cli", "--out", path,
            ]).status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"tcId\": 4\n", with: "\"tcId\": 40\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let lint = try WorkbenchProcess.run(["vectors", "lint", path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains(path) && lint.stdout.contains("(tcId 40)"))
        #expect(try WorkbenchProcess.run(["vectors", "verify", path]).status == 1)
    }
}
