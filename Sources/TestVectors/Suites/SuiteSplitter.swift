/// Finds the tests of one of the workbench's vector files without parsing them, so that a file of
/// many tests can be verified one test at a time (`SuiteFileVerifier`): the file's skeleton (the
/// text with every group's `tests` list emptied, its lines kept) and, per group, each test's bytes
/// and first line.
///
/// It follows strings (with their escapes) and the nesting of brackets and braces, nothing more:
/// whether a value is valid JSON is its parser's business. Nil for anything it does not expect (a
/// root that is not an object, `testGroups` named twice or not a list, a group that is not an
/// object or names `tests` twice, text after the root, an open string or bracket), so that the
/// caller parses the whole text and reports exactly as before.
enum SuiteSplitter {
    struct Layout {
        /// The text with each group's tests replaced by as many line breaks as they spanned.
        var skeleton: [UInt8]
        /// Per group (in file order), its tests; nil for a group without a `tests` list.
        var groups: [[ListSplitter.Entry]?]
    }

    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> Layout? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{") else { return nil }
        var skeleton: [UInt8] = []
        var copied = 0
        var groups: [[ListSplitter.Entry]?] = []
        var sawGroups = false
        guard
            scanner.members(onMember: { scanner, key in
                guard key.elementsEqual("testGroups".utf8) else { return scanner.skipValue() }
                guard !sawGroups, scanner.peek == UInt8(ascii: "[") else { return false }
                sawGroups = true
                return scanner.items { scanner in
                    guard scanner.peek == UInt8(ascii: "{") else { return false }
                    var tests: [ListSplitter.Entry]?
                    var sawTests = false
                    let ok = scanner.members { scanner, key in
                        guard key.elementsEqual("tests".utf8) else { return scanner.skipValue() }
                        guard !sawTests, scanner.peek == UInt8(ascii: "[") else { return false }
                        sawTests = true
                        let open = scanner.index
                        var entries: [ListSplitter.Entry] = []
                        guard
                            scanner.items({ scanner in
                                let start = scanner.index, line = scanner.line
                                guard scanner.skipValue() else { return false }
                                entries.append(ListSplitter.Entry(range: start..<scanner.index, line: line))
                                return true
                            })
                        else { return false }
                        // Keep the brackets and the line breaks between them.
                        skeleton.append(contentsOf: bytes[copied...open])
                        skeleton.append(
                            contentsOf: repeatElement(
                                0x0A,
                                count: bytes[(open + 1)..<(scanner.index - 1)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }))
                        copied = scanner.index - 1
                        tests = entries
                        return true
                    }
                    guard ok else { return false }
                    groups.append(tests)
                    return true
                }
            })
        else { return nil }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { return nil }
        skeleton.append(contentsOf: bytes[copied...])
        return Layout(skeleton: skeleton, groups: groups)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line = 1

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
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

        /// Past a string at `index`; its content's bytes (escapes as written).
        mutating func string() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return bytes[start..<(index - 1)]
                case 0x0A: return nil
                default: index += 1
                }
            }
            return nil
        }

        /// Past one value of any kind (not checked beyond its strings and nesting).
        mutating func skipValue() -> Bool {
            skipWhitespace()
            guard let first = peek else { return false }
            if first == UInt8(ascii: "\"") { return string() != nil }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var depth = 0
                while let byte = peek {
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return true
                        }
                    case 0x0A: line += 1
                    default: break
                    }
                    index += 1
                }
                return false
            }
            let start = index
            while let byte = peek,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0D, 0x0A].contains(byte)
            {
                index += 1
            }
            return index > start
        }

        /// Through an object at `index`: each member's name (as written) with the scanner at its value.
        mutating func members(onMember: (inout Scanner, Slice<UnsafeBufferPointer<UInt8>>) -> Bool) -> Bool {
            index += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                index += 1
                return true
            }
            while true {
                skipWhitespace()
                guard let key = string() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                guard onMember(&self, key) else { return false }
                skipWhitespace()
                guard let byte = peek else { return false }
                index += 1
                if byte == UInt8(ascii: "}") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
            }
        }

        /// Through a list at `index`, with the scanner at each item.
        mutating func items(_ onItem: (inout Scanner) -> Bool) -> Bool {
            index += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return true
            }
            while true {
                skipWhitespace()
                guard onItem(&self) else { return false }
                skipWhitespace()
                guard let byte = peek else { return false }
                index += 1
                if byte == UInt8(ascii: "]") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
            }
        }
    }
}
