import CommonFormats
import Foundation
import Hummingbird
import MPinCrypto
import MilagroProtocol

/// The `milagro-oss` profile's HTTP front: the open-source server as it was measured (docs/protocol.md
/// §13, §14), three Tornado 4.1 processes on one port. The demo RPA (servers/demo/mpinDemo.py) takes
/// every request: its own paths (`/`, `/mpinAuthenticate`, `/mpinVerify`, `/mpinPermitUser`,
/// `/mpinActivate`, `/logout`) and `/rps/…`, which its `RPSRedirectHandler` forwards to the RPS
/// (servers/rps/rps.py; `OpenSourceServer+RPS.swift`) and whose answer it copies (the RPS's
/// fields over its own, the status with its standard phrase, the body); D-TA 2
/// (servers/dta/dta.py; `OpenSourceServer+DTA.swift`) answers under `/dta2/` (its own origin in
/// the measured deployment). Each answer is derived from what that Python code and Tornado do
/// with the request (`TornadoAnswer`, `PythonValue`, `PythonJSON`): the 500s of an uncaught
/// exception, the RPS's 403 `Invalid data received. …`, reason phrases such as `401 Wrong PIN.`,
/// the demo's `mpindemo_session` cookie, CORS and cache fields, `Etag`.
///
/// Not of the open-source server, kept for the workbench's tools: `/session` and `/devicesecurity/…`
/// go to the workbench's own handlers, and so do the operator endpoints when a prefix of their own
/// turns them on (`BackendConfiguration.operatorPrefix`; off by default, as the real server has none).
struct OpenSourceServer: Sendable {
    let core: BackendCore

    var store: OpenSourceStore { core.openSourceStore }

    /// A request as the Tornado handlers see it.
    struct Request: Sendable {
        let method: String
        /// The path as sent (still percent-encoded, as Tornado matches its routes on it).
        let path: String
        let uri: String
        let query: [String: String]
        let headers: HTTPFields
        let body: [UInt8]

        func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return headers.first { $0.name.canonicalName == wanted }?.value
        }

        /// `get_argument(name)`: the last value, stripped; nil when absent.
        func argument(_ name: String) -> String? {
            query[name].map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// An exception a handler does not catch: Tornado answers it with `send_error` (`HTTPError`'s
    /// code, its reason if it has one; 500 for anything else).
    struct Uncaught: Error, Sendable {
        var status = 500
        var reason: String?

        static let internalError = Uncaught()
        static func http(_ status: Int, reason: String? = nil) -> Uncaught { Uncaught(status: status, reason: reason) }
    }

    /// What a Tornado handler class brings to its answers.
    struct HandlerClass: Sendable {
        var defaultHeaders: [(String, String)]
        var supportedMethods = ["GET", "HEAD", "POST", "DELETE", "PATCH", "PUT", "OPTIONS"]
        /// `write_error`.
        var writeError: @Sendable (inout TornadoAnswer) -> Void = { $0.writeDefaultError() }
        /// Whether its `finish` adds `WWW-Authenticate: Authenticate` to a 401.
        var challengesOn401 = true
    }

    func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer? {
        let target = head.path ?? "/"
        let (path, rawQuery) = Call.split(target: target)
        let request = Request(
            method: head.method.rawValue, path: String(path), uri: target,
            query: QueryString.parse(rawQuery.map(String.init)) ?? [:], headers: head.headerFields, body: body)
        let first = path.split(separator: "/").first.map(String.init) ?? ""
        if Self.workbenchSegments.contains(first) || core.isOperatorRequest(path) { return nil }
        if path.hasPrefix(TornadoRouteTable.dta2Mount + "/") {
            let own = String(path.dropFirst(TornadoRouteTable.dta2Mount.count))
            return await dta(request, path: own).answer(method: request.method)
        }
        return await demo(request).answer(method: request.method)
    }

    /// The first segments of the workbench's own endpoints, which its handlers answer under this
    /// profile too (`BackendRoutes`): the session page and the DeviceSecurity service's. The
    /// operator's answer only under `BackendConfiguration.operatorPrefix` (off by default).
    static let workbenchSegments: Set<String> = Set([Endpoint.session, .deviceSecurity].compactMap(\.segments.first))

    static func date() -> String { CivilTime.httpDate(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }

    /// Runs a handler as Tornado's `_execute` does: the method check, `prepare`, the method,
    /// `send_error` for what it raises, `finish`.
    func execute(
        _ request: Request, _ handlerClass: HandlerClass, check: () throws(Uncaught) -> Void = {},
        prepare: (inout TornadoAnswer) async -> Void = { _ in },
        method: (inout TornadoAnswer) async throws(Uncaught) -> Bool
    ) async -> TornadoAnswer {
        var answer = TornadoAnswer(defaultHeaders: handlerClass.defaultHeaders, date: Self.date())
        do throws(Uncaught) {
            guard handlerClass.supportedMethods.contains(request.method) else { throw .http(405) }
            try check()
            await prepare(&answer)
            guard try await method(&answer) else { throw .http(405) }
        } catch {
            answer.sendError(error.status, reason: error.reason, date: Self.date(), writeError: handlerClass.writeError)
        }
        if handlerClass.challengesOn401 && answer.status == 401 { answer.setHeader("WWW-Authenticate", "Authenticate") }
        answer.finish(method: request.method, ifNoneMatch: request.header("If-None-Match"))
        return answer
    }

    /// A `ValueError`/`TypeError`-style failure as an uncaught exception: 500.
    static func uncaught<T>(_ result: Result<T, PythonError>) throws(Uncaught) -> T {
        switch result {
        case .success(let value): return value
        case .failure: throw .internalError
        }
    }
}

extension BackendCore {
    /// The `milagro-oss` front (`OpenSourceServer`); nil for the workbench's own paths.
    func openSourceAnswer(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer? {
        await OpenSourceServer(core: self).respond(to: head, body: body)
    }
}

extension OpenSourceServer {
    /// The endpoints this front has routes for: the RPS's and the demo's, and D-TA 2 (whose 404
    /// answers the time-permit storage under it).
    static var endpoints: Set<Endpoint> {
        Set(TornadoRouteTable.rps.compactMap(\.endpoint)).union(TornadoRouteTable.demo.compactMap(\.endpoint))
            .union([.dta2, .openSourceTimePermitsStorage])
    }
}
