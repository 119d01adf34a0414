import Foundation
import MPinSDK
import Synchronization

/// A transport that answers from a script, in order, and records every request it got.
/// A request that does not match the next scripted step gets a transport error naming both.
final class ScriptedTransport: HTTPTransport, Sendable {
    struct Step: Sendable {
        var method: HTTPMethod
        var url: String
        var status: Int = 200
        var body: String = ""
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=UTF-8"]
        var failure: TransportError.Kind?
    }

    private struct State {
        var steps: [Step]
        var received: [HTTPRequest] = []
        var mismatches: [String] = []
    }

    private let state: Mutex<State>

    init(_ steps: [Step] = []) {
        state = Mutex(State(steps: steps))
    }

    func add(_ more: [Step]) {
        state.withLock { $0.steps += more }
    }

    var requests: [HTTPRequest] { state.withLock { $0.received } }
    var remaining: Int { state.withLock { $0.steps.count } }
    var problems: [String] { state.withLock { $0.mismatches } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let step: Step? = state.withLock { state in
            state.received.append(request)
            guard let next = state.steps.first, next.method == request.method, next.url == request.url else {
                let expected = state.steps.first.map { "\($0.method.rawValue) \($0.url)" } ?? "nothing"
                state.mismatches.append("got \(request.method.rawValue) \(request.url), expected \(expected)")
                return nil
            }
            state.steps.removeFirst()
            return next
        }
        guard let step else {
            throw TransportError(kind: .other, message: "unscripted request", url: request.url)
        }
        if let failure = step.failure {
            throw TransportError(kind: failure, message: "scripted \(failure)", url: request.url, code: 7)
        }
        return HTTPResponse(status: step.status, headers: step.headers, body: Array(step.body.utf8))
    }
}

extension ScriptedTransport.Step {
    static func get(_ url: String, _ status: Int = 200, _ body: String = "") -> Self {
        .init(method: .get, url: url, status: status, body: body)
    }
    static func post(_ url: String, _ status: Int = 200, _ body: String = "") -> Self {
        .init(method: .post, url: url, status: status, body: body)
    }
    static func put(_ url: String, _ status: Int = 200, _ body: String = "") -> Self {
        .init(method: .put, url: url, status: status, body: body)
    }
}
