import Foundation
import MPinSDK

/// A transport that answers from a script, in order, and records every request it got.
/// A request that does not match the next scripted step gets a transport error naming both.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    struct Step: Sendable {
        var method: HTTPMethod
        var url: String
        var status: Int = 200
        var body: String = ""
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=UTF-8"]
        var failure: TransportError.Kind?
    }

    private let lock = NSLock()
    private var steps: [Step]
    private(set) var received: [HTTPRequest] = []
    private(set) var mismatches: [String] = []

    init(_ steps: [Step] = []) {
        self.steps = steps
    }

    func add(_ more: [Step]) {
        lock.withLock { steps += more }
    }

    var requests: [HTTPRequest] { lock.withLock { received } }
    var remaining: Int { lock.withLock { steps.count } }
    var problems: [String] { lock.withLock { mismatches } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let step: Step? = lock.withLock {
            received.append(request)
            guard let next = steps.first, next.method == request.method, next.url == request.url else {
                let expected = steps.first.map { "\($0.method.rawValue) \($0.url)" } ?? "nothing"
                mismatches.append("got \(request.method.rawValue) \(request.url), expected \(expected)")
                return nil
            }
            steps.removeFirst()
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
