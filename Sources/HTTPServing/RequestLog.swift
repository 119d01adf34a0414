import CommonFormats
import Hummingbird
import Logging

/// The request log of the servers of this module: when `enabled`, one line per request at `info`
/// in the server's logger, once the answer is made:
///
///     GET /rps/clientSettings 200 0.412 ms 377 bytes
///
/// the method, the path (without the query, which carries regOTTs and D-TA signatures), the status,
/// the time from the request's end (from its head for a refusal made from the head) to its answer,
/// and the body's length.
struct RequestLog: Sendable {
    let logger: Logger
    let enabled: Bool

    /// Logs the line for `request` (see the type's description).
    func record(_ request: HTTPRequest, status: Int, bytes: Int, since start: ContinuousClock.Instant) {
        guard enabled, logger.logLevel <= .info else { return }
        // The path of an origin-form or absolute-form target (`line` writes an empty one as `/`).
        let path = String(URLText.parts(request.path ?? "").path)
        let text = Self.line(
            method: request.method.rawValue, path: path, status: status, duration: ContinuousClock.now - start,
            bytes: bytes)
        logger.info("\(text)")
    }

    /// The line for one request (see the type's description).
    static func line(method: String, path: String, status: Int, duration: Duration, bytes: Int?) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1_000)
        let milliseconds = "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return
            "\(method) \(path.isEmpty ? "/" : path) \(status) \(milliseconds) ms \(bytes.map(String.init) ?? "-") bytes"
    }
}
