import CommonFormats
import MPinCrypto
import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Makes one request the way the Milagro core's `MakeRequest` does (docs/protocol.md §1).
    ///
    /// Headers: the custom headers plus the client-id header, then for non-GET requests
    /// `Content-Type: application/json; charset=UTF-8` and `Accept: text/plain` unless present;
    /// sorted by name, as the core's `std::map` iterates them. Non-GET requests always carry a JSON
    /// body (`{}` when there is nothing to say), formatted as the core formats it.
    /// - Throws: UNTRUSTED_DOMAIN_ERROR (nothing sent), NETWORK_ERROR, the status of docs/protocol.md §4
    ///   for a non-2xx answer, RESPONSE_PARSE_ERROR for a 2xx body that is not JSON.
    func request(
        _ context: RequestContext, _ method: HTTPMethod, _ url: String, body: JSONValue? = nil,
        expectJSON: Bool = true
    ) async throws(MPinError) -> Answer {
        var headers = customHeaders
        if !clientID.isEmpty {
            headers.set(name: options.flavour == .mfaPlatform ? "X-MIRACL-CID" : "X-MIRACL-Client-ID", value: clientID)
        }
        var bytes: [UInt8] = []
        if method != .get {
            headers.addIfAbsent(name: "Content-Type", value: "application/json; charset=UTF-8")
            headers.addIfAbsent(name: "Accept", value: "text/plain")
            bytes = Array((body ?? .object([])).milagroFormatted().utf8)
        }
        let sorted = HTTPHeaders(
            headers.fields.enumerated().sorted {
                $0.element.name == $1.element.name ? $0.offset < $1.offset : $0.element.name < $1.element.name
            }.map(\.element))
        let request = HTTPRequest(
            method: method, url: url, headers: sorted, body: bytes, timeout: options.requestTimeout)
        let described = "\(method.rawValue) \(url)"

        if let problem = untrustedReason(url) {
            let error = TransportError(kind: .invalidRequest, message: problem, url: url)
            emit(
                .http(
                    ClientEvent.HTTPExchange(context: context.rawValue, request: request, response: nil, error: error)))
            throw MPinError(.untrustedDomainError, problem, context: .init(request: described))
        }

        let response: HTTPResponse
        do throws(TransportError) {
            response = try await transport.send(request)
        } catch {
            emit(
                .http(
                    ClientEvent.HTTPExchange(context: context.rawValue, request: request, response: nil, error: error)))
            // A replay's refusal is not the network's: the test's first failure then names it.
            let code: StatusCode = error.kind == .replayDivergence ? .replayDiverged : .networkError
            throw MPinError(code, error.message, context: .init(request: described))
        }
        emit(
            .http(ClientEvent.HTTPExchange(context: context.rawValue, request: request, response: response, error: nil))
        )

        guard (200..<300).contains(response.status) else {
            let snippet = Self.snippet(response)
            let code = HTTPStatusMapping.status(forHTTPStatus: response.status, in: context, flavour: options.flavour)
            let serverMessage = (try? JSONParser.parseRefusingByteOrderMark(response.body))?[first: "message"]?
                .stringValue
            var message = "\(code.defaultMessage) (HTTP \(response.status))"
            if let detail = serverMessage ?? snippet.map({ String($0.prefix(200)) }) { message += ": " + detail }
            throw MPinError(
                code, message, context: .init(request: described, httpStatus: response.status, responseBody: snippet))
        }
        guard expectJSON, !response.body.isEmpty else { return Answer(response: response, json: nil) }
        do throws(JSONSyntaxError) {
            return Answer(response: response, json: try JSONParser.parseRefusingByteOrderMark(response.body))
        } catch {
            throw MPinError(
                .responseParseError, "The response is not JSON: \(error)",
                context: .init(request: described, httpStatus: response.status, responseBody: Self.snippet(response)))
        }
    }

    /// The body's first 512 characters, nil for an empty body: the context of an error. Made only
    /// when an error reports it (for every answer, it cost a string of the whole body and a walk
    /// over its characters per request).
    static func snippet(_ response: HTTPResponse) -> String? {
        let text = response.bodyText ?? ""
        return text.isEmpty ? nil : String(text.prefix(512))
    }

    /// Nil when the URL may be requested; else why not (docs/protocol.md §1, trusted domains: once any
    /// domain is trusted, a URL must be https and its host must be in a trusted domain, as
    /// `Options.trustedDomainMatching` says).
    func untrustedReason(_ url: String) -> String? {
        guard !trustedDomains.isEmpty else { return nil }
        guard let parts = URLParts(url) else { return "Cannot parse the URL \(url)" }
        guard parts.scheme == "https" else { return "Only https URLs are allowed: \(url)" }
        let matching = options.trustedDomainMatching
        guard trustedDomains.contains(where: { Self.host(parts.host, isIn: $0, matching: matching) }) else {
            return "The host \(parts.host) is not in a trusted domain"
        }
        return nil
    }
}
