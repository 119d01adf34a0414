import SDKSeams

/// An `HTTPTransport` that sends through another one and records every exchange (exact request
/// and response bytes, or the transport error, and the live timings) into a `Recorder`.
public struct RecordingTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let recorder: Recorder
    public let actor: EventActor
    /// Text attached to every exchange of this transport, if any; else the task's
    /// `ExchangeContext` (a scenario step's `context`).
    public let context: String?

    public init(base: any HTTPTransport, recorder: Recorder, actor: EventActor = .sdk, context: String? = nil) {
        self.base = base
        self.recorder = recorder
        self.actor = actor
        self.context = context
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let (slot, step) = recorder.reserve()
        var exchange = CassetteEvent.HTTPExchange(request: .init(request), context: context ?? ExchangeContext.current)
        do {
            let response = try await base.send(request)
            exchange.response = .init(response)
            if recorder.recordsTimings { exchange.timings = response.timings }
            recorder.fill(slot, with: CassetteEvent(actor: actor, step: step, .http(exchange)))
            return response
        } catch {
            exchange.error = .init(error)
            recorder.fill(slot, with: CassetteEvent(actor: actor, step: step, .http(exchange)))
            throw error
        }
    }
}
