/// A storage failure, with the location and the reason.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var kind: StorageKind
    /// The file path (or another description of the location).
    public var path: String
    public var reason: String

    public init(kind: StorageKind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
