import CommonFormats

/// The values a cassette may hold where a number or a name reaches something that cannot take any
/// value: an HTTP server, a clock, a duration, a count. The reader (`Cassette(jsonValue:)`) refuses
/// a file past any of them with the event index and the field; `cassette lint` reports the same.
public enum CassetteLimits {
    /// HTTP status codes: three digits (RFC 9110 §15).
    public static let status: ClosedRange<Int> = 100...999
    /// The most header fields of one request or response.
    public static let maximumHeaders = 1_000
    /// Per-phase timings, in seconds: none to a day.
    public static let timingSeconds: ClosedRange<Double> = 0...86_400
    /// Clock readings: 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in milliseconds.
    public static let clockMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Scenario step indices.
    public static let stepIndex: ClosedRange<Int> = 0...1_000_000
    /// A redaction's count of occurrences.
    public static let occurrences: ClosedRange<Int> = 0...Int(Int32.max)
    /// A transport error's own code (a libcurl code, an `errno`).
    public static let errorCode: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)
    /// The curves this tool knows, as cassettes name them (`CurveID` of the crypto core, upper case).
    public static let knownCurves = ["BN254CX", "BN254"]

    /// Whether `name` is a header field name: a token of RFC 9110 §5.1 (letters, digits, the
    /// backtick and `!#$%&'*+-.^_|~`), so no space, colon, CR or LF.
    public static func isHeaderName(_ name: String) -> Bool {
        HTTPToken.isToken(name)
    }

    /// Whether `value` may be a header field value (RFC 9110 §5.5): no control characters but tab,
    /// so no CR, LF or NUL that would end or split the field.
    public static func isHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Whether `method` is a request method: a token (RFC 9110 §9.1).
    public static func isMethod(_ method: String) -> Bool {
        HTTPToken.isToken(method)
    }
}
