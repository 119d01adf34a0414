import CommonFormats
import Hummingbird
import MilagroProtocol
import NIOCore

/// The HTTP front: routes each whole request and turns every refusal into a JSON 4xx. Handlers
/// throw only `APIError` (typed throws), so nothing a client sends can crash the server. Under
/// the `milagro-oss` profile the open-source server's front answers instead (`OpenSourceServer`),
/// with Tornado's body limit (100 MiB, `max_body_size`).
struct BackendResponder: ServerResponder {
    let core: BackendCore

    var maximumBodySize: Int { core.openSource ? 100 * 1024 * 1024 : core.configuration.maximumBodySize }

    /// The answer as to a client that is not on this machine (operator endpoints refused unless
    /// the configuration allows remote ones).
    func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer {
        await respond(to: head, body: body, peer: nil)
    }

    /// The answer to a request from `peer`: the backend's own, or, for an endpoint with a fault,
    /// the fault's around it (`FaultTable`; the observer hears of each).
    func respond(to head: HTTPRequest, body: [UInt8], peer: SocketAddress?) async -> ServerAnswer {
        guard let table = core.faultTable else { return await plainAnswer(to: head, body: body, peer: peer) }
        let answer = await table.answer(head, body: body, core: core) { request in
            await plainAnswer(to: request, body: request == head ? body : [], peer: peer)
        }
        return answer.serverAnswer
    }

    /// The profile's own answer, without faults.
    func plainAnswer(to head: HTTPRequest, body: [UInt8], peer: SocketAddress?) async -> ServerAnswer {
        if core.openSource, let answer = await core.openSourceAnswer(to: head, body: body) { return answer }
        // A browser's request (it carries Origin) to the default profile: the CORS protocol.
        let origin = core.configuration.profile == .default ? head.headerFields[.origin] : nil
        if let origin, head.method == .options,
            head.headerFields[HTTPFields.Element.Name("Access-Control-Request-Method")!] != nil
        {
            let requested = head.headerFields[HTTPFields.Element.Name("Access-Control-Request-Headers")!]
            return core.cors.preflight(origin: origin, requestedHeaders: requested).answer
        }
        let reply: Reply
        var segments: [String] = []
        do {
            var call = try Call.read(head, body: body)
            call.fromLoopback = Self.isLoopback(peer) && !Self.cameThroughProxy(head.headerFields)
            call.client = ClientAddress(peer: peer)
            segments = call.segments
            reply = try await core.route(call)
        } catch {
            reply = Reply.error(error)
        }
        let answer = core.profiled(reply, segments: segments).answer
        guard let origin else { return answer }
        return core.cors.decorate(answer, origin: origin)
    }

    func refusal(oversized head: HTTPRequest) -> ServerAnswer {
        Reply.error(APIError(.contentTooLarge, "The body is larger than \(maximumBodySize) bytes")).answer
    }

    /// Whether a peer is on this machine: 127.0.0.0/8, ::1, an IPv4-mapped 127.x address
    /// (`Loopback`, the one rule) or a Unix-domain socket. Nil (unknown) is not.
    static func isLoopback(_ peer: SocketAddress?) -> Bool {
        switch peer {
        case .v4(let address)?:
            return Loopback.isLoopback(ipv4: UInt32(bigEndian: address.address.sin_addr.s_addr))
        case .v6(let address)?:
            return Loopback.isLoopback(ipv6: withUnsafeBytes(of: address.address.sin6_addr) { Array($0) })
        case .unixDomainSocket?:
            return true
        case nil:
            return false
        }
    }

    /// The fields a proxy adds to what it forwards (RFC 9110 §7.6.3 `Via`, RFC 7239 `Forwarded`,
    /// and the common `X-Forwarded-For`): a request with any of them came through a proxy, which
    /// on this machine may be forwarding a client that is not (`mpin-workbench proxy` sends `Via`).
    /// Any client can send these fields, but they only take the operator endpoints away from it.
    static let proxyFields: [HTTPFields.Element.Name] = [
        .via, HTTPFields.Element.Name("Forwarded")!, HTTPFields.Element.Name("X-Forwarded-For")!,
    ]

    /// Whether a request names a proxy it came through (`proxyFields`).
    static func cameThroughProxy(_ fields: HTTPFields) -> Bool {
        proxyFields.contains { fields[$0] != nil }
    }

    func refusal(timedOut head: HTTPRequest, after deadline: BodyDeadline) -> ServerAnswer {
        Reply.error(APIError(.requestTimeout, "The request body did not arrive within \(deadline.seconds) s"))
            .answer
    }
}

extension BackendCore {
    /// Routes a call to its handler (`routes`, this profile's map from `Endpoint` to `Route`; the
    /// table is in docs/backend.md, "Reference backend"): the operator's endpoints only from this
    /// machine, the MFA platform's client id under the RPS, 404 for no endpoint, 405 for another
    /// method than the endpoint's.
    func route(_ call: Call) async throws(APIError) -> Reply {
        let (s, operatorCall) = try operatorSegments(call)
        if !call.fromLoopback, !configuration.allowsRemoteAdmin, Self.isOperatorPath(s) {
            throw APIError(
                .forbidden,
                "The operator endpoints (/admin/*, /devicesecurity/admin/*) answer only clients on this machine; "
                    + "start the backend with --remote-admin to let others in")
        }
        if configuration.flavour == .mfaPlatform, s.count >= 2, s[0] == Endpoint.defaultRPSPrefix,
            !browserSegments.contains(s[1])
        {
            try checkClientID(call)
        }
        guard let (endpoint, route) = (operatorCall ? BackendRoutes.operatorIndex : routes).lookup(s) else {
            throw APIError(.notFound, "No such endpoint: \(call.method.rawValue) /\(s.joined(separator: "/"))")
        }
        guard !route.checksMethod || call.method.rawValue == endpoint.method else {
            throw APIError(.methodNotAllowed, "Use \(endpoint.method) for /\(s.joined(separator: "/"))")
        }
        return try await route.handle(self, call, endpoint.tailSegment(of: s))
    }

    /// A call's segments with the operator endpoints' prefix taken off (`operatorMount`); 404 for
    /// `/admin/*` where they are off or under a prefix, as any path without an endpoint.
    func operatorSegments(_ call: Call) throws(APIError) -> (segments: [String], operatorCall: Bool) {
        let s = call.segments
        let notFound = APIError(.notFound, "No such endpoint: \(call.method.rawValue) /\(s.joined(separator: "/"))")
        guard let mount = configuration.operatorMount else {
            if s.first == "admin" { throw notFound }
            return (s, false)
        }
        let prefix = mount.split(separator: "/").map(String.init)
        if s.starts(with: prefix), s.dropFirst(prefix.count).first == "admin" {
            return (Array(s.dropFirst(prefix.count)), true)
        }
        if s.first == "admin" { throw notFound }
        return (s, false)
    }

    /// Whether a path as sent is one of the operator endpoints under their prefix (false where
    /// they are off).
    func isOperatorRequest(_ path: Substring) -> Bool {
        guard let mount = configuration.operatorMount else { return false }
        return path == mount + "/admin" || path.hasPrefix(mount + "/admin/")
    }

    /// `/admin/*` and `/devicesecurity/admin/*`: the mailbox (activation links and codes),
    /// revocation, counts and the DeviceSecurity service's set-up.
    static func isOperatorPath(_ segments: [String]) -> Bool {
        segments.first == "admin" || (segments.first == "devicesecurity" && segments.dropFirst().first == "admin")
    }

    /// What the `milagro-oss` profile adds to every answer of the open-source server's parts (RPS,
    /// D-TAs, demo RPA; not the DeviceSecurity service or the operator's endpoints):
    /// `WWW-Authenticate: Authenticate` on a 401 (docs/protocol.md §4, §13).
    func profiled(_ reply: Reply, segments: [String]) -> Reply {
        if hostedV3 { return hostedV3Profiled(reply, segments: segments) }
        guard openSource, reply.status == .unauthorized, !["devicesecurity", "admin"].contains(segments.first ?? "")
        else { return reply }
        return reply.adding(.wwwAuthenticate, "Authenticate")
    }

    /// `PUT /rps/user[/<mpinId>]`; under the `milagro-oss` profile its 400 has an empty body, as
    /// the open-source RPS's (docs/protocol.md §13).
    func profiledRegistration(_ call: Call, restarting restartID: String?) async throws(APIError) -> Reply {
        do {
            return try await register(call, restarting: restartID)
        } catch  where openSource && error.status == .badRequest {
            return .empty(.badRequest)
        }
    }

    /// MFA platform: `X-MIRACL-CID` must be present (and equal the configured id, if any); 406 otherwise.
    func checkClientID(_ call: Call) throws(APIError) {
        let given = call.header("X-MIRACL-CID") ?? ""
        guard !given.isEmpty, configuration.clientID == nil || configuration.clientID == given else {
            throw APIError(.notAcceptable, "Cannot parse application for User-Agent ")
        }
    }
}
