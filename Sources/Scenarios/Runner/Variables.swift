import CommonFormats
import SDKSeams

/// The variables of a run: `$name` or `${name}` in an argument is replaced by the value; a filter
/// may follow in braces, `${an|tamper}`.
///
/// Filters: `tamper` (the last digit plus one, mod 10: a wrong check digit), `tamper:N` (the N-th
/// character, a digit, plus one, mod 10), `fragment` (the part
/// after the last `#`), `origin` (the part before the last `#`), `lower`, `upper`. `$$` is a `$`.
/// Built-in variables: `backend` (the backend URL) and `seed`.
package struct Variables: Sendable {
    package private(set) var values: [String: String]

    package init(_ values: [String: String] = [:]) {
        self.values = values
    }

    package subscript(name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
            }
    }

    /// The text with every variable replaced; an unknown variable or filter is an error message.
    package func expand(_ text: String) -> Result<String, VariableError> {
        guard text.contains("$") else { return .success(text) }
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            var after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                out += "$"
                rest = after.dropFirst()
                continue
            }
            var name: Substring
            var filters: [Substring] = []
            if after.first == "{" {
                guard let close = after.firstIndex(of: "}") else {
                    return .failure(VariableError("unclosed ${ in \"\(text)\""))
                }
                let inner = after[after.index(after: after.startIndex)..<close]
                let parts = inner.split(separator: "|", omittingEmptySubsequences: false)
                name = parts.first ?? ""
                filters = Array(parts.dropFirst())
                after = after[after.index(after: close)...]
            } else {
                let end = after.firstIndex { !Self.isName(String($0)) } ?? after.endIndex
                name = after[..<end]
                after = after[end...]
            }
            guard Self.isName(String(name)) else {
                return .failure(VariableError("a lone $ in \"\(text)\" (write $$ for a dollar sign)"))
            }
            guard var value = values[String(name)] else {
                let known = values.keys.sorted().map { "$" + $0 }.joined(separator: ", ")
                return .failure(VariableError("unknown variable $\(name) (known: \(known))"))
            }
            for filter in filters {
                switch filter.trimmingOptionalWhitespace {
                case "tamper":
                    guard let last = value.last, let digit = last.wholeNumberValue else {
                        return .failure(
                            VariableError("tamper needs a value ending in a digit, $\(name) is \"\(value)\""))
                    }
                    value = String(value.dropLast()) + String((digit + 1) % 10)
                case let other where other.hasPrefix("tamper:"):
                    // `tamper:N`: the N-th character (from 1) plus one, 9 wrapping to 0, as the SDK
                    // core's testAuthenticateAN2 spoils an access number (tests/unit_tests.cpp).
                    var characters = Array(value)
                    guard let position = Int(other.dropFirst("tamper:".count)), position >= 1,
                        position <= characters.count,
                        let digit = characters[position - 1].wholeNumberValue, characters[position - 1].isASCII
                    else {
                        return .failure(
                            VariableError(
                                "\(other) needs a digit at that place (from 1 to the length), $\(name) is \"\(value)\"")
                        )
                    }
                    characters[position - 1] = Character(String((digit + 1) % 10))
                    value = String(characters)
                case "fragment":
                    value = value.lastIndex(of: "#").map { String(value[value.index(after: $0)...]) } ?? ""
                case "origin":
                    value = value.lastIndex(of: "#").map { String(value[..<$0]) } ?? value
                case "lower": value = value.lowercased()
                case "upper": value = value.uppercased()
                default:
                    return .failure(
                        VariableError("unknown filter \"\(filter)\" (tamper, tamper:N, fragment, origin, lower, upper)")
                    )
                }
            }
            out += value
            rest = after
        }
        out += rest
        return .success(out)
    }
}

package struct VariableError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
