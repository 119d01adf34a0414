import Foundation

/// Reads AMCL's text vector files: blocks of `KEY = value,` lines.
///
/// The format, as written by AMCL's M-Pin and arithmetic test-vector files:
/// * one field per line, `KEY = value` with an optional trailing comma (the M-Pin files have it,
///   the arithmetic files do not); the value runs to the end of the line and may contain `=`;
/// * blocks are separated by one or more blank lines;
/// * `#` starts a comment line; a comment `# test 3` (or `#test3`) names the block that follows it,
///   other comments are kept (the ones before the first field form the file's header); a comment
///   inside a block that reads `KEY = value` is a field the file withholds (AMCL comments some
///   values out, `#FPexp = …`), kept in the block's `withheld`;
/// * line numbers are 1-based and kept for every field, so verdicts can point into the file.
///
/// A block that names itself with a `TEST`, `PAIR_TEST` or `test_no` field is called `TEST 3`,
/// `PAIR_TEST 1`, ...; a block that no comment or field names is called `block N` (1-based).
public enum AMCLTextReader {
    /// A parsed text file.
    public struct Document: Sendable, Equatable {
        /// A comment line, without its `#`, and where it was.
        public struct Comment: Sendable, Equatable {
            public var text: String
            public var line: Int
            public init(text: String, line: Int) {
                self.text = text
                self.line = line
            }
        }
        /// The comments before the first field, but for `# test N` (for example `FP12 ARITHMETICS - CURVE: BN254_CX, ...`).
        public var header: [Comment]
        /// Every comment of the file, in order.
        public var comments: [Comment]
        public var blocks: [AMCLBlock]
        public init(header: [Comment], comments: [Comment], blocks: [AMCLBlock]) {
            self.header = header
            self.comments = comments
            self.blocks = blocks
        }
        /// The header comments joined by newlines.
        public var headerText: String { header.map(\.text).joined(separator: "\n") }
    }

    /// Fields whose value names the block they are in.
    static let namingKeys = ["TEST", "PAIR_TEST", "test_no", "TEST_NO"]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `VectorFileError` when the file cannot be read, is not UTF-8, or has a malformed line.
    public static func read(contentsOf path: String) throws(VectorFileError) -> Document {
        try parse(VectorFileContents.read(path), file: path)
    }

    /// Parses the text of a file; `file` is only used in error messages.
    ///
    /// - Throws: `VectorFileError` with the 1-based line of the first malformed line.
    public static func parse(_ text: String, file: String) throws(VectorFileError) -> Document {
        var header: [Document.Comment] = []
        var comments: [Document.Comment] = []
        var blocks: [AMCLBlock] = []
        var current: [AMCLBlock.Field] = []
        var withheld: [AMCLBlock.Field] = []
        var pendingName: String?
        var currentName: String?
        var seenField = false

        func closeBlock() {
            guard !current.isEmpty else { return }
            let name = currentName ?? fieldName(of: current) ?? "block \(blocks.count + 1)"
            blocks.append(AMCLBlock(name: name, line: current[0].line, fields: current, withheld: withheld))
            current = []
            withheld = []
            currentName = nil
        }

        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty {
                closeBlock()
                continue
            }
            if line.hasPrefix("#") {
                let comment = Document.Comment(
                    text: String(line.dropFirst()).trimmingCharacters(in: .whitespaces), line: lineNumber)
                comments.append(comment)
                if let name = testName(inComment: comment.text) {
                    closeBlock()
                    pendingName = name
                } else if !seenField {
                    header.append(comment)
                } else if !current.isEmpty, let equals = comment.text.firstIndex(of: "=") {
                    let key = comment.text[..<equals].trimmingCharacters(in: .whitespaces)
                    var value = comment.text[comment.text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                    if value.hasSuffix(",") { value.removeLast() }
                    if isValidKey(key) {
                        withheld.append(
                            AMCLBlock.Field(
                                key: key, value: value.trimmingCharacters(in: .whitespaces),
                                line: lineNumber))
                    }
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw VectorFileError(
                    file: file, line: lineNumber,
                    message: "expected `KEY = value`, found `\(abbreviated(line))`")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(",") { value.removeLast() }
            value = value.trimmingCharacters(in: .whitespaces)
            guard isValidKey(key) else {
                throw VectorFileError(
                    file: file, line: lineNumber,
                    message: "malformed key `\(abbreviated(key))` (letters, digits and `_` only)")
            }
            if let earlier = current.first(where: { $0.key == key }) {
                throw VectorFileError(
                    file: file, line: lineNumber,
                    message: "key \(key) appears twice in one block (first on line \(earlier.line)); "
                        + "blocks must be separated by a blank line")
            }
            if current.isEmpty {
                currentName = pendingName
                pendingName = nil
            }
            seenField = true
            current.append(AMCLBlock.Field(key: key, value: value, line: lineNumber))
        }
        closeBlock()
        return Document(header: header, comments: comments, blocks: blocks)
    }

    /// `test 3` for the comments `test 3`, `test3`, `Test 3:`; nil for other comments.
    static func testName(inComment text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("test") else { return nil }
        let rest = lower.dropFirst(4).drop(while: { $0 == " " || $0 == "_" || $0 == "#" })
        let digits = rest.prefix(while: \.isNumber)
        guard !digits.isEmpty else { return nil }
        let after = rest.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard after.isEmpty || after == ":" else { return nil }
        return "test \(digits)"
    }

    /// `TEST 3` when the block has a field `TEST = 3` (or `PAIR_TEST`, `test_no`).
    static func fieldName(of fields: [AMCLBlock.Field]) -> String? {
        for key in namingKeys {
            if let field = fields.first(where: { $0.key == key }) { return "\(key) \(field.value)" }
        }
        return nil
    }

    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            }
    }

    static func abbreviated(_ text: some StringProtocol) -> String {
        text.count <= 60 ? String(text) : String(text.prefix(57)) + "..."
    }
}
