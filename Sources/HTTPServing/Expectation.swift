import NIOHTTP1

/// What the `Expect` field of a request head asks of the servers of this module (RFC 9110
/// §10.1.1), which `ExchangeHandler` answers:
///
/// * `Expect: 100-continue` (the value matched without regard to case) on an HTTP/1.1 request:
///   the interim response `HTTP/1.1 100 Continue` as soon as the head is taken up, before any of
///   the body, so a client that holds the body back until told to send it (libcurl waits up to
///   1 s) sends it at once.
/// * Not for HTTP/1.0: §10.1.1 says to ignore the expectation there (and §15.2 forbids a 1xx to
///   an HTTP/1.0 client).
/// * Not when the server will refuse the request from its head alone: a declared
///   `Content-Length` over the server's body limit gets the final answer (413) without a 100
///   first, as §10.1.1 allows.
/// * Any other expectation (a member other than `100-continue` in the field's list): the request
///   is answered `417 Expectation Failed` with a short text naming the field and the expectation.
enum Expectation: Equatable {
    /// Nothing to answer before the request is handled.
    case none
    /// A `100 Continue` now.
    case proceed
    /// A 417; the expectations that cannot be met.
    case unsupported([String])

    /// The expectation of `head` for a server that reads bodies of at most `maximumBodySize` bytes.
    static func of(_ head: HTTPRequestHead, maximumBodySize: Int) -> Expectation {
        let members = head.headers[canonicalForm: "Expect"].filter { !$0.isEmpty }
        if members.isEmpty { return .none }
        let unsupported = members.filter { $0.lowercased() != "100-continue" }
        if !unsupported.isEmpty { return .unsupported(unsupported.map(String.init)) }
        if head.version.major == 1 && head.version.minor == 0 { return .none }
        if let declared = head.headers.first(name: "Content-Length").flatMap(Int.init), declared > maximumBodySize {
            return .none
        }
        return .proceed
    }
}
