/// The two storages of the Milagro core (`IStorage::Type`): secure (regOTT, access code, token)
/// and non-secure (users, states, cached time permits).
public enum StorageKind: String, Sendable, CaseIterable, Hashable {
    case secure
    case nonSecure
}
