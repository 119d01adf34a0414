import MilagroProtocol

/// The route tables of the open-source server's processes, whole and in their order
/// (`Application.__init__` of servers/rps/rps.py, servers/dta/dta.py and servers/demo/mpinDemo.py;
/// docs/backend.md, "The open-source server's route table"). The `milagro-oss` profile answers
/// every request by walking these tables as Tornado does, and the rule tests generate their
/// requests from them.
enum TornadoRouteTable {
    /// The processes; both D-TAs run the same application.
    enum Process: String, Sendable, CaseIterable {
        case rps, dta, demo
    }

    static func routes(_ process: Process) -> [TornadoRoute] {
        switch process {
        case .rps: rps
        case .dta: dta
        case .demo: demo
        }
    }

    /// The first route of `process` that matches `path`, and the group it captures.
    static func route(_ process: Process, path: String) -> (route: TornadoRoute, group: String)? {
        for route in routes(process) {
            if let group = route.match(path) { return (route, group) }
        }
        return nil
    }

    /// The RPS (`rpsPrefix` "rps"). Its `BaseHandler` defines `options` for every route; the
    /// routes outside `/rps/` are its private ones, reached only by the demo RPA and D-TA-side
    /// services, never through the demo's proxy.
    static let rps: [TornadoRoute] = [
        TornadoRoute("/user/", .hex, .rpsUser, ["POST"], options: true),
        TornadoRoute("/rps/user", .optionalSlashHex, .rpsRegister, ["PUT"], options: true, endpoint: .register),
        TornadoRoute("/rps/signature/", .hex, .rpsSignature, ["GET"], options: true, endpoint: .signature),
        TornadoRoute("/rps/timePermit/", .hex, .rpsTimePermit, ["GET"], options: true, endpoint: .timePermit),
        TornadoRoute("/rps/setupDone/", .hex, .rpsSetupDone, ["POST"], options: true, endpoint: .setupDone),
        TornadoRoute("/rps/access", .rpsAccess, ["POST"], options: true, endpoint: .accessNumberPoll),
        TornadoRoute(
            "/rps/getAccessNumber", .rpsGetAccessNumber, ["POST"], options: true, endpoint: .getAccessNumber),
        TornadoRoute("/rps/getQrUrl", .rpsGetQrUrl, ["POST"], options: true, endpoint: .getQrURL),
        TornadoRoute("/rps/codeStatus", .rpsCodeStatus, ["POST"], options: true, endpoint: .codeStatus),
        TornadoRoute("/rps/clientSettings", .rpsClientSettings, ["GET"], options: true, endpoint: .clientSettings),
        TornadoRoute(
            "/rps/authenticate", .rpsMobileAuthenticate, ["POST"], options: true, endpoint: .mobileAuthenticate),
        TornadoRoute("/rps/pass1", .rpsPass1, ["POST"], options: true, endpoint: .pass1),
        TornadoRoute("/rps/pass2", .rpsPass2, ["POST"], options: true, endpoint: .pass2),
        TornadoRoute("/authenticate", .rpsAuthenticate, ["POST"], options: true),
        TornadoRoute("/manage/getStackInfo", .rpsStackInfo, ["GET"], options: true),
        TornadoRoute("/loginResult", .rpsLoginResult, ["POST"], options: true),
        TornadoRoute("/status", .rpsStatus, ["GET"], options: true),
        TornadoRoute("/service", .rpsService, ["GET"], options: true),
        TornadoRoute("/dynamicOptions", .rpsDynamicOptions, ["POST", "GET"], options: true),
        TornadoRoute("/rps/mobileConfig", .rpsMobileConfig, ["GET"], options: true, endpoint: .mobileConfig),
        TornadoRoute("/", .anything, .rpsDefault, ["GET", "POST", "PUT", "DELETE"], options: true),
    ]

    /// A D-TA. Its `BaseHandler.options(self)` takes no path argument, so `OPTIONS` on the
    /// catch-all route (which captures one) is a `TypeError`: 500.
    static let dta: [TornadoRoute] = [
        TornadoRoute("/clientSecret", .dtaClientSecret, ["GET"], options: true),
        TornadoRoute("/serverSecret", .dtaServerSecret, ["GET"], options: true),
        TornadoRoute("/timePermit", .dtaTimePermit, ["GET"], options: true),
        TornadoRoute("/timePermits", .dtaTimePermits, ["GET"], options: true),
        TornadoRoute("/status", .dtaStatus, ["GET"], options: true),
        TornadoRoute("/", .anything, .dtaDefault, ["GET", "POST", "PUT", "DELETE"], options: true),
    ]

    /// The demo RPA (no mobile app path, no `404.html` template, so no catch-all). `/rps/…` goes
    /// to the RPS through `RPSRedirectHandler`, whose `SUPPORTED_METHODS` are four.
    static let demo: [TornadoRoute] = [
        TornadoRoute("/", .demoIndex, ["GET"], options: false, endpoint: .demoIndex),
        TornadoRoute("/login", .demoLogin, ["GET"], options: false, endpoint: .demoLogin),
        TornadoRoute(
            "/rps/", .anything, .demoProxy, ["GET", "POST", "PUT"], options: true,
            supported: ["GET", "POST", "PUT", "OPTIONS"]),
        TornadoRoute("/mpinVerify", .demoVerifyUser, ["POST"], options: false, endpoint: .verifyUser),
        TornadoRoute("/mpinAuthenticate", .demoAuthenticate, ["POST"], options: false, endpoint: .rpaAuthenticate),
        TornadoRoute("/mpinActivate", .demoActivate, ["GET", "POST"], options: false, endpoint: .activate),
        TornadoRoute("/mpinPermitUser", .demoPermitUser, ["GET"], options: false, endpoint: .permitUser),
        TornadoRoute("/protected/", .anything, .demoProtectedPage, ["GET"], options: false),
        TornadoRoute(
            "/protected", .demoProtected, ["GET"], options: false,
            endpoint: .demoProtected),
        TornadoRoute(
            "/about", .demoAbout, ["GET"], options: false,
            endpoint: .demoAbout),
        TornadoRoute("/logout", .demoLogout, ["GET", "POST"], options: true, endpoint: .logout),
        TornadoRoute(
            "/logoutWait", .demoLogoutWait, ["GET"], options: false,
            endpoint: .demoLogoutWait),
    ]

    /// Where the profile serves D-TA 2 (its own origin in the measured deployment): a path under
    /// it is D-TA 2's path with this prefix taken off, keeping its `/`.
    static let dta2Mount = "/dta2"

    /// The path the demo's proxy asks the RPS for: `"{RPSURL}/" + uri.strip("/")`, so every `/` at
    /// either end of the URI (the query included) goes; a URI whose query ends with `/` keeps it.
    static func proxiedTarget(_ uri: String) -> String {
        var target = Substring(uri)
        while target.first == "/" { target = target.dropFirst() }
        while target.last == "/" { target = target.dropLast() }
        return "/" + target
    }
}
