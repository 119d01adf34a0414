import MilagroProtocol
import OrderedJSON

/// Reads a driver's standard output: one JSON object per line, `{"call": NAME, "status": STATUS}`
/// (a `"message"` string may be added), NAME a non-empty string and STATUS a Milagro status name
/// (docs/protocol.md §4: `OK`, `INCORRECT_PIN`, ...). Lines end with `\n` (or `\r\n`); anything
/// else on standard output, an empty line included, is a driver error, named with its line.
public enum DriverOutput {
    /// The Milagro status of each name.
    static let statuses: [String: StatusCode] = Dictionary(
        uniqueKeysWithValues: StatusCode.allCases.map { ($0.name, $0) })

    /// The calls of an output, or the first line that is not a call line.
    public static func calls(_ bytes: [UInt8]) -> Result<[DriverCall], DriverProblem> {
        var calls: [DriverCall] = []
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for (index, raw) in lines.enumerated() {
            var line = Array(raw)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            switch call(line) {
            case .success(let call): calls.append(call)
            case .failure(let why): return .failure(.badLine(index + 1, shown(line), why.text))
            }
        }
        return .success(calls)
    }

    /// One line as a call, or why it is not one.
    static func call(_ line: [UInt8]) -> Result<DriverCall, Why> {
        guard !line.isEmpty else { return .failure("an empty line") }
        guard line.count <= DriverLimits.line else { return .failure("longer than \(DriverLimits.line) bytes") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure("not JSON: \(error)")
        }
        guard let members = value.objectMembers else { return .failure("a JSON \(value.kindName), not an object") }
        for member in members where !["call", "status", "message"].contains(member.name) {
            return .failure("an unknown member \"\(member.name)\" (only call, status and message)")
        }
        guard let name = value["call"]?.stringValue, !name.isEmpty else {
            return .failure("\"call\" must be a non-empty string")
        }
        guard let text = value["status"]?.stringValue else { return .failure("\"status\" must be a string") }
        guard let status = statuses[text] else {
            return .failure("\"\(text)\" is not a Milagro status name (OK, INCORRECT_PIN, ...)")
        }
        if let message = value["message"], message.stringValue == nil {
            return .failure("\"message\" must be a string")
        }
        return .success(DriverCall(name: name, status: status, message: value["message"]?.stringValue))
    }

    /// Why a line is not a call line, in words.
    struct Why: Error, ExpressibleByStringInterpolation {
        let text: String
        init(stringLiteral value: String) { text = value }
        init(stringInterpolation: DefaultStringInterpolation) {
            text = String(stringInterpolation: stringInterpolation)
        }
    }

    /// A line as a report shows it: valid UTF-8 cut at 200 characters, else its size.
    static func shown(_ line: [UInt8]) -> String {
        guard let text = String(validating: line, as: UTF8.self) else { return "<\(line.count) bytes, not UTF-8>" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
