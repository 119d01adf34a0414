import Synchronization
import Testing

@testable import HTTPServing

/// The one run-until-a-signal helper of `serve`, `cassette serve` and `proxy`: `run` returns when
/// the server's task ends, keeps its error, and returns early on `release` (the proxy's second
/// Ctrl-C); `stop` cancels the task, also when asked for before the task is attached.
@Suite struct ServerTaskControlTests {
    struct Failure: Error {}

    @Test func runReturnsWhenTheServerEndsAndKeepsItsError() async {
        let control = ServerTaskControl()
        await control.run { throw Failure() }
        #expect(control.error is Failure)
        let quiet = ServerTaskControl()
        await quiet.run {}
        #expect(quiet.error == nil && !quiet.stopRequested)
    }

    @Test func stopCancelsTheServer() async {
        let control = ServerTaskControl()
        control.stop()  // before the task exists: it is cancelled as soon as it is attached
        await control.run {
            // Bounded: at most 60 s if the cancellation never came.
            try await Task.sleep(for: .seconds(60))
        }
        #expect(control.error is CancellationError)
        #expect(control.stopRequested)
    }

    @Test func releaseEndsTheWaitWhileTheServerRuns() async {
        let control = ServerTaskControl()
        let state = Mutex((opened: false, ended: false))
        await control.run {
            control.release()
            // Ignores cancellation until the test opens the gate (bounded: 60 s at most).
            let end = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < end, !state.withLock({ $0.opened }) {
                try? await Task.sleep(for: .milliseconds(10))
            }
            state.withLock { $0.ended = true }
        }
        #expect(!state.withLock { $0.ended }, "run waited for the server although it was released")
        state.withLock { $0.opened = true }
    }
}
