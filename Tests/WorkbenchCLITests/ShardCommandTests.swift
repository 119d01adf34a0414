import Foundation
import TestSupport
import Testing

/// `--shard K/N` of `replay`, `vectors verify` and `vectors generate`, and `vectors merge`, through
/// the executable (skipped when it was not built).
@Suite("mpin-workbench --shard and vectors merge", .enabled(if: WorkbenchProcess.path != nil))
struct ShardCommandTests {
    static func quoted(_ words: [String]) -> String { words.map { "'\($0)'" }.joined(separator: " ") }

    @Test(
        "--shard text that is not K/N with 1 ≤ K ≤ N ≤ 1000 is a usage error naming the option, status 2",
        arguments: [
            ("0/3", "numbered from 1 to N (3), not 0"), ("4/3", "from 1 to N (3), not 4"),
            ("1/0", "from 1 to 1000, not 0"),
            ("1/1001", "from 1 to 1000, not 1001"), ("x", "must be K/N"), ("2-3", "must be K/N"),
            ("-1/3", "must be K/N"),
        ])
    func usageErrors(text: String, message: String) throws {
        let directory = try TemporaryDirectory.make("shard")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands: [[String]] = [
            ["replay", "Recordings/otp.json"],
            ["vectors", "verify", "Vectors/generated/access-number.json"],
            ["vectors", "generate", "--suite", "access-number", "--seed", "s", "--out", directory + "/out.json"],
        ]
        for command in commands {
            let result = try WorkbenchProcess.run(
                shell: "exec \"$WORKBENCH\" \(Self.quoted(command + ["--shard", text]))")
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr.contains("The value '\(text)' is invalid for '--shard <K/N>': "),
                "\(command): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("replay --shard splits the sorted cassettes whatever order they are given in; an empty part passes")
    func replayShards() throws {
        let directory = try TemporaryDirectory.make("shard")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = ["otp.json", "authenticate.json", "register-auto.json", "setBackend.json", "revoked.json"]
        for name in names {
            try FileManager.default.copyItem(
                atPath: RepoPaths.path("Recordings/" + name), toPath: directory + "/" + name)
        }
        let sorted = names.sorted().map { directory + "/" + $0 }
        func passed(_ arguments: [String], shard: String) throws -> [String] {
            let result = try WorkbenchProcess.run(["replay"] + arguments + ["--shard", shard])
            #expect(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS ") }
                .map { String($0.dropFirst(5).prefix { $0 != " " }) }
        }
        var all: [String] = []
        for k in 1...3 {
            let fromDirectory = try passed([directory], shard: "\(k)/3")
            #expect(
                try passed(sorted.reversed(), shard: "\(k)/3") == fromDirectory,
                "shard \(k)/3 from the list given backwards")
            let mixed = [sorted[3], sorted[0], sorted[4], sorted[2], sorted[1]]
            #expect(try passed(mixed, shard: "\(k)/3") == fromDirectory, "shard \(k)/3 from the list given mixed")
            all += fromDirectory
        }
        #expect(all == sorted, "the parts in order are the sorted cassettes, each once")
        #expect(try passed([directory], shard: "2/3") == Array(sorted[1..<3]))
        let empty = try WorkbenchProcess.run(["replay", directory, "--shard", "1/9"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "0 passed, 0 failed (shard 1/9: 0 of 5 cassettes)\n", "\(empty)")
    }

    @Test("replay and vectors verify --shard name the JUnit suite after the shard")
    func junitSuiteNames() throws {
        let directory = try TemporaryDirectory.make("shard")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let replay = try WorkbenchProcess.run([
            "replay", "Recordings/otp.json", "Recordings/revoked.json", "--shard", "2/2",
            "--junit", directory + "/replay.xml",
        ])
        #expect(replay.status == 0, "\(replay)")
        let replayReport = try JUnitXML(contentsOf: directory + "/replay.xml")
        #expect(replayReport.suites.map { $0["name"] } == ["replay (shard 2/2)"])
        #expect(replayReport.testCases.map { $0["name"] } == ["Recordings/revoked.json"])
        let files = [
            "Vectors/generated/pin-mapping.json", "Vectors/generated/bn254/encoding.json",
            "Vectors/generated/access-number.json",
        ]
        let verify = try WorkbenchProcess.run(
            ["vectors", "verify"] + files + ["--shard", "1/2", "--junit", directory + "/verify.xml"])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.hasSuffix("shard 1/2: 1 of 3 files\n"), "\(verify.stdout)")
        let verifyReport = try JUnitXML(contentsOf: directory + "/verify.xml")
        #expect(verifyReport.suites.map { $0["name"] } == ["vectors verify (shard 1/2)"])
        // Sorted by path: access-number.json comes first, alone in shard 1 of 2 (⌊3/2⌋ = 1 file).
        #expect(Set(verifyReport.testCases.compactMap { $0["classname"] }) == ["Vectors/generated/access-number.json"])
    }

    @Test(
        "vectors generate --shard then vectors merge, shards in any order, give one run's bytes; a missing shard is status 2"
    )
    func generateAndMerge() throws {
        let directory = try TemporaryDirectory.make("shard")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            set -e
            cd '\(directory)'
            "$WORKBENCH" vectors generate --suite pin-mapping --count 5 --seed merge --out whole.json
            for k in 1 2 3; do "$WORKBENCH" vectors generate --suite pin-mapping --count 5 --seed merge --shard $k/3 --out parts/$k.json; done
            "$WORKBENCH" vectors merge parts/3.json parts/1.json parts/2.json --out merged.json
            cmp whole.json merged.json
            """
        let result = try WorkbenchProcess.run(shell: script)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("parts/2.json: "), "\(result.stdout)")
        #expect(result.stdout.contains("(shard 2/3 of "), "\(result.stdout)")
        #expect(result.stdout.contains("merged.json: "), "\(result.stdout)")
        #expect(result.stdout.contains(" tests (pin-mapping) from 3 shards\n"), "\(result.stdout)")
        let missing = try WorkbenchProcess.run([
            "vectors", "merge", directory + "/parts/1.json", directory + "/parts/3.json",
            "--out", directory + "/refused.json",
        ])
        #expect(missing.status == 2, "\(missing)")
        #expect(
            missing.stderr
                == "error: \(directory)/parts/1.json: the shards given are not all of the 3: missing 2/3 (1 of 3)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/refused.json"))
        let none = try WorkbenchProcess.run(["vectors", "merge", "--out", directory + "/refused.json"])
        #expect(none.status == 2, "\(none)")
    }
}
