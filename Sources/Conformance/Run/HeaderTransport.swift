import SDKSeams

/// Adds fixed header fields to every request that does not have them (the MFA platform's
/// `X-MIRACL-CID`, which it wants on every RPS request, docs/protocol.md §1).
struct HeaderTransport: HTTPTransport {
    let base: any HTTPTransport
    let headers: HTTPHeaders

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var request = request
        for field in headers { request.headers.addIfAbsent(name: field.name, value: field.value) }
        return try await base.send(request)
    }
}
