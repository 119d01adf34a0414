import OrderedJSON

/// Operator endpoints: the revocation hook (`RPAPermitUserURL` of the open-source server, here a
/// switch), the activation mailbox, and record counts.
extension BackendCore {
    func admin(_ call: Call, _ operation: String) async throws(APIError) -> Reply {
        switch (operation, call.method) {
        case ("revoke", .post), ("restore", .post):
            let body = try call.json()
            let userID = try body.optionalString("userId", maxLength: 256)
            let mpinID = try body.optionalString("mpinId", maxLength: 4096)
            guard userID != nil || mpinID != nil else { throw APIError(.badRequest, "Give 'userId' or 'mpinId'") }
            let affected = await store.setRevoked(userID: userID, mpinID: mpinID, revoked: operation == "revoke")
            return .ok([("revoked", .bool(operation == "revoke")), ("mpinIds", .array(affected.map { .string($0) }))])
        case ("mailbox", .get):
            let userID = call.query["userId"]
            let messages = await store.mailbox.filter { userID == nil || $0.userID == userID }
            return .ok([
                (
                    "messages",
                    .array(
                        messages.map { message in
                            .fields([
                                ("kind", .string(message.kind.rawValue)), ("userId", .string(message.userID)),
                                ("mpinId", .string(message.mpinID)), ("value", .string(message.value)),
                            ])
                        })
                )
            ])
        case ("counts", .get):
            let counts = await store.counts()
            return .ok(counts.keys.sorted().map { ($0, .integer(Int64(counts[$0] ?? 0))) })
        case ("revoke", _), ("restore", _), ("mailbox", _), ("counts", _):
            throw APIError(.methodNotAllowed, "Wrong method for /admin/\(operation)")
        default:
            throw APIError(.notFound, "No such admin operation: \(operation)")
        }
    }
}
