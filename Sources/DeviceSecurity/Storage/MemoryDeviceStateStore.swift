import Synchronization

/// A store in memory: for tests and scenario runs.
public final class MemoryDeviceStateStore: DeviceStateStore {
    private let state: Mutex<DeviceState?>

    public init(_ initial: DeviceState? = nil) {
        state = Mutex(initial)
    }

    public func load() throws(DeviceStorageError) -> DeviceState? { state.withLock { $0 } }

    public func save(_ newState: DeviceState) throws(DeviceStorageError) { state.withLock { $0 = newState } }
}
