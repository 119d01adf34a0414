/// A cassette could not be restored: some placeholders have no value.
public struct RedactionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The placeholder names without a value, sorted.
    public var missing: [String]
    /// The cassette's file, when known.
    public var path: String?

    public init(missing: [String], path: String? = nil) {
        self.missing = missing
        self.path = path
    }

    public var description: String {
        let list = missing.map(Placeholder.text).joined(separator: ", ")
        let flags = missing.map { "--secret \($0)=…" }.joined(separator: " ")
        return "\(path ?? "cassette"): no value for the placeholder\(missing.count == 1 ? "" : "s") \(list); "
            + "supply \(missing.count == 1 ? "it" : "them") at replay (\(flags))"
    }
}
