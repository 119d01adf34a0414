/// A login group of the MVID login (`school`, `company`, `private`); `excludeLoginGroup` hides
/// one from the login, `includeAllLoginGroups` brings them all back.
public enum LoginGroup: String, Sendable, Hashable, CaseIterable, Codable {
    case school
    case company
    case `private`
}
