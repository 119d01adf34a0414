import ArgumentParser

/// The one way a numeric option of the workbench is read: the option's range is part of its
/// declaration, and a value outside it, or one that is not a number, is refused with the range:
///
///     @Option(parsing: .unconditional, help: "Timed runs per operation, 1 to 100000.",
///             transform: BoundedNumber.integer(1...100_000))
///     var runs = 200
///
/// `--runs -1` then says `The value '-1' is invalid for '--runs <runs>': must be an integer from 1
/// to 100000`, where plain parsing would take `-1` for an option and say "Missing value for
/// '--runs <runs>'". `.unconditional` is what lets a value start with `-`: the word after the option
/// is always its value. Optional options (`var bench: Int?`) are declared the same way.
enum BoundedNumber {
    /// Why a value was refused: the text says what the option takes (`must be an integer from 1 to
    /// 100000`); ArgumentParser prefixes the value and the option.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a decimal integer within `range` (a leading `+` is allowed; no spaces, no fraction).
    static func integer<Value: FixedWidthInteger & Sendable>(_ range: ClosedRange<Value>, unit: String = "")
        -> @Sendable (String) throws -> Value
    {
        let wanted =
            "must be an integer from \(range.lowerBound) to \(range.upperBound)" + (unit.isEmpty ? "" : " " + unit)
        return { text in
            guard let value = Value(text, radix: 10) else {
                let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
                let tooLong = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
                throw Refusal(
                    description: wanted + (tooLong ? " (this is beyond any integer the option can hold)" : ""))
            }
            guard range.contains(value) else { throw Refusal(description: wanted) }
            return value
        }
    }

    /// Reads a finite decimal number within `range`; with `aboveLowerBound` the lower bound itself is
    /// refused too (`more than 0 and at most 3600`).
    static func decimal(_ range: ClosedRange<Double>, aboveLowerBound: Bool = false, unit: String = "")
        -> @Sendable (String) throws -> Double
    {
        let lower =
            aboveLowerBound ? "more than \(Self.text(range.lowerBound))" : "at least \(Self.text(range.lowerBound))"
        let wanted =
            "must be a number \(lower) and at most \(Self.text(range.upperBound))" + (unit.isEmpty ? "" : " " + unit)
        return { text in
            guard let value = Double(text), value.isFinite, range.contains(value),
                !(aboveLowerBound && value == range.lowerBound)
            else {
                throw Refusal(description: wanted)
            }
            return value
        }
    }

    /// `3600` rather than `3600.0`.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
