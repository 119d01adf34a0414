import ArgumentParser
import Dispatch
import FlowRecording
import Foundation
import Logging
import ReferenceBackend
import Synchronization

/// `mpin-workbench serve --cassette FILE`: answers HTTP clients (an SDK of another platform) with a
/// cassette's recorded responses, until Ctrl-C or, with `exitWhenDone`, until every recorded
/// exchange has been served. Exit status 0 when nothing missed and everything was served, else 1;
/// 2 when it could not start (unreadable cassette, missing values, nothing to serve, port in use).
struct CassetteServing {
    var path: String
    var host: String
    var port: Int
    var order: CassettePlayback.Order
    var actors: Set<EventActor>
    var secrets: [String: String]
    var exitWhenDone: Bool
    /// The URL clients reach the server under, when not the listening address (a phone on the LAN,
    /// an emulator's host alias); recorded absolute URLs are rewritten to it.
    var publicURL: String?
    /// `--junit FILE`: one testcase for the cassette, passed when every recorded exchange was served
    /// and nothing missed, failed with the summary otherwise, an error when it could not serve.
    var junit: JUnitOption
    /// `--log-level`: each request's log line and the server's own messages at this level and above go to standard error.
    var logLevel: Logger.Level = .info
    /// `--body-timeout`: a request whose body is late gets 408 and its connection is closed.
    var bodyTimeout = BodyDeadline.standard

    /// The status and reset endpoints, outside any backend's paths.
    static let statusPath = "/__workbench/playback"
    static let resetPath = "/__workbench/playback/reset"

    func run() throws {
        try junit.check()
        let timer = ContinuousClock()
        let start = timer.now
        /// Prints `message`, reports it as the testcase's error, and gives exit status 2.
        func refuse(_ message: String) throws -> ExitCode {
            CassetteOutput.error(message)
            try junit.write(junitReport(.error(message, type: nil), duration: timer.now - start))
            return ExitCode(2)
        }
        let recorded: Cassette
        do {
            recorded = try CassetteFile.read(path)
        } catch {
            throw try refuse(error.description)
        }
        // Only the placeholders of the HTTP exchanges need values: the rest (a PIN in the script or
        // in a call's arguments) is never sent, so it keeps its placeholder.
        var exchanges = recorded
        exchanges.scenario.script = nil
        exchanges.redactions = []
        exchanges.events = recorded.events.filter { $0.type == "http" }
        let needed = Set(Redactor.placeholderNames(in: exchanges))
        var values = secrets
        for name in Redactor.placeholderNames(in: recorded) + recorded.redactions.map(\.placeholder)
            where !needed.contains(name) && values[name] == nil {
            values[name] = Placeholder.text(name)
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
            throw try refuse("\(path): no recorded HTTP exchange of the actors \(names) to serve (choose others with --actor)")
        }

        let control = ServingControl()
        let stopped = DispatchSemaphore(value: 0)
        let path = self.path, host = self.host, port = self.port, order = self.order, actors = self.actors
        let exitWhenDone = self.exitWhenDone, publicURL = self.publicURL, logger = LogLevelOption.logger("serve", logLevel)
        let bodyTimeout = self.bodyTimeout
        let task = Task {
            do {
                let server = try await PlainHTTPServer.start(host: host, port: port, logger: logger, logRequests: true,
                                                             name: "cassette server", bodyTimeout: bodyTimeout) { request in
                    control.handle(request, exitWhenDone: exitWhenDone)
                }
                let baseURL = publicURL ?? server.baseURL
                let playback = CassettePlayback(cassette: cassette, name: path, order: order, actors: actors, servedOrigin: baseURL)
                control.begin(playback)
                if baseURL != server.baseURL { ServeCommand.say("listening on \(server.baseURL)") }
                ServeCommand.say(Self.banner(cassette: cassette, playback: playback, baseURL: baseURL, exitWhenDone: exitWhenDone))
                await withTaskCancellationHandler {
                    await server.wait()
                } onCancel: {
                    Task { await server.stop() }
                }
            } catch {
                control.fail(error)
            }
            stopped.signal()
        }
        control.attach(task)

        ServeCommand.waitForStop(stopped) { control.stop() }
        if let error = control.error {
            throw try refuse("\(error)")
        }
        guard let summary = control.summary else {
            try junit.write(junitReport(.error("stopped before serving", type: nil), duration: timer.now - start))
            return
        }
        ServeCommand.say(summary.text)
        try junit.write(junitReport(summary.passed ? .passed : .failed(summary.text, type: nil), duration: timer.now - start))
        if !summary.passed { throw ExitCode(1) }
    }

    /// The report of `--junit`: one testcase, the cassette served.
    func junitReport(_ outcome: JUnitReport.TestCase.Outcome, duration: Duration) -> JUnitReport {
        JUnitReport(name: "serve --cassette", testCases: [JUnitReport.TestCase(name: path, classname: "serve", duration: duration, outcome: outcome)])
    }

    static func banner(cassette: Cassette, playback: CassettePlayback, baseURL: String, exitWhenDone: Bool) -> String {
        var lines = [
            "serving cassette \(playback.name) on \(baseURL)",
            "  backend (SDK setting): \(baseURL)",
            "  scenario: \(cassette.scenario.name), recorded against \(cassette.backend.url) (\(cassette.backend.flavour))",
            "  \(playback.offered) recorded exchanges, order \(playback.order.rawValue)"
                + (playback.order == .route ? " (method + path, each route in recorded order, its last answer repeated)" : " (each request must be the next recorded one)"),
        ]
        if !playback.recordedOrigin.isEmpty, playback.recordedOrigin != baseURL {
            lines.append("  \(playback.recordedOrigin) in recorded responses is rewritten to \(baseURL)")
        }
        lines.append("  routes:")
        lines += playback.routeList.map { "    " + $0 }
        lines.append("  status: GET \(baseURL)\(statusPath); start again: POST \(baseURL)\(resetPath)")
        lines.append(exitWhenDone ? "Stops when every recorded exchange has been served, or on Ctrl-C." : "Ctrl-C stops it and prints the summary.")
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

    private let server = ServerTaskControl()

    func attach(_ task: Task<Void, Never>) { server.attach(task) }

    func stop() { server.stop() }

    func fail(_ error: any Error) { server.fail(error) }

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
        case ("GET", CassetteServing.statusPath):
            return .init(status: 200, headers: [.init("Content-Type", "application/json")], body: playback.summaryJSON)
        case ("POST", CassetteServing.resetPath):
            playback.reset()
            ServeCommand.say("[\(number)] reset: serving from the first recorded exchange again")
            return .init(status: 200, headers: [.init("Content-Type", "application/json")], body: playback.summaryJSON)
        default:
            break
        }
        let answer = playback.answer(method: request.method, target: request.target, body: request.body)
        ServeCommand.say("[\(number)] " + answer.log)
        if exitWhenDone, playback.isComplete {
            ServeCommand.say("every recorded exchange has been served")
            stop()
        }
        return .init(status: answer.status, headers: answer.headers.fields.map { .init($0.name, $0.value) }, body: answer.body)
    }
}
