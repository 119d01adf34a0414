/// Where the device keeps its `DeviceState` (the app sandbox of the document).
///
/// Implementations: `FileDeviceStateStore` (durable, atomic writes) and `MemoryDeviceStateStore`
/// (tests, scenario runs). One store belongs to one `DeviceSecurity`.
public protocol DeviceStateStore: Sendable {
    /// The stored state; nil when nothing was ever stored.
    func load() throws(DeviceStorageError) -> DeviceState?
    /// Replaces the stored state completely; after a failure the previous state is still there.
    func save(_ state: DeviceState) throws(DeviceStorageError)
}

/// A storage failure: where, and why.
public struct DeviceStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
