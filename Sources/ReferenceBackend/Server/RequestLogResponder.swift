import Hummingbird
import Logging

/// Wraps a server's responder and, when `enabled`, logs one line per request through the request
/// context's logger (the server's logger, with Hummingbird's `hb.request.id`) at `info`, once the
/// response is made:
///
///     GET /rps/clientSettings 200 0.412 ms 377 bytes
///
/// the method, the path (without the query, which carries regOTTs and D-TA signatures), the status,
/// the time the responder took and the body's length (`-` when the body does not say). A request
/// the responder fails on is logged with the status Hummingbird answers it with, then rethrown.
struct RequestLogResponder<Wrapped: HTTPResponder>: HTTPResponder where Wrapped.Context: RequestContext {
    typealias Context = Wrapped.Context

    let wrapped: Wrapped
    let enabled: Bool

    func respond(to request: Request, context: Context) async throws -> Response {
        guard enabled else { return try await wrapped.respond(to: request, context: context) }
        let start = ContinuousClock.now
        do {
            let response = try await wrapped.respond(to: request, context: context)
            Self.log(request, status: response.status, bytes: response.body.contentLength, since: start, to: context.logger)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            Self.log(request, status: status, bytes: nil, since: start, to: context.logger)
            throw error
        }
    }

    /// The line for one request (see the type's description).
    static func line(method: String, path: String, status: Int, duration: Duration, bytes: Int?) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1_000)
        let milliseconds = "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return "\(method) \(path.isEmpty ? "/" : path) \(status) \(milliseconds) ms \(bytes.map(String.init) ?? "-") bytes"
    }

    private static func log(_ request: Request, status: HTTPResponse.Status, bytes: Int?, since start: ContinuousClock.Instant,
                            to logger: Logger) {
        let text = line(method: request.method.rawValue, path: request.uri.path, status: status.code, duration: ContinuousClock.now - start,
                        bytes: bytes)
        logger.info("\(text)")
    }
}
