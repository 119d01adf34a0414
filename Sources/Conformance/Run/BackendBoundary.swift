import FlowRecording
import OrderedJSON
import SDKSeams
import Synchronization

/// What a case lets the backend it grades make it do (`RunBounds`): requests go only to the
/// allowed origins (`OriginPolicy`), an answer is taken only up to the largest body, and only
/// when its cassette can hold it (`CassetteFile.readBack`, the recording proxy's check) within the
/// run's recording allowance. Anything else is a transport error for the case (so that what the
/// case sees is what its cassette records) and a finding the suite turns into the case's verdict.
///
/// It sits between the case's recorder and its pacer: a refused origin is neither sent nor counted.
final class BackendBoundary: HTTPTransport {
    /// Why an exchange was refused.
    enum Finding: Sendable, Hashable {
        /// A URL on an origin the run may not send to, with the client settings that name that
        /// origin (empty when none does: the URL came from another answer).
        case origin(url: String, origin: String, settings: [String])
        /// An answer whose body is more than the run takes.
        case oversized(method: String, url: String)
        /// An answer a cassette cannot hold: the reader's reason.
        case unrecordable(method: String, url: String, reason: String)
        /// An answer that would take the run's cassettes past their allowance.
        case recordingFull(method: String, url: String)
    }

    let base: any HTTPTransport
    let bounds: RunBounds
    /// The case's cassette header, for the read-back.
    let header: Cassette
    private let headerBytes: Int
    private let state = Mutex((findings: [Finding](), settings: JSONValue?.none))

    init(base: any HTTPTransport, bounds: RunBounds, header: Cassette) {
        self.base = base
        self.bounds = bounds
        self.header = header
        headerBytes = header.canonicalBytes.count
    }

    /// What was refused, in order.
    var findings: [Finding] { state.withLock { $0.findings } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard bounds.origins.allows(request.url) else {
            let origin = OriginPolicy.Origin(url: request.url)?.description ?? request.url
            let settings = settingsNaming(origin)
            note(.origin(url: request.url, origin: origin, settings: settings))
            throw TransportError(
                kind: .invalidRequest,
                message: "not sent: \(origin) is not an origin this run may send to "
                    + "(--backend's or one given with --allow-origin)", url: request.url)
        }
        let response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch {
            if error.kind == .responseTooLarge { note(.oversized(method: request.method.rawValue, url: request.url)) }
            throw error
        }
        let method = request.method.rawValue
        guard response.body.count <= bounds.maximumBodySize else {
            note(.oversized(method: method, url: request.url))
            throw TransportError(
                kind: .responseTooLarge,
                message: "the response body is more than \(bounds.maximumBodySize) bytes, "
                    + "the most this run takes", url: request.url)
        }
        var exchange = CassetteEvent.HTTPExchange(request: .init(request), response: .init(response))
        exchange.timings = response.timings
        let (refusal, size) = CassetteFile.readBack(exchange, header: header, headerBytes: headerBytes)
        if let refusal {
            note(.unrecordable(method: method, url: request.url, reason: refusal))
            throw TransportError(
                kind: .other, message: "the backend's answer cannot be recorded: \(refusal)", url: request.url)
        }
        guard bounds.record(bytes: size) else {
            note(.recordingFull(method: method, url: request.url))
            throw TransportError(
                kind: .other,
                message: "the answer would take the run's cassettes past \(bounds.maximumRecordedBytes) "
                    + "bytes, the most a run records", url: request.url)
        }
        if InterceptingTransport.path(of: request.url).hasSuffix("/clientSettings"), response.status == 200,
            let json = response.json, json.objectMembers != nil
        {
            state.withLock { $0.settings = json }
        }
        return response
    }

    private func note(_ finding: Finding) {
        state.withLock { $0.findings.append(finding) }
    }

    /// The client-settings members (of the last settings this case read) whose URL is on `origin`.
    private func settingsNaming(_ origin: String) -> [String] {
        guard let members = state.withLock({ $0.settings })?.objectMembers else { return [] }
        let backend = bounds.origins.origins.first.map(\.description) ?? ""
        return members.compactMap { member in
            guard let text = member.value.stringValue else { return nil }
            let absolute = text.hasPrefix("/") ? backend + text : text
            return OriginPolicy.Origin(url: absolute)?.description == origin ? member.name : nil
        }
    }

    /// The verdict of a case with findings: a failure that names the first, and how many more.
    static func verdict(_ findings: [Finding], bounds: RunBounds) -> Verdict? {
        guard let first = findings.first else { return nil }
        let more =
            findings.count > 1
            ? " (and \(findings.count - 1) more refused exchange\(findings.count == 2 ? "" : "s"))" : ""
        switch first {
        case .origin(let url, let origin, let settings):
            let named =
                settings.isEmpty
                ? "a URL from the backend's answers" : "the client settings' " + settings.joined(separator: ", ")
            return .fail(
                "not followed: \(named) (\(url)) is on \(origin), not the backend's origin nor one given with "
                    + "--allow-origin; add --allow-origin \(origin) to follow it" + more)
        case .oversized(let method, let url):
            return .fail(
                "the answer to \(method) \(url) is more than \(bounds.maximumBodySize) bytes, the most a run takes "
                    + "(--max-body)" + more)
        case .unrecordable(let method, let url, let reason):
            return .fail("the answer to \(method) \(url) cannot be recorded in a cassette: \(reason)" + more)
        case .recordingFull(let method, let url):
            return .fail(
                "the answer to \(method) \(url) would take the run's cassettes past \(bounds.maximumRecordedBytes) bytes, "
                    + "the most a run records" + more)
        }
    }
}
