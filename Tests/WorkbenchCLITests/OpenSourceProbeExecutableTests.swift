import Foundation
import TestSupport
import Testing

/// `serve --profile milagro-oss` against the interop probe of `../shared/interop/real-server/`:
/// the probe's 199 requests, and its answers compared with the real open-source server's by
/// `Scripts/probe_compare.py` (same status and reason phrase, same header names in order and
/// values, same body where it is deterministic, else the same JSON shape and formatting). Only
/// the differences listed in `docs/interop/milagro-oss-differences.json`, each with its reason,
/// may remain; a status or reason difference never may. The probe waits about 90 seconds in all
/// (a pass 1 left to expire, a D-TA signature left to expire, two held logins).
@Suite struct OpenSourceProbeExecutableTests {
    static let shared = RepoPaths.path("../shared/interop/real-server")
    static var sharedPresent: Bool { FileManager.default.fileExists(atPath: shared + "/probe.py") }

    // Skipped when ../shared (the upstream artifacts, never in this repository) is absent.
    @Test(.enabled(if: sharedPresent, "../shared/interop/real-server is absent: the probe comparison is skipped"))
    func answersAsTheRealServer() throws {
        let serving = try ServingProcess(["serve", "--port", "0", "--profile", "milagro-oss", "--seed", "probe"])
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("reference backend listening on "), let origin = line.range(of: "http://127.0.0.1:")
            else { return nil }
            return Int(line[origin.upperBound...])
        }
        guard let port else {
            Issue.record("no listening address: \(serving.interrupt())")
            return
        }
        let directory = try TemporaryDirectory.make("probe-milagro-oss")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/probe-milagro-oss.json"
        let probe = try WorkbenchProcess.run(
            shell:
                "python3 \(Self.shared)/probe.py --backend http://127.0.0.1:\(port) --out \(out) --label milagro-oss",
            seconds: 300)
        let run = serving.interrupt()
        #expect(probe.exited && probe.status == 0, "\(probe)")
        #expect(run.exited, "\(run)")
        let compare = try WorkbenchProcess.run(
            shell: "python3 Scripts/probe_compare.py \(Self.shared)/probe-real-oss-server.json \(out) "
                + "--allowed docs/interop/milagro-oss-differences.json --quiet", seconds: 60)
        #expect(compare.exited && compare.status == 0, "\(compare.stdout)\(compare.stderr)")
    }
}
