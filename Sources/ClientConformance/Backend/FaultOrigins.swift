/// The other origins a case's faults may point at (`OtherOrigin`): the trap, where no request
/// should go, and the alias, another origin that serves the backend.
public struct FaultOrigins: Sendable, Hashable {
    public var trap: String
    public var alias: String

    public init(trap: String, alias: String) {
        self.trap = trap
        self.alias = alias
    }
}
