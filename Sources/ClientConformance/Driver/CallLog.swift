import Synchronization

/// The calls of a run as they are made (the built-in driver's output).
final class CallLog: Sendable {
    private let entries = Mutex<[DriverCall]>([])

    func add(_ call: DriverCall) { entries.withLock { $0.append(call) } }

    var calls: [DriverCall] { entries.withLock { $0 } }
}
