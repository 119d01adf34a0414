import ArgumentParser
import Dispatch
import FlowRecording
import Foundation
import Logging
import MilagroRecording
import ReferenceBackend

/// `mpin-workbench serve`: the reference backend on a real port until Ctrl-C.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the reference Milagro backend (RPS, two D-TAs, demo RPA or MFA platform).",
        discussion: """
            Prints the base URL to give an SDK (`backend`), the client settings it serves and, in \
            the email and code activation modes, every activation link or code as it would be mailed. \
            With --seed, every random value (master secrets, y, ids, access numbers) follows the seed; \
            with --time as well, the clock stands still, so the same requests get the same answers. \
            Ctrl-C stops it.

            Limits: a request whose body has not arrived --body-timeout seconds (default \(Int(BodyDeadline.defaultSeconds))) after \
            its head gets 408 and the connection is closed (also with --cassette). An activation \
            code is cancelled after \(BackendConfiguration().activationCodeTries) wrong tries; the right code is then refused too, until a new \
            one is requested. Each store a client can fill (pending registrations, identities, \
            pass-1 challenges, pass-2 verdicts, browser sessions, activation and authorization \
            codes) holds at most --record-limit records (default \(BackendConfiguration().recordLimit)): at the cap the expired ones are dropped, and if \
            none has expired the request that would add one gets 503; the mailbox and the demo \
            RPA's logged-in sessions drop their oldest (under --profile milagro-oss every store \
            drops its oldest, as that server has no such refusal; the DeviceSecurity service's \
            sessions and devices drop theirs too). The operator endpoints (/admin/*: mailbox \
            with activation links and codes, revoke, restore, counts; /devicesecurity/admin/*) \
            answer only clients on this machine (403 to others) unless --remote-admin is given; \
            a --host that is not a loopback address prints a warning naming what it exposes.

            With --cassette FILE it serves a recording instead: every request is answered with the \
            recorded response of the same method and path, in recorded order (the last one repeated \
            once a route's are used up), so an SDK of another platform can run the recorded flow \
            against the same answers. Each request gets a log line (what was served, what differed); \
            a request that matches nothing gets a 404 naming the closest recorded one. On exit it \
            prints a summary; the exit status is 1 when a request matched nothing or a recorded \
            exchange was never asked for. With --junit FILE it also writes a JUnit XML report: one \
            testcase for the cassette, failed with the summary when a request matched nothing or a \
            recorded exchange was never asked for, an error when it could not serve.

            Exit status: 0 when stopped with nothing missed, 1 when a request matched nothing or a \
            recorded exchange was never asked for, 2 when the cassette cannot be read, the server \
            cannot start or the usage was wrong.
            """
    )

    @Option(help: "Address to listen on.")
    var host = ServeCommand.defaultHost

    @Option(parsing: .unconditional, help: "Port to listen on, 0 to 65535 (0 picks a free one).",
            transform: BoundedNumber.integer(0...65_535))
    var port = 0

    @OptionGroup var logging: LogLevelOption

    @Option(help: "Backend flavour: milagro or mfa-platform.")
    var flavour = BackendFlavour.milagro

    @Option(help: "Whose answers: default (the workbench's), milagro-oss (the open-source Milagro server's, as measured) or milagro-hosted-v3 (the backend of the C++ SDK core's recorded unit tests).")
    var profile = BackendProfile.default

    @Option(help: "How registrations are activated: auto, email or code.")
    var activation = ActivationMode.auto

    @Option(help: "Seed for every random value (deterministic backend).")
    var seed: String?

    @Option(parsing: .unconditional, help: "Freeze the clock at this time (seconds since 1970, 0 to 253402300799: up to the end of year 9999).",
            transform: BoundedNumber.integer(ServeCommand.timeRange, unit: "seconds since 1970"))
    var time: Int64?

    /// `--time`: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in seconds.
    static let timeRange: ClosedRange<Int64> = 0...253_402_300_799
    /// `--bench-runs` and `--bench-authentications`.
    static let benchRunsRange = 1...1_000
    static let benchAuthenticationsRange = 1...100_000

    @Option(name: .customLong("client-id"), help: "MFA platform: the only X-MIRACL-CID accepted (default: any).")
    var clientID: String?

    @Option(name: .customLong("login-timeout"),
            parsing: .unconditional,
            help: "Seconds the phone's access-number or QR login is held waiting for the browser's login (more than 0, at most 3600; default 10).",
            transform: BoundedNumber.decimal(0...BackendConfiguration.maximumLoginTimeout, aboveLowerBound: true, unit: "seconds"))
    var loginTimeout: Double?

    @Option(name: .customLong("body-timeout"), parsing: .unconditional,
            help: "Seconds a request's body may take after its head before a 408 and a close (more than 0, at most 3600; default 10).",
            transform: BoundedNumber.decimal(0...BodyDeadline.maximumSeconds, aboveLowerBound: true, unit: "seconds"))
    var bodyTimeout = BodyDeadline.defaultSeconds

    @Option(name: .customLong("record-limit"), parsing: .unconditional,
            help: "The most records each per-client store keeps (pending registrations, sessions, codes, ...), 1 to 10000000; default 10000.",
            transform: BoundedNumber.integer(1...10_000_000))
    var recordLimit = BackendConfiguration().recordLimit

    @Flag(name: .customLong("remote-admin"),
          help: "Let clients on other machines use the operator endpoints (/admin/*, /devicesecurity/admin/*); by default they get 403.")
    var remoteAdmin = false

    @Option(help: "Serve this cassette's recorded responses instead of the reference backend.")
    var cassette: String?

    @Option(help: "With --cassette: route (method + path, each in recorded order) or sequential (the whole cassette in order).")
    var order = CassettePlayback.Order.route

    @Option(name: .customLong("actor"), parsing: .upToNextOption,
            help: "With --cassette: whose recorded exchanges to serve (default: sdk browser device).")
    var actors: [String] = []

    @Option(parsing: .upToNextOption, help: "With --cassette: values of redacted placeholders, NAME=VALUE.")
    var secret: [String] = []

    @Option(name: .customLong("public-url"),
            help: "With --cassette: the URL clients reach this server under (default: the listening address); recorded absolute URLs are rewritten to it.")
    var publicURL: String?

    @Flag(name: .customLong("exit-when-done"), help: "With --cassette: stop once every recorded exchange has been served.")
    var exitWhenDone = false

    @OptionGroup var junit: JUnitOption

    @Flag(help: "Instead of serving, measure authentications per second with in-process SDK clients, then exit.")
    var bench = false

    @Option(name: .customLong("bench-clients"), parsing: .upToNextOption, help: "Concurrent clients to measure, each 1 to 256 (with --bench).",
            transform: BoundedNumber.integer(1...256))
    var benchClients = ServeCommand.defaultBenchClients

    @Option(name: .customLong("bench-runs"), parsing: .unconditional, help: "Runs per client count, 1 to 1000; the median is reported (with --bench).",
            transform: BoundedNumber.integer(ServeCommand.benchRunsRange))
    var benchRuns = ServeCommand.defaultBenchRuns

    @Option(name: .customLong("bench-authentications"), parsing: .unconditional, help: "Authentications per run, 1 to 100000 (with --bench).",
            transform: BoundedNumber.integer(ServeCommand.benchAuthenticationsRange))
    var benchAuthentications = ServeCommand.defaultBenchAuthentications

    @Flag(name: .customLong("bench-json"),
          help: "With --bench: print one JSON object (rates, latency percentiles in µs, CPU, connections, peak RSS, the crypto bound) instead of text.")
    var benchJSON = false

    static let defaultBenchClients = [1, 4, 16]
    static let defaultBenchRuns = 5
    static let defaultBenchAuthentications = 64
    static let defaultHost = "127.0.0.1"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
        if let loginTimeout, !BackendConfiguration.isValidLoginTimeout(loginTimeout) {
            throw ValidationError("--login-timeout must be more than 0 and at most \(Int(BackendConfiguration.maximumLoginTimeout)) seconds, "
                                  + "got \(loginTimeout).")
        }
        if profile == .milagroOSS && flavour != .milagro {
            throw ValidationError("--profile milagro-oss is the open-source Milagro server: it goes with --flavour milagro.")
        }
        if profile == .milagroOSS && activation == .code {
            throw ValidationError("--profile milagro-oss has no activation codes: use --activation auto or email.")
        }
        if profile == .milagroHostedV3,
           let problem = BackendConfiguration(flavour: flavour, activation: activation, profile: profile).problem {
            throw ValidationError("--profile: \(problem).")
        }
        for pair in secret where !pair.contains("=") { throw ValidationError("--secret takes NAME=VALUE, got \"\(pair)\".") }
        if cassette == nil, !actors.isEmpty || !secret.isEmpty || exitWhenDone || publicURL != nil {
            throw ValidationError("--actor, --secret, --public-url and --exit-when-done go with --cassette.")
        }
        if let publicURL {
            let origin = publicURL.hasSuffix("/") ? publicURL.dropLast() : Substring(publicURL)
            guard let scheme = origin.range(of: "://"), ["http", "https"].contains(origin[..<scheme.lowerBound]),
                  !origin[scheme.upperBound...].isEmpty, !origin[scheme.upperBound...].contains("/") else {
                throw ValidationError("--public-url is an origin such as http://192.168.1.20:8005, got \"\(publicURL)\".")
            }
        }
        if cassette == nil, junit.path != nil { throw ValidationError("--junit goes with --cassette: the reference backend has no checks to report.") }
        if cassette != nil, remoteAdmin || recordLimit != BackendConfiguration().recordLimit {
            throw ValidationError("--remote-admin and --record-limit set up the reference backend; a served cassette has neither.")
        }
        if cassette != nil, bench { throw ValidationError("--bench measures the reference backend; leave out --cassette.") }
        try validateModes()
        if cassette != nil, seed != nil || time != nil || clientID != nil || flavour != .milagro || activation != .auto || loginTimeout != nil
            || profile != .default {
            throw ValidationError("--flavour, --profile, --activation, --seed, --time, --client-id and --login-timeout set up the reference backend; "
                                  + "a served cassette answers as recorded.")
        }
    }

    /// Options that would have no effect in the mode given are errors, naming them.
    func validateModes() throws {
        if !bench {
            let given = [("--bench-clients", benchClients != Self.defaultBenchClients), ("--bench-runs", benchRuns != Self.defaultBenchRuns),
                         ("--bench-authentications", benchAuthentications != Self.defaultBenchAuthentications),
                         ("--bench-json", benchJSON)].filter(\.1).map(\.0)
            if !given.isEmpty { throw ValidationError("\(given.joined(separator: ", ")) go\(given.count == 1 ? "es" : "") with --bench.") }
        } else {
            let ignored = [("--host", host != Self.defaultHost), ("--port", port != 0), ("--flavour", flavour != .milagro),
                           ("--profile", profile != .default), ("--activation", activation != .auto), ("--seed", seed != nil),
                           ("--time", time != nil), ("--client-id", clientID != nil), ("--login-timeout", loginTimeout != nil),
                           ("--log-level", logging.given != nil), ("--body-timeout", bodyTimeout != BodyDeadline.defaultSeconds),
                           ("--remote-admin", remoteAdmin), ("--record-limit", recordLimit != BackendConfiguration().recordLimit)]
                .filter(\.1).map(\.0)
            if !ignored.isEmpty {
                throw ValidationError("--bench measures a reference backend of its own on a free loopback port; "
                                      + "\(ignored.joined(separator: ", ")) would have no effect.")
            }
        }
        if cassette == nil, order != .route { throw ValidationError("--order goes with --cassette.") }
        if cassette == nil, !bench, clientID != nil, flavour != .mfaPlatform {
            throw ValidationError("--client-id is the MFA platform's X-MIRACL-CID: it goes with --flavour mfa-platform.")
        }
    }

    func run() throws {
        if bench { return try runBenchmark() }
        // In range: `validate` and the option's transform checked it.
        let deadline = BodyDeadline(seconds: bodyTimeout) ?? .standard
        if let cassette {
            var values: [String: String] = [:]
            for pair in secret {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                values[String(parts[0])] = String(parts[1])
            }
            let chosen = actors.isEmpty ? CassettePlayback.defaultActors : Set(actors.map(EventActor.init(rawValue:)))
            if let warning = Self.exposureWarning(host: host, cassette: cassette, remoteAdmin: false) { Console.error(warning + "\n") }
            return try CassetteServing(path: cassette, host: host, port: port, order: order, actors: chosen, secrets: values,
                                       exitWhenDone: exitWhenDone, publicURL: publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 },
                                       junit: junit, logLevel: logging.level, bodyTimeout: deadline).run()
        }
        var configuration = BackendConfiguration(host: host, port: port, flavour: flavour, activation: activation, seed: seed, profile: profile)
        configuration.clientID = clientID
        if let loginTimeout { configuration.loginTimeout = loginTimeout }
        configuration.bodyTimeout = deadline
        configuration.allowsRemoteAdmin = remoteAdmin
        configuration.recordLimit = recordLimit
        if let warning = Self.exposureWarning(host: host, cassette: nil, remoteAdmin: remoteAdmin) { Console.error(warning + "\n") }
        let clock: any BackendClock = time.map { ManualBackendClock(milliseconds: $0 * 1000) } ?? SystemBackendClock()
        let stopped = DispatchSemaphore(value: 0)
        let outcome = ServeOutcome()

        let task = Task {
            do {
                let backend = try await ReferenceBackend.start(configuration, clock: clock, logger: LogLevelOption.logger("serve", logging.level),
                                                               logRequests: true) { message in
                    switch message.kind {
                    case .link: Self.say("activation link for \(message.userID): \(message.value)")
                    case .code: Self.say("activation code for \(message.userID): \(message.value)")
                    }
                }
                Self.say(Self.banner(backend))
                await withTaskCancellationHandler {
                    await backend.wait()
                } onCancel: {
                    Task { await backend.stop() }
                }
            } catch {
                outcome.fail(error)
            }
            stopped.signal()
        }

        Self.waitForStop(stopped) { task.cancel() }
        if let error = outcome.error { throw error }
    }

    /// Waits for `stopped`, calling `stop` (after saying "stopping") on Ctrl-C or SIGTERM meanwhile.
    static func waitForStop(_ stopped: DispatchSemaphore, stop: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                say("stopping")
                stop()
            }
            source.resume()
            sources.append(source)
        }
        stopped.wait()
        sources.forEach { $0.cancel() }
    }

    private func runBenchmark() throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = ServeOutcome()
        let benchmark = ServeBenchmark(clientCounts: benchClients, runs: benchRuns, authenticationsPerRun: benchAuthentications)
        Task {
            do {
                try await benchmark.run(say: Self.say, json: benchJSON)
            } catch {
                outcome.fail(error)
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    static func banner(_ backend: ReferenceBackend) -> String {
        var lines = ["reference backend listening on \(backend.baseURL)", "  backend (SDK setting): \(backend.baseURL)"]
        lines += backend.summary.map { "  \($0.0): \($0.1)" }
        if backend.configuration.flavour == .mfaPlatform {
            lines.append("  authorize URL: \(backend.authorizeURL(clientID: backend.configuration.clientID ?? "workbench"))")
        }
        lines.append("  DeviceSecurity service (MVID connector): POST \(backend.baseURL)/devicesecurity/login, /registerDevice, "
                     + "/applicationLogin; operator: \(backend.baseURL)/devicesecurity/admin/…")
        if backend.configuration.activation == .code {
            lines.append("  request a code: POST \(backend.baseURL)/activationCode {\"userId\": \"...\"}")
        }
        lines.append("Ctrl-C stops it.")
        return lines.joined(separator: "\n")
    }

    /// The warning for a `--host` that is not a loopback address (nil for one): what clients on
    /// other machines can reach.
    static func exposureWarning(host: String, cassette: String?, remoteAdmin: Bool) -> String? {
        guard !isLoopback(host) else { return nil }
        if let cassette {
            return "warning: --host \(host) is not a loopback address: every client that reaches it gets the recorded answers of \(cassette) "
                + "(with any token or secret they hold) and the playback endpoints \(CassetteServing.statusPath) and \(CassetteServing.resetPath)."
        }
        let admin = remoteAdmin
            ? "and, with --remote-admin, the operator endpoints /admin/* (mailbox with activation links and codes, revoke, restore, counts) "
                + "and /devicesecurity/admin/*"
            : "(the operator endpoints /admin/* and /devicesecurity/admin/* still answer only this machine)"
        return "warning: --host \(host) is not a loopback address: every client that reaches it can register, authenticate and request "
            + "activation codes on this test backend, whose secrets follow --seed, \(admin)."
    }

    /// `localhost`, 127.0.0.0/8, `::1` or an IPv4-mapped 127.x address.
    static func isLoopback(_ host: String) -> Bool {
        let text = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if text == "localhost" || text == "::1" || text == "0:0:0:0:0:0:0:1" { return true }
        let v4 = text.hasPrefix("::ffff:") ? String(text.dropFirst(7)) : text
        let parts = v4.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func say(_ text: String) {
        Console.out(text + "\n")
    }

}

/// The error that ended the server, if any.
private final class ServeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? { lock.withLock { stored } }

    func fail(_ error: any Error) { lock.withLock { stored = error } }
}

extension BackendFlavour: ExpressibleByArgument {}
extension CassettePlayback.Order: ExpressibleByArgument {}
extension ActivationMode: ExpressibleByArgument {}
extension BackendProfile: ExpressibleByArgument {}
