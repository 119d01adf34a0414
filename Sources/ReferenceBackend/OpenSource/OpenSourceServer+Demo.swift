import CommonFormats
import Foundation
import MPinCrypto
import MilagroProtocol

/// The demo RPA (servers/demo/mpinDemo.py) of the `milagro-oss` profile.
extension OpenSourceServer {
    static let demoDefaults: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Credentials", "true"),
        ("Access-Control-Allow-Methods", "GET,POST,HEAD,OPTIONS"),
        (
            "Access-Control-Allow-Headers",
            "Content-Type, Depth, User-Agent, X-File-Size, X-Requested-With, X-Requested-By, "
                + "If-Modified-Since, X-File-Name, Cache-Control, Pragma, Expires, WWW-Authenticate"
        ),
        ("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate"), ("Pragma", "no-cache"),
        ("Expires", "Sat, 26 Jul 1997 05:00:00 GMT"),
    ]
    static let demoClass = HandlerClass(defaultHeaders: demoDefaults)
    static let sessionCookie = "mpindemo_session"
    /// The demo's `LogoutURL` and `waitForLoginResult` of the RPS's default configuration
    /// (servers/rps/config_default.py): the browser's login ends with `/loginResult`.
    static let logoutURL = "/logout"

    /// The demo's answer: the first route of its table that matches the path as sent
    /// (`TornadoRouteTable.demo`), Tornado's 404 when none does. Each route's class checks its
    /// `SUPPORTED_METHODS`, decodes its path argument (400 when not UTF-8), runs `prepare` (the
    /// session cookie), then the handler's method, or `RequestHandler`'s own, a 405, for one it
    /// does not define.
    func demo(_ request: Request) async -> TornadoAnswer {
        guard let (route, group) = TornadoRouteTable.route(.demo, path: request.path) else {
            // No route: Tornado's ErrorHandler (a plain RequestHandler) answers 404.
            return await execute(request, HandlerClass(defaultHeaders: [])) { _ throws(Uncaught) in throw .http(404) }
        }
        var handlerClass = Self.demoClass
        handlerClass.supportedMethods = Array(route.supportedMethods)
        var session = ""
        return await execute(
            request, handlerClass,
            check: { () throws(Uncaught) in if route.group == .anything { _ = try Self.decodedGroup(group) } },
            prepare: { answer in session = await self.prepareSession(request, &answer) }
        ) { answer throws(Uncaught) in
            guard route.defines(request.method) else { return false }
            try await self.demoHandler(route.handler, request, session: session, &answer)
            return true
        }
    }

    /// The demo's handlers (servers/demo/mpinDemo.py), each for a method it defines.
    func demoHandler(
        _ handler: TornadoRoute.Handler, _ request: Request, session: String, _ answer: inout TornadoAnswer
    ) async throws(Uncaught) {
        switch handler {
        case .demoIndex:
            let user = await store.loggedUser(session)
            answer.write(Array(Self.indexPage(user: user).utf8))
        case .demoLogin, .demoProtectedPage:
            // `login.html` and `protected_<page>.html` are not among the demo's templates: render raises.
            if handler == .demoProtectedPage, await store.loggedUser(session) == nil {
                return protectedRedirect(&answer)
            }
            throw .internalError
        case .demoProtected:
            guard let user = await store.loggedUser(session) else { return protectedRedirect(&answer) }
            answer.write(Array(Self.protectedPage(user: user).utf8))
        case .demoAbout:
            redirect("http://www.miracl.com/miracl-product-m-pin-core", &answer)
        case .demoProxy:
            try await proxy(request, &answer)
        case .demoVerifyUser:
            let (status, reason, body) = try await verifyUser(request.body, baseURL: nil)
            answer.setStatus(status, reason: reason)
            answer.write(body)
        case .demoAuthenticate:
            try await authenticateUser(request, session: session, &answer)
        case .demoPermitUser:
            answer.setStatus(200)
        case .demoActivate:
            try await activate(request, &answer)
        case .demoLogout:
            switch request.method {
            case "GET":
                await store.logOut(session)
                answer.setCookie(
                    Self.sessionCookie, "\(Self.sessionCookie)=; expires=\(cookieDate(days: -365)); Path=/")
                redirect("/", &answer)
            case "POST": try await logout(request, &answer)
            default: answer.setStatus(200)
            }
        case .demoLogoutWait:
            try await logoutWait(session: session, &answer)
        default:
            throw .internalError
        }
    }

    /// `self.redirect(url)`: 302 with `Location`, no body.
    func redirect(_ url: String, _ answer: inout TornadoAnswer) {
        answer.setStatus(302)
        answer.setHeader("Location", url)
    }

    /// `ProtectedHandler` without a logged-in user: the `flash` cookie, then a redirect to `/`.
    func protectedRedirect(_ answer: inout TornadoAnswer) {
        answer.setCookie("flash", signedCookie("flash", "protected"))
        redirect("/", &answer)
    }

    /// `LogoutWaitHandler.get`: waits until the session is logged out by the phone (`POST /logout`),
    /// then `OK`. The Python handler waits without end; this one at most the backend's login
    /// timeout (`--login-timeout`, 10 s by default) of real time, then answers as if the logout
    /// came (a bound of the profile's own).
    func logoutWait(session: String, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        let key = "logoutWait;" + session
        core.store.holds.open(key)
        _ = await core.store.holds.outcome(
            of: key, clock: core.clock, deadline: Int64.max,
            realTimeLimit: .milliseconds(core.milliseconds(core.configuration.loginTimeout)))
        answer.setCookie("flash", signedCookie("flash", "forced_logout"))
        answer.write(Array("OK".utf8))
    }

    /// `BaseHandler.prepare`: the session of a valid `mpindemo_session` cookie, or a new one set
    /// in a cookie (`set_secure_cookie`, version 2 signature, 30 days).
    func prepareSession(_ request: Request, _ answer: inout TornadoAnswer) async -> String {
        if let sent = cookie(request, Self.sessionCookie), let session = verifiedSession(sent) { return session }
        let session = core.random.hex(32)
        answer.setCookie(Self.sessionCookie, signedCookie(Self.sessionCookie, session))
        return session
    }

    /// `set_secure_cookie(name, value)`: a version 2 signed value, 30 days, the whole `Set-Cookie` value.
    func signedCookie(_ name: String, _ value: String) -> String {
        let now = core.now / 1000
        let encoded = Data(value.utf8).base64EncodedString()
        let signed = "2|1:0|\(String(now).count):\(now)|\(name.count):\(name)|\(encoded.count):\(encoded)|"
        let signature = signed + HMACSHA256.sign(key: core.cookieSecret, signed)
        return "\(name)=\"\(signature)\"; expires=\(self.cookieDate(days: 30)); Path=/"
    }

    /// The session id of a signed cookie value this demo made in the last 31 days, else nil.
    func verifiedSession(_ value: String) -> String? {
        let fields = value.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, fields[0] == "2", fields[3] == "\(Self.sessionCookie.count):\(Self.sessionCookie)"
        else { return nil }
        let signed = fields[0..<5].joined(separator: "|") + "|"
        guard HMACSHA256.equal(HMACSHA256.sign(key: core.cookieSecret, signed), fields[5]),
            let stamp = fields[2].split(separator: ":").last.flatMap({ Int64($0) }),
            stamp >= core.now / 1000 - 31 * 86_400,
            let encoded = fields[4].split(separator: ":", maxSplits: 1).last,
            let data = Data(base64Encoded: String(encoded))
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func cookie(_ request: Request, _ name: String) -> String? {
        for field in request.headers where field.name == .cookie {
            guard var value = Cookies.value(named: name, inCookie: field.value) else { continue }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// An HTTP date `days` from now on the backend's clock.
    func cookieDate(days: Int64) -> String {
        CivilTime.httpDate(milliseconds: (core.now / 1000 + days * 86_400) * 1000)
    }

    /// `RPSRedirectHandler._processRequest`: the RPS asked for `"{RPSURL}/" + uri.strip("/")`
    /// (`TornadoRouteTable.proxiedTarget`) with the client's method, header fields and body (none
    /// for an empty GET or OPTIONS body). Its HTTP client refuses a body on GET or OPTIONS before
    /// sending (code 599, no fields, no body): 500 with an empty body. The RPS's answer is copied:
    /// each of its fields with a value, the status (over 500 as 500) with the standard phrase, the body.
    func proxy(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        if ["GET", "OPTIONS"].contains(request.method) && !request.body.isEmpty {
            answer.setStatus(500)
            return
        }
        let target = TornadoRouteTable.proxiedTarget(request.uri)
        let (path, rawQuery) = Call.split(target: target)
        let forwarded = Request(
            method: request.method, path: String(path), uri: target,
            query: QueryString.parse(rawQuery.map(String.init)) ?? [:], headers: request.headers, body: request.body)
        let rps = await self.rps(forwarded)
        for (name, value) in rps.receivedHeaders where !value.isEmpty { answer.setHeader(name, value) }
        answer.setStatus(rps.status > 500 ? 500 : rps.status)
        answer.write(rps.body)
    }

    /// `VerifyUserHandler.post`, which the RPS calls to register a user: the status, reason and
    /// body it answers (its own 500s included). `baseURL` is the `RPS-BASE-URL` field the RPS
    /// sends; without it (any other client) the relative `verifyIdentityURL` cannot be joined: 500.
    func verifyUser(_ body: [UInt8], baseURL: String?) async throws(Uncaught) -> (Int, String?, [UInt8]) {
        guard case .success(let data) = PythonJSON.loads(body) else { return (400, "BAD REQUEST. INVALID JSON", []) }
        let identity = try Self.uncaught(data.subscripted("mpinId"))
        let user = try Self.uncaught(data.subscripted("userId"))
        let expireTime = try Self.uncaught(data.subscripted("expireTime"))
        let activateKey = try Self.uncaught(data.subscripted("activateKey"))
        _ = try Self.uncaught(data.subscripted("mobile"))
        guard user.truthy else { return (400, "BAD REQUEST. INVALID USER ID", []) }
        guard let baseURL else { throw .internalError }
        // `userid.encode("utf-8")` formatted into a unicode string: only an ASCII string gets through.
        guard let userID = user.string, userID.unicodeScalars.allSatisfy(\.isASCII) else { throw .internalError }
        let forceActivate = core.configuration.activation == .auto
        if !forceActivate {
            let link =
                "\(baseURL)/mpinActivate?i=\(identity.string ?? "")&e=\(expireTime.string ?? "")&s=\(activateKey.string ?? "")"
            await core.deliver(
                ActivationMessage(kind: .link, userID: userID, mpinID: identity.string ?? "", value: link))
        }
        return (200, nil, Array(PythonJSON.dumps(.display([("forceActivate", .bool(forceActivate))])).utf8))
    }

    /// `AuthenticateUserHandler.post`: the RPS's verdict on the authOTT (its private
    /// `/authenticate`, then `/loginResult` for a 200), the session logged in, the verdict's
    /// status with its message as the reason, `{"someUserData"}` whatever the verdict.
    func authenticateUser(_ request: Request, session: String, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard let authOTT = try Self.mpinResponseAuthOTT(request, missingReason: "BAD REQUEST. INVALID JSON", &answer)
        else { return }
        let logoutData = PythonValue.display([("sessionToken", .string(session))])
        let (status, message, userID) = await rpsVerdict(authOTT: authOTT, logoutData: logoutData)
        if status == 200 {
            await loginResult(
                authOTT: authOTT,
                logoutData: .display([("sessionToken", .string(session)), ("userId", .string(userID))]))
            await store.logIn(session, userID: userID)
        }
        answer.setStatus(status, reason: message)
        answer.writeJSON(.display([("someUserData", "This will be handled by onSuccessLogin handler.")]))
    }

    /// `LogoutHandler.post`: 400 `Logout failed` unless the body's `userId` is the session's user
    /// (both absent included); a body that is not JSON is an uncaught error.
    func logout(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        let data = try Self.uncaught(PythonJSON.loads(request.body))
        let token = try Self.uncaught(data.get("sessionToken"))
        var logged = PythonValue.none
        if let token = token.string, let user = await store.loggedUser(token) { logged = .string(user) }
        guard try Self.uncaught(data.get("userId")) == logged else {
            answer.setStatus(400, reason: "Logout failed")
            return
        }
        if let token = token.string {
            // `mobileLoginHandler.userLogged(sessionId, True)`: a held `GET /logoutWait` answers.
            _ = core.store.holds.resolve("logoutWait;" + token, .loggedIn(sessionToken: "", userID: ""))
            await store.logOut(token)
        }
    }

    /// `mpinActivateHandler`: a POST with the link's `i` and `s` activates the registration (the
    /// RPS's private `/user/<mpinId>`); a GET shows the page with the button that posts it.
    func activate(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        let identity = request.argument("i") ?? ""
        let key = request.argument("s") ?? ""
        var activated = false
        if request.method == "POST" {
            activated = await store.activate(identity, key: key, now: core.now)
        }
        let state =
            request.method == "GET"
            ? "Activate this identity with a POST to this address."
            : activated ? "Identity activated." : "This verification link has already been used or has expired!"
        answer.write(
            Array(
                "<!DOCTYPE html>\n<html><head><title>M-Pin activation</title></head><body><p>\(state)</p></body></html>\n"
                    .utf8))
    }

    /// The demo's page for a logged-in user at `/protected` (its template is not copied either).
    static func protectedPage(user: String) -> String {
        "<!DOCTYPE html>\n<html><head><title>M-Pin demo RPA (MPin Workbench)</title></head><body><p>Protected page of "
            + user.replacingOccurrences(of: "<", with: "&lt;") + ".</p></body></html>\n"
    }

    /// The demo's page at `/` (its `index.html` template is not copied: a page of the workbench's).
    static func indexPage(user: String?) -> String {
        let who = user.map { "Logged in as \($0.replacingOccurrences(of: "<", with: "&lt;"))." } ?? "Not logged in."
        return
            "<!DOCTYPE html>\n<html><head><title>M-Pin demo RPA (MPin Workbench)</title></head><body><p>\(who)</p></body></html>\n"
    }
}
