import OrderedJSON

/// What a C consumer reading a JSON text with jansson (`json_loadb`, the parser other platforms'
/// harnesses read cassettes with) would read differently from OrderedJSON, which keeps every
/// literal: the rules behind `cassette lint --portable` (docs/cassettes.md, "Tools").
///
/// Each rule is a difference that the differential tests (`JSONOracleTests`, jansson itself on the
/// JSONTestSuite cases and on random documents) show and hold this check to: a document is flagged
/// exactly when jansson refuses it or reads it otherwise.
/// * an integer literal beyond 64 bits: jansson's integers are `json_int_t`; it refuses the document;
/// * a real literal beyond `double` (`1e400`): jansson refuses the document;
/// * `\u0000` in a string: refused without `JSON_ALLOW_NUL`; with it, the C string
///   (`json_string_value`) ends at the NUL; in a member name, refused whatever the flags;
/// * a repeated member name: jansson keeps the last value silently, or refuses the document with
///   `JSON_REJECT_DUPLICATES`;
/// * a UTF-8 byte order mark (OrderedJSON skips it): jansson refuses the document;
/// * a value other than an array or an object at the top: jansson reads it only with
///   `JSON_DECODE_ANY`.
/// Not flagged, because no document OrderedJSON reads is read otherwise: nesting (OrderedJSON
/// refuses beyond 512, jansson beyond 2048), unpaired surrogates, invalid UTF-8 and every syntax
/// error (both refuse), and reals (both read the nearest `double`).
package enum PortableJSON {
    /// One place that jansson reads differently.
    package struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// Which difference.
        package enum Kind: String, Sendable, Hashable, CaseIterable {
            case integerBeyond64Bits
            case realOverflow
            case nulInString
            case nulInName
            case repeatedName
            case byteOrderMark
            case scalarRoot
        }

        package var kind: Kind
        /// Where in the value (`$` for the root).
        package var path: JSONPath
        /// Where in the text: a member's name, an element's first byte; for a value inside a member
        /// that a later one of the same name replaces, the object holding it.
        package var position: JSONPosition
        /// What jansson does with it.
        package var message: String

        package var description: String { "line \(position.line), column \(position.column): \(path): \(message)" }
    }

    /// The findings for a JSON text, in document order (empty: jansson reads it as OrderedJSON
    /// does); nil when OrderedJSON does not read the text as JSON (with repeated names kept), so
    /// that there is nothing to compare.
    package static func findings(in bytes: [UInt8]) -> [Finding]? {
        guard let document = try? JSONParser.parseDocument(bytes, duplicateMembers: .keep) else { return nil }
        let start = JSONPosition(line: 1, column: 1, offset: 0)
        var findings: [Finding] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            findings.append(
                Finding(
                    kind: .byteOrderMark, path: .root, position: start,
                    message:
                        "the text starts with a UTF-8 byte order mark, which jansson refuses (the document is not read)"
                ))
        }
        switch document.value {
        case .array, .object: break
        default:
            findings.append(
                Finding(
                    kind: .scalarRoot, path: .root, position: document.position(of: .root) ?? start,
                    message: "a \(document.value.kindName) at the top, which jansson reads only with JSON_DECODE_ANY "
                        + "(without it, the document is refused)"))
        }
        var walker = Walker(document: document)
        walker.visit(document.value, at: .root, position: document.position(of: .root) ?? start)
        return findings + walker.findings
    }

    /// Walks a parsed document in order, collecting findings.
    private struct Walker {
        let document: JSONDocument
        var findings: [Finding] = []

        /// Visits `value` at `path`, written at `position`; inside a member that a later one of the
        /// same name replaces (`placed` false), the paths lead to the later member, so every finding
        /// takes `position`, the place of the object that holds it.
        mutating func visit(_ value: JSONValue, at path: JSONPath, position: JSONPosition, placed: Bool = true) {
            switch value {
            case .number(let literal):
                if let message = PortableJSON.numberProblem(literal) {
                    findings.append(Finding(kind: message.kind, path: path, position: position, message: message.text))
                }
            case .string(let text):
                if text.utf8.contains(0) {
                    findings.append(
                        Finding(
                            kind: .nulInString, path: path, position: position,
                            message:
                                "the string holds NUL (\\u0000): jansson refuses the document unless JSON_ALLOW_NUL, "
                                + "and with it a C string (json_string_value) ends at the NUL"))
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    let itemPath = path.index(index)
                    visit(
                        item, at: itemPath, position: placed ? document.position(of: itemPath) ?? position : position,
                        placed: placed)
                }
            case .object(let members):
                var counts: [String: Int] = [:]
                for member in members { counts[member.name, default: 0] += 1 }
                var seen: [String: Int] = [:]
                for member in members {
                    let memberPath = path.member(member.name)
                    seen[member.name, default: 0] += 1
                    let count = counts[member.name] ?? 1
                    // Only the last member of a name has a position; the others are inside the object.
                    let isLast = seen[member.name] == count
                    let place = placed && isLast ? (document.position(of: memberPath) ?? position) : position
                    if isLast, member.name.utf8.contains(0) {
                        findings.append(
                            Finding(
                                kind: .nulInName, path: memberPath, position: place,
                                message:
                                    "the member name holds NUL (\\u0000), which jansson refuses whatever the flags "
                                    + "(the document is not read)"))
                    }
                    if isLast, count > 1 {
                        findings.append(
                            Finding(
                                kind: .repeatedName, path: memberPath, position: place,
                                message: "the member name \(JSONWriter.quoted(member.name)) appears \(count) times: "
                                    + "jansson keeps the last value silently (with JSON_REJECT_DUPLICATES it refuses the document)"
                            ))
                    }
                    visit(member.value, at: memberPath, position: place, placed: placed && isLast)
                }
            case .null, .bool: break
            }
        }
    }

    /// What jansson does with a number literal that it does not read as the same number: an
    /// integer literal (no fraction, no exponent) beyond `json_int_t`, a real beyond `double`.
    static func numberProblem(_ literal: String) -> (kind: Finding.Kind, text: String)? {
        let isInteger = !literal.utf8.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        if isInteger {
            guard Int64(literal) == nil else { return nil }
            return (
                .integerBeyond64Bits,
                "the integer \(brief(literal)) is beyond 64 bits (-2^63 to 2^63-1): jansson refuses "
                    + "the document (json_int_t)"
            )
        }
        guard let real = Double(literal), !real.isFinite else { return nil }
        return (
            .realOverflow,
            "the number \(brief(literal)) is beyond a double: jansson refuses the document (real number overflow)"
        )
    }

    /// A literal shortened for a message.
    private static func brief(_ literal: String) -> String {
        literal.count <= 40
            ? literal : String(literal.prefix(20)) + "…" + String(literal.suffix(10)) + " (\(literal.count) characters)"
    }
}
