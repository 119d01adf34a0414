import SDKSeams
import Synchronization

/// Collects the events of one flow into a cassette.
///
/// The recording seams (`transport(wrapping:)`, `randomSource(wrapping:)`, `clock(wrapping:)`)
/// append `http`, `random` and `clock` events; the layer above feeds `call` and `crypto` events
/// (for the SDK: from its observer, without its random, clock and HTTP events, which the seams
/// already record). Each event is stamped with the current scenario step: the step of the task
/// (`ConcurrentStep.current`) when steps run at the same time, else the one set by `beginStep`. A
/// recorder has no global state: two recorders in one process never mix their events.
///
/// An HTTP exchange takes its place in the timeline when the request is sent (the same point where
/// replay consumes it), and is completed when the response or error arrives.
public final class Recorder: Sendable {
    private struct State {
        var events: [CassetteEvent?] = []
        var step: ScenarioStep?
        var pending = 0
    }

    private let state = Mutex(State())
    /// The cassette metadata (scenario, backend, tool, curve); `events` is ignored.
    public let header: Cassette
    /// Whether `http` events keep the live per-phase timings (off for byte-identical re-recordings).
    public let recordsTimings: Bool

    public init(header: Cassette, recordsTimings: Bool = true) {
        var header = header
        header.events = []
        self.header = header
        self.recordsTimings = recordsTimings
    }

    /// Sets the scenario step that the following events belong to (nil: outside any step).
    public func beginStep(_ step: ScenarioStep?) {
        state.withLock { $0.step = step }
    }

    public var currentStep: ScenarioStep? { state.withLock { $0.step } }

    /// Appends an event; one without a step gets the current step.
    public func record(_ event: CassetteEvent) {
        state.withLock { state in
            var event = event
            if event.step == nil { event.step = ConcurrentStep.current ?? state.step }
            state.events.append(event)
        }
    }

    /// Appends a `call` event.
    public func recordCall(_ call: CassetteEvent.Call, actor: EventActor = .sdk) {
        record(CassetteEvent(actor: actor, .call(call)))
    }

    /// Appends a `crypto` event.
    public func recordCrypto(_ step: CassetteEvent.CryptoStep, actor: EventActor = .sdk) {
        record(CassetteEvent(actor: actor, .crypto(step)))
    }

    /// Reserves the place of an exchange whose request is being sent.
    func reserve() -> (slot: Int, step: ScenarioStep?) {
        state.withLock { state in
            state.events.append(nil)
            state.pending += 1
            return (state.events.count - 1, ConcurrentStep.current ?? state.step)
        }
    }

    /// Completes a reserved place.
    func fill(_ slot: Int, with event: CassetteEvent) {
        state.withLock { state in
            state.events[slot] = event
            state.pending -= 1
        }
    }

    /// The events so far (exchanges still in flight are left out).
    public var events: [CassetteEvent] { state.withLock { $0.events.compactMap { $0 } } }

    /// How many exchanges are still waiting for their response.
    public var pendingExchanges: Int { state.withLock { $0.pending } }

    /// The cassette: the header with the events so far.
    public func cassette() -> Cassette {
        var cassette = header
        cassette.events = events
        return cassette
    }

    /// A transport that sends through `base` and records each exchange as an `http` event of `actor`.
    public func transport(wrapping base: any HTTPTransport, actor: EventActor = .sdk, context: String? = nil)
        -> RecordingTransport
    {
        RecordingTransport(base: base, recorder: self, actor: actor, context: context)
    }

    /// A random source that draws from `base` and records each draw as a `random` event.
    public func randomSource(wrapping base: any RandomSource, actor: EventActor = .sdk, purpose: String? = nil)
        -> RecordingRandomSource
    {
        RecordingRandomSource(base: base, recorder: self, actor: actor, purpose: purpose)
    }

    /// A clock that reads `base` and records each reading as a `clock` event.
    public func clock(wrapping base: any SDKClock, actor: EventActor = .sdk, purpose: String? = nil) -> RecordingClock {
        RecordingClock(base: base, recorder: self, actor: actor, purpose: purpose)
    }
}
