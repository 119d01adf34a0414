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

    /// What answers a demo route: the server, the request, the session `prepare` found or made, and
    /// the answer to fill; false for a method the route does not serve (405).
    typealias DemoHandler =
        @Sendable (OpenSourceServer, Request, String, inout TornadoAnswer) async throws(Uncaught) -> Bool

    /// The demo's routes (`Application.__init__`), each matched on the whole path; `/rps/…` goes
    /// to the RPS through `RPSRedirectHandler` (`proxy`).
    static let demoRoutes: [Endpoint: DemoHandler] = [
        .demoIndex: index, .demoLogin: index,
        .verifyUser: { server, request, _, answer throws(Uncaught) in
            guard request.method == "POST" else { return false }
            let (status, reason, body) = try await server.verifyUser(request.body, baseURL: server.core.base.url)
            answer.setStatus(status, reason: reason)
            answer.write(body)
            return true
        },
        .rpaAuthenticate: { server, request, session, answer throws(Uncaught) in
            guard request.method == "POST" else { return false }
            try await server.authenticateUser(request, session: session, &answer)
            return true
        },
        .permitUser: { _, request, _, answer throws(Uncaught) in
            guard request.method == "GET" else { return false }
            answer.setStatus(200)
            return true
        },
        .activate: { server, request, _, answer throws(Uncaught) in
            guard request.method == "GET" || request.method == "POST" else { return false }
            try await server.activate(request, &answer)
            return true
        },
        .logout: { server, request, session, answer throws(Uncaught) in
            switch request.method {
            case "GET":
                await server.store.logOut(session)
                answer.setCookie(sessionCookie, "\(sessionCookie)=; expires=\(server.cookieDate(days: -365)); Path=/")
                answer.setStatus(302)
                answer.setHeader("Location", "/")
            case "POST": try await server.logout(request, &answer)
            case "OPTIONS": answer.setStatus(200)
            default: return false
            }
            return true
        },
    ]

    /// The demo's page (`/`, `/login`): GET only.
    static let index: DemoHandler = { server, request, session, answer throws(Uncaught) in
        guard request.method == "GET" else { return false }
        let user = await server.store.loggedUser(session)
        answer.write(Array(indexPage(user: user).utf8))
        return true
    }

    /// The demo's routes by their path.
    static let demoPaths: [String: DemoHandler] = Dictionary(
        uniqueKeysWithValues: demoRoutes.map { ($0.key.path, $0.value) })

    func demo(_ request: Request) async -> TornadoAnswer {
        guard let handler = Self.demoPaths[request.path] else {
            if request.path.hasPrefix(Endpoint.rpsBase + "/") { return await proxy(request) }
            // No route: Tornado's ErrorHandler (a plain RequestHandler) answers 404.
            return await execute(request, HandlerClass(defaultHeaders: [])) { _ throws(Uncaught) in throw .http(404) }
        }
        var session = ""
        let prepare: (inout TornadoAnswer) async -> Void = { answer in
            session = await self.prepareSession(request, &answer)
        }
        return await execute(request, Self.demoClass, prepare: prepare) { answer throws(Uncaught) in
            try await handler(self, request, session, &answer)
        }
    }

    /// `BaseHandler.prepare`: the session of a valid `mpindemo_session` cookie, or a new one set
    /// in a cookie (`set_secure_cookie`, version 2 signature, 30 days).
    func prepareSession(_ request: Request, _ answer: inout TornadoAnswer) async -> String {
        if let sent = cookie(request, Self.sessionCookie), let session = verifiedSession(sent) { return session }
        let session = core.random.hex(32)
        let now = core.now / 1000
        let encoded = Data(session.utf8).base64EncodedString()
        let signed =
            "2|1:0|\(String(now).count):\(now)|\(Self.sessionCookie.count):\(Self.sessionCookie)|\(encoded.count):\(encoded)|"
        let value = signed + HMACSHA256.sign(key: core.cookieSecret, signed)
        answer.setCookie(
            Self.sessionCookie, "\(Self.sessionCookie)=\"\(value)\"; expires=\(self.cookieDate(days: 30)); Path=/")
        return session
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

    /// `RPSRedirectHandler`: GET, POST, PUT and OPTIONS only (others 405 before `prepare`); the
    /// RPS's answer copied: each of its fields with a value, the status (over 500 as 500) with the
    /// standard phrase, the body.
    func proxy(_ request: Request) async -> TornadoAnswer {
        var handlerClass = Self.demoClass
        handlerClass.supportedMethods = ["GET", "POST", "PUT", "OPTIONS"]
        return await execute(
            request, handlerClass, prepare: { answer in _ = await self.prepareSession(request, &answer) }
        ) { answer throws(Uncaught) in
            let rps = await self.rps(request)
            for (name, value) in rps.receivedHeaders where !value.isEmpty { answer.setHeader(name, value) }
            answer.setStatus(rps.status > 500 ? 500 : rps.status)
            answer.write(rps.body)
            return true
        }
    }

    /// `VerifyUserHandler.post`, which the RPS calls to register a user: the status, reason and
    /// body it answers (its own 500s included).
    func verifyUser(_ body: [UInt8], baseURL: String) async throws(Uncaught) -> (Int, String?, [UInt8]) {
        guard case .success(let data) = PythonJSON.loads(body) else { return (400, "BAD REQUEST. INVALID JSON", []) }
        let identity = try Self.uncaught(data.subscripted("mpinId"))
        let user = try Self.uncaught(data.subscripted("userId"))
        let expireTime = try Self.uncaught(data.subscripted("expireTime"))
        let activateKey = try Self.uncaught(data.subscripted("activateKey"))
        _ = try Self.uncaught(data.subscripted("mobile"))
        guard user.truthy else { return (400, "BAD REQUEST. INVALID USER ID", []) }
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
        if let token = token.string { await store.logOut(token) }
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

    /// The demo's page at `/` (its `index.html` template is not copied: a page of the workbench's).
    static func indexPage(user: String?) -> String {
        let who = user.map { "Logged in as \($0.replacingOccurrences(of: "<", with: "&lt;"))." } ?? "Not logged in."
        return
            "<!DOCTYPE html>\n<html><head><title>M-Pin demo RPA (MPin Workbench)</title></head><body><p>\(who)</p></body></html>\n"
    }
}
