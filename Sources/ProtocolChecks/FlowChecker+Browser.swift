import CommonFormats
import FlowRecording

/// What a browser client's traffic shows beside the SDK's (docs/protocol.md §13, "browser clients";
/// the Fetch standard's CORS protocol):
///
/// * A CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) is the browser's, and it
///   passes only when it is answered 2xx with an `Access-Control-Allow-Origin` that is `*` or the
///   request's `Origin`: anything else and the browser never sends the request it asked about, so
///   the flow stops there (a failure, with what was seen).
/// * The same request sent again right after it got a 408 is a resend (a browser sends a request
///   again on its own when the server answers 408 and closes the connection), noted so that it is
///   not read as a second login.
extension FlowChecker {
    mutating func checkBrowser(
        _ exchange: CassetteEvent.HTTPExchange, index: Int, path: String, _ add: Add
    ) {
        let request = exchange.request
        defer { previousExchange = (index, request, exchange.response?.status) }
        if request.method == "OPTIONS", let asked = request.headers["Access-Control-Request-Method"] {
            let origin = request.headers["Origin"]
            let brief = "\(asked) \(ExchangeReport.brief(path))"
            guard let response = exchange.response else {
                add(
                    .request, .failure, "preflight", false,
                    "the browser's CORS preflight for \(brief) got no answer: the browser does not send the request")
                return
            }
            let allowed = response.headers["Access-Control-Allow-Origin"]
            if !(200..<300).contains(response.status) {
                add(
                    .request, .failure, "preflight", false,
                    "the browser's CORS preflight for \(brief) was answered \(response.status): the browser does not send "
                        + "the request (a preflight needs a 2xx with Access-Control-Allow-Origin)")
            } else if allowed == nil || (allowed != "*" && allowed != origin) {
                let seen = allowed.map { "Access-Control-Allow-Origin \($0)" } ?? "no Access-Control-Allow-Origin"
                add(
                    .request, .failure, "preflight", false,
                    "the browser's CORS preflight for \(brief) from \(origin ?? "no Origin") was answered with \(seen): "
                        + "the browser does not send the request (it needs * or its own origin)")
            } else {
                add(.request, .failure, "preflight", true, "the browser's CORS preflight for \(brief) was allowed")
            }
            return
        }
        if let previous = previousExchange, previous.request == request, previous.status == 408 {
            add(
                .request, .note, "resend", false,
                "the same request as event \(previous.index), sent again after its 408: a resend (a browser sends a "
                    + "request again on its own after a 408), not a second \(request.method) of the client's")
        }
    }
}
