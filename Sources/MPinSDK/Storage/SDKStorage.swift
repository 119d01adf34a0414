/// The storage seam (the Milagro core's `IStorage`): each kind holds one UTF-8 text (a JSON
/// document the SDK writes and parses; the layout is described in docs/sdk.md, "Storage").
///
/// Implementations: `FileStorage` (default, durable) and `MemoryStorage` (tests, ephemeral).
/// Calls come from the SDK actor, one at a time per SDK; one storage must not be shared by two
/// SDK instances.
public protocol SDKStorage: Sendable {
    /// The stored text, or nil when nothing was ever stored.
    func read(_ kind: StorageKind) throws(StorageError) -> String?
    /// Replaces the stored text completely; after a failure the previous text is still there.
    func write(_ kind: StorageKind, _ text: String) throws(StorageError)
    /// Keeps unusable contents out of the way (never deletes them) and returns where they went.
    func moveAside(_ kind: StorageKind) throws(StorageError) -> String
    /// Where the text of this kind lives, for messages.
    func location(of kind: StorageKind) -> String
}
