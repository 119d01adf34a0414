import ArgumentParser
import FlowRecording
import Foundation
import HTTPServing
import Logging
import MilagroRecording
import Synchronization

/// `mpin-workbench cassette serve FILE` (formerly `serve --cassette FILE`): answers HTTP clients
/// (an SDK of another platform) with a cassette's recorded responses, until Ctrl-C or, with
/// `--exit-when-done`, until every recorded exchange has been served. Exit status 0 when nothing
/// missed and everything was served, else 1; 2 when it could not start (unreadable cassette,
/// missing values, nothing to serve, port in use).
struct CassetteServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a cassette's recorded responses to any HTTP client (an SDK of another platform).",
        discussion: """
            Every request is answered with the recorded response of the same method and path, in \
            recorded order (the last one repeated once a route's are used up), so an SDK of another \
            platform can run the recorded flow against the same answers. Each request gets a log \
            line (what was served, what differed); a request that matches nothing gets a 404 naming \
            the closest recorded one. On exit it prints a summary. A request whose body has not \
            arrived --body-timeout seconds after its head gets 408 and the connection is closed. \
            With --junit FILE it also writes a JUnit XML report: one testcase for the cassette, \
            failed with the summary when a request matched nothing or a recorded exchange was never \
            asked for, an error when it could not serve. `serve --cassette FILE` still works, with \
            a warning naming this spelling.

            Exit status: 0 when stopped with nothing missed, 1 when a request matched nothing or a \
            recorded exchange was never asked for, 2 when the cassette cannot be read, the server \
            cannot start or the usage was wrong.

            Examples:
              mpin-workbench cassette serve Recordings/authenticate.json --port 8005
              mpin-workbench cassette serve flow.json --secret pin=1234 --exit-when-done --junit served.xml
              mpin-workbench cassette serve flow.json --host 0.0.0.0 --public-url http://192.168.1.20:8005
            """
    )

    @Argument(help: "The cassette to serve.")
    var path: String

    @OptionGroup var listen: ListenOption

    @OptionGroup var logging: LogLevelOption

    @Option(help: "route (method + path, each in recorded order) or sequential (the whole cassette in order).")
    var order = CassettePlayback.Order.route

    @Option(
        name: .customLong("actor"), parsing: .upToNextOption,
        help: "Whose recorded exchanges to serve (default: sdk browser device).")
    var actorNames: [String] = []

    @Option(parsing: .upToNextOption, help: "Values of redacted placeholders, NAME=VALUE.")
    var secret: [String] = []

    @Option(
        name: .customLong("public-url"),
        help:
            "The URL clients reach this server under (default: the listening address); recorded absolute URLs are rewritten to it."
    )
    var publicURLOption: String?

    @Flag(name: .customLong("exit-when-done"), help: "Stop once every recorded exchange has been served.")
    var exitWhenDone = false

    @Option(
        name: .customLong("body-timeout"), parsing: .unconditional,
        help:
            "Seconds a request's body may take after its head before a 408 and a close (more than 0, at most 3600; default 10).",
        transform: BoundedNumber.decimal(0...BodyDeadline.maximumSeconds, aboveLowerBound: true, unit: "seconds"))
    var bodyTimeoutSeconds = BodyDeadline.defaultSeconds

    @OptionGroup var junit: JUnitOption

    var host: String { listen.host }
    var port: Int { listen.port }
    var actors: Set<EventActor> {
        actorNames.isEmpty ? CassettePlayback.defaultActors : Set(actorNames.map(EventActor.init(rawValue:)))
    }
    var secrets: [String: String] {
        var values: [String: String] = [:]
        for pair in secret {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = String(parts[1])
        }
        return values
    }
    /// The URL clients reach the server under, when not the listening address (a phone on the LAN,
    /// an emulator's host alias), without a trailing `/`; recorded absolute URLs are rewritten to it.
    var publicURL: String? { publicURLOption.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
    var logLevel: Logger.Level { logging.level }
    // In range: the option's transform checked it.
    var bodyTimeout: BodyDeadline { BodyDeadline(seconds: bodyTimeoutSeconds) ?? .standard }

    func validate() throws {
        for pair in secret where !pair.contains("=") {
            throw ValidationError("--secret takes NAME=VALUE, got \"\(pair)\".")
        }
        if let publicURLOption {
            let origin = publicURLOption.hasSuffix("/") ? publicURLOption.dropLast() : Substring(publicURLOption)
            guard let scheme = origin.range(of: "://"), ["http", "https"].contains(origin[..<scheme.lowerBound]),
                !origin[scheme.upperBound...].isEmpty, !origin[scheme.upperBound...].contains("/")
            else {
                throw ValidationError(
                    "--public-url is an origin such as http://192.168.1.20:8005, got \"\(publicURLOption)\".")
            }
        }
    }

    /// The status and reset endpoints, outside any backend's paths.

    func run() async throws {
        if let warning = ExposureWarning.cassette(host: host, cassette: path) {
            Console.error(warning + "\n")
        }
        try junit.check()
        let timer = ContinuousClock()
        let start = timer.now
        /// Reports `message` as the testcase's error; the failure to throw (exit status 2).
        func refuse(_ message: String) throws -> CommandFailure {
            try junit.write(junitReport(.error(message, type: nil), duration: timer.now - start))
            return CommandFailure(message)
        }
        var recorded: Cassette
        do {
            recorded = try CassetteFile.read(path)
        } catch {
            throw try refuse(error.description)
        }
        // What only the client holds is never served, even where the manifest says it goes.
        let clientOnly = Set(Redactor.milagroClientOnly.map { $0.lowercased() })
        for index in recorded.redactions.indices
        where clientOnly.contains(recorded.redactions[index].field.lowercased()) {
            let answers = recorded.redactions[index].slots.filter { $0.part == .response }
            guard !answers.isEmpty else { continue }
            recorded.redactions[index].slots.removeAll { $0.part == .response }
            Console.error(
                "warning: \(path): \(Placeholder.text(recorded.redactions[index].placeholder)) "
                    + "(\(recorded.redactions[index].field), which only the client holds) is listed in an answer "
                    + "(\(answers.map(\.description).joined(separator: ", "))); it is served unfilled\n")
        }
        // Only the placeholders of the HTTP exchanges need values: the rest (a PIN in the script or
        // in a call's arguments) is never sent, so it keeps its placeholder.
        var exchanges = recorded
        exchanges.scenario.script = nil
        exchanges.redactions = []
        exchanges.events = recorded.events.filter { $0.type == "http" }
        let needed = Set(Redactor.placeholderNames(in: exchanges))
        var values = self.secrets
        for name in Redactor.placeholderNames(in: recorded) + recorded.redactions.map(\.placeholder)
        where !needed.contains(name) && values[name] == nil {
            values[name] = Placeholder.text(name)
        }
        // A placeholder is filled only where the redactor put it (the manifest's `at`): one
        // planted elsewhere, in a public body field say, is served as it is, never with the secret.
        for (name, slot) in Redactor.unlistedPlaceholders(in: recorded) where self.secrets[name] != nil {
            Console.error(
                "warning: \(path): \(Placeholder.text(name)) at \(slot) is not where the redactor put it "
                    + "(the manifest's `at`); it is served unfilled\n")
        }
        let cassette: Cassette
        do {
            cassette = try Redactor.restore(recorded, values: values, path: path)
        } catch {
            throw try refuse(error.description.replacing(" at replay", with: ""))
        }
        let offered = CassettePlayback(cassette: cassette, name: path, order: order, actors: actors).offered
        guard offered > 0 else {
            let names = actors.map(\.rawValue).sorted().joined(separator: ", ")
            throw try refuse(
                "\(path): no recorded HTTP exchange of the actors \(names) to serve (choose others with --actor)")
        }

        let control = ServingControl()
        let path = self.path, host = self.host, port = self.port, order = self.order, actors = self.actors
        let exitWhenDone = self.exitWhenDone, publicURL = self.publicURL,
            logger = LogLevelOption.logger("serve", logLevel)
        let bodyTimeout = self.bodyTimeout
        await control.server.run {
            let server = try await PlainHTTPServer.start(
                host: host, port: port, logger: logger, logRequests: true,
                name: "cassette server", bodyTimeout: bodyTimeout
            ) { request in
                control.handle(request, exitWhenDone: exitWhenDone)
            }
            let baseURL = publicURL ?? server.baseURL
            let playback = CassettePlayback(
                cassette: cassette, name: path, order: order, actors: actors, servedOrigin: baseURL)
            control.begin(playback)
            if baseURL != server.baseURL { Console.line("listening on \(server.baseURL)") }
            Console.line(
                Self.banner(cassette: cassette, playback: playback, baseURL: baseURL, exitWhenDone: exitWhenDone))
            await withTaskCancellationHandler {
                await server.wait()
            } onCancel: {
                Task { await server.stop() }
            }
        }
        if let error = control.error {
            throw try refuse("\(error)")
        }
        guard let summary = control.summary else {
            try junit.write(junitReport(.error("stopped before serving", type: nil), duration: timer.now - start))
            return
        }
        Console.line(summary.text)
        try junit.write(
            junitReport(summary.passed ? .passed : .failed(summary.text, type: nil), duration: timer.now - start))
        if !summary.passed { throw ExitCode.failure }
    }

    /// The report of `--junit`: one testcase, the cassette served.
    func junitReport(_ outcome: JUnitReport.TestCase.Outcome, duration: Duration) -> JUnitReport {
        JUnitReport(
            name: "cassette serve",
            testCases: [JUnitReport.TestCase(name: path, classname: "serve", duration: duration, outcome: outcome)])
    }

    static func banner(cassette: Cassette, playback: CassettePlayback, baseURL: String, exitWhenDone: Bool) -> String {
        var lines = [
            "serving cassette \(playback.name) on \(baseURL)",
            "  backend (SDK setting): \(baseURL)",
            "  scenario: \(cassette.scenario.name), recorded against \(cassette.backend.url) (\(cassette.backend.flavour))",
            "  \(playback.offered) recorded exchanges, order \(playback.order.rawValue)"
                + (playback.order == .route
                    ? " (method + path, each route in recorded order, its last answer repeated)"
                    : " (each request must be the next recorded one)"),
        ]
        if !playback.recordedOrigin.isEmpty, playback.recordedOrigin != baseURL {
            lines.append("  \(playback.recordedOrigin) in recorded responses is rewritten to \(baseURL)")
        }
        lines.append("  routes:")
        lines += playback.routeList.map { "    " + $0 }
        lines.append(
            "  status: GET \(baseURL)\(CassettePlayback.statusPath); start again: POST \(baseURL)\(CassettePlayback.resetPath)"
        )
        lines.append(
            exitWhenDone
                ? "Stops when every recorded exchange has been served, or on Ctrl-C."
                : "Ctrl-C stops it and prints the summary.")
        return lines.joined(separator: "\n")
    }
}

/// The state shared by the request handler, the signal handlers and the command: the playback,
/// the request count, the server task, and the error that ended it.
private final class ServingControl: Sendable {
    private struct State {
        var playback: CassettePlayback?
        var requests = 0
    }

    private let state = Mutex(State())

    func begin(_ playback: CassettePlayback) { state.withLock { $0.playback = playback } }

    let server = ServerTaskControl(announce: Console.out)

    func stop() { server.stop() }

    var error: (any Error)? { server.error }

    var summary: CassettePlayback.Summary? { state.withLock { $0.playback }?.summary }

    func handle(_ request: PlainHTTPServer.Request, exitWhenDone: Bool) -> PlainHTTPServer.Response {
        let (playback, number) = state.withLock { state -> (CassettePlayback?, Int) in
            state.requests += 1
            return (state.playback, state.requests)
        }
        guard let playback else {
            return .init(status: 503, headers: [.init("Content-Type", "text/plain")], body: Array("starting\n".utf8))
        }
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        switch (request.method, path) {
        case ("GET", CassettePlayback.statusPath):
            return .init(status: 200, headers: [.init("Content-Type", "application/json")], body: playback.summaryJSON)
        case ("POST", CassettePlayback.resetPath):
            playback.reset()
            Console.line("[\(number)] reset: serving from the first recorded exchange again")
            return .init(status: 200, headers: [.init("Content-Type", "application/json")], body: playback.summaryJSON)
        default:
            break
        }
        let answer = playback.answer(method: request.method, target: request.target, body: request.body)
        Console.line("[\(number)] " + answer.log)
        if exitWhenDone, playback.isComplete {
            Console.line("every recorded exchange has been served")
            stop()
        }
        return .init(answer.response)
    }
}
