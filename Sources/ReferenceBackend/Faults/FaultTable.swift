import CommonFormats
import Hummingbird
import MilagroProtocol
import SDKSeams

/// The faults of a backend, found by endpoint on the one routing table (`EndpointIndex` over
/// `BackendConfiguration.faults`), and the observer that hears of every exchange: what stands
/// in front of the profile's own answers when either is set (`BackendResponder`).
struct FaultTable: Sendable {
    let faults: EndpointIndex<ExchangeFault>
    let observer: (@Sendable (ObservedExchange) -> Void)?

    /// Nil when the configuration has neither faults nor an observer: the backend then answers as
    /// it always does, with nothing in front.
    init?(_ configuration: BackendConfiguration) {
        guard !configuration.faults.isEmpty || configuration.exchangeObserver != nil else { return nil }
        faults = EndpointIndex(configuration.faults)
        observer = configuration.exchangeObserver
    }

    /// The answer to a request: its endpoint's fault around `plain` (the backend's own answer),
    /// or `plain`'s when the endpoint has none; the observer hears of it, then it waits out its
    /// delay (at most `FaultAnswer.maximumDelay`).
    func answer(
        _ head: HTTPRequest, body: [UInt8], core: BackendCore,
        plain: @escaping @Sendable (HTTPRequest) async -> ServerAnswer
    ) async -> FaultAnswer {
        let target = head.path ?? "/"
        let call = try? Call.read(head, body: body)
        let segments = call?.segments ?? []
        let found = faults.lookup(segments)
        let request = FaultRequest(
            method: head.method.rawValue, url: core.base.url + target, target: target, segments: segments,
            query: call?.query ?? [:],
            headers: HTTPHeaders(head.headerFields.map { HTTPHeaders.Field(name: $0.name.rawName, value: $0.value) }),
            body: body, endpoint: found?.endpoint ?? core.routes.lookup(segments)?.endpoint)
        let next: ExchangeFault.Next = { FaultAnswer(await plain(head)) }
        let answer: FaultAnswer
        if let found {
            answer = await found.value.handle(request, FaultServices(core: core, answer: plain), next)
        } else {
            answer = await next()
        }
        observer?(ObservedExchange(request: request, answer: answer))
        let delay = min(max(answer.delay, 0), FaultAnswer.maximumDelay)
        if delay > 0 { try? await Task.sleep(for: .milliseconds(Int64(delay * 1000))) }
        return answer
    }
}

extension FaultAnswer {
    /// The answer a server wrote, as a fault sees it.
    init(_ answer: ServerAnswer) {
        self.init(
            status: answer.head.status.code,
            headers: HTTPHeaders(
                answer.head.headerFields.map { HTTPHeaders.Field(name: $0.name.rawName, value: $0.value) }),
            body: answer.body, reasonPhrase: answer.reasonPhrase)
    }

    /// The answer for the server to write: a field name that is not a token is left out; a
    /// `Content-Length` of the fields gets the body's length unless the body is cut short of it.
    var serverAnswer: ServerAnswer {
        var fields = HTTPFields()
        for field in headers {
            guard let name = HTTPFields.Element.Name(field.name) else { continue }
            fields.append(HTTPFields.Element(name: name, value: field.value))
        }
        let status = (100...999).contains(status) ? status : 500
        var answer = ServerAnswer(HTTPResponse.Status(code: status), headers: fields, body: body)
        answer.reasonPhrase = reasonPhrase
        switch delivery {
        case .whole:
            if answer.head.headerFields[.contentLength] != nil {
                answer.head.headerFields[.contentLength] = String(body.count)
            }
        case .truncated(let declared):
            answer.head.headerFields[.contentLength] = String(max(declared, body.count + 1))
            answer.ending = .close
        case .dropped:
            answer.ending = .drop
        }
        return answer
    }
}
