import Foundation
import MPinCrypto
import Synchronization

/// Where the backend's randomness comes from: master-secret shares, y, salts, one-time tokens,
/// access numbers, OTPs.
///
/// Seeded, it is a SHA-256 counter generator: block i = SHA256(SHA256(label ‖ seed) ‖ be64(i)),
/// so the same seed gives the same values in the same order of draws. Unseeded, it reads the
/// system's generator. Draws are serialised by a lock.
///
/// A named stream (`stream:`) has a label of its own, "mpin-workbench reference backend seed
/// (name):", so its draws follow the seed without moving the values of the main stream: a draw
/// that a later change adds there (the RPS's count of time-permit days) leaves every recorded
/// answer as it was.
public final class BackendRandom: Sendable {
    /// The seeded generator's position: blocks made so far, and the bytes of the last not yet drawn.
    private struct Stream {
        var counter: UInt64 = 0
        var pool: [UInt8] = []
    }

    private let stream = Mutex(Stream())
    private let key: [UInt8]?

    /// - Parameters:
    ///   - seed: nil for the system's generator.
    ///   - stream: nil for the main stream, else the name of a stream of its own.
    public init(seed: String?, stream: String? = nil) {
        let label =
            stream.map { "mpin-workbench reference backend seed (\($0)):" } ?? "mpin-workbench reference backend seed:"
        key = seed.map { SHA256.hash(Array(label.utf8) + Array($0.utf8)) }
    }

    public var isSeeded: Bool { key != nil }

    public func bytes(_ count: Int) -> [UInt8] {
        guard let key else {
            var system = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &system) }
        }
        return stream.withLock { stream in
            while stream.pool.count < count {
                var block = key
                for shift in stride(from: 56, through: 0, by: -8) {
                    block.append(UInt8(truncatingIfNeeded: stream.counter >> UInt64(shift)))
                }
                stream.counter += 1
                stream.pool += SHA256.hash(block)
            }
            let out = Array(stream.pool.prefix(count))
            stream.pool.removeFirst(count)
            return out
        }
    }

    /// `count` random bytes as lowercase hex (tokens, salts).
    public func hex(_ count: Int) -> String { Hex.encode(bytes(count)) }

    /// A uniform integer in 0..<bound (rejection sampling).
    public func uniform(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if value < limit { return value % bound }
        }
    }

    /// `count` decimal digits.
    public func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(uniform(10))) })
    }

    /// A scalar mod r (RANDOM_GENERATE) drawn from this source.
    public func scalar(_ mpin: MPin) -> [UInt8] {
        var generator = Generator(source: self)
        return mpin.randomScalar(using: &generator)
    }

    private struct Generator: RandomNumberGenerator {
        let source: BackendRandom
        mutating func next() -> UInt64 { source.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }
}
