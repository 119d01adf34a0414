import ArgumentParser
import CommonFormats
import FlowRecording
import Foundation
import HTTPServing
import Logging
import MilagroRecording
import ReferenceBackend

/// `mpin-workbench serve`: the reference backend on a real port until Ctrl-C.
///
/// Serving a cassette is `cassette serve` and timing the backend is `bench backend`; the old
/// spellings `serve --cassette FILE` and `serve --bench` are rewritten to them (`LegacySpelling`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the reference Milagro backend (RPS, two D-TAs, demo RPA or MFA platform).",
        discussion: """
            Prints the base URL to give an SDK (`backend`), the client settings it serves and, in \
            the email and code activation modes, every activation link or code as it would be mailed. \
            With --seed, every random value (master secrets, y, ids, access numbers) follows the seed \
            (without it, system randomness); with --time-seconds as well, the clock stands still, so \
            the same requests get the same answers. Ctrl-C stops it.

            Limits: a request whose body has not arrived --body-timeout seconds (default \(Int(BodyDeadline.defaultSeconds))) after \
            its head gets 408 and the connection is closed; a request without keep-alive (HTTP/1.0 \
            without it, or Connection: close) is answered with Connection: close and the \
            connection closed. An activation code is cancelled after \(defaults.activationCodeTries) wrong tries; the right \
            code is then refused too, until a new one is requested. Codes are rate limited, on the \
            backend's clock (with --time-seconds, a cap for its life): \(Self.rate(defaults.activationCodesPerUser)) per user and \
            \(Self.rate(defaults.activationCodesPerClient)) per client, and a user's wrong codes across all its codes \
            \(Self.rate(defaults.wrongActivationCodesPerUser)) (past that every code of the user is refused, the right one \
            too); more get 429. Clients are told apart by address (an IPv4 address, an IPv6 /64; \
            every client of one proxy or NAT is one). Each store a client can fill (pending \
            registrations, identities, pass-1 challenges, pass-2 verdicts, browser sessions of \
            access numbers and QR codes, activation and authorization codes) holds at most \
            --record-limit records (default \(defaults.recordLimit)), at most --client-record-limit of one client \
            (default \(defaults.clientRecordLimit)): past a cap the expired ones are dropped, then the oldest of that \
            client (at its own cap) or of the client holding the most, so that a flood from one \
            client drops its own records only; identities are never dropped (past a cap the \
            signature gets 503). The mailbox and the demo RPA's logged-in sessions drop their \
            oldest (under --profile milagro-oss every store drops its oldest, as that server \
            does; the DeviceSecurity service's sessions and devices drop theirs too). The \
            operator endpoints (/admin/*: mailbox with activation links and codes, revoke, \
            restore, counts; /devicesecurity/admin/*) answer only clients on this machine (403 to \
            others, and to a request that names a proxy in Via, Forwarded or X-Forwarded-For, as \
            `proxy` does) unless --remote-admin is given; a --host that is not a loopback address \
            prints a warning naming what it exposes. Under --profile milagro-oss and \
            milagro-hosted-v3 the operator endpoints /admin/* are off, as those servers have none \
            (their /admin/* paths answer as the servers do); --admin-prefix PREFIX turns them on at \
            PREFIX/admin/* in any profile. Under --profile milagro-oss D-TA 2 listens on a port of \
            its own, as the open-source deployment runs it: the banner names it and the client \
            settings point there (certivoxURL, timePermitsStorageURL). The DeviceSecurity service (/devicesecurity/*, with its \
            /devicesecurity/admin/*), which the workbench serves beside every profile for the MVID \
            connector, keeps its operator endpoints, on this machine only.

            Browser clients: a request that carries Origin (a browser's, from a page on another \
            origin) is answered with the CORS fields, Access-Control-Allow-Origin * by default as \
            the open-source server, and a preflight (OPTIONS with Access-Control-Request-Method) \
            with 200, the methods, the headers asked for and a max age; with --cors-origin only the \
            origins named may call (their own origin echoed, with credentials), and another \
            origin's preflight gets 403. Requests without Origin (the SDK's) get no CORS field. \
            The milagro-oss and milagro-hosted-v3 profiles answer as their servers do.

            To serve a recording instead, use `cassette serve FILE` (`serve --cassette FILE` still \
            works, with a warning); to measure the backend's authentications per second, `bench \
            backend` (formerly `serve --bench`).

            Exit status: 0 when stopped, 2 when the server cannot start or the usage was wrong.

            Examples:
              mpin-workbench serve --port 8005
              mpin-workbench serve --port 8005 --seed demo --time-seconds 1700000000
              mpin-workbench serve --flavour mfa-platform --activation code \\
                  --client-id app
              mpin-workbench serve --port 8005 --fault http-fault.redirect-pass2
            """
    )

    @OptionGroup var listen: ListenOption

    @OptionGroup var logging: LogLevelOption

    @Option(help: "Backend flavour: milagro or mfa-platform.")
    var flavour = BackendFlavour.milagro

    @Option(
        help:
            "Whose answers: default (the workbench's), milagro-oss (the open-source Milagro server's, as measured) or milagro-hosted-v3 (the backend of the C++ SDK core's recorded unit tests)."
    )
    var profile = BackendProfile.default

    @Option(help: "How registrations are activated: auto, email or code.")
    var activation = ActivationMode.auto

    @Option(help: "Seed for every random value (deterministic backend; default: system randomness).")
    var seed: String?

    @Option(
        name: .customLong("time-seconds"), parsing: .unconditional,
        help: ArgumentHelp(
            "Freeze the clock at this time, in seconds since 1970 (not milliseconds, as a script's startTime), 0 to 253402300799: up to the end of year 9999. Formerly --time.",
            valueName: "seconds"),
        transform: BoundedNumber.integer(ServeCommand.timeRange, unit: "seconds since 1970"))
    var time: Int64?

    /// `--time-seconds`: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in seconds.
    static let timeRange: ClosedRange<Int64> = 0...253_402_300_799

    @Option(name: .customLong("client-id"), help: "MFA platform: the only X-MIRACL-CID accepted (default: any).")
    var clientID: String?

    @Option(
        name: .customLong("login-timeout"),
        parsing: .unconditional,
        help:
            "Seconds the phone's access-number or QR login is held waiting for the browser's login (more than 0, at most 3600; default 10).",
        transform: BoundedNumber.decimal(
            0...BackendConfiguration.maximumLoginTimeout, aboveLowerBound: true, unit: "seconds"))
    var loginTimeout: Double?

    @Option(
        name: .customLong("body-timeout"), parsing: .unconditional,
        help:
            "Seconds a request's body may take after its head before a 408 and a close (more than 0, at most 3600; default 10).",
        transform: BoundedNumber.decimal(0...BodyDeadline.maximumSeconds, aboveLowerBound: true, unit: "seconds"))
    var bodyTimeout = BodyDeadline.defaultSeconds

    @Option(
        name: .customLong("record-limit"), parsing: .unconditional,
        help:
            "The most records each store that clients fill keeps (pending registrations, sessions, codes, ...), 1 to 10000000; default 10000.",
        transform: BoundedNumber.integer(1...10_000_000))
    var recordLimit = BackendConfiguration().recordLimit

    @Option(
        name: .customLong("client-record-limit"), parsing: .unconditional,
        help:
            "The most records of each kind one client (an IPv4 address, an IPv6 /64) holds, 1 to 10000000; default 1000 (at most --record-limit).",
        transform: BoundedNumber.integer(1...10_000_000))
    var clientRecordLimit = BackendConfiguration().clientRecordLimit

    @Option(
        help:
            "Serve the backend of one client case of conform --client (its faults and activation mode), to reproduce it by hand.",
        completion: .none)
    var fault: String?

    @Flag(
        name: .customLong("remote-admin"),
        help:
            "Let clients on other machines use the operator endpoints (/admin/*, /devicesecurity/admin/*); by default they get 403."
    )
    var remoteAdmin = false

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "An origin whose pages may call the backend from a browser, such as http://127.0.0.1:8080; repeatable (default: any origin, *).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("admin-prefix"),
        help: ArgumentHelp(
            "Serve the operator endpoints at PREFIX/admin/* (e.g. /workbench); by default /admin/* in the default profile and off in milagro-oss and milagro-hosted-v3.",
            valueName: "PREFIX"),
        transform: ServeCommand.adminPrefix)
    var adminPrefix: String?

    /// A prefix of one or more path segments of unreserved characters, at most 200 characters.
    static func adminPrefix(_ text: String) throws -> String {
        let segments = text.split(separator: "/")
        guard !segments.isEmpty, text.utf8.count <= 200,
            text.utf8.allSatisfy({ $0 == UInt8(ascii: "/") || QueryString.isUnreserved($0) })
        else {
            throw ValidationError(
                "--admin-prefix must be one or more path segments of letters, digits, '-', '.', '_' or '~' (at most 200 characters), not '\(text)'"
            )
        }
        return "/" + segments.joined(separator: "/")
    }

    /// The address of `--host` when none is given.
    static var defaultHost: String { ListenOption.defaultHost }

    var host: String { listen.host }
    var port: Int { listen.port }

    func validate() throws {
        for origin in corsOrigins where URLText.origin(origin) == nil {
            throw ValidationError(
                "--cors-origin is an origin such as http://127.0.0.1:8080 (http or https, a host, no path), got \"\(origin)\"."
            )
        }
        // The pairing rule has one statement, the profile's own.
        if let problem = profile.problem(flavour: flavour, activation: activation) {
            throw ValidationError(
                "--profile \(profile.rawValue) with --flavour \(flavour.rawValue) --activation \(activation.rawValue): \(problem)."
            )
        }
    }

    /// Options given that cannot take effect: each a warning, and the backend starts without them.
    var warnings: [String] {
        var warnings: [String] = []
        if clientID != nil, flavour != .mfaPlatform {
            warnings.append(
                "warning: --client-id is the MFA platform's X-MIRACL-CID; with --flavour \(flavour.rawValue) it has no effect"
            )
        }
        if !corsOrigins.isEmpty, profile != .default {
            warnings.append(
                "warning: --cors-origin is the default profile's; --profile \(profile.rawValue) answers browsers as its server does, "
                    + "so it has no effect")
        }
        return warnings
    }

    func run() async throws {
        for warning in warnings { Console.error(warning + "\n") }
        // In range: the option's transform checked it.
        let deadline = BodyDeadline(seconds: bodyTimeout) ?? .standard
        var configuration = BackendConfiguration(
            host: host, port: port, flavour: flavour, activation: activation, seed: seed, profile: profile)
        configuration.clientID = clientID
        if let loginTimeout { configuration.loginTimeout = loginTimeout }
        configuration.bodyTimeout = deadline
        configuration.allowsRemoteAdmin = remoteAdmin
        if !corsOrigins.isEmpty { configuration.corsOrigins = corsOrigins.compactMap(URLText.origin) }
        configuration.operatorPrefix = adminPrefix
        // As the open-source deployment runs it: D-TA 2 on a port of its own.
        configuration.dta2OwnOrigin = profile == .milagroOSS
        configuration.recordLimit = recordLimit
        configuration.clientRecordLimit = clientRecordLimit
        if let warning = ExposureWarning.backend(host: host, remoteAdmin: remoteAdmin) {
            Console.error(warning + "\n")
        }
        let clock: any BackendClock = time.map { ManualBackendClock(milliseconds: $0 * 1000) } ?? SystemBackendClock()
        let logger = LogLevelOption.logger("serve", logging.level)
        if let fault {
            return try await ServeFaultRun(caseID: fault, configuration: configuration, clock: clock, logger: logger)
                .run()
        }
        let control = ServerTaskControl(announce: Console.out)
        let settings = configuration
        await control.run {
            let backend = try await ReferenceBackend.start(settings, clock: clock, logger: logger, logRequests: true) {
                message in
                switch message.kind {
                case .link: Console.line("activation link for \(message.userID): \(message.value)")
                case .code: Console.line("activation code for \(message.userID): \(message.value)")
                }
            }
            Console.line(Self.banner(backend))
            await withTaskCancellationHandler {
                await backend.wait()
            } onCancel: {
                Task { await backend.stop() }
            }
        }
        if let error = control.error { throw ListenOption.startFailure(error) }
    }

    static func banner(_ backend: ReferenceBackend) -> String {
        var lines = [
            "reference backend listening on \(backend.baseURL)", "  backend (SDK setting): \(backend.baseURL)",
        ]
        lines += backend.summary.map { "  \($0.0): \($0.1)" }
        if let dta2 = backend.dta2URL {
            lines.append("  D-TA 2 (its own origin, as the open-source deployment runs it): \(dta2)")
        }
        if backend.configuration.flavour == .mfaPlatform {
            lines.append(
                "  authorize URL: \(backend.authorizeURL(clientID: backend.configuration.clientID ?? "workbench"))")
        }
        lines.append(
            "  DeviceSecurity service (MVID connector): POST \(backend.baseURL)/devicesecurity/login, /registerDevice, "
                + "/applicationLogin; operator: \(backend.baseURL)/devicesecurity/admin/…")
        if backend.configuration.activation == .code {
            lines.append("  request a code: POST \(backend.baseURL)/activationCode {\"userId\": \"...\"}")
        }
        lines.append("Ctrl-C stops it.")
        return lines.joined(separator: "\n")
    }

    /// The defaults the discussion states.
    private static let defaults = BackendConfiguration()

    /// A rate as the help states it: "3 at once, then 1 each 600 s".
    static func rate(_ limit: RateLimit) -> String {
        let seconds = limit.seconds == limit.seconds.rounded() ? String(Int(limit.seconds)) : String(limit.seconds)
        return "\(limit.burst) at once, then 1 each \(seconds) s"
    }

}

extension BackendFlavour: ExpressibleByArgument {}
extension CassettePlayback.Order: ExpressibleByArgument {}
extension ActivationMode: ExpressibleByArgument {}
extension BackendProfile: ExpressibleByArgument {}
