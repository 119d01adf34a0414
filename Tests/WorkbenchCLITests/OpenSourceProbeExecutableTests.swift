import Foundation
import Synchronization
import TestSupport
import Testing

/// `serve --profile milagro-oss` against the interop probes of `../shared/interop/real-server/`:
/// `probe.py`'s 199 requests and `probe2.py`'s 499, and their answers compared with the real
/// open-source server's by `Scripts/probe_compare.py` (same status and reason phrase, same header
/// names in order and values, same body where it is deterministic, else the same JSON shape and
/// formatting). Only the differences listed in `docs/interop/milagro-oss-differences.json`, each
/// with its reason, may remain; a status or reason difference never may. The first probe takes
/// 66 s alone, nearly all of it waiting (a pass 1 left to expire, a D-TA signature left to expire,
/// two held logins; 0.4 s of processor time), the second 23 s: both start when the test plan is
/// made (`StartsWhenPlanned`).
@Suite struct OpenSourceProbeExecutableTests {
    static let shared = RepoPaths.path("../shared/interop/real-server")
    static var sharedPresent: Bool { FileManager.default.fileExists(atPath: shared + "/probe2.py") }

    /// The two probes, with the real server's answers each is compared with.
    enum Probe: String, Sendable {
        /// The first probe's answers were recorded on a server that already held a registration,
        /// so its restart with a wrong regOTT met no expiry cleanup of the memory storage
        /// (docs/backend.md, "The storage the profile reproduces"): one registration is made first
        /// here too.
        case first = "probe"
        /// The second probe's answers were recorded on a fresh server.
        case second = "probe2"

        var real: String { "\(rawValue)-real-oss-server.json" }
        var registersFirst: Bool { self == .first }
    }

    // Skipped when ../shared (the upstream artifacts, never in this repository) is absent.
    @Test(
        .enabled(if: sharedPresent, "../shared/interop/real-server is absent: the probe comparison is skipped"),
        StartsWhenPlanned(probe: .first))
    func answersTheFirstProbeAsTheRealServer() async {
        await ProbeRuns.shared.run(.first).check()
    }

    @Test(
        .enabled(if: sharedPresent, "../shared/interop/real-server is absent: the probe comparison is skipped"),
        StartsWhenPlanned(probe: .second))
    func answersTheSecondProbeAsTheRealServer() async {
        await ProbeRuns.shared.run(.second).check()
    }

    /// What one comparison produced: each step's run, or the step that failed first.
    struct Outcome: Sendable {
        var failure: String?
        var register: WorkbenchProcess.Run?
        var probe: WorkbenchProcess.Run?
        var stopped: WorkbenchProcess.Run?
        var compare: WorkbenchProcess.Run?

        func check() {
            if let failure { Issue.record(Comment(rawValue: failure)) }
            if let register { #expect(register.exited && register.status == 0, "\(register)") }
            if let probe { #expect(probe.exited && probe.status == 0, "\(probe)") }
            if let stopped { #expect(stopped.exited, "\(stopped)") }
            if let compare { #expect(compare.exited && compare.status == 0, "\(compare.stdout)\(compare.stderr)") }
        }
    }

    /// Starts `serve --profile milagro-oss`, runs the probe against it, stops it and compares the
    /// answers, all on the calling thread, which it blocks: the probes wait on timers (the wall
    /// clock, not the processor) for a minute or more, and `ProbeRuns` runs this on a thread of its
    /// own. Not as async steps: each resumption waited for one of the two threads of Swift's pool,
    /// which the suite's other tests held, and the step after the registration began 35 s late.
    static func compare(_ probe: Probe) -> Outcome {
        var outcome = Outcome()
        do {
            let serving = try ServingProcess([
                "serve", "--port", "0", "--profile", "milagro-oss", "--seed", probe.rawValue,
            ])
            let port = serving.waitForOutput(within: 120) { line -> Int? in
                guard line.hasPrefix("reference backend listening on "),
                    let origin = line.range(of: "http://127.0.0.1:")
                else { return nil }
                return Int(line[origin.upperBound...]).flatMap { (1...65_535).contains($0) ? $0 : nil }
            }
            guard let port else {
                outcome.failure = "no listening address: \(serving.interrupt())"
                return outcome
            }
            let directory = try TemporaryDirectory.make("\(probe.rawValue)-milagro-oss")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            if probe.registersFirst {
                let script = directory + "/register.py"
                try Data(Self.registration.utf8).write(to: URL(fileURLWithPath: script))
                outcome.register = try WorkbenchProcess.run(shell: "python3 \(script) \(port)", seconds: 60)
            }
            let out = directory + "/\(probe.rawValue)-milagro-oss.json"
            outcome.probe = try WorkbenchProcess.run(
                shell:
                    "python3 \(Self.shared)/\(probe.rawValue).py --backend http://127.0.0.1:\(port) --out \(out) --label milagro-oss",
                seconds: 400)
            outcome.stopped = serving.interrupt()
            outcome.compare = try WorkbenchProcess.run(
                shell: "python3 Scripts/probe_compare.py \(Self.shared)/\(probe.real) \(out) "
                    + "--allowed docs/interop/milagro-oss-differences.json --quiet", seconds: 60)
        } catch {
            outcome.failure = "the \(probe.rawValue) comparison could not run: \(error)"
        }
        return outcome
    }

    /// One registration on the served profile (loopback only, one request, 30 s at most).
    static let registration = """
        sys, urllib = __import__('sys'), __import__('urllib.request')
        port = int(sys.argv[1])
        assert 0 < port < 65536
        body = b'{"userId": "earlier@example.org", "mobile": 1}'
        request = urllib.request.Request('http://127.0.0.1:%d/rps/user' % port, data=body, method='PUT')
        urllib.request.urlopen(request, timeout=30).read()
        """
}

/// Starts a probe comparison when Swift Testing prepares its test, as the run's plan is made and
/// before any test runs, so that the probes' minute of timers overlaps the whole suite: started in
/// the shuffled order of the rest, they began 40 to 60 s in and ended the suite 30 s after every
/// other test. Only the tests a run includes are prepared, so a filtered run that leaves them out
/// starts no `serve`; the test then awaits the comparison (`ProbeRuns.run`).
struct StartsWhenPlanned: TestTrait {
    let probe: OpenSourceProbeExecutableTests.Probe

    func prepare(for test: Test) async throws {
        guard OpenSourceProbeExecutableTests.sharedPresent else { return }
        _ = ProbeRuns.shared.start(probe)
    }
}

/// The probe comparisons of this process, each on a thread of its own started by the first of
/// `StartsWhenPlanned.prepare` and the test itself to ask: the thread starts at once, whatever
/// Swift's pool is doing, and the test's await resumes once, when the comparison is done.
final class ProbeRuns: Sendable {
    static let shared = ProbeRuns()
    private let runs = Mutex<[OpenSourceProbeExecutableTests.Probe: PendingOutcome]>([:])

    /// The comparison's outcome, once it is done.
    final class PendingOutcome: Sendable {
        private let state = Mutex<
            (
                outcome: OpenSourceProbeExecutableTests.Outcome?,
                waiting: [CheckedContinuation<OpenSourceProbeExecutableTests.Outcome, Never>]
            )
        >((nil, []))

        func finish(_ outcome: OpenSourceProbeExecutableTests.Outcome) {
            let waiting = state.withLock { state in
                state.outcome = outcome
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume(returning: outcome) }
        }

        var value: OpenSourceProbeExecutableTests.Outcome {
            get async {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> OpenSourceProbeExecutableTests.Outcome? in
                        if let outcome = state.outcome { return outcome }
                        state.waiting.append(continuation)
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }
        }
    }

    /// Starts the comparison of `probe` unless it already runs.
    func start(_ probe: OpenSourceProbeExecutableTests.Probe) -> PendingOutcome {
        runs.withLock { runs in
            if let pending = runs[probe] { return pending }
            let pending = PendingOutcome()
            Thread.detachNewThread { pending.finish(OpenSourceProbeExecutableTests.compare(probe)) }
            runs[probe] = pending
            return pending
        }
    }

    /// The comparison's outcome, started now unless it already runs.
    func run(_ probe: OpenSourceProbeExecutableTests.Probe) async -> OpenSourceProbeExecutableTests.Outcome {
        await start(probe).value
    }
}
