/// When a cassette test records its cassette, with the names swift-snapshot-testing gives its
/// record modes.
///
/// * `never`: only replay; a missing cassette fails the test (the mode for CI, so that a test
///   cannot pass by recording what it should have checked);
/// * `missing`: replay the cassette when it exists, record it when it does not (the default on a
///   developer's machine);
/// * `all`: record every cassette again, replacing the ones there are (except for a test that
///   fails: it keeps its old cassette, and a note says so);
/// * `failed`: replay the cassette when it exists, and record it again only when that replay
///   fails (a divergence, recorded events left over): the test runs a second time against the
///   backend, and its new cassette replaces the old one unless that run fails too. Under Swift
///   Testing the failed replay's findings become warnings, and the test passes or fails with the
///   recording; XCTest cannot take a failure back, so there the test fails once and the next run
///   replays the new cassette.
///
/// The mode of a test is, first to last: the `record:` argument of `.cassette(...)` or
/// `withCassette(...)`; the environment variable `MPIN_WORKBENCH_RECORD` (`all`, `missing`,
/// `never` or `failed`); `never` when `CI` is set and not empty; else `missing`.
public struct CassetteRecordMode: Sendable, Hashable, CustomStringConvertible {
    private enum Base: String, Sendable, Hashable, CaseIterable {
        case never, missing, all, failed
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// Replay only; a missing cassette is a failure.
    public static let never = CassetteRecordMode(.never)
    /// Replay when the cassette exists, else record it.
    public static let missing = CassetteRecordMode(.missing)
    /// Record, replacing the cassette when there is one.
    public static let all = CassetteRecordMode(.all)
    /// Replay, and record again when the replay fails.
    public static let failed = CassetteRecordMode(.failed)

    /// The environment variable that overrides the default mode.
    public static let environmentVariable = "MPIN_WORKBENCH_RECORD"

    /// The mode named `name` (`never`, `missing`, `all` or `failed`), or nil.
    public init?(rawValue name: String) {
        guard let base = Base(rawValue: name) else { return nil }
        self.base = base
    }

    /// `never`, `missing`, `all` or `failed`.
    public var rawValue: String { base.rawValue }

    public var description: String { base.rawValue }

    /// The mode a test runs in when it names none: `MPIN_WORKBENCH_RECORD` when set (an empty value
    /// counts as unset), else `never` when `CI` is set and not empty, else `missing`.
    ///
    /// - Parameter environment: the process environment (`ProcessInfo.processInfo.environment`).
    /// - Throws: `CassetteTestError` naming the variable and the allowed values when
    ///   `MPIN_WORKBENCH_RECORD` holds anything else.
    public static func fromEnvironment(_ environment: [String: String]) throws(CassetteTestError) -> CassetteRecordMode
    {
        if let value = environment[environmentVariable], !value.isEmpty {
            guard let mode = CassetteRecordMode(rawValue: value) else {
                let allowed = Base.allCases.map(\.rawValue).joined(separator: ", ")
                throw CassetteTestError(
                    "\(environmentVariable)=\(quoted(value)) is not a record mode; use one of \(allowed)")
            }
            return mode
        }
        if let ci = environment["CI"], !ci.isEmpty { return .never }
        return .missing
    }

    /// `value` in double quotes, with quotes, backslashes and control characters escaped, so that
    /// an odd value in the environment shows as what it is.
    private static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
