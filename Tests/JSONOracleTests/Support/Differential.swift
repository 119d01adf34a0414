import FlowRecording
import JSONOracle
import OrderedJSON

/// One document read by OrderedJSON and by jansson in each mode the comparison needs, and the
/// differences the rules allow: the heart of the differential test.
///
/// The rules, each asserted for every document (`problems` lists the ones broken):
/// * OrderedJSON with repeated names kept and jansson with `JSON_DECODE_ANY | JSON_ALLOW_NUL` agree
///   on the verdict, except that jansson refuses exactly the documents `PortableJSON` flags with a
///   refusing kind (integer beyond 64 bits, real overflow, NUL in a name, byte order mark), and
///   OrderedJSON refuses nesting from 513 to 2048 levels, which jansson reads (its limit is 2048),
///   and a number, `true`, `false` or `null` at the top followed by one NUL byte that ends the input,
///   which jansson reads as the value alone (its lexer takes that NUL for the end of the input);
/// * when both read the document, the values are the same: numbers by value (an integer literal is
///   jansson's `json_int_t`, any other its `double`), strings byte for byte, objects by name with
///   the last of a repeated name winning, in the order of the names' first appearance;
/// * jansson with no flags (a C consumer's `json_loadb(text, length, 0, &error)`) also refuses NUL
///   in strings and a scalar at the top; with `JSON_REJECT_DUPLICATES` it also refuses repeated
///   names; OrderedJSON's default (`.refuse`) refuses repeated names too;
/// * `PortableJSON` reports nothing for a document OrderedJSON does not read.
struct Differential {
    let name: String
    let bytes: [UInt8]
    let ours: Result<JSONValue, JSONSyntaxError>
    let oursDefault: Result<JSONValue, JSONSyntaxError>
    /// jansson with JSON_DECODE_ANY | JSON_ALLOW_NUL.
    let jansson: Result<JanssonValue, JanssonError>
    /// jansson with no flags.
    let janssonPlain: Result<JanssonValue, JanssonError>
    /// jansson with JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES.
    let janssonNoRepeats: Result<JanssonValue, JanssonError>
    let findings: [PortableJSON.Finding]?

    /// The kinds for which jansson refuses a document whatever the flags.
    static let refusingKinds: Set<PortableJSON.Finding.Kind> = [
        .integerBeyond64Bits, .realOverflow, .nulInName, .byteOrderMark,
    ]

    init(_ bytes: [UInt8], name: String) {
        self.name = name
        self.bytes = bytes
        ours = Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes, duplicateMembers: .keep) }
        oursDefault = Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
        jansson = Result { () throws(JanssonError) in try JanssonReader.read(bytes, options: [.decodeAny, .allowNul]) }
        janssonPlain = Result { () throws(JanssonError) in try JanssonReader.read(bytes) }
        janssonNoRepeats = Result { () throws(JanssonError) in
            try JanssonReader.read(bytes, options: [.decodeAny, .allowNul, .rejectDuplicates])
        }
        findings = PortableJSON.findings(in: bytes)
    }

    var kinds: Set<PortableJSON.Finding.Kind> { Set(findings?.map(\.kind) ?? []) }
    var oursAccepts: Bool { (try? ours.get()) != nil }
    var janssonAccepts: Bool { (try? jansson.get()) != nil }

    /// Whether OrderedJSON refused the document for its nesting alone.
    var oursRefusedNesting: Bool {
        if case .failure(let error) = ours { return error.message.hasPrefix("nesting deeper than") }
        return false
    }

    /// Whether the document is a scalar other than a string followed by one NUL byte that ends it,
    /// which jansson reads as the scalar: the value must be what OrderedJSON reads without the NUL.
    var isScalarThenNul: Bool {
        guard bytes.last == 0, bytes.count >= 2, bytes[bytes.count - 2] != 0,
            let value = try? JSONParser.parse(Array(bytes.dropLast())), case .success(let theirs) = jansson
        else { return false }
        switch value {
        case .number, .bool, .null: return Self.difference(value, theirs, at: .root) == nil
        default: return false
        }
    }

    /// The rules this document breaks, each naming the document.
    var problems: [String] {
        var out: [String] = []
        func fail(_ text: String) { out.append("\(name): \(text)") }
        let kinds = self.kinds
        if !oursAccepts, findings != nil { fail("PortableJSON reports on a document OrderedJSON refuses") }
        // Verdicts with the permissive flags.
        let janssonShouldRefuse = !oursAccepts || !kinds.isDisjoint(with: Self.refusingKinds)
        switch (janssonShouldRefuse, janssonAccepts) {
        case (true, true) where !oursAccepts && (oursRefusedNesting || isScalarThenNul): break  // two known differences
        case (true, true):
            fail(
                "jansson reads it, but OrderedJSON refuses it or PortableJSON says jansson refuses it (\(kinds.sorted))"
            )
        case (false, false):
            fail("jansson refuses it (\(janssonErrorText(jansson))) and PortableJSON reports no refusing difference")
        default: break
        }
        if case .failure(let error) = jansson, oursAccepts, let code = Self.expectedCode(for: kinds), error.code != code
        {
            fail("jansson refuses it with \(error.code), expected \(code) for \(kinds.sorted)")
        }
        // Values.
        if case .success(let mine) = ours, case .success(let theirs) = jansson,
            let difference = Self.difference(mine, theirs, at: .root)
        {
            fail("values differ: \(difference)")
        }
        // The other modes.
        let plainShouldRefuse =
            !janssonAccepts || kinds.contains(.nulInString) || kinds.contains(.scalarRoot) || isScalarThenNul
        if plainShouldRefuse == ((try? janssonPlain.get()) != nil) {
            fail("jansson without flags \(plainShouldRefuse ? "reads" : "refuses") it (kinds \(kinds.sorted))")
        }
        let noRepeatsShouldRefuse = !janssonAccepts || kinds.contains(.repeatedName)
        if noRepeatsShouldRefuse == ((try? janssonNoRepeats.get()) != nil) {
            fail(
                "jansson with JSON_REJECT_DUPLICATES \(noRepeatsShouldRefuse ? "reads" : "refuses") it (kinds \(kinds.sorted))"
            )
        }
        let defaultShouldRefuse = !oursAccepts || kinds.contains(.repeatedName)
        if defaultShouldRefuse == ((try? oursDefault.get()) != nil) {
            fail("OrderedJSON's default \(defaultShouldRefuse ? "reads" : "refuses") it (kinds \(kinds.sorted))")
        }
        return out
    }

    /// jansson's error code for a document whose only refusing kind is one kind.
    static func expectedCode(for kinds: Set<PortableJSON.Finding.Kind>) -> JanssonError.Code? {
        let refusing = kinds.intersection(refusingKinds)
        guard refusing.count == 1, let kind = refusing.first else { return nil }
        switch kind {
        case .integerBeyond64Bits, .realOverflow: return .numericOverflow
        case .nulInName: return .nullByteInKey
        default: return nil
        }
    }

    /// The first place where jansson's value is not OrderedJSON's, or nil.
    static func difference(_ mine: JSONValue, _ theirs: JanssonValue, at path: JSONPath) -> String? {
        switch (mine, theirs) {
        case (.null, .null): return nil
        case (.bool(let a), .bool(let b)) where a == b: return nil
        case (.number(let literal), .integer(let value)):
            guard !isReal(literal) else { return "\(path): the real \(literal) came back as the integer \(value)" }
            return Int64(literal) == value ? nil : "\(path): \(literal) came back as the integer \(value)"
        case (.number(let literal), .real(let value)):
            guard isReal(literal) else { return "\(path): the integer \(literal) came back as the real \(value)" }
            guard let expected = Double(literal), expected.bitPattern == value.bitPattern else {
                return "\(path): \(literal) came back as the real \(value)"
            }
            return nil
        case (.string(let text), .string(let bytes)):
            return Array(text.utf8) == bytes
                ? nil : "\(path): the string \(JSONWriter.quoted(text)) came back as bytes \(bytes)"
        case (.array(let items), .array(let others)):
            guard items.count == others.count else {
                return "\(path): \(items.count) elements came back as \(others.count)"
            }
            for (index, pair) in zip(items, others).enumerated() {
                if let found = difference(pair.0, pair.1, at: path.index(index)) { return found }
            }
            return nil
        case (.object(let members), .object(let others)):
            var names: [String] = []
            for member in members where !names.contains(member.name) { names.append(member.name) }
            let theirNames = others.map { String(decoding: $0.name, as: UTF8.self) }
            guard names == theirNames else { return "\(path): the names \(names) came back as \(theirNames)" }
            for (name, other) in zip(names, others) {
                guard let last = members.last(where: { $0.name == name }) else { continue }
                if let found = difference(last.value, other.value, at: path.member(name)) { return found }
            }
            return nil
        default: return "\(path): \(mine.kindName) came back as \(theirs)"
        }
    }

    static func isReal(_ literal: String) -> Bool {
        literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    func janssonErrorText(_ result: Result<JanssonValue, JanssonError>) -> String {
        if case .failure(let error) = result { return error.description }
        return "read"
    }
}

extension Set where Element == PortableJSON.Finding.Kind {
    /// The kinds' names in order, for messages.
    var sorted: [String] { map(\.rawValue).sorted() }
}
