import Foundation
import Hummingbird
import NIOCore

@testable import ReferenceBackend

/// A client of the backend's core at a given source address, without HTTP: each request goes to
/// `BackendResponder.respond(to:body:peer:)` as the server hands it over, with `address` as the
/// connection's peer. For tests that send thousands of requests where the HTTP server is not what
/// is under test.
struct CoreClient {
    let responder: BackendResponder
    let peer: SocketAddress

    init(_ core: BackendCore, address: String) throws {
        responder = BackendResponder(core: core)
        peer = try SocketAddress(ipAddress: address, port: 40_000)
    }

    /// One exchange: its status and its body as a JSON object (empty when it is none).
    func send(_ method: HTTPRequest.Method, _ path: String, json: String = "", headers: HTTPFields = HTTPFields())
        async -> (status: Int, body: [String: Any])
    {
        let head = HTTPRequest(method: method, scheme: "http", authority: "backend", path: path, headerFields: headers)
        let answer = await responder.respond(to: head, body: Array(json.utf8), peer: peer)
        let body = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:]
        return (answer.head.status.code, body)
    }

    /// `PUT /rps/user` for `userID`, with an activation code when given.
    func register(_ userID: String, code: String? = nil) async -> (status: Int, body: [String: Any]) {
        var members = ["\"userId\":\"\(userID)\"", "\"mobile\":1"]
        if let code { members.append("\"activateCode\":\"\(code)\"") }
        return await send(.put, "/rps/user", json: "{" + members.joined(separator: ",") + "}")
    }

    /// `POST /activationCode` for `userID`.
    func requestCode(_ userID: String) async -> (status: Int, body: [String: Any]) {
        await send(.post, "/activationCode", json: "{\"userId\":\"\(userID)\"}")
    }
}

extension BackendCore {
    /// A core with the test seed, a clock standing at `clock`, and `configure`'s changes.
    static func testCore(
        activation: ActivationMode = .auto,
        clock: any BackendClock = ManualBackendClock(milliseconds: 1_700_000_000_000),
        configure: (inout BackendConfiguration) -> Void = { _ in }
    ) -> BackendCore {
        var configuration = BackendConfiguration(activation: activation, seed: "tests")
        configure(&configuration)
        return BackendCore(configuration: configuration, clock: clock, mail: { _ in })
    }
}
