import Synchronization

/// Storage in memory, for tests and throwaway sessions.
public final class MemoryStorage: SDKStorage, Sendable {
    private struct Contents {
        var texts: [StorageKind: String] = [:]
        var aside: [StorageKind: [String]] = [:]
    }

    private let contents: Mutex<Contents>

    public init(secure: String? = nil, nonSecure: String? = nil) {
        var initial = Contents()
        initial.texts[.secure] = secure
        initial.texts[.nonSecure] = nonSecure
        contents = Mutex(initial)
    }

    public func read(_ kind: StorageKind) throws(StorageError) -> String? {
        contents.withLock { $0.texts[kind] }
    }

    public func write(_ kind: StorageKind, _ text: String) throws(StorageError) {
        contents.withLock { $0.texts[kind] = text }
    }

    public func moveAside(_ kind: StorageKind) throws(StorageError) -> String {
        contents.withLock {
            if let text = $0.texts.removeValue(forKey: kind) { $0.aside[kind, default: []].append(text) }
            return "memory:\(kind.rawValue).corrupt-\($0.aside[kind]?.count ?? 0)"
        }
    }

    public func location(of kind: StorageKind) -> String { "memory:\(kind.rawValue)" }

    /// The current text of one kind (for inspection in tests).
    public func text(_ kind: StorageKind) -> String? { contents.withLock { $0.texts[kind] } }

    /// Texts that were moved aside, oldest first.
    public func movedAside(_ kind: StorageKind) -> [String] { contents.withLock { $0.aside[kind] ?? [] } }
}
