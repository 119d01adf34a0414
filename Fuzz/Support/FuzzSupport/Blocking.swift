import Foundation

/// Runs async code to its end from the synchronous fuzz callback.
public enum Blocking {
    private final class Box<T>: @unchecked Sendable {
        var value: T?
        init() {}
    }

    /// Starts `body` in a task and waits for it on a semaphore (the callback runs on libFuzzer's
    /// thread, never on the cooperative pool, so the wait cannot starve the task).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let box = Box<T>()
        Task {
            box.value = await body()
            semaphore.signal()
        }
        semaphore.wait()
        return box.value!
    }
}
