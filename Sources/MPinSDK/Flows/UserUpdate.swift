/// A change to a user a flow asks its driver to make: the user's new record, whether the user
/// joins the client's list (under which key) and whether both storages are written afterwards.
/// The driver answers with the outcome of the write (`Result<Void, MPinError>`).
struct UserUpdate: Sendable, Hashable {
    var record: User.Record
    /// The list key under which the user is added; nil when it is listed already (or stays out).
    var listKey: String?
    /// Whether the users are saved after the change.
    var persist: Bool

    init(_ record: User.Record, listKey: String? = nil, persist: Bool) {
        self.record = record
        self.listKey = listKey
        self.persist = persist
    }
}
