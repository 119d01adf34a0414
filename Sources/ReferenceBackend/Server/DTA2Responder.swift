import Hummingbird
import NIOCore

/// D-TA 2 on an origin of its own (`BackendConfiguration.dta2OwnOrigin`, `milagro-oss`): every
/// request is answered as the backend answers the same path under `/dta2`, so `/clientSecret?…`
/// here is `/dta2/clientSecret?…` there, and a path D-TA 2 does not serve gets its own 404.
struct DTA2Responder: ServerResponder {
    let backend: BackendResponder

    var maximumBodySize: Int { backend.maximumBodySize }

    func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer {
        await respond(to: head, body: body, peer: nil)
    }

    func respond(to head: HTTPRequest, body: [UInt8], peer: SocketAddress?) async -> ServerAnswer {
        var mounted = head
        let path = head.path ?? "/"
        mounted.path = TornadoRouteTable.dta2Mount + (path.hasPrefix("/") ? path : "/" + path)
        return await backend.respond(to: mounted, body: body, peer: peer)
    }

    func refusal(oversized head: HTTPRequest) -> ServerAnswer { backend.refusal(oversized: head) }

    func refusal(timedOut head: HTTPRequest, after deadline: BodyDeadline) -> ServerAnswer {
        backend.refusal(timedOut: head, after: deadline)
    }
}
