import Conformance
import CurlTransport
import ReferenceBackend
import SDKSeams
import Synchronization
import Testing

/// The run's deadline (issue 33, point 6): against a loopback backend that answers its client
/// settings but holds every other answer, a run with a short deadline stops, says that it could
/// not grade, and skips what it could not finish. The outcome is asserted, not the time.
@Suite struct RunDeadlineTests {
    /// Whether the held answers may go, and how many requests came.
    final class Hold: Sendable {
        let released = Mutex(false)
        let received = Mutex(0)
    }

    @Test func aBackendThatHoldsItsAnswersCannotKeepTheRunPastItsDeadline() async throws {
        let hold = Hold()
        let server = try await PlainHTTPServer.start(port: 0) { request in
            hold.received.withLock { $0 += 1 }
            if request.target.hasSuffix("/clientSettings") {
                return .init(
                    status: 200, headers: [.init("Content-Type", "application/json")],
                    body: Array(
                        #"{"registerURL": "/rps/user", "certivoxURL": "/dta2/", "mpinAuthServerURL": "/rps"}"#.utf8))
            }
            // Held (at most 60 s, so that the server lets go in the end).
            for _ in 0..<1_200 where !hold.released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(50)) }
            return .init(status: 503)
        }
        var options = ConformanceSuite.Options(backendURL: server.baseURL)
        options.userPrefix = "conform-deadline"
        options.deadline = 1
        let suite = ConformanceSuite(
            options: options, transport: CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 5)),
            random: SeededSource(seed: 33), sdkClock: SystemClock(), clock: SystemConformanceClock())
        let report = await suite.run()
        hold.released.withLock { $0 = true }
        await server.stop()
        #expect(report.deadlinePassed != nil)
        #expect(report.couldNotGrade?.contains("deadline") == true, "\(String(describing: report.couldNotGrade))")
        #expect(report.results.count == ConformanceCatalog.all.count)
        #expect(report.results.contains { $0.verdict.kind == .skipped && $0.verdict.reason.contains("deadline") })
        #expect(report.results.contains { $0.verdict.reason.hasPrefix("not run: ") })
        // Every request after the deadline is refused unsent: the held ones are few.
        let received = hold.received.withLock { $0 }
        #expect(received < 40, "\(received) requests")
    }
}
