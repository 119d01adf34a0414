import ArgumentParser
import CommonFormats
import FileAccess
import FlowRecording
import Foundation
import HTTPServing
import MilagroRecording
import ProxyServing
import Scenarios

/// `mpin-workbench proxy --upstream URL --out FILE`: a recording proxy between any M-Pin client and
/// its backend, checking the protocol as it goes.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Record any client's session: forward to a backend, check the M-Pin protocol, write a cassette.",
        discussion: """
            Listens on --host/--port (loopback by default) and forwards every request to the --upstream \
            backend through libcurl: method, path and query, header fields in order (hop-by-hop fields, \
            Host, Content-Length and Expect aside) and body, byte for byte. The upstream's origin in \
            response bodies and header values (absolute URLs in the client settings, a Location) is \
            rewritten to the proxy's own, so the client keeps talking through it. Each exchange is \
            recorded as the client saw it, under the proxy's URL, with the upstream timings; an \
            unreachable upstream or a time limit (--timeout) is recorded as a transport error and \
            answered 502. On Ctrl-C (or SIGTERM), or after --max-exchanges exchanges, the cassette is \
            written atomically to --out (redacted as `record` does) and can be served with \
            `cassette serve`, shown, diffed and diagrammed. The first Ctrl-C waits for the exchanges \
            in flight; a second (or a SIGTERM after it) aborts them, each recorded as a cancelled \
            transport error, and writes what was recorded within 2 s. A client's request body that has \
            not arrived --body-timeout seconds after its head (default 10) is answered 408, the \
            connection closed, and nothing forwarded or recorded.

            Every forwarded request carries the proxy's `Via: \(RecordingProxy.defaultVia)` (not \
            recorded), so the reference backend, whose operator endpoints (/admin/*: mailbox with \
            activation links and codes, revoke, restore, counts; /devicesecurity/admin/*) answer \
            only clients on its machine, refuses them to the proxy's clients (403) although the \
            proxy connects from loopback. --allow-admin forwards without it, so they answer every \
            client of the proxy. A --host that is not a loopback address prints a warning naming \
            what it exposes.

            Nothing is recorded that the cassette reader would refuse: an upstream answer it cannot \
            represent (more than 1000 header fields, a field name that is not a token, a control \
            character in a value), a body over --max-body bytes, or one that would take the \
            cassette past 160 MiB is recorded as a transport error that says why, and the \
            client gets the same 502; once the cassette holds 160 MiB, requests are answered 503 \
            and not recorded. The path and query are forwarded exactly as received (`..` \
            segments are not folded). CONNECT is answered 405 (the reason in Proxy-Status; the \
            connection is closed) and an absolute-form, authority-form or * target 400 with a JSON \
            body saying why; neither is forwarded or recorded.

            A client may talk to other origins than the backend's: the open-source server's settings \
            name D-TA 2 on its own origin (certivoxURL). Each --route PREFIX=ORIGIN covers one: \
            requests under PREFIX (such as /dta2) go to ORIGIN without the prefix, and ORIGIN in \
            responses is rewritten to the proxy's URL with PREFIX, so those exchanges are recorded \
            too. Origins the settings name that no request went to are listed in the summary, with \
            how many exchanges the client made there that the cassette lacks.

            Per exchange it prints what the M-Pin checks found (as `cassette check` does): the status \
            against docs/protocol.md §4, JSON bodies, hex lengths, the G1 points of shares, permits and \
            passes 1 and 2 (U, UT, V) on the curve, access-number check digits, time-permit dates, the \
            order of the flow, and who sent each request (the browser's access-number requests, polls \
            and login, else the SDK); each finding a failure, a warning or a note; at the end a summary. \
            Exit status 1 when a check failed (warnings and notes do not count), 2 when it could not \
            start or write.

            Examples:
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --port 8006 --out Recordings/phone.json
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --route /dta2=http://127.0.0.1:8001 --out flow.json
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --scenario authenticate --seed s1 --max-exchanges 12 --out flow.json
            """
    )

    @Option(help: "The backend to forward to: an origin such as http://127.0.0.1:8005.")
    var upstream: String

    @Option(
        name: .customLong("route"),
        help: ArgumentHelp(
            "Another upstream origin under a path prefix, PREFIX=ORIGIN (such as /dta2=http://127.0.0.1:8001); repeatable.",
            valueName: "prefix=origin"))
    var routes: [String] = []

    @OptionGroup var listen: ListenOption

    var host: String { listen.host }
    var port: Int { listen.port }

    @Option(help: "The cassette file to write.")
    var out: String

    @Option(
        name: .customLong("max-exchanges"), parsing: .unconditional,
        help: "Stop after this many exchanges, 1 to 1000000 (default: at Ctrl-C).",
        transform: BoundedNumber.integer(ProxyCommand.exchangesRange))
    var maxExchanges: Int?

    @Option(
        parsing: .unconditional,
        help: "Time limit of one upstream exchange in seconds, more than 0 and at most 3600 (default 60).",
        transform: BoundedNumber.decimal(0...3_600, aboveLowerBound: true, unit: "seconds"))
    var timeout: Double = 60

    @Option(
        name: .customLong("max-body"), parsing: .unconditional,
        help:
            "The largest upstream body recorded and passed on, in bytes, 1 to 16777216 (default 16 MiB); a larger one is answered 502 and recorded as a transport error.",
        transform: BoundedNumber.integer(1...RecordingProxy.defaultMaximumBodySize))
    var maxBody = RecordingProxy.defaultMaximumBodySize

    @Option(
        name: .customLong("body-timeout"), parsing: .unconditional,
        help:
            "Seconds a client's request body may take after its head before a 408 and a close, not forwarded nor recorded (more than 0, at most 3600; default 10).",
        transform: BoundedNumber.decimal(0...BodyDeadline.maximumSeconds, aboveLowerBound: true, unit: "seconds"))
    var bodyTimeout = BodyDeadline.defaultSeconds

    @Option(
        parsing: .upToNextOption,
        help:
            "Fields to redact: 'default' (PIN, tokens, regOTT, shares, authOTT, ...), 'none', or field names (default: 'default' unless the upstream is on loopback)."
    )
    var redact: [String] = []

    @OptionGroup var logging: LogLevelOption

    @Flag(
        name: .customLong("allow-admin"),
        help:
            "Forward without the proxy's Via field, so that a backend on this machine answers its operator endpoints (/admin/*, /devicesecurity/admin/*) to the proxy's clients; by default they get 403."
    )
    var allowAdmin = false

    @Option(
        help:
            "The scenario the client runs, if it is one: a script file or a bundled scenario's name (kept in the cassette, so that `replay` can drive the SDK through it)."
    )
    var scenario: String?

    @Option(
        help:
            "With --scenario: the seed of the client's randomness, for `replay` (default: the script's seed, else \"\(ScenarioCommandSupport.defaultSeed)\", as `record` and `run` seed it)."
    )
    var seed: String?

    static let exchangesRange = 1...1_000_000

    func validate() throws {
        if URLText.origin(upstream) == nil {
            throw ValidationError(
                "--upstream is an origin such as http://127.0.0.1:8005 (http or https, a host, no path), got \"\(upstream)\"."
            )
        }
        if redact.contains("none"), redact.count > 1 {
            throw ValidationError(
                "--redact none redacts nothing; it cannot go with \(redact.filter { $0 != "none" }.joined(separator: ", "))."
            )
        }
        if out.isEmpty { throw ValidationError("--out names the cassette file to write.") }
        var prefixes: Set<String> = []
        for text in routes {
            guard let route = RecordingProxy.Route(argument: text) else {
                throw ValidationError(
                    "--route is PREFIX=ORIGIN, a path prefix such as /dta2 (no trailing /, no ? or #) and an origin such as http://127.0.0.1:8001, got \"\(text)\"."
                )
            }
            if !prefixes.insert(route.prefix).inserted {
                throw ValidationError("--route \(route.prefix) is given twice.")
            }
        }
    }

    /// Options given that cannot take effect: each a warning, and the proxy records without them.
    var warnings: [String] {
        guard seed != nil, scenario == nil else { return [] }
        return [
            "warning: --seed goes with --scenario (it is the seed of the scenario's run); without one it has no effect"
        ]
    }

    func run() async throws {
        for warning in warnings { Console.error(warning + "\n") }
        if let warning = ExposureWarning.proxy(host: host, upstream: upstream, out: out, allowAdmin: allowAdmin) {
            Console.error(warning + "\n")
        }
        // The file is tried before anything listens: an unwritable path is said at once.
        do {
            _ = try AtomicFile.Writer(path: out)
        } catch {
            throw CommandFailure("--out: \(error)")
        }
        let script = try scenario.map(ScenarioCommandSupport.readScript)
        let upstream = URLText.origin(self.upstream)!
        let seed = script.map { ScenarioCommandSupport.seed(self.seed, script: $0) }
        let name = ((out as NSString).lastPathComponent as NSString).deletingPathExtension
        let configuration = ProxySession.Configuration(
            upstream: upstream, routes: routes.compactMap(RecordingProxy.Route.init(argument:)), host: host, port: port,
            maximumExchanges: maxExchanges, timeout: timeout, maximumBodySize: maxBody,
            via: allowAdmin ? nil : RecordingProxy.defaultVia,
            bodyDeadline: BodyDeadline(seconds: bodyTimeout) ?? .standard,
            out: out, logger: LogLevelOption.logger("proxy", logging.level)
        ) { baseURL in
            ProxySession.header(
                baseURL: baseURL, name: name, script: script, seed: seed, upstream: upstream,
                tool: ScenarioCommandSupport.tool)
        }
        let session = ProxySession(say: Console.line)
        do {
            try await session.run(configuration)
        } catch {
            throw CommandFailure("\(error)")
        }
        guard var cassette = session.cassette() else { return }
        let fields = Redactor.milagroFields(for: redact, live: upstream)
        if !fields.isEmpty { cassette = Redactor(fields: fields).redact(cassette) }
        do {
            try CassetteFile.write(cassette, to: out)
        } catch {
            throw CommandFailure(error.description)
        }
        let placeholders = cassette.redactions.map(\.placeholder)
        Console.line(
            "\(out): \(cassette.events.count) exchange\(cassette.events.count == 1 ? "" : "s") recorded"
                + (placeholders.isEmpty ? "" : "; redacted: " + placeholders.joined(separator: ", ")))
        let summary = session.summary
        Console.line(summary.text)
        if let hint = ProxySession.routeHint(summary.unseenOrigins) { Console.line(hint) }
        if !summary.passed { throw ExitCode.failure }
    }
}
