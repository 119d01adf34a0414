import FlowRecording
import MPinSDK
import MilagroRecording
import Scenarios
import Synchronization

/// What one cassette test hands to the code under test: the seams of `MPinClient` and the backend
/// URL, recording against a backend or replaying the cassette offline.
///
/// ```swift
/// @Test(.cassette("login")) func login() async throws {
///     let session = try #require(CassetteSession.current)
///     let sdk = session.makeClient()                 // or MPinClient(transport: session.transport, ...)
///     try await sdk.initialize(configuration: ["backend": session.backendURL])
///     ...
/// }
/// ```
///
/// Recording, `transport`, `random` and `clock` wrap the live ones (libcurl, a random source
/// seeded from the test's seed, the embedded backend's frozen clock) with FlowRecording's
/// `Recorder`; replaying, they are the `Replayer`'s, which serves the recorded responses, random
/// bytes and clock readings and checks every request. `observer` feeds the SDK's API results and
/// crypto steps to the recorder, or to the replayer to check; `makeClient` passes all four.
public final class CassetteSession: Sendable {
    /// The session of the running test when it has the `.cassette(...)` trait (nil otherwise).
    @TaskLocal public static var current: CassetteSession?

    /// Where the events go: a recorder (with the frozen clock of the embedded backend, if any),
    /// or a replayer.
    enum Source: Sendable {
        case recording(Recorder, frozenClock: FrozenClock?)
        case replaying(Replayer)
    }

    /// The cassette's name, as given or taken from the test.
    public let name: String
    /// The cassette file.
    public let path: String
    /// The URL to give the SDK as its backend: the recorded one when replaying.
    public let backendURL: String
    /// The SDK's random source.
    public let random: any RandomSource
    /// The SDK's clock.
    public let clock: any SDKClock
    /// The SDK observer that records the API results and crypto steps, or checks them on replay.
    public let observer: any ClientObserver
    let source: Source
    private let flavour: MPinClient.Flavour
    private let liveTransport: (any HTTPTransport)?
    private let steps = Mutex(0)

    init(
        name: String, path: String, backendURL: String, flavour: MPinClient.Flavour, source: Source,
        liveTransport: (any HTTPTransport)?, liveRandom: (any RandomSource)?, liveClock: (any SDKClock)?
    ) {
        self.name = name
        self.path = path
        self.backendURL = backendURL
        self.flavour = flavour
        self.source = source
        self.liveTransport = liveTransport
        switch source {
        case .recording(let recorder, _):
            random = recorder.randomSource(wrapping: liveRandom ?? SystemRandomSource())
            clock = recorder.clock(wrapping: liveClock ?? SystemClock())
            observer = CassetteObserver(sink: RecorderSink(recorder))
        case .replaying(let replayer):
            random = replayer.randomSource()
            clock = replayer.clock()
            observer = CassetteObserver(sink: ReplayerSink(replayer))
        }
    }

    /// Whether the test records its cassette now (false: it replays it).
    public var isRecording: Bool {
        if case .recording = source { return true }
        return false
    }

    /// The SDK's transport (actor `sdk` in the cassette).
    public var transport: any HTTPTransport { transport(for: .sdk) }

    /// A transport for the browser's side of a flow (the web page asking for an access number,
    /// polling, logging in at the RPA), recorded under actor `browser`.
    public var browserTransport: any HTTPTransport { transport(for: .browser) }

    /// A transport for operator requests (`/admin/...` of the reference backend: revocation, the
    /// activation mailbox), recorded under actor `admin`.
    public var adminTransport: any HTTPTransport { transport(for: .admin) }

    private func transport(for actor: EventActor) -> any HTTPTransport {
        switch source {
        case .recording(let recorder, _):
            // Set whenever recording (see CassetteRunner).
            recorder.transport(wrapping: liveTransport!, actor: actor)
        case .replaying(let replayer):
            replayer.transport(actor: actor)
        }
    }

    /// An `MPinClient` on this session's seams (transport, random source, clock, observer), of the
    /// backend's flavour unless `options` says otherwise.
    public func makeClient(storage: any SDKStorage = MemoryStorage(), options: MPinClient.Options? = nil) -> MPinClient
    {
        MPinClient(
            transport: transport, storage: storage, random: random, clock: clock, observer: observer,
            options: options ?? MPinClient.Options(flavour: flavour))
    }

    /// Starts a named step: the events that follow carry it, so a divergence report says
    /// `step 2 "log in"` as well as the event index. Steps are numbered from 0 in call order.
    public func beginStep(_ name: String) {
        let index = steps.withLock { count in
            defer { count += 1 }
            return count
        }
        let step = ScenarioStep(index: index, name: name)
        switch source {
        case .recording(let recorder, _): recorder.beginStep(step)
        case .replaying(let replayer): replayer.beginStep(step)
        }
    }

    /// Moves the frozen clock that the embedded backend and the SDK share by `seconds` (an access
    /// number that expires, a time permit of the next day). Replaying, the clock readings come
    /// from the cassette, and against a backend URL the clock is the system's: it does nothing then.
    ///
    /// - Precondition: `seconds` is from 0 to 315360000 (ten years, the limit of a scenario's `wait`).
    public func advanceClock(seconds: Int64) {
        precondition(
            (0...ScriptLimits.waitSeconds.upperBound).contains(seconds),
            "advanceClock(seconds:): \(seconds) is not from 0 to \(ScriptLimits.waitSeconds.upperBound)")
        if case .recording(_, let frozen?) = source {
            frozen.advance(milliseconds: seconds * 1000)
        }
    }
}
