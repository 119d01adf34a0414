/// Finds the entries of a JSON array at the root without parsing them, so that a long vector list
/// can be parsed one entry at a time (`AMCLJSONReader`): each entry's bytes and first line.
///
/// It follows strings (with their escapes) and the nesting of brackets and braces, nothing more:
/// whether an entry is valid JSON is its parser's business. Nil for anything else than
/// `[ entry, entry, ... ]` with whitespace around (a byte order mark, text after the array, an
/// open string or bracket, an empty entry), so that the caller parses the whole text and reports
/// the exact error.
enum ListSplitter {
    struct Entry: Sendable, Equatable {
        var range: Range<Int>
        /// The 1-based line the entry starts on.
        var line: Int
    }

    static func entries(of bytes: [UInt8]) -> [Entry]? {
        var index = 0
        var line = 1
        func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A:
                    line += 1
                    index += 1
                case 0x20, 0x09, 0x0D: index += 1
                default: return
                }
            }
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var entries: [Entry] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            skipWhitespace()
            return index == bytes.count ? [] : nil
        }
        while true {
            skipWhitespace()
            let start = index, startLine = line
            var depth = 0
            var inString = false
            scan: while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    } else if byte == 0x0A {
                        return nil
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { break scan }
                        depth -= 1
                    case UInt8(ascii: ","):
                        if depth == 0 { break scan }
                    case 0x0A: line += 1
                    default: break
                    }
                }
                index += 1
            }
            guard index < bytes.count, !inString, depth == 0 else { return nil }
            var end = index
            while end > start, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[end - 1]) { end -= 1 }
            guard end > start else { return nil }
            entries.append(Entry(range: start..<end, line: startLine))
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { return nil }
            index += 1
            skipWhitespace()
            return index == bytes.count ? entries : nil
        }
    }
}
