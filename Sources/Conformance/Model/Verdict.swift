/// What a case concluded about the backend, with the reason in words (the verdicts of the
/// Autobahn test suite, plus `skipped`).
public struct Verdict: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable, Hashable {
        /// The backend does what the requirement asks.
        case pass
        /// Allowed, but not what the requirement recommends (e.g. 400 where 413 is asked for).
        case nonStrict = "non-strict"
        /// The backend breaks the requirement.
        case fail
        /// Nothing to grade: the case reports what the backend does.
        case informational
        /// The backend lacks the optional endpoint or feature the case exercises.
        case unimplemented
        /// The case did not run: it needs what this run does not have (an operator action, a slow
        /// wait, budget).
        case skipped
    }

    public var kind: Kind
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public static func pass(_ reason: String) -> Verdict { Verdict(.pass, reason) }
    public static func nonStrict(_ reason: String) -> Verdict { Verdict(.nonStrict, reason) }
    public static func fail(_ reason: String) -> Verdict { Verdict(.fail, reason) }
    public static func informational(_ reason: String) -> Verdict { Verdict(.informational, reason) }
    public static func unimplemented(_ reason: String) -> Verdict { Verdict(.unimplemented, reason) }
    public static func skipped(_ reason: String) -> Verdict { Verdict(.skipped, reason) }

    public var description: String { "\(kind.rawValue): \(reason)" }
}
