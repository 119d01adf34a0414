import CommonFormats
import Hummingbird

/// The default profile's answers to browser clients (the Fetch standard's CORS protocol, "CORS
/// protocol" and "CORS-preflight fetch"; docs/backend.md, "Browser clients"). Only requests that
/// carry `Origin` get CORS fields, as a browser sends it on every cross-origin request and every
/// preflight: the SDK's requests, which carry none, are answered byte for byte as before.
///
/// * A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) of an allowed origin
///   is answered 200 with no body: the origin allowed, the methods the RPS's routes use, the
///   request headers asked for (when they are tokens) and a 10-minute `Access-Control-Max-Age`.
///   A preflight of an origin not allowed is answered 403 with a JSON error that names it.
/// * Every other answer to an allowed origin says `Access-Control-Allow-Origin`: `*` when any origin
///   is allowed (as the open-source server answers), else the origin itself with `Vary: Origin`
///   and `Access-Control-Allow-Credentials: true`.
struct CORSPolicy: Sendable {
    /// nil: any origin.
    var allowedOrigins: [String]?

    /// The methods a preflight is told the server allows (the open-source RPS's list).
    static let methods = "GET, PUT, POST, DELETE, OPTIONS"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let maximumAge = "600"

    /// Whether `origin` may call the backend.
    func allows(_ origin: String) -> Bool {
        guard let allowedOrigins else { return true }
        return allowedOrigins.contains(origin)
    }

    /// The answer to a preflight from `origin` asking for `requestedHeaders`
    /// (`Access-Control-Request-Headers`).
    func preflight(origin: String, requestedHeaders: String?) -> Reply {
        guard allows(origin) else {
            return .error(
                APIError(
                    .forbidden,
                    "Origin \(origin) may not call this backend from a browser; start it with --cors-origin \(origin)"))
        }
        var reply = Reply.empty(.ok, headers: fields(origin: origin))
        reply = reply.adding(HTTPFields.Element.Name("Access-Control-Allow-Methods")!, Self.methods)
        if let requestedHeaders, Self.isTokenList(requestedHeaders) {
            reply = reply.adding(HTTPFields.Element.Name("Access-Control-Allow-Headers")!, requestedHeaders)
        }
        return reply.adding(HTTPFields.Element.Name("Access-Control-Max-Age")!, Self.maximumAge)
    }

    /// `answer` with the fields an allowed `origin` needs to read it; unchanged for another origin.
    func decorate(_ answer: ServerAnswer, origin: String) -> ServerAnswer {
        guard allows(origin) else { return answer }
        var decorated = answer
        for field in fields(origin: origin) { decorated.head.headerFields.append(field) }
        return decorated
    }

    private func fields(origin: String) -> HTTPFields {
        var fields = HTTPFields()
        if allowedOrigins == nil {
            fields.append(HTTPFields.Element(name: HTTPFields.Element.Name("Access-Control-Allow-Origin")!, value: "*"))
        } else {
            fields.append(
                HTTPFields.Element(name: HTTPFields.Element.Name("Access-Control-Allow-Origin")!, value: origin))
            fields.append(
                HTTPFields.Element(name: HTTPFields.Element.Name("Access-Control-Allow-Credentials")!, value: "true"))
            fields.append(HTTPFields.Element(name: HTTPFields.Element.Name("Vary")!, value: "Origin"))
        }
        return fields
    }

    /// Whether `text` is a comma-separated list of header names (RFC 9110 §5.6.2 tokens), the
    /// only form echoed back.
    static func isTokenList(_ text: String) -> Bool {
        text.utf8.count <= 1024
            && text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
                HTTPToken.isToken($0.trimmingOptionalWhitespace)
            }
    }
}
