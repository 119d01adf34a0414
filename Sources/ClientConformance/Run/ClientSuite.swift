import Conformance
import CurlTransport
import FileAccess
import FlowRecording
import Foundation
import MPinCrypto
import ReferenceBackend
import SDKSeams

/// Runs the client cases against one client, one after the other, and reports their verdicts as
/// the backend suite does (`ConformanceReport`, docs/conformance.md "Grading a client").
///
/// For each case the suite starts the reference backend on 127.0.0.1 (a free port) with the
/// run's profile and the case's faults, records every exchange it answers (and those of the two
/// other origins, `OtherOrigin`) into the case's log, gives the case a working folder of its own
/// and a new user with a PIN of its own, runs the case (which runs the client through the driver,
/// once or several times), stops the backend, and keeps the log as the case's cassette (redacted
/// with `redactedFields`). Randomness and the clock are parameters.
package struct ClientSuite: Sendable {
    package struct Options: Sendable {
        package var profile: ClientProfile = .default
        /// Which cases run (all when nil).
        package var pattern: CasePattern?
        /// At most this many requests a second answered by the backend (each waits for its slot); nil for no limit.
        package var rate: Double?
        /// The most seconds one run of the client may take.
        package var runTimeLimit = DriverLimits.defaultTimeLimit
        /// Where the cases' working folders are made (a new folder under it per run of the suite).
        package var workFolder = "/tmp"
        /// The tool named in each cassette.
        package var tool = Cassette.Tool(name: "mpin-workbench conform --client", version: "1")
        /// The fields each cassette has redacted (`Redactor`); none when empty.
        package var redactedFields: [String] = []
        /// Whether the working folders are removed at the end.
        package var removesFolders = true

        package init() {}
    }

    package let options: Options
    package let cases: [ClientCase]
    let driver: any ClientDriver
    let random: any RandomSource
    let clock: any ConformanceClock

    package init(
        options: Options, driver: any ClientDriver, cases: [ClientCase] = ClientCatalog.all,
        random: any RandomSource = SystemRandomSource(), clock: any ConformanceClock = SystemConformanceClock()
    ) {
        self.options = options
        self.driver = driver
        self.cases = cases
        self.random = random
        self.clock = clock
    }

    /// The cases the pattern selects, in catalogue order.
    package var selected: [ClientCase] { cases.filter { options.pattern?.matches($0.id) ?? true } }

    /// The graded backend's description in reports.
    package var backendDescription: String { "the reference backend (profile \(options.profile))" }

    /// Runs the selected cases; `progress` hears of each result as it lands. Throws only when
    /// the suite cannot start its own servers or make its folder.
    package func run(progress: @Sendable (CaseResult) -> Void = { _ in }) async throws -> ConformanceReport {
        let started = clock.now()
        let prefix = "client-" + MPinCrypto.Hex.encode(random.randomBytes(count: 4))
        let root = options.workFolder + "/mpin-conform-" + prefix
        try Directories.create(root)
        let transport = CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 10))
        let trap = try await OtherOrigin.start(forwarding: false, transport: transport)
        let alias = try await OtherOrigin.start(forwarding: true, transport: transport)
        let origins = FaultOrigins(trap: trap.baseURL, alias: alias.baseURL)
        let pacer = RequestPacer(budget: .max, rate: options.rate, clock: clock)
        var results: [CaseResult] = []
        var driverProblems = 0
        var graded = 0
        if let problem = driver.problem() {
            await trap.stop()
            await alias.stop()
            return report(
                results: [], prefix: prefix, seconds: clock.now() - started, couldNotRun: problem, requests: 0)
        }
        var requests = 0
        for (index, clientCase) in selected.enumerated() {
            let outcome = await run(
                clientCase, number: index + 1, root: root, prefix: prefix, origins: origins, trap: trap, alias: alias,
                pacer: pacer, transport: transport)
            if outcome.driverProblem { driverProblems += 1 }
            if outcome.result.verdict.kind != .unimplemented && outcome.result.verdict.kind != .skipped { graded += 1 }
            requests += outcome.result.requests
            results.append(outcome.result)
            progress(outcome.result)
        }
        await trap.stop()
        await alias.stop()
        if options.removesFolders { Self.remove(root) }
        let couldNotRun =
            graded > 0 && driverProblems == graded
            ? "the client could not be run: every case that ran it ended in a driver error (the first: "
                + (results.first { $0.verdict.reason.hasPrefix("driver error") }?.verdict.reason ?? "") + ")"
            : nil
        return report(
            results: results, prefix: prefix, seconds: clock.now() - started, couldNotRun: couldNotRun,
            requests: requests)
    }

    private func report(results: [CaseResult], prefix: String, seconds: Double, couldNotRun: String?, requests: Int)
        -> ConformanceReport
    {
        var report = ConformanceReport(
            backendURL: backendDescription, userPrefix: prefix, pattern: options.pattern?.description,
            rate: options.rate, requests: requests, seconds: seconds, operatorEndpoints: false, results: results)
        report.client = driver.name
        report.couldNotRun = couldNotRun
        return report
    }

    /// One case: its backend started, the case run, the backend stopped, the result made.
    private func run(
        _ clientCase: ClientCase, number: Int, root: String, prefix: String, origins: FaultOrigins, trap: OtherOrigin,
        alias: OtherOrigin, pacer: RequestPacer, transport: any HTTPTransport
    ) async -> (result: CaseResult, driverProblem: Bool) {
        let started = clock.now()
        let log = ExchangeLog()
        func result(_ verdict: Verdict, cassette: Cassette?) -> CaseResult {
            CaseResult(
                id: clientCase.id, title: clientCase.title, group: clientCase.group, level: clientCase.level,
                source: clientCase.source, sends: clientCase.backendDoes, expects: clientCase.expects, verdict: verdict,
                seconds: clock.now() - started, requests: log.clientExchanges.count,
                exchanges: cassette.map(ExchangeSummary.of) ?? [], cassette: cassette)
        }
        if let problem = clientCase.backend.problem(under: options.profile) {
            return (result(.unimplemented(problem), cassette: nil), false)
        }
        let folder = root + "/" + String(number) + "-" + SafeFileName.make(clientCase.id)
        do {
            try Directories.create(folder)
        } catch {
            return (
                result(.fail("the suite could not make the case's folder \(folder): \(error)"), cassette: nil), false
            )
        }
        var configuration = clientCase.backend.configuration(profile: options.profile, origins: origins)
        configuration.faults = Self.paced(configuration.faults, pacer: pacer, rate: options.rate)
        configuration.exchangeObserver = { log.add($0) }
        let backend: ReferenceBackend
        do {
            backend = try await ReferenceBackend.start(configuration)
        } catch {
            return (result(.fail("the suite could not start the case's backend: \(error)"), cassette: nil), false)
        }
        trap.serve(log: log, backendURL: nil)
        alias.serve(log: log, backendURL: backend.baseURL)
        let context = ClientCaseContext(
            caseID: clientCase.id, profile: options.profile, driver: driver, backend: backend, origins: origins,
            log: log, user: "\(prefix)-\(clientCase.id.replacing(".", with: "-"))@example.com",
            pin: newPIN(),
            folder: folder, timeLimit: options.runTimeLimit, transport: transport,
            activation: clientCase.backend.activation)
        var driverProblem = false
        let verdict: Verdict
        do {
            verdict = try await clientCase.body(context)
        } catch {
            driverProblem = error.isDriverProblem
            verdict = error.verdict(level: clientCase.level)
        }
        trap.serve(log: nil, backendURL: nil)
        alias.serve(log: nil, backendURL: nil)
        await backend.stop()
        let header = Cassette(
            tool: options.tool, curve: configuration.curve == .bn254 ? "BN254" : "BN254CX",
            scenario: .init(name: "conform --client " + clientCase.id),
            backend: .init(url: backend.baseURL, flavour: options.profile.flavour.rawValue, embedded: true))
        var cassette = log.cassette(header: header)
        if !options.redactedFields.isEmpty { cassette = Redactor(fields: options.redactedFields).redact(cassette) }
        return (result(verdict, cassette: cassette), driverProblem)
    }

    /// A PIN of four digits, 1000 to 9998 (so that the PIN one more is four digits too).
    func newPIN() -> String {
        let bytes = random.randomBytes(count: 2)
        return String(1000 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 8999)
    }

    /// With a rate, every endpoint of the table waits for its slot before it answers (the
    /// case's fault, if any, after it): the pacing is a fault of its own on each endpoint.
    static func paced(_ faults: [Endpoint: ExchangeFault], pacer: RequestPacer, rate: Double?) -> [Endpoint:
        ExchangeFault]
    {
        guard rate != nil else { return faults }
        var out = faults
        for endpoint in Endpoint.all {
            let inner = faults[endpoint] ?? .none
            out[endpoint] = ExchangeFault { request, services, next in
                _ = await pacer.admit()
                return await inner.handle(request, services, next)
            }
        }
        return out
    }

    /// Removes a folder the suite made (under its own name only).
    static func remove(_ folder: String) {
        guard folder.contains("/mpin-conform-client-") else { return }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
