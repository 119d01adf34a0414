/// How strongly a case's requirement binds a backend (the words of RFC 2119): a failed MUST case
/// makes `mpin-workbench conform` exit 1; SHOULD and MAY cases are reported only.
public enum RequirementLevel: String, Sendable, CaseIterable, Hashable, Comparable {
    case must = "MUST"
    case should = "SHOULD"
    case may = "MAY"

    public static func < (a: RequirementLevel, b: RequirementLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
