import CommonFormats
import OrderedJSON
import SDKSeams
import Synchronization

/// Drives a re-run from a cassette: serves the recorded responses, random bytes and clock readings
/// through its seams, and checks everything the re-run does against the recording.
///
/// Use `transport(actor:)`, `randomSource(actor:)` and `clock(actor:)` in place of the live seams,
/// feed the re-run's API results and crypto steps to `check(call:)` and `check(crypto:)` (the same
/// events, at the same points, as the recording fed to its `Recorder`), then call `finish()`.
///
/// At the first divergence the replayer stops serving: the transport throws a `TransportError`
/// that names the divergence, random sources return zero bytes, the clock returns the last recorded
/// reading, and `finish()` throws the `ReplayError` with the full report. No global state: several
/// replayers can run at once in one process.
public final class Replayer: Sendable {
    private struct State {
        /// Strict mode: the next event to match.
        var cursor = 0
        /// Loose modes: per channel, the next position in `channels`.
        var channelCursors: [Channel: Int] = [:]
        var used: Set<Int> = []
        var failure: ReplayError?
        var step: ScenarioStep?
        var lastClock: Int64 = 0
        /// Background steps whose recorded response waits for events of other steps.
        var waiters: [Waiter] = []
        /// The checks not made because their values come from stand-ins (`unchecked`).
        var unchecked: [String] = []
        /// What the re-run did, as a recording of it would hold it (`producedFlow`).
        var produced: [CassetteEvent] = []
    }

    /// The most events `producedFlow` keeps beyond the cassette's own count: a re-run that goes on
    /// after its divergence (every request refused) cannot grow it without bound.
    static let producedSlack = 10_000

    /// A background step held at a response until the events recorded between that response and
    /// the step's next event (`needed`, made by other steps) have been matched.
    private struct Waiter {
        var step: ScenarioStep
        var exchange: Int
        var needed: [Int]
        var continuation: CheckedContinuation<Void, Never>
    }

    /// A kind of event with its own order in the loose modes (requests per actor).
    enum Channel: Hashable, Sendable {
        case http(EventActor), call, crypto, random, clock
    }

    /// The cassette with its placeholders filled in.
    public let cassette: Cassette
    public let mode: ReplayMode
    /// The file the cassette came from, for reports.
    public let path: String?
    private let channels: [Channel: [Int]]
    /// Mode `context`: the first recorded exchange of each key (`contextKey`).
    private let contextIndex: [String: Int]
    /// Mode `context`: the request members whose values are fresh randomness (`ReplayMode.fresh`).
    private let fresh: Set<String>
    private let fallbackRandom: (any RandomSource)?
    private let fallbackClock: (any SDKClock)?
    /// Values that come from stand-ins, each with the placeholders it comes from: the stand-ins
    /// themselves and, transitively, the outputs of crypto steps with such an input.
    private let standInValues: [String: [String]]
    private let state = Mutex(State())
    private let divergenceHandler = Mutex<(@Sendable (ReplayError) -> Void)?>(nil)

    /// - Parameters:
    ///   - cassette: the recording, possibly redacted.
    ///   - mode: how strictly to match; nil takes the cassette's own `replayMode`, else strict.
    ///   - placeholders: the values of the cassette's `{{placeholders}}`.
    ///   - path: the cassette's file, named in reports and in the re-record command.
    ///   - fallbackRandom: used in the loose modes when the cassette has no random draws
    ///     (cassettes from other implementations).
    ///   - fallbackClock: used in the loose modes when the cassette has no clock readings.
    ///   - standIns: values put in for placeholders whose secrets are not known (a redacted
    ///     cassette replayed without its secrets). The flow is checked as usual; what comes from a
    ///     stand-in is not compared (a crypto step with such a value, a call's argument or output
    ///     recorded as one, and the request-body members and headers computed from them), and the
    ///     rest of that event still is: each check not made is listed in `unchecked` with the
    ///     placeholders it depends on.
    /// - Throws: `ReplayError` of kind `.missingPlaceholders` naming every placeholder without a value.
    public init(
        cassette: Cassette, mode: ReplayMode? = nil, placeholders: [String: String] = [:], path: String? = nil,
        fallbackRandom: (any RandomSource)? = nil, fallbackClock: (any SDKClock)? = nil,
        standIns: [String: String] = [:]
    ) throws(ReplayError) {
        let chosen = mode ?? cassette.replayMode ?? .strict
        do {
            self.cassette = try Redactor.restore(
                cassette, values: placeholders.merging(standIns) { given, _ in given }, path: path)
        } catch {
            throw ReplayError(
                kind: .missingPlaceholders,
                report: DivergenceReport(
                    cassette: path ?? cassette.scenario.name, mode: chosen, summary: error.description,
                    beforeStart: true))
        }
        self.mode = chosen
        self.path = path
        self.fallbackRandom = fallbackRandom
        self.fallbackClock = fallbackClock
        var channels: [Channel: [Int]] = [:]
        for (index, event) in self.cassette.events.enumerated() {
            channels[Self.channel(of: event), default: []].append(index)
        }
        self.channels = channels
        var contextIndex: [String: Int] = [:]
        if chosen.matching == .context {
            for (index, exchange) in self.cassette.httpExchanges {
                let key = Self.contextKey(exchange.request.method, exchange.request.url, exchange.context ?? "")
                if contextIndex[key] == nil { contextIndex[key] = index }
            }
        }
        self.contextIndex = contextIndex
        // `--mode context` keeps the cassette's own fresh members.
        let ownFresh = cassette.replayMode?.matching == .context ? cassette.replayMode?.fresh ?? [] : []
        self.fresh = Set(chosen.fresh.isEmpty ? ownFresh : chosen.fresh)
        self.standInValues = Self.standInValues(self.cassette, standIns.filter { placeholders[$0.key] == nil })
    }

    /// The checks not made so far because their values come from stand-ins, one line each.
    public var unchecked: [String] { state.withLock { $0.unchecked } }

    /// Each stand-in value with its placeholder, and each output of a crypto step that has such a
    /// value with the placeholders it comes from, in event order.
    static func standInValues(_ cassette: Cassette, _ standIns: [String: String]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (name, value) in standIns { out[value, default: []].append(name) }
        guard !out.isEmpty else { return out }
        for event in cassette.events {
            guard case .crypto(let step) = event.payload else { continue }
            let sources = Set((step.inputs + step.outputs).flatMap { out[$0.value] ?? [] }).sorted()
            guard !sources.isEmpty else { continue }
            for field in step.outputs where out[field.value] == nil { out[field.value] = sources }
        }
        return out
    }

    /// A check that a stand-in makes impossible, as a line for `unchecked`; nil when the difference
    /// is a real one.
    private func notCheckable(_ index: Int, _ recorded: CassetteEvent, _ incoming: CassetteEvent) -> String? {
        guard !standInValues.isEmpty else { return nil }
        func list(_ names: [String]) -> String { Set(names).sorted().map(Placeholder.text).joined(separator: ", ") }
        switch (recorded.payload, incoming.payload) {
        case (.crypto(let e), .crypto(let a)) where e.primitive == a.primitive:
            let sources = (e.inputs + e.outputs).flatMap { standInValues[$0.value] ?? [] }
            guard !sources.isEmpty else { return nil }
            return
                "event \(index): crypto step \(e.primitive) not checked: its values come from \(list(sources)), redacted"
        case (.call(let e), .call(let a)) where e.name == a.name:
            // A value redacted in the recording cannot be checked: the rest of the call is.
            let redacted = (e.arguments + e.outputs).filter { standInValues[$0.value] != nil }
            guard !redacted.isEmpty else { return nil }
            let names = Set(redacted.map(\.name))
            var expected = e, actual = a
            expected.arguments.removeAll { names.contains($0.name) }
            expected.outputs.removeAll { names.contains($0.name) }
            actual.arguments.removeAll { names.contains($0.name) }
            actual.outputs.removeAll { names.contains($0.name) }
            guard EventComparison.call(expected, actual, mode: mode).isEmpty else { return nil }
            return "event \(index): call \(e.name): \(names.sorted().joined(separator: ", ")) not checked: "
                + "\(list(redacted.flatMap { standInValues[$0.value] ?? [] })), redacted"
        case (.http(let e), .http(let a)):
            var members: [String] = [], sources: [String] = []
            func walk(_ value: JSONValue) {
                switch value {
                case .array(let items): items.forEach(walk)
                case .object(let fields):
                    for field in fields {
                        if case .string(let text) = field.value, let from = standInValues[text] {
                            members.append(field.name)
                            sources += from
                        } else {
                            walk(field.value)
                        }
                    }
                default: break
                }
            }
            if let expected = try? JSONParser.parse(e.request.body) { walk(expected) }
            let headers = e.request.headers.fields.filter { standInValues[$0.value] != nil }
            sources += headers.flatMap { standInValues[$0.value] ?? [] }
            guard !members.isEmpty || !headers.isEmpty, e.request.method == a.request.method,
                e.request.url == a.request.url
            else { return nil }
            let ignoredHeaders = Set(headers.map { $0.name.lowercased() } + ["content-length"])
            guard EventComparison.headersAsSet(e.request.headers, a.request.headers, ignoring: ignoredHeaders).isEmpty,
                EventComparison.bodySemantic(e.request.body, a.request.body, ignoring: Set(members)).isEmpty
            else { return nil }
            let what = (members.map { "body member " + $0 } + headers.map { "header " + $0.name }).joined(
                separator: ", ")
            return "event \(index): request \(e.request.method) \(URLText.path(e.request.url)): \(what) not checked: "
                + "computed from \(list(sources)), redacted"
        default:
            return nil
        }
    }

    static func channel(of event: CassetteEvent) -> Channel {
        switch event.payload {
        case .http: .http(event.actor)
        case .call: .call
        case .crypto: .crypto
        case .random: .random
        case .clock: .clock
        }
    }

    /// Sets the scenario step of the re-run (named in reports of unexpected events).
    public func beginStep(_ step: ScenarioStep?) {
        state.withLock { $0.step = step }
    }

    /// The first divergence so far, if any.
    public var failure: ReplayError? { state.withLock { $0.failure } }

    /// Indices of the recorded events matched so far.
    public var usedEvents: Set<Int> { state.withLock { $0.used } }

    public func transport(actor: EventActor = .sdk) -> ReplayTransport { ReplayTransport(replayer: self, actor: actor) }
    public func randomSource(actor: EventActor = .sdk) -> ReplayRandomSource {
        ReplayRandomSource(replayer: self, actor: actor)
    }
    public func clock(actor: EventActor = .sdk) -> ReplayClock { ReplayClock(replayer: self, actor: actor) }

    // MARK: - What the re-run does

    /// Checks an API result of the re-run against the next recorded `call` event.
    @discardableResult
    public func check(call: CassetteEvent.Call, actor: EventActor = .sdk) -> ReplayError? {
        let incoming = CassetteEvent(actor: actor, .call(call))
        defer { produce(incoming) }
        if case .failure(let error) = match(incoming) { return error }
        return nil
    }

    /// Checks a crypto step of the re-run against the next recorded `crypto` event.
    @discardableResult
    public func check(crypto step: CassetteEvent.CryptoStep, actor: EventActor = .sdk) -> ReplayError? {
        let incoming = CassetteEvent(actor: actor, .crypto(step))
        defer { produce(incoming) }
        if case .failure(let error) = match(incoming) { return error }
        return nil
    }

    /// The recorded answer to a request.
    func serve(_ request: HTTPRequest, actor: EventActor) -> Result<
        (index: Int?, exchange: CassetteEvent.HTTPExchange), ReplayError
    > {
        let incoming = CassetteEvent(actor: actor, .http(.init(request: .init(request), response: .init(status: 0))))
        let result = matchIndexed(incoming).map { found -> (index: Int?, exchange: CassetteEvent.HTTPExchange) in
            guard let found, case .http(let exchange) = found.event.payload else {
                return (
                    nil,
                    CassetteEvent.HTTPExchange(
                        request: .init(request), error: .init(kind: "other", message: "no recorded exchange"))
                )
            }
            return (found.index, exchange)
        }
        // Produced: the request as sent, with the answer the replay gave it (none when refused).
        var produced = CassetteEvent.HTTPExchange(request: .init(request))
        switch result {
        case .success(let (_, exchange)):
            produced.response = exchange.response
            produced.error = exchange.error
            produced.context = exchange.context
        case .failure(let error):
            produced.error = .init(
                kind: TransportError.Kind.replayDivergence.description,
                message: error.report.refusal)
        }
        produce(CassetteEvent(actor: actor, .http(produced)))
        return result
    }

    /// Appends what the re-run did to the produced flow, in the re-run's step.
    private func produce(_ event: CassetteEvent) {
        state.withLock { state in
            guard state.produced.count < cassette.events.count + Self.producedSlack else { return }
            var event = event
            event.step = ConcurrentStep.current ?? state.step
            state.produced.append(event)
        }
    }

    /// The flow the re-run produced, as a cassette with this one's header: its requests with the
    /// answers the replay gave them (a refused one with its `replayDivergence` error), its API
    /// results and crypto steps, and the random bytes and clock readings it was handed. Beside the
    /// recorded cassette, `cassette diff` shows what changed. It holds the values of the
    /// placeholders the replay was given, restored: the produced flow of a redacted cassette (one
    /// with `redactions`) holds what the redaction removed, and has no `redactions` itself.
    public func producedFlow() -> Cassette {
        var flow = cassette
        flow.redactions = []
        flow.events = state.withLock { $0.produced }
        return flow
    }

    // MARK: - Steps at the same time

    /// How many background steps are held at a recorded response, waiting for other steps.
    public var heldCount: Int { state.withLock { $0.waiters.count } }

    /// Holds a background step's recorded response as the server held it when it was recorded.
    ///
    /// In the recording, the exchange at `index` took its place when its request was sent, and the
    /// step's next event came only after events of other steps (the phone's login answered after
    /// the browser's). The response is handed back once those events have been matched, so the
    /// re-run makes every step's events in the recorded order. Only tasks of a background step
    /// (`ConcurrentStep.current` set) are held; a divergence releases every held step at once.
    public func holdResponse(after index: Int) async {
        guard mode.matching != .context, let current = ConcurrentStep.current, let step = cassette.events[index].step,
            step.index == current.index
        else { return }
        let events = cassette.events
        guard let next = events.indices.dropFirst(index + 1).first(where: { events[$0].step?.index == step.index })
        else { return }
        let needed = (index + 1..<next).filter { events[$0].step?.index != step.index }
        guard !needed.isEmpty else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.failure != nil || needed.allSatisfy(state.used.contains) { return true }
                state.waiters.append(Waiter(step: step, exchange: index, needed: needed, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends every hold: the run will make no more events of other steps (the foreground awaits a
    /// held step, or has stopped). A held step then means the cassette orders the actors' events
    /// otherwise than the re-run: that is the divergence reported, unless one was found before.
    public func abandonHolds() {
        let released: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard let waiter = state.waiters.first else { return [] }
            if state.failure == nil {
                let missing = waiter.needed.filter { !state.used.contains($0) }
                let first = missing.first ?? waiter.needed[0]
                let listed = missing.prefix(8).map {
                    "\(EventSummary.place($0, cassette.events[$0])): \(EventSummary.line(cassette.events[$0]))"
                }
                let built = report(
                    at: first,
                    summary:
                        "\(waiter.step) runs in the background and was recorded waiting at #\(waiter.exchange) for "
                        + "\(missing.count) event\(missing.count == 1 ? "" : "s") of other steps, which the re-run did not make before "
                        + "it awaited the step: the cassette orders the actors' events otherwise",
                    expected: EventSummary.line(cassette.events[first]), actual: "the re-run awaits \(waiter.step)",
                    differences: listed + (missing.count > 8 ? ["… and \(missing.count - 8) more"] : []))
                state.failure = ReplayError(kind: .actorOrder, report: built)
            }
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for continuation in released { continuation.resume() }
    }

    /// Resumes the held steps whose awaited events have all been matched (all of them after a failure).
    private func release(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.waiters.isEmpty else { return [] }
        var released: [CheckedContinuation<Void, Never>] = []
        state.waiters.removeAll { waiter in
            let done = state.failure != nil || waiter.needed.allSatisfy(state.used.contains)
            if done { released.append(waiter.continuation) }
            return done
        }
        return released
    }

    func drawRandom(count: Int, actor: EventActor) -> [UInt8] {
        let incoming = CassetteEvent(actor: actor, .random(.init(hex: String(repeating: "00", count: count))))
        let bytes: [UInt8]
        var purpose: String?
        switch match(incoming) {
        case .success(let event?):
            if case .random(let draw) = event.payload, let recorded = draw.bytes {
                bytes = recorded
                purpose = draw.purpose
            } else {
                bytes = [UInt8](repeating: 0, count: count)
            }
        case .success(nil):
            bytes = fallbackRandom?.randomBytes(count: count) ?? [UInt8](repeating: 0, count: count)
        case .failure:
            bytes = [UInt8](repeating: 0, count: count)
        }
        produce(CassetteEvent(actor: actor, .random(.init(purpose: purpose, bytes: bytes))))
        return bytes
    }

    func readClock(actor: EventActor) -> Int64 {
        let milliseconds: Int64
        var purpose: String?
        switch match(CassetteEvent(actor: actor, .clock(.init(milliseconds: 0)))) {
        case .success(let event?):
            if case .clock(let read) = event.payload {
                state.withLock { $0.lastClock = read.milliseconds }
                milliseconds = read.milliseconds
                purpose = read.purpose
            } else {
                milliseconds = state.withLock { $0.lastClock }
            }
        case .success(nil):
            milliseconds = fallbackClock?.nowMilliseconds() ?? state.withLock { $0.lastClock }
        case .failure:
            milliseconds = state.withLock { $0.lastClock }
        }
        produce(CassetteEvent(actor: actor, .clock(.init(purpose: purpose, milliseconds: milliseconds))))
        return milliseconds
    }

    /// Ends the re-run: throws the first divergence, or a report of recorded events never reached.
    public func finish() throws(ReplayError) {
        let result: ReplayError? = state.withLock { state in
            if let failure = state.failure { return failure }
            let unused: [Int]
            if mode.isStrict {
                unused = Array(state.cursor..<cassette.events.count)
            } else if mode.matching == .context {
                let exchanges = Set(contextIndex.values)
                unused =
                    (exchanges.filter { !state.used.contains($0) }
                    + channels.filter { if case .http = $0.key { false } else { true } }
                    .flatMap { channel, indices in indices.dropFirst(state.channelCursors[channel, default: 0]) })
                    .sorted()
            } else {
                unused = channels.flatMap { channel, indices in
                    indices.dropFirst(state.channelCursors[channel, default: 0])
                }.sorted()
            }
            guard let first = unused.first else { return nil }
            let event = cassette.events[first]
            let listed = unused.prefix(8).map {
                "\(EventSummary.place($0, cassette.events[$0])): \(EventSummary.line(cassette.events[$0]))"
            }
            let error = ReplayError(
                kind: .unusedEvents,
                report: report(
                    at: first,
                    summary:
                        "the re-run ended with \(unused.count) recorded event\(unused.count == 1 ? "" : "s") unused",
                    expected: EventSummary.line(event), actual: "the end of the run",
                    differences: listed + (unused.count > 8 ? ["… and \(unused.count - 8) more"] : [])))
            state.failure = error
            return error
        }
        if let result { throw result }
    }

    // MARK: - Matching

    /// Matches an incoming event; success carries the recorded event (nil: the cassette has none of
    /// this kind and the mode lets it pass).
    private func match(_ incoming: CassetteEvent) -> Result<CassetteEvent?, ReplayError> {
        matchIndexed(incoming).map { $0?.event }
    }

    /// `match`, with the index of the recorded event; held steps whose wait is over resume.
    private func matchIndexed(_ incoming: CassetteEvent) -> Result<(index: Int, event: CassetteEvent)?, ReplayError> {
        let (result, released, diverged) = state.withLock { state in
            let before = state.failure == nil
            let result = matchLocked(incoming, &state)
            return (result, release(&state), before ? state.failure : nil)
        }
        for continuation in released { continuation.resume() }
        if let diverged, let handler = divergenceHandler.withLock({ $0 }) { handler(diverged) }
        return result
    }

    /// Calls `handler` when the re-run first diverges, on the task that made the diverging event,
    /// before that event's caller gets its answer (a cassette test reports the divergence then,
    /// ahead of the failures that follow from it). A divergence found by `finish()` or
    /// `abandonHolds()`, after the run, is only thrown.
    public func onDivergence(_ handler: @escaping @Sendable (ReplayError) -> Void) {
        divergenceHandler.withLock { $0 = handler }
    }

    private func matchLocked(_ incoming: CassetteEvent, _ state: inout State) -> Result<
        (index: Int, event: CassetteEvent)?, ReplayError
    > {
        do {
            if let failure = state.failure { return .failure(failure) }
            if mode.matching == .context, case .http(let exchange) = incoming.payload {
                return matchByContext(exchange.request, incoming: incoming, &state)
            }
            let index: Int
            if mode.isStrict {
                guard state.cursor < cassette.events.count else {
                    return .failure(
                        fail(
                            &state, .cassetteExhausted, at: nil, incoming: incoming,
                            summary: "the re-run went on after the last of the \(cassette.events.count) recorded events"
                        ))
                }
                index = state.cursor
            } else {
                let channel = Self.channel(of: incoming)
                guard let indices = channels[channel], !indices.isEmpty else {
                    switch incoming.payload {
                    case .call, .crypto: return .success(nil)
                    case .random where fallbackRandom != nil: return .success(nil)
                    case .clock where fallbackClock != nil: return .success(nil)
                    default:
                        return .failure(
                            fail(
                                &state, incoming.type == "http" ? .cassetteExhausted : .noSource, at: nil,
                                incoming: incoming,
                                summary: "the cassette has no recorded \(incoming.type) events for \(incoming.actor)"
                                    + (incoming.type == "http" ? "" : " and no fallback source was given")))
                    }
                }
                let position = state.channelCursors[channel, default: 0]
                guard position < indices.count else {
                    return .failure(
                        fail(
                            &state, .cassetteExhausted, at: nil, incoming: incoming,
                            summary: "the re-run made more \(incoming.type) events than the \(indices.count) recorded"))
                }
                index = indices[position]
            }
            let recorded = cassette.events[index]
            if let problem = compare(recorded, incoming) {
                if let note = notCheckable(index, recorded, incoming) {
                    state.unchecked.append(note)
                } else {
                    return .failure(
                        fail(
                            &state, problem.kind, at: index, incoming: incoming, summary: problem.summary,
                            differences: problem.differences))
                }
            }
            if mode.isStrict {
                state.cursor += 1
            } else {
                state.channelCursors[Self.channel(of: incoming), default: 0] += 1
            }
            state.used.insert(index)
            return .success((index, recorded))
        }
    }

    /// Mode `context`: the recorded exchange with the request's method, URL and the task's
    /// `ExchangeContext` (the harness's key), used or not: the harness wrote a key once, and its
    /// player answers every request of that key from it.
    private func matchByContext(
        _ request: CassetteEvent.HTTPExchange.Request, incoming: CassetteEvent, _ state: inout State
    )
        -> Result<(index: Int, event: CassetteEvent)?, ReplayError>
    {
        let context = ExchangeContext.current ?? ""
        let key = Self.contextKey(request.method, request.url, context)
        if let index = contextIndex[key] {
            guard case .http(let recorded) = cassette.events[index].payload else {
                return .success((index, cassette.events[index]))
            }
            let (lines, sent) = ContextComparison.body(recorded.request.body, request.body, fresh: fresh)
            if !lines.isEmpty {
                return .failure(
                    fail(
                        &state, .requestMismatch, at: index, incoming: incoming,
                        summary: "the request differs from the recorded one of its key \"\(key)\"",
                        differences: lines + ContextComparison.answers(holding: sent, in: cassette)))
            }
            state.used.insert(index)
            return .success((index, cassette.events[index]))
        }
        let sameRequest = cassette.httpExchanges.filter {
            $0.exchange.request.method == request.method && $0.exchange.request.url == request.url
        }
        var summary: String
        if sameRequest.isEmpty {
            summary = "the cassette has no exchange \(request.method) \(request.url) in any context"
        } else {
            let contexts = sameRequest.prefix(4).map { "\"\($0.exchange.context ?? "")\" (#\($0.index))" }.joined(
                separator: ", ")
            summary =
                "the cassette has \(request.method) \(request.url) only in the context\(sameRequest.count == 1 ? "" : "s") \(contexts)"
                + (sameRequest.count > 4 ? " and \(sameRequest.count - 4) more" : "")
        }
        // The nearest recorded request of its context (or URL): what differs from it, and the
        // answers that hold the values sent in its place.
        var at: Int?, differences: [String] = []
        if let nearest = ContextComparison.nearest(to: request, context: context, in: cassette, used: state.used),
            case .http(let recorded) = cassette.events[nearest.index].payload
        {
            let body = ContextComparison.body(recorded.request.body, request.body, fresh: fresh)
            at = nearest.index
            summary +=
                "; the nearest recorded request of its \((recorded.context ?? "") == context ? "context" : "URL") is the expected one"
            differences =
                nearest.lines + body.lines + ContextComparison.answers(holding: nearest.sent + body.sent, in: cassette)
        }
        return .failure(
            fail(
                &state, .requestMismatch, at: at, incoming: incoming,
                summary: "no recorded exchange has the key \"\(key)\" (method, URL and request context): " + summary,
                differences: differences))
    }

    /// The harness's key of an exchange: `method url context` (`tests/common/http_recorded_data.cpp`).
    static func contextKey(_ method: String, _ url: String, _ context: String) -> String {
        method + " " + url + " " + context
    }

    private func compare(_ recorded: CassetteEvent, _ incoming: CassetteEvent)
        -> (kind: ReplayError.Kind, summary: String, differences: [String])?
    {
        if recorded.type != incoming.type || (mode.isStrict && recorded.actor != incoming.actor) {
            if recorded.actor != incoming.actor {
                return (
                    .unexpectedEvent,
                    "the re-run made \(describe(incoming)) where the cassette has \(recorded.actor)'s "
                        + "\(EventSummary.line(recorded)): the actors' events come in another order than in the recording "
                        + "(steps that run at the same time are ordered as docs/scenarios.md, \"Steps at the same time\", says)",
                    []
                )
            }
            return (
                .unexpectedEvent,
                "the re-run made \(describe(incoming)) where the cassette has a \(recorded.type) event", []
            )
        }
        switch (recorded.payload, incoming.payload) {
        case (.http(let e), .http(let a)):
            let lines = EventComparison.request(e.request, a.request, mode: mode)
            return lines.isEmpty ? nil : (.requestMismatch, "the request differs from the recorded one", lines)
        case (.call(let e), .call(let a)):
            let lines = EventComparison.call(e, a, mode: mode)
            return lines.isEmpty ? nil : (.callMismatch, "the result of \(a.name) differs from the recorded one", lines)
        case (.crypto(let e), .crypto(let a)):
            let lines = EventComparison.crypto(e, a, mode: mode)
            return lines.isEmpty
                ? nil
                : (
                    .cryptoMismatch, "the crypto step \(a.primitive) differs from the recorded one",
                    lines + tamperedSources(e, a)
                )
        case (.random(let e), .random(let a)):
            let recordedCount = e.bytes?.count ?? -1, wanted = a.hex.count / 2
            return recordedCount == wanted
                ? nil
                : (
                    .randomMismatch, "the re-run asked for \(wanted) random bytes, the recording drew \(recordedCount)",
                    []
                )
        default:
            return nil
        }
    }

    /// For a crypto step whose re-run input differs from the recorded one: the recorded responses
    /// that hold the re-run's value. The SDK took the value from such a response, and the
    /// recording computed with another one, so the response's bytes were changed after recording.
    private func tamperedSources(_ expected: CassetteEvent.CryptoStep, _ actual: CassetteEvent.CryptoStep) -> [String] {
        var out: [String] = []
        for (recorded, rerun) in zip(expected.inputs, actual.inputs)
        where recorded.name == rerun.name && recorded.value != rerun.value && rerun.value.count >= 16 {
            for (index, exchange) in cassette.httpExchanges {
                guard let response = exchange.response,
                    String(decoding: response.body, as: UTF8.self).contains(rerun.value)
                else { continue }
                out.append(
                    "input \(rerun.name) comes from the response of event \(index) (\(exchange.request.method) "
                        + "\(URLText.path(exchange.request.url))), which no longer holds the value the recording computed with: "
                        + "that response was changed after recording")
                break
            }
        }
        return out
    }

    private func describe(_ event: CassetteEvent) -> String {
        switch event.payload {
        case .http(let exchange): "a request \(exchange.request.method) \(exchange.request.url) (\(event.actor))"
        case .random(let draw): "a draw of \(draw.hex.count / 2) random bytes (\(event.actor))"
        case .clock: "a clock read (\(event.actor))"
        case .call(let call): "a call \(call.name) (\(event.actor))"
        case .crypto(let step): "a crypto step \(step.primitive) (\(event.actor))"
        }
    }

    private func fail(
        _ state: inout State, _ kind: ReplayError.Kind, at index: Int?, incoming: CassetteEvent, summary: String,
        differences: [String] = []
    ) -> ReplayError {
        var expected = index.map { EventSummary.line(cassette.events[$0]) } ?? "nothing (the cassette is used up)"
        var actual = actualLine(incoming)
        if let index, cassette.events[index].type == incoming.type, incoming.type == "call" || incoming.type == "crypto"
        {
            (expected, actual) = EventSummary.pair(cassette.events[index], incoming)
        }
        var built = report(at: index, summary: summary, expected: expected, actual: actual, differences: differences)
        if index == nil { built.step = ConcurrentStep.current ?? state.step }
        // Mode `context` names the expected exchange itself, compared as that mode compares.
        if case .http(let exchange) = incoming.payload, mode.matching != .context || index == nil {
            built.closest = closest(to: exchange.request, expected: index, used: state.used)
        }
        let error = ReplayError(kind: kind, report: built)
        state.failure = error
        return error
    }

    private func actualLine(_ event: CassetteEvent) -> String {
        switch event.payload {
        case .http(let exchange):
            "http \(exchange.request.method) \(exchange.request.url)"
                + (exchange.request.body.isEmpty ? "" : " (\(exchange.request.body.count) B)")
        case .random(let draw): "a draw of \(draw.hex.count / 2) random bytes"
        case .clock: "a clock read"
        default: EventSummary.line(event)
        }
    }

    private func report(at index: Int?, summary: String, expected: String?, actual: String?, differences: [String])
        -> DivergenceReport
    {
        let event = index.map { cassette.events[$0] }
        // The call in progress: a call is recorded when it returns, after the events it made.
        let call = index.flatMap { start in
            cassette.events[start...].lazy.compactMap { event -> String? in
                guard case .call(let call) = event.payload, event.actor == self.cassette.events[start].actor else {
                    return nil
                }
                return call.name
            }.first
        }
        return DivergenceReport(
            cassette: path ?? "cassette \"\(cassette.scenario.name)\"", mode: mode, eventIndex: index,
            step: event?.step, actor: event?.actor, call: call, summary: summary, expected: expected, actual: actual,
            differences: differences, rerecord: RerecordHint.command(for: cassette, path: path))
    }

    /// The recorded request most like `request`: same method and URL first, then fewest differences.
    private func closest(to request: CassetteEvent.HTTPExchange.Request, expected index: Int?, used: Set<Int>)
        -> String?
    {
        var best: (score: Int, index: Int, lines: [String])?
        for (candidate, exchange) in cassette.httpExchanges {
            let lines = EventComparison.request(exchange.request, request, mode: .strict)
            var score = lines.count
            if exchange.request.method != request.method { score += 100 }
            if URLText.path(exchange.request.url) != URLText.path(request.url) { score += 50 }
            if exchange.request.url != request.url { score += 10 }
            if best == nil || score < best!.score || (score == best!.score && candidate == index) {
                best = (score, candidate, lines)
            }
        }
        guard let best else { return nil }
        let event = cassette.events[best.index]
        guard case .http(let exchange) = event.payload else { return nil }
        let what =
            best.lines.isEmpty
            ? "identical"
            : "differs in " + best.lines.prefix(4).joined(separator: "; ")
                + (best.lines.count > 4 ? "; … (\(best.lines.count) differences)" : "")
        return "\(EventSummary.place(best.index, event)): \(exchange.request.method) \(exchange.request.url)"
            + (best.index == index ? " (the expected one)" : (used.contains(best.index) ? " (already used)" : ""))
            + " — \(what)"
    }
}
