import Foundation

/// Storage in memory, for tests and throwaway sessions.
public final class MemoryStorage: SDKStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [StorageKind: String] = [:]
    private var aside: [StorageKind: [String]] = [:]

    public init(secure: String? = nil, nonSecure: String? = nil) {
        texts[.secure] = secure
        texts[.nonSecure] = nonSecure
    }

    public func read(_ kind: StorageKind) throws(StorageError) -> String? {
        lock.withLock { texts[kind] }
    }

    public func write(_ kind: StorageKind, _ text: String) throws(StorageError) {
        lock.withLock { texts[kind] = text }
    }

    public func moveAside(_ kind: StorageKind) throws(StorageError) -> String {
        lock.withLock {
            if let text = texts.removeValue(forKey: kind) { aside[kind, default: []].append(text) }
            return "memory:\(kind.rawValue).corrupt-\(aside[kind]?.count ?? 0)"
        }
    }

    public func location(of kind: StorageKind) -> String { "memory:\(kind.rawValue)" }

    /// The current text of one kind (for inspection in tests).
    public func text(_ kind: StorageKind) -> String? { lock.withLock { texts[kind] } }

    /// Texts that were moved aside, oldest first.
    public func movedAside(_ kind: StorageKind) -> [String] { lock.withLock { aside[kind] ?? [] } }
}
