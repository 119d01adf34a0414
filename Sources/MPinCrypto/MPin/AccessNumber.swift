/// The access-number checksum of docs/protocol.md §5.1.
///
/// An access number is seven decimal digits `d1…d6 c`; with `S = 7·d1 + 6·d2 + … + 2·d6`, the
/// check digit is `((11 − S mod 11) mod 11) mod 10` (a raw value of 10 is accepted as 0, as the
/// client does; servers never issue it).
public enum AccessNumber {
    /// Why an access number is not valid.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        case empty
        case notDigits
        case wrongLength(Int)
        case wrongCheckDigit(expected: Int, actual: Int)

        public var description: String {
            switch self {
            case .empty: "the access number is empty"
            case .notDigits: "the access number must contain decimal digits only"
            case .wrongLength(let count): "the access number must have 7 digits, not \(count)"
            case .wrongCheckDigit(let expected, let actual):
                "the check digit is \(actual) but the first six digits give \(expected)"
            }
        }
    }

    /// The raw checksum `(11 − S mod 11) mod 11` of six digits, in 0…10; nil unless exactly six ASCII digits.
    public static func rawChecksum(of sixDigits: String) -> Int? {
        let digits = sixDigits.unicodeScalars.compactMap { ("0"..."9").contains($0) ? Int($0.value - 48) : nil }
        guard digits.count == 6, sixDigits.unicodeScalars.count == 6 else { return nil }
        let sum = zip(digits, (2...7).reversed()).reduce(0) { $0 + $1.0 * $1.1 }
        return (11 - sum % 11) % 11
    }

    /// The client's check digit for six digits (`rawChecksum mod 10`).
    public static func checkDigit(of sixDigits: String) -> Int? {
        rawChecksum(of: sixDigits).map { $0 % 10 }
    }

    /// Appends the check digit to six digits.
    public static func complete(_ sixDigits: String) -> String? {
        checkDigit(of: sixDigits).map { sixDigits + String($0) }
    }

    /// Nil when the seven-digit access number is valid, else why not.
    public static func problem(with accessNumber: String) -> Problem? {
        if accessNumber.isEmpty { return .empty }
        guard accessNumber.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return .notDigits }
        guard accessNumber.unicodeScalars.count == 7 else { return .wrongLength(accessNumber.unicodeScalars.count) }
        let expected = checkDigit(of: String(accessNumber.prefix(6)))!
        let actual = Int(accessNumber.unicodeScalars.last!.value - 48)
        return expected == actual ? nil : .wrongCheckDigit(expected: expected, actual: actual)
    }

    public static func isValid(_ accessNumber: String) -> Bool {
        problem(with: accessNumber) == nil
    }
}
