import CommonFormats
import FlowRecording
import MPinCrypto
import SDKSeams

/// Runs cases against one backend, one after the other, and reports their verdicts.
///
/// Each case gets its own context: a recorder (its exchanges become a cassette, redacted with
/// `redactedFields`), the run's pacer (budget and `--rate`), the case's request limit, and the
/// run's bounds (`RunBounds`): the deadline and each request's time limit (`PacedTransport`), the
/// allowed origins, the largest answer and what a cassette can hold (`BackendBoundary`). A request
/// the boundary refuses makes the case fail with a verdict that says why; a case the deadline cut
/// is skipped, and once it has passed no case starts. Slow cases (those that wait on the
/// backend's timers) run only with `includeSlow`. Transport, randomness and both clocks are
/// parameters, so that a test runs the suite against an in-process backend with fixed seams.
public struct ConformanceSuite: Sendable {
    public struct Options: Sendable {
        /// The backend's base URL.
        public var backendURL: String
        public var rpsPrefix = "rps"
        /// Which cases run (all when nil).
        public var pattern: CasePattern?
        /// Requests per second; nil for no limit.
        public var rate: Double?
        /// The most requests of the whole run.
        public var budget = 5_000
        /// Whether the cases that wait on the backend's timers run.
        public var includeSlow = false
        /// An activation code for a backend that wants one to register.
        public var activationCode: String?
        /// The first part of every user id (`conform-<random>`); drawn from the random source when nil.
        public var userPrefix: String?
        /// The MFA platform's client id, sent as `X-MIRACL-CID` on every request.
        public var clientID: String?
        /// Where an access code for a registration comes from on the MFA platform (an OIDC
        /// authorize URL, docs/protocol.md §3.8, §10); the backend's `/authorize` for this client id when nil.
        public var authorizeURL: String?
        /// The tool named in each cassette.
        public var tool = Cassette.Tool(name: "mpin-workbench conform", version: "1")
        /// Other origins requests may go to (URLs or origins), besides the backend's and the
        /// authorize URL's: a client-settings URL elsewhere is not followed (`OriginPolicy`).
        public var allowedOrigins: [String] = []
        /// Seconds the whole run may take, from the suite's creation (nil: no deadline).
        public var deadline: Double?
        /// The most seconds one request may take.
        public var requestTimeout = 30.0
        /// The largest answer body taken, in bytes (16 MiB): a larger one fails its case.
        public var maximumBodySize = RecordingProxy.defaultMaximumBodySize
        /// The most bytes the exchanges of all the run's cassettes take (160 MiB).
        public var maximumRecordedBytes = RecordingProxy.defaultMaximumRecordedBytes
        /// The fields whose values each cassette has redacted (`Redactor`); none when empty.
        public var redactedFields: [String] = []

        public init(backendURL: String) {
            self.backendURL = backendURL
        }
    }

    public let options: Options
    public let cases: [ConformanceCase]
    let transport: any HTTPTransport
    let random: any RandomSource
    let sdkClock: any SDKClock
    let clock: any ConformanceClock
    let bounds: RunBounds

    /// - Parameters:
    ///   - options: the backend, the selection, the budget and rate, and what the backend needs.
    ///   - cases: all the cases the suite knows (`ConformanceCatalog.all` by default); `options.pattern` selects.
    ///   - transport: what carries every request (libcurl in the command line).
    ///   - random: where the user names and the SDK's draws come from.
    ///   - sdkClock: the clock the SDK reads (time permits, OTP).
    ///   - clock: the clock the pacing and the timings read.
    public init(
        options: Options, cases: [ConformanceCase] = ConformanceCatalog.all, transport: any HTTPTransport,
        random: any RandomSource, sdkClock: any SDKClock, clock: any ConformanceClock
    ) {
        self.options = options
        self.cases = cases
        self.transport =
            options.clientID.map { HeaderTransport(base: transport, headers: ["X-MIRACL-CID": $0]) } ?? transport
        self.random = random
        self.sdkClock = sdkClock
        self.clock = clock
        bounds = RunBounds(options: options, clock: clock)
    }

    /// The cases the pattern selects, in catalogue order.
    public var selected: [ConformanceCase] {
        cases.filter { options.pattern?.matches($0.id) ?? true }
    }

    /// Whether the backend answers at all: nil when it does (an answer over the largest body is
    /// one: its cases grade it), else the transport's error.
    public func probe() async -> TransportError? {
        let url = Self.trimmed(options.backendURL) + "/\(options.rpsPrefix)/clientSettings"
        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: bounds.timeLimit(asked: 15)))
            return nil
        } catch {
            return error.kind == .responseTooLarge ? nil : error
        }
    }

    /// Runs the selected cases; `progress` hears of each result as it lands. Once the deadline has
    /// passed, the cases left are skipped unrun.
    public func run(progress: @Sendable (CaseResult) -> Void = { _ in }) async -> ConformanceReport {
        let pacer = RequestPacer(budget: options.budget, rate: options.rate, clock: clock)
        let prefix = options.userPrefix ?? "conform-" + Hex.encode(random.randomBytes(count: 4))
        let started = clock.now()
        let operatorEndpoints = await hasOperatorEndpoints(pacer: pacer)
        var results: [CaseResult] = []
        var deadlinePassed = false
        for conformanceCase in selected {
            var result: CaseResult
            if bounds.deadlinePassed {
                result = CaseResult(
                    conformanceCase, verdict: .skipped("not run: \(deadlineReason)"), seconds: 0, requests: 0,
                    cassette: nil)
                result.deadlineHit = true
                deadlinePassed = true
            } else {
                result = await run(conformanceCase, pacer: pacer, prefix: prefix, operatorEndpoints: operatorEndpoints)
                if result.deadlineHit { deadlinePassed = true }
            }
            results.append(result)
            progress(result)
        }
        return ConformanceReport(
            backendURL: options.backendURL, userPrefix: prefix, pattern: options.pattern?.description,
            rate: options.rate, requests: pacer.sent, seconds: clock.now() - started,
            operatorEndpoints: operatorEndpoints, results: results,
            deadlinePassed: deadlinePassed ? deadlineReason : nil)
    }

    /// Why cases went unfinished: the deadline, in words.
    private var deadlineReason: String {
        "the run's deadline (\(bounds.deadlineSeconds.map(RunBounds.seconds) ?? "none"), --deadline) has passed"
    }

    private func run(_ conformanceCase: ConformanceCase, pacer: RequestPacer, prefix: String, operatorEndpoints: Bool)
        async -> CaseResult
    {
        let header = Cassette(
            tool: options.tool, curve: "BN254CX", scenario: .init(name: "conform " + conformanceCase.id),
            backend: .init(url: Self.trimmed(options.backendURL), flavour: "milagro"))
        let recorder = Recorder(header: header)
        let paced = PacedTransport(
            base: transport, pacer: pacer, caseLimit: conformanceCase.requestLimit, bounds: bounds)
        let boundary = BackendBoundary(base: paced, bounds: bounds, header: header)
        let context = ConformanceContext(
            backendURL: options.backendURL, rpsPrefix: options.rpsPrefix, caseID: conformanceCase.id,
            userPrefix: prefix, activationCode: options.activationCode,
            authorizeURL: options.authorizeURL
                ?? options.clientID.map { Self.authorizeURL(options.backendURL, clientID: $0) },
            hasOperatorEndpoints: operatorEndpoints, random: random, sdkClock: sdkClock, clock: clock,
            paced: paced, wire: boundary, recorder: recorder)
        let started = clock.now()
        var verdict: Verdict
        if conformanceCase.slow && !options.includeSlow {
            verdict = .skipped("a slow case (it waits on the backend's timers): run with --slow")
        } else {
            verdict = await conformanceCase.run(context)
            if let finding = BackendBoundary.verdict(boundary.findings, bounds: bounds) {
                verdict = finding
            } else if paced.deadlineHit && verdict.kind != .skipped {
                verdict = .skipped("\(deadlineReason) before the case could finish (was: \(verdict))")
            } else if paced.refused && verdict.kind != .skipped {
                verdict = .skipped("request budget spent before the case could finish (was: \(verdict))")
            }
        }
        var cassette = recorder.cassette()
        if !options.redactedFields.isEmpty { cassette = Redactor(fields: options.redactedFields).redact(cassette) }
        var result = CaseResult(
            conformanceCase, verdict: verdict, seconds: clock.now() - started, requests: paced.sent, cassette: cassette)
        result.deadlineHit = paced.deadlineHit
        return result
    }

    /// Whether `GET /admin/counts` answers 200 (sent outside any case, counted in the budget).
    private func hasOperatorEndpoints(pacer: RequestPacer) async -> Bool {
        guard await pacer.admit() else { return false }
        let request = HTTPRequest(
            method: .get, url: Self.trimmed(options.backendURL) + "/admin/counts", timeout: bounds.timeLimit(asked: 15))
        guard let response = try? await transport.send(request) else { return false }
        return response.status == 200 && response.json?.objectMembers != nil
    }

    /// The workbench backend's authorize URL for a client id (its `/authorize`, docs/protocol.md §10).
    static func authorizeURL(_ backendURL: String, clientID: String) -> String {
        QueryString.appending(
            [
                ("client_id", clientID), ("redirect_uri", "http://127.0.0.1/callback"), ("response_type", "code"),
                ("scope", "openid"), ("state", "conform"),
            ], to: trimmed(backendURL) + "/authorize")
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
