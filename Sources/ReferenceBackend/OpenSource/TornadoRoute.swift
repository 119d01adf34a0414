import MilagroProtocol

/// One route of a Tornado 4.1 `Application` of the open-source server (docs/backend.md, "The
/// open-source server's route table"): a pattern, the handler class it names and the methods that
/// class defines. Tornado appends `$` to the pattern and matches it with `re.match` on the path as
/// sent (percent-encoding kept, the query cut off), so a route is anchored at both ends, case
/// sensitive, and a trailing or doubled `/` is another path. The first route of the table that
/// matches takes the request; none matching is Tornado's 404 (`ErrorHandler`).
struct TornadoRoute: Sendable, Hashable {
    /// What follows the literal part of a pattern: nothing, or one capture group of these.
    enum Group: Sendable, Hashable {
        /// The pattern is the literal part alone.
        case none
        /// `([0-9A-Fa-f]+)`: one or more hex digits (an M-Pin ID).
        case hex
        /// `(/?[0-9A-Fa-f]*)`: an optional `/`, then any number of hex digits (the registration).
        case optionalSlashHex
        /// `(.*)`: anything (the catch-all routes and the demo's proxy of `/rps/…`).
        case anything
    }

    /// The handler classes of the four processes (servers/rps/rps.py, servers/dta/dta.py,
    /// servers/demo/mpinDemo.py).
    enum Handler: String, Sendable, Hashable, CaseIterable {
        // The RPS.
        case rpsUser, rpsRegister, rpsSignature, rpsTimePermit, rpsSetupDone, rpsAccess, rpsGetAccessNumber
        case rpsGetQrUrl, rpsCodeStatus, rpsClientSettings, rpsMobileAuthenticate, rpsPass1, rpsPass2
        case rpsAuthenticate, rpsStackInfo, rpsLoginResult, rpsStatus, rpsService, rpsDynamicOptions
        case rpsMobileConfig, rpsDefault
        // A D-TA.
        case dtaClientSecret, dtaServerSecret, dtaTimePermit, dtaTimePermits, dtaStatus, dtaDefault
        // The demo RPA.
        case demoIndex, demoLogin, demoProxy, demoVerifyUser, demoAuthenticate, demoActivate, demoPermitUser
        case demoProtectedPage, demoProtected, demoAbout, demoLogout, demoLogoutWait
    }

    /// The literal part of the pattern, before its group.
    let prefix: String
    let group: Group
    let handler: Handler
    /// The methods the handler class defines besides `OPTIONS`; every other method of
    /// `supportedMethods` reaches `RequestHandler`'s own, which raises a 405.
    let methods: Set<String>
    /// Whether the class defines `options` (the RPS's and the D-TA's base classes, the demo's logout).
    let answersOptions: Bool
    /// `SUPPORTED_METHODS`: any other method is a 405 before anything else runs.
    let supportedMethods: Set<String>
    /// The endpoint of the workbench's table this route serves, for the routes a client calls.
    let endpoint: Endpoint?

    /// `RequestHandler.SUPPORTED_METHODS` of Tornado 4.1.
    static let tornadoMethods: Set<String> = ["GET", "HEAD", "POST", "DELETE", "PATCH", "PUT", "OPTIONS"]

    /// A route whose pattern is its literal part alone.
    init(
        _ prefix: String, _ handler: Handler, _ methods: Set<String>, options: Bool,
        supported: Set<String> = TornadoRoute.tornadoMethods, endpoint: Endpoint? = nil
    ) {
        self.init(prefix, .none, handler, methods, options: options, supported: supported, endpoint: endpoint)
    }

    init(
        _ prefix: String, _ group: Group, _ handler: Handler, _ methods: Set<String>,
        options: Bool, supported: Set<String> = TornadoRoute.tornadoMethods, endpoint: Endpoint? = nil
    ) {
        self.prefix = prefix
        self.group = group
        self.handler = handler
        self.methods = methods
        answersOptions = options
        supportedMethods = supported
        self.endpoint = endpoint
    }

    /// The group `re.match(pattern + "$", path)` captures (as sent, still percent-encoded), ""
    /// for a pattern without one; nil when the path is not the route's.
    func match(_ path: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        switch group {
        case .none:
            return rest.isEmpty ? "" : nil
        case .hex:
            return !rest.isEmpty && rest.allSatisfy(\.isHexDigitASCII) ? String(rest) : nil
        case .optionalSlashHex:
            let digits = rest.first == "/" ? rest.dropFirst() : rest
            return digits.allSatisfy(\.isHexDigitASCII) ? String(rest) : nil
        case .anything:
            // `.` matches any character but a line feed.
            return rest.contains("\n") ? nil : String(rest)
        }
    }

    /// Whether the handler answers `method` itself (else Tornado's 405).
    func defines(_ method: String) -> Bool { methods.contains(method) || (method == "OPTIONS" && answersOptions) }

    /// The pattern as the Python source writes it.
    var pattern: String {
        switch group {
        case .none: prefix
        case .hex: prefix + "([0-9A-Fa-f]+)"
        case .optionalSlashHex: prefix + "(/?[0-9A-Fa-f]*)"
        case .anything: prefix + "(.*)"
        }
    }
}

extension Character {
    /// `[0-9A-Fa-f]` (ASCII only, as Python 2's byte-string pattern).
    var isHexDigitASCII: Bool { isASCII && isHexDigit }
}
