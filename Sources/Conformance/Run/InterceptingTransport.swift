import SDKSeams
import Synchronization

/// What stands between an SDK client of a case and the wire: it rewrites the requests a case
/// asks it to (an off-curve U, a replayed body) and keeps every exchange, so that the case can
/// read what the SDK sent and got, and send a captured request again.
public final class InterceptingTransport: HTTPTransport {
    /// One exchange as the SDK saw it (the request as rewritten).
    public struct Exchange: Sendable {
        public var request: HTTPRequest
        public var response: HTTPResponse?
    }

    private struct Rule {
        var pathSuffix: String
        var once: Bool
        var rewrite: @Sendable (HTTPRequest) -> HTTPRequest
    }

    private struct State {
        var rules: [Rule] = []
        var log: [Exchange] = []
    }

    let base: any HTTPTransport
    private let state = Mutex(State())

    init(base: any HTTPTransport) {
        self.base = base
    }

    /// Rewrites the next request (or every request, `once: false`) whose URL path ends with
    /// `pathSuffix` (the query aside).
    public func rewrite(
        pathSuffix: String, once: Bool = true, _ rewrite: @escaping @Sendable (HTTPRequest) -> HTTPRequest
    ) {
        state.withLock { $0.rules.append(Rule(pathSuffix: pathSuffix, once: once, rewrite: rewrite)) }
    }

    /// Drops the rewrites not applied yet.
    public func clearRewrites() {
        state.withLock { $0.rules.removeAll() }
    }

    /// The exchanges so far, oldest first.
    public var exchanges: [Exchange] { state.withLock { $0.log } }

    /// The last exchange whose URL path ends with `pathSuffix`.
    public func last(_ pathSuffix: String) -> Exchange? {
        exchanges.last { Self.path(of: $0.request.url).hasSuffix(pathSuffix) }
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let path = Self.path(of: request.url)
        let rewritten: HTTPRequest = state.withLock { state in
            guard let index = state.rules.firstIndex(where: { path.hasSuffix($0.pathSuffix) }) else { return request }
            let rule = state.rules[index]
            if rule.once { state.rules.remove(at: index) }
            return rule.rewrite(request)
        }
        let slot = state.withLock { state in
            state.log.append(Exchange(request: rewritten, response: nil))
            return state.log.count - 1
        }
        let response = try await base.send(rewritten)
        state.withLock { $0.log[slot].response = response }
        return response
    }

    /// The path of a URL: what follows the authority, up to `?` or `#`.
    static func path(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        var path = rest[slash...]
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        return String(path)
    }
}
