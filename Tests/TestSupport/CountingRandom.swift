import SDKSeams
import Synchronization

/// Random bytes from a counter, 00 01 02 … wrapping after ff, so that runs repeat exactly and a
/// value in a test's output tells which draw it came from.
package final class CountingRandom: RandomSource {
    private let next = Mutex<UInt8>(0)

    package init() {}

    package func randomBytes(count: Int) -> [UInt8] {
        next.withLock { value in
            (0..<max(count, 0)).map { _ in
                defer { value &+= 1 }
                return value
            }
        }
    }
}
