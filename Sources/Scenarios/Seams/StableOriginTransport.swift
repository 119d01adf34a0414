import FlowRecording
import MPinSDK

/// Shows a server that listens on a changing address (the embedded backend on a free port) under a
/// fixed one, so that its recordings do not depend on the port.
///
/// Requests to `stableOrigin` go to `actualOrigin`; in responses the actual origin is written back
/// as the stable one (body and header values, `Content-Length` adjusted; `OriginRewrite`), and, when `clock` is
/// given, the `Date` header is rewritten to that clock's time (the server stamps the wall clock,
/// the flow runs on a frozen one).
package struct StableOriginTransport: HTTPTransport {
    package let base: any HTTPTransport
    package let stableOrigin: String
    package let actualOrigin: String
    package let clock: (any SDKClock)?

    package init(base: any HTTPTransport, stableOrigin: String, actualOrigin: String, clock: (any SDKClock)? = nil) {
        self.base = base
        self.stableOrigin = stableOrigin
        self.actualOrigin = actualOrigin
        self.clock = clock
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let outward = OriginRewrite(from: stableOrigin, to: actualOrigin)
        let back = OriginRewrite(from: actualOrigin, to: stableOrigin)
        var outgoing = request
        outgoing.url = outward.apply(request.url)
        outgoing.body = outward.apply(request.body)
        var response = try await base.send(outgoing)
        let body = back.apply(response.body)
        var headers = HTTPHeaders()
        for field in response.headers {
            var value = back.apply(field.value)
            switch field.name.lowercased() {
            case "content-length" where body.count != response.body.count: value = String(body.count)
            case "date": if let clock { value = HTTPDate.format(milliseconds: clock.nowMilliseconds()) }
            default: break
            }
            headers.append(name: field.name, value: value)
        }
        response.body = body
        response.headers = headers
        return response
    }
}

/// IMF-fixdate (RFC 9110 §5.6.7): `Thu, 01 Jan 2026 00:00:00 GMT`.
enum HTTPDate {
    static func format(milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let days = seconds / 86_400 - (seconds % 86_400 < 0 ? 1 : 0)
        let secondOfDay = seconds - days * 86_400
        // Civil from days (H. Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[Int(month - 1)]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) GMT"
    }
}
