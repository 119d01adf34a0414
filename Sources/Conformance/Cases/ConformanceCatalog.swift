/// Every case the suite knows, group by group in the report's order. Each group's cases are in
/// the file named after the group (`ConformanceCatalog+<Group>.swift`).
public enum ConformanceCatalog {
    public static var all: [ConformanceCase] {
        settings + http + registration + dta + permits + pass + pin + access + otp + logout + platform + concurrency
    }

    /// The case with an id.
    public static func named(_ id: String) -> ConformanceCase? { all.first { $0.id == id } }
}
