/// The registration state of a user (docs/protocol.md §7.1). The raw values are the stored strings;
/// `INVALID` is never stored.
public enum UserState: String, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case invalid = "INVALID"
    case startedRegistration = "STARTED_REGISTRATION"
    case activated = "ACTIVATED"
    case registered = "REGISTERED"
    case blocked = "BLOCKED"

    public var description: String { rawValue }
}
