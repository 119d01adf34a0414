/// A strict RFC 8259 parser producing `JSONValue`s that keep number literals and member order.
///
/// It accepts exactly one JSON text: surrounding whitespace is allowed and a leading UTF-8 byte
/// order mark is skipped; anything else that RFC 8259 does not allow is an error (trailing commas,
/// leading zeros, unescaped control characters, invalid UTF-8, unpaired surrogates, text after the
/// value). A member name repeated in one object is an error too, naming the name, its path and
/// both places, unless the caller asks for `.keep` (RFC 8259 §4: names SHOULD be unique, and a
/// reader that takes one of them silently loses the other). Objects keep their members in document
/// order; numbers keep their literal text. Nesting deeper than 512 arrays and objects is refused,
/// so hostile input cannot exhaust the stack (a caller in the package may ask for less, see
/// `parse(_:duplicateMembers:maximumDepth:)`). Errors carry the line and column, which Foundation's
/// parser does not report reliably on Linux. `parseDocument(_:)` also tells where each value is
/// written.
public struct JSONParser {
    /// What the parser does with a member name that an object repeats.
    public enum DuplicateMembers: Sendable, Hashable {
        /// An error at the repeated name, naming the name, its path and where it first appeared
        /// (the default, for every file the workbench reads).
        case refuse
        /// Every member is kept, in order (lookups by name take the last one, `JSONDocument` places
        /// the path at the last one); for readers that must accept what another implementation
        /// accepts, such as the SDK reading server answers.
        case keep
    }

    private let bytes: [UInt8]
    private let duplicateMembers: DuplicateMembers
    private var index = 0
    private var depth = 0
    private let maximumDepth: Int
    /// The most nesting any caller gets: deeper input is refused before it can exhaust the stack.
    package static let deepestNesting = 512

    /// The top-level member whose array elements go to `streamElement` instead of the value.
    private var streamedMember: String?
    private var streamElement: ((Int, JSONValue) -> Void)?

    /// Whether to record `positions` (only `parseDocument` does).
    private var recordsPositions = false
    /// Whether `path` is kept up to date: for positions and for the repeated-name error (a parser
    /// that keeps repeats and records no positions skips it).
    private var tracksPath: Bool { recordsPositions || duplicateMembers == .refuse }
    /// The path of the value being parsed (for positions and for the repeated-name error).
    private var path: [JSONPath.Component] = []
    private var positions: [JSONPath: JSONPosition] = [:]
    /// The line and column of `cursor.offset`; positions are recorded in increasing offset order, so
    /// each byte is counted once.
    private var cursor = JSONPosition(line: 1, column: 1, offset: 0)

    private init(_ bytes: [UInt8], duplicateMembers: DuplicateMembers, maximumDepth: Int = JSONParser.deepestNesting) {
        self.bytes = bytes
        self.duplicateMembers = duplicateMembers
        self.maximumDepth = min(max(maximumDepth, 1), Self.deepestNesting)
    }

    /// Parses one JSON document (surrounding whitespace allowed, a UTF-8 byte order mark skipped);
    /// a repeated member name is an error unless `duplicateMembers` is `.keep`.
    public static func parse(_ bytes: [UInt8], duplicateMembers: DuplicateMembers = .refuse) throws(JSONSyntaxError)
        -> JSONValue
    {
        var parser = JSONParser(bytes, duplicateMembers: duplicateMembers)
        return try parser.parseText()
    }

    public static func parse(_ text: String, duplicateMembers: DuplicateMembers = .refuse) throws(JSONSyntaxError)
        -> JSONValue
    {
        try parse(Array(text.utf8), duplicateMembers: duplicateMembers)
    }

    /// Parses as `parse(_:duplicateMembers:)` does, refusing arrays and objects nested deeper than
    /// `maximumDepth` (1 to `deepestNesting`; a value outside is taken as the nearest bound) with
    /// an error whose `reason` is `.nestingTooDeep`, for readers of untrusted input that allow less
    /// nesting than files may have (the reference backend's request bodies).
    package static func parse(_ bytes: [UInt8], duplicateMembers: DuplicateMembers, maximumDepth: Int)
        throws(JSONSyntaxError) -> JSONValue
    {
        var parser = JSONParser(bytes, duplicateMembers: duplicateMembers, maximumDepth: maximumDepth)
        return try parser.parseText()
    }

    /// Parses as `parse(_:duplicateMembers:)` does (the same errors, in the same order), except that
    /// when the value is an object whose member `member` is an array, each of that array's elements
    /// is handed to `element` with its index as soon as it is parsed, and the array is returned
    /// empty: a reader that turns each element into something smaller never holds the whole
    /// array's JSON (a cassette's events, `CassetteFile.decode`). Elements already handed over stay
    /// handed over when a syntax error is found later.
    package static func parse(
        _ bytes: [UInt8], duplicateMembers: DuplicateMembers = .refuse, streaming member: String,
        element: (Int, JSONValue) -> Void
    ) throws(JSONSyntaxError) -> JSONValue {
        let result = withoutActuallyEscaping(element) { element -> Result<JSONValue, JSONSyntaxError> in
            var parser = JSONParser(bytes, duplicateMembers: duplicateMembers)
            parser.streamedMember = member
            parser.streamElement = element
            do throws(JSONSyntaxError) {
                return .success(try parser.parseText())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document as `parse(_:duplicateMembers:)` does (same value, same errors) and
    /// also returns where each value is written, by path (see `JSONDocument`).
    public static func parseDocument(_ bytes: [UInt8], duplicateMembers: DuplicateMembers = .refuse)
        throws(JSONSyntaxError) -> JSONDocument
    {
        var parser = JSONParser(bytes, duplicateMembers: duplicateMembers)
        parser.recordsPositions = true
        let value = try parser.parseText()
        return JSONDocument(value: value, positions: parser.positions)
    }

    public static func parseDocument(_ text: String, duplicateMembers: DuplicateMembers = .refuse)
        throws(JSONSyntaxError) -> JSONDocument
    {
        try parseDocument(Array(text.utf8), duplicateMembers: duplicateMembers)
    }

    private mutating func parseText() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        record(at: index)
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    /// Records that the value at the current path is written at `offset` (when recording).
    private mutating func record(at offset: Int) {
        guard recordsPositions else { return }
        while cursor.offset < offset {
            if bytes[cursor.offset] == UInt8(ascii: "\n") {
                cursor.line += 1
                cursor.column = 1
            } else {
                cursor.column += 1
            }
            cursor.offset += 1
        }
        positions[JSONPath(path)] = cursor
    }

    /// Forgets the positions of `value`, written at `path`, and of everything in it: a repeated
    /// member name replaces the earlier member. The cost is the size of `value`, so that each value is
    /// forgotten at most once.
    private mutating func forgetPositions(of value: JSONValue, at path: JSONPath) {
        positions[path] = nil
        switch value {
        case .array(let items):
            for (position, item) in items.enumerated() { forgetPositions(of: item, at: path.index(position)) }
        case .object(let members):
            for member in members { forgetPositions(of: member.value, at: path.member(member.name)) }
        default: break
        }
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let place = position(of: offset ?? index)
        return JSONSyntaxError(message: message, line: place.line, column: place.column, offset: place.offset)
    }

    /// The line and column of a byte offset (counted from the start: only for errors).
    private func position(of offset: Int) -> JSONPosition {
        let position = min(offset, bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<position] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONPosition(line: line, column: column, offset: position)
    }

    /// The error for a member name that the object already has: the name, its path and both places.
    private func repeatedMemberError(_ name: String, first: Int, again: Int) -> JSONSyntaxError {
        let earlier = position(of: first), later = position(of: again)
        var refusal = JSONSyntaxError(
            message:
                "repeated member name \(JSONWriter.quoted(name)) at \(JSONPath(path)): first at line \(earlier.line), "
                + "column \(earlier.column), again at line \(later.line), column \(later.column) (names in an object must be unique)",
            line: later.line, column: later.column, offset: later.offset)
        refusal.reason = .repeatedName(name)
        return refusal
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeNext() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value, found end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value, found \(describeNext())")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("expected '\(word)'") }
        let matches = word.withUTF8Buffer { utf8 in
            for offset in 0..<count where bytes[index + offset] != utf8[offset] { return false }
            return true
        }
        guard matches else { throw error("expected '\(word)'") }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth {
            var refusal = error("nesting deeper than \(maximumDepth) levels")
            refusal.reason = .nestingTooDeep
            throw refusal
        }
    }

    /// Objects with fewer members than this are searched member by member for a repeated name.
    private static let linearSearchLimit = 16

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONValue.Member] = []
        /// Where in `members` the last member of each name is.
        var lastMember: [String: Int] = [:]
        /// Where each member's name is written (byte offset of its opening quote), to refuse a
        /// repeat; small objects (nearly all) are searched in `members` itself, larger ones by name.
        var nameOffsets: [Int] = []
        var firstOffsets: [String: Int] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeNext())")
            }
            let nameOffset = index
            let name = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(name)\", found \(describeNext())")
            }
            index += 1
            skipWhitespace()
            if tracksPath { path.append(.member(name)) }
            if duplicateMembers == .refuse {
                if members.count < Self.linearSearchLimit {
                    if let earlier = members.firstIndex(where: { $0.name == name }) {
                        throw repeatedMemberError(name, first: nameOffsets[earlier], again: nameOffset)
                    }
                    nameOffsets.append(nameOffset)
                    if members.count + 1 == Self.linearSearchLimit {
                        for (position, member) in members.enumerated() {
                            firstOffsets[member.name] = nameOffsets[position]
                        }
                        firstOffsets[name] = nameOffset
                    }
                } else {
                    if let first = firstOffsets[name] {
                        throw repeatedMemberError(name, first: first, again: nameOffset)
                    }
                    firstOffsets[name] = nameOffset
                }
            }
            if recordsPositions {
                if let earlier = lastMember[name] { forgetPositions(of: members[earlier].value, at: JSONPath(path)) }
                lastMember[name] = members.count
                record(at: nameOffset)
            }
            if depth == 1, let streamedMember, name == streamedMember, index < bytes.count,
                bytes[index] == UInt8(ascii: "[")
            {
                members.append(.init(name, try parseArray(streaming: true)))
            } else {
                members.append(.init(name, try parseValue()))
            }
            if tracksPath { path.removeLast() }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object: expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}' in object, found \(describeNext())")
        }
    }

    /// An array; with `streaming`, each element goes to `streamElement` and the array is returned empty.
    private mutating func parseArray(streaming: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if tracksPath { path.append(.index(count)) }
            if recordsPositions { record(at: index) }
            let item = try parseValue()
            if streaming, let streamElement {
                streamElement(count, item)
            } else {
                items.append(item)
            }
            count += 1
            if tracksPath { path.removeLast() }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array: expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("expected ',' or ']' in array, found \(describeNext())")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            { parser.index += 1 }
            return parser.index - begin
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let intDigits = digits(&self)
        if intDigits == 0 { throw error("expected digits in number") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in number", at: intStart) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("expected digits after '.' in number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            if digits(&self) == 0 { throw error("expected digits in exponent") }
        }
        let end = index
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        // Most strings have no escape: take their bytes as they are (ASCII needs no validation;
        // the rest is validated from contiguous memory, not through a generic slice).
        var end = index
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let start = index
                let text = bytes.withUnsafeBufferPointer { buffer -> String? in
                    let content = UnsafeBufferPointer(rebasing: buffer[start..<end])
                    return ascii ? String(decoding: content, as: UTF8.self) : String(validating: content, as: UTF8.self)
                }
                guard let text else { throw error("string is not valid UTF-8", at: open) }
                index = end + 1
                return text
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { break }
            if byte >= 0x80 { ascii = false }
            end += 1
        }
        var out: [UInt8] = Array(bytes[index..<end])
        index = end
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: open) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if byte < 0x20 { throw error("control character in string (escape it)") }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape in string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in \\u escape") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                UTF8.encode(unicode) { out.append($0) }
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in string", at: index - 2)
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: open)
        }
        return text
    }
}
