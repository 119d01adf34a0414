import Foundation
import TestSupport
import Testing

private let python3Present = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

/// `Scripts/bench_cassettes.py` on its smallest inputs: a benchmark, so nothing here bounds a time;
/// what is checked is that its inputs are valid cassettes (every command exits 0 on them, replay
/// included) and that each row has its figures, so that the benchmark cannot rot into measuring
/// refusals.
@Suite("Scripts/bench_cassettes.py", .enabled(if: WorkbenchProcess.path != nil && python3Present))
struct BenchCassettesScriptTests {
    @Test("every command exits 0 on every input, the proxy row included")
    func everyInputIsAValidCassette() throws {
        // The bound only stops a hung run (about 10 s of work when idle); a minute per command.
        let result = try WorkbenchProcess.run(
            shell: "python3 Scripts/bench_cassettes.py \"$WORKBENCH\" --sizes 1 --proxy --json --timeout 60",
            seconds: 900)
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let rows = try #require(object?["rows"] as? [[String: Any]], "\(result)")
        // The committed recording, a long string and many events, five commands each; the proxy.
        #expect(rows.count == 16, "\(rows)")
        let commands = Set(rows.compactMap { $0["command"] as? String })
        #expect(
            commands == ["cassette redact", "cassette lint", "cassette show", "cassette check", "replay", "proxy"])
        for row in rows {
            #expect(row["status"] as? Int == 0, "\(row)")
            #expect((row["bytes"] as? Int ?? 0) > 10_000, "\(row)")
            #expect((row["rss_mib"] as? Double ?? 0) > 1, "\(row)")
        }
        let inputs = Set(rows.compactMap { $0["input"] as? String })
        #expect(inputs.isSuperset(of: ["committed recording", "long string", "many events"]), "\(inputs)")
    }

    @Test("a size out of range is refused, naming the option")
    func sizeOutOfRange() throws {
        let result = try WorkbenchProcess.run(
            shell: "python3 Scripts/bench_cassettes.py \"$WORKBENCH\" --sizes 1,0", seconds: 60)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--sizes: each value must be an integer from 1 to 1000"), "\(result)")
    }
}
