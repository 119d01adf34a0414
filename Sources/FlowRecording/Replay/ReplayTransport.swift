import SDKSeams

/// An `HTTPTransport` that answers from a `Replayer`'s cassette: each request is checked against
/// the recorded one at its place and gets the recorded response (or transport error).
///
/// A background step's response waits, as the server held it when recording, until the events
/// recorded before the step's next one have been made by the other steps
/// (``Replayer/holdResponse(after:)``).
///
/// A request that does not match, and every request after a divergence, is not sent: it gets a
/// `TransportError` of kind `replayDivergence` (the SDK's `REPLAY_DIVERGED`, not a network error)
/// whose message names the first divergence; the full report comes from `Replayer.finish()`.
public struct ReplayTransport: HTTPTransport {
    public let replayer: Replayer
    public let actor: EventActor

    public init(replayer: Replayer, actor: EventActor = .sdk) {
        self.replayer = replayer
        self.actor = actor
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        switch replayer.serve(request, actor: actor) {
        case .success(let (index, exchange)):
            if let index { await replayer.holdResponse(after: index) }
            if let response = exchange.response { return response.httpResponse }
            throw (exchange.error ?? .init(kind: "other", message: "no recorded response")).transportError(
                url: request.url)
        case .failure(let error):
            throw TransportError(
                kind: .replayDivergence, message: error.report.refusal, url: request.url)
        }
    }
}
