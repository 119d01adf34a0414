import MPinSDK
import SDKSeams

/// A user of the SDK that a case drives: its client (memory storage, the run's randomness), the
/// SDK's user, its PIN, and the transport that rewrites and keeps the client's exchanges.
public struct ProbeUser: Sendable {
    public let client: MPinClient
    public let user: User
    public let pin: String
    public let wire: InterceptingTransport
    /// The client's storage (the token lives in its secure part).
    public let storage: MemoryStorage

    public var id: String { user.id }
    public var mpinID: String { user.mpinID }
    /// A PIN that is not the user's.
    public var wrongPIN: String { pin == "1111" ? "2222" : "1111" }
}

/// What an SDK call of a case ended with: OK, or the SDK's status and message.
public struct ProbeOutcome: Sendable, CustomStringConvertible {
    public let error: MPinError?
    public let value: String

    public var isOK: Bool { error == nil }
    public var code: StatusCode { error?.code ?? .ok }

    public var description: String {
        guard let error else { return "OK" }
        var text = error.code.name
        if let status = error.context.httpStatus {
            text += " (HTTP \(status)" + (error.context.request.map { " from \($0)" } ?? "") + ")"
        }
        return text
    }
}
