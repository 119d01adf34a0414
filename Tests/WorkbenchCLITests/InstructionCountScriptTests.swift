import Foundation
import TestSupport
import Testing

private let python3Present = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

/// `Scripts/instruction_counts.py`'s comparison with its baseline, without valgrind: `--from-dumps`
/// reads fake callgrind dumps (a trigger line naming the operation and a totals line, as callgrind
/// writes them) and a fake baseline in a temporary folder.
@Suite("Scripts/instruction_counts.py", .enabled(if: WorkbenchProcess.path != nil && python3Present))
struct InstructionCountScriptTests {
    /// The baseline of the fakes: two operations, 1,000,000 and 2,000,000 instructions per call.
    private static let baseline = """
        {"date": "2026-12-02T00:00:00Z", "valgrind": "valgrind-3.19.0", "cpu": "test", "commit": "test", "calls": 2,
         "counts": {"bn254cx/pairing/kernel": 1000000, "bn254/g1_mul/portable": 2000000}}
        """

    /// Runs the script on dumps with these totals per call (2 calls per dump) and `baseline`.
    private func compare(_ perCall: [String: Int], baseline: String = baseline) throws -> WorkbenchProcess.Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "instruction-counts-\(UUID().uuidString)")
        let dumps = folder.appendingPathComponent("dumps")
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "2\n".write(to: dumps.appendingPathComponent("calls"), atomically: true, encoding: .utf8)
        // The dump callgrind writes at exit names no client request: it is not an operation.
        try "version: 1\ndesc: Trigger: Program termination\nsummary: 28122\ntotals: 28276\n".write(
            to: dumps.appendingPathComponent("cg.1"), atomically: true, encoding: .utf8)
        for (index, (name, count)) in perCall.sorted(by: { $0.key < $1.key }).enumerated() {
            let dump =
                "version: 1\ncmd: fake\ndesc: Trigger: Client Request: \(name)\nevents: Ir\nsummary: \(2 * count)\ntotals: \(2 * count)\n"
            try dump.write(to: dumps.appendingPathComponent("cg.1.\(index + 1)"), atomically: true, encoding: .utf8)
        }
        let baselineFile = folder.appendingPathComponent("baseline.json")
        try baseline.write(to: baselineFile, atomically: true, encoding: .utf8)
        return try WorkbenchProcess.run(
            shell:
                "python3 Scripts/instruction_counts.py --from-dumps '\(dumps.path)' --baseline '\(baselineFile.path)'",
            seconds: 60)
    }

    @Test("4% worse passes, with the change in the table")
    func fourPercentPasses() throws {
        let result = try compare(["bn254cx/pairing/kernel": 1_040_000, "bn254/g1_mul/portable": 1_900_000])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("+4.00%") && result.stdout.contains("-5.00%"), "\(result)")
    }

    @Test("6% worse fails with exit 1, naming the operation")
    func sixPercentFails() throws {
        let result = try compare(["bn254cx/pairing/kernel": 1_060_000, "bn254/g1_mul/portable": 2_000_000])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("bn254cx/pairing/kernel +6.00% against its baseline"), "\(result)")
        #expect(!result.stderr.contains("bn254/g1_mul/portable"), "\(result)")
    }

    @Test("an operation of the baseline missing from the run fails, naming it")
    func missingFails() throws {
        let result = try compare(["bn254cx/pairing/kernel": 1_000_000])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("bn254/g1_mul/portable missing from the run"), "\(result)")
    }

    @Test("a malformed baseline is a clear error (exit 2), not a traceback")
    func malformedBaseline() throws {
        let counts = ["bn254cx/pairing/kernel": 1_000_000, "bn254/g1_mul/portable": 2_000_000]
        for (baseline, message) in [
            ("{\"counts\": ", "malformed baseline, not JSON"),
            ("{\"counts\": []}", "expected an object with a \"counts\" object"),
            ("{\"counts\": {\"bn254cx/pairing/kernel\": \"many\"}}", "is not a count from"),
            ("{\"counts\": {\"bn254cx/pairing/kernel\": 1e30}}", "is not a count from"),
        ] {
            let result = try compare(counts, baseline: baseline)
            #expect(result.status == 2, "\(baseline): \(result)")
            #expect(result.stderr.contains(message), "\(baseline): \(result)")
            #expect(!result.stderr.contains("Traceback"), "\(result)")
        }
    }

    @Test("a total out of range is refused (exit 2)")
    func outOfRangeTotal() throws {
        let result = try compare(["bn254cx/pairing/kernel": 10, "bn254/g1_mul/portable": 2_000_000])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("instructions per call, outside"), "\(result)")
    }
}
