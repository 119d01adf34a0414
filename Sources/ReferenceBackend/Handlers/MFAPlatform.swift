import CommonFormats
import MilagroProtocol

/// The MFA platform's OIDC side: the authorize URL that starts an in-app or QR login, and the
/// token endpoint that exchanges an authorization code (docs/protocol.md §3.8, §10).
extension BackendCore {
    /// `POST|GET /authorize?client_id&redirect_uri&response_type=code&scope&state`: a new access
    /// code, answered as `{webOTT, qrURL: <base>#<code>, accessURL}`.
    func authorize(_ call: Call) async throws(APIError) -> Reply {
        guard call.method == .post || call.method == .get else {
            throw APIError(.methodNotAllowed, "Use POST or GET for /authorize")
        }
        if call.method == .post { _ = try call.json(allowEmpty: true) }
        guard let clientID = call.query["client_id"], !clientID.isEmpty else {
            throw APIError(.badRequest, "Missing parameter 'client_id'")
        }
        guard let redirect = call.query["redirect_uri"], !redirect.isEmpty else {
            throw APIError(.badRequest, "Missing parameter 'redirect_uri'")
        }
        guard call.query["response_type"] == "code" else { throw APIError(.badRequest, "response_type must be 'code'") }
        if let expected = configuration.clientID, expected != clientID {
            throw APIError(.badRequest, "Unknown client_id")
        }
        let session = try await newSession(
            wid: random.hex(16), now: now, client: call.client, clientID: clientID, redirectURI: redirect,
            state: call.query["state"] ?? "")
        return .ok([
            ("webOTT", .string(session.webOTT)), ("qrURL", .string(base.url + "#" + session.wid)),
            ("accessURL", .string(base.url + Endpoint.accessNumberPoll.path)),
        ])
    }

    /// The authorize URL an app backend would hand to the app (for tests and the serve banner).
    func authorizeURL(clientID: String, redirectURI: String = "http://127.0.0.1/callback", state: String = "workbench")
        -> String
    {
        base.url + "/authorize?"
            + QueryString.build([
                ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
                ("scope", "openid email profile"), ("state", state),
            ])
    }

    /// `POST /token {"code"}`: the identity behind an authorization code, once.
    func token(_ call: Call) async throws(APIError) -> Reply {
        let code = try call.json().string("code", maxLength: 256)
        guard let record = await store.redeemCode(code, now: now) else { throw APIError(.badRequest, "invalid_grant") }
        return .ok([
            ("userId", .string(record.userID)), ("mpinId", .string(record.mpinID)),
            ("clientId", .string(record.clientID)),
        ])
    }
}
