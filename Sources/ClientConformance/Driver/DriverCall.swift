import MilagroProtocol

/// One SDK call a driver reports, a line `{"call": NAME, "status": STATUS}` of its output: the
/// call's name and the Milagro status it returned (docs/protocol.md §4; `message` optional).
public struct DriverCall: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var status: StatusCode
    public var message: String?

    public init(name: String, status: StatusCode, message: String? = nil) {
        self.name = name
        self.status = status
        self.message = message
    }

    public var isOK: Bool { status == .ok }

    public var description: String { "\(name) \(status.name)" }
}
