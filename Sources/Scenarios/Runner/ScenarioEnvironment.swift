import FlowRecording
import MPinSDK
import MilagroRecording

/// Everything a run of a script talks to: the backend URL, a transport per actor, the SDK's
/// random source and clock, where results go, and the hooks of the step markers and the clock.
///
/// `run`, `record` and `replay` differ only in the environment they build (see `ScenarioSession`).
package struct ScenarioEnvironment: Sendable {
    /// The backend URL (`$backend`).
    package var backendURL: String
    /// The transport of an actor (`sdk`, `browser`, `admin`).
    package var transport: @Sendable (EventActor) -> any HTTPTransport
    package var random: any RandomSource
    package var clock: any SDKClock
    package var sink: (any FlowSink)?
    /// Called before each step (nil after the last one).
    package var beginStep: @Sendable (ScenarioStep?) -> Void
    /// Moves the frozen clock of an embedded backend (a no-op in replay and against live backends,
    /// where `wait` steps fail unless `canWait`).
    package var advanceClock: @Sendable (Int64) -> Void
    package var canWait: Bool
    /// Extra variables (`seed`, ...).
    package var variables: [String: String]
    /// How many requests the other side holds right now (the embedded backend's held logins, the
    /// replayer's held steps); nil when it cannot tell (a live backend). See `LaneScheduler`.
    package var heldRequests: (@Sendable () -> Int)?
    /// Called when the run will make no more events for held background steps (the foreground
    /// awaits them, or the run ends): a replay reports the steps still held.
    package var releaseHolds: @Sendable () -> Void
    /// Whether steps wait in real time where they would against a live backend (the pause between
    /// a `browser: accessNumberLogin` step's polls); a replay, which answers at once, does not.
    package var pacesPolls = true

    package init(
        backendURL: String, transport: @escaping @Sendable (EventActor) -> any HTTPTransport,
        random: any RandomSource, clock: any SDKClock, sink: (any FlowSink)? = nil,
        beginStep: @escaping @Sendable (ScenarioStep?) -> Void = { _ in },
        advanceClock: @escaping @Sendable (Int64) -> Void = { _ in }, canWait: Bool = false,
        variables: [String: String] = [:], heldRequests: (@Sendable () -> Int)? = nil,
        releaseHolds: @escaping @Sendable () -> Void = {}
    ) {
        self.backendURL = backendURL
        self.transport = transport
        self.random = random
        self.clock = clock
        self.sink = sink
        self.beginStep = beginStep
        self.advanceClock = advanceClock
        self.canWait = canWait
        self.variables = variables
        self.heldRequests = heldRequests
        self.releaseHolds = releaseHolds
    }
}
