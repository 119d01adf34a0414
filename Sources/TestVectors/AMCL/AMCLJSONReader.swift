import OrderedJSON

/// Reads AMCL's `.json` vector lists: an array of flat objects whose values are strings or numbers.
///
/// Each object becomes an `AMCLBlock` so that the checkers see one shape for both formats: its
/// fields in the object's order, each with the 1-based line of its name (read through
/// `JSONParser.parseDocument`), so that verdicts point into the file. Numbers are kept as their
/// literal text. An object with a `test_no` field is called `test_no 17`; others `entry N` (1-based).
/// A block's line is that of its first field, or of the object when it is empty.
public enum AMCLJSONReader {
    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `VectorFileError` when the file cannot be read or is not such a list.
    public static func read(contentsOf path: String) throws(VectorFileError) -> [AMCLBlock] {
        try parse(VectorFileContents.read(path), file: path)
    }

    /// Parses the text of a file; `file` is only used in error messages.
    ///
    /// - Throws: `VectorFileError` with the 1-based line of the first offending value: text that is
    ///   not JSON, a root that is not an array, an entry that is not an object, a value that is not a
    ///   string or a number, a field name used twice in one object.
    public static func parse(_ text: String, file: String) throws(VectorFileError) -> [AMCLBlock] {
        // A list read one entry at a time holds one small document at a time, not the positions of
        // every value of the file (a million entries took over 500 MB that way); anything the split
        // does not expect, or an entry that does not read, is read whole for the exact error.
        let bytes = Array(text.utf8)
        if let entries = ListSplitter.entries(of: bytes), let blocks = try? parseEntries(entries, of: bytes, file: file)
        {
            return blocks
        }
        return try parseWhole(text, file: file)
    }

    /// The blocks of the entries, each parsed on its own, lines counted from its first line.
    private static func parseEntries(
        _ entries: [ListSplitter.Entry], of bytes: [UInt8],
        file: String
    ) throws(VectorFileError) -> [AMCLBlock] {
        var blocks: [AMCLBlock] = []
        blocks.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            let document: JSONDocument
            do {
                document = try JSONParser.parseDocument(Array(bytes[entry.range]))
            } catch {
                throw VectorFileError(file: file, line: nil, message: "")
            }
            blocks.append(try block(document, position: position, lineOffset: entry.line - 1, file: file))
        }
        return blocks
    }

    /// Parses the text of a file as one document.
    private static func parseWhole(_ text: String, file: String) throws(VectorFileError) -> [AMCLBlock] {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(text)
        } catch {
            throw VectorFileError(file: file, line: error.line, message: error.reportMessage)
        }
        func failure(_ path: JSONPath, _ message: String) -> VectorFileError {
            VectorFileError(file: file, line: document.line(of: path), message: message)
        }
        guard let entries = document.value.arrayValue else {
            throw failure(.root, "expected a JSON array of vectors, found \(article(document.value.kindName))")
        }
        var blocks: [AMCLBlock] = []
        for (position, entry) in entries.enumerated() {
            let entryPath = JSONPath.root.index(position)
            blocks.append(try block(entry, in: document, at: entryPath, position: position, lineOffset: 0, file: file))
        }
        return blocks
    }

    /// The block of one entry: `document` holds the entry alone (at the root), lines counted from
    /// the entry's first line.
    private static func block(
        _ document: JSONDocument, position: Int, lineOffset: Int,
        file: String
    ) throws(VectorFileError) -> AMCLBlock {
        try block(document.value, in: document, at: .root, position: position, lineOffset: lineOffset, file: file)
    }

    /// The block of `entry`, written at `entryPath` of `document` and at `position` in the list.
    private static func block(
        _ entry: JSONValue, in document: JSONDocument, at entryPath: JSONPath, position: Int,
        lineOffset: Int, file: String
    ) throws(VectorFileError) -> AMCLBlock {
        func failure(_ path: JSONPath, _ message: String) -> VectorFileError {
            VectorFileError(file: file, line: document.line(of: path).map { $0 + lineOffset }, message: message)
        }
        guard let members = entry.objectMembers else {
            throw failure(entryPath, "expected a JSON object (one vector), found \(article(entry.kindName))")
        }
        var fields: [AMCLBlock.Field] = []
        var names: Set<String> = []
        for member in members {
            let path = entryPath.member(member.name)
            guard names.insert(member.name).inserted else {
                throw failure(path, "key \(member.name) appears more than once in one object")
            }
            let value: String
            switch member.value {
            case .string(let text): value = text
            case .number(let literal): value = literal
            default:
                throw failure(
                    path,
                    "field \(member.name): values must be strings or numbers, found \(article(member.value.kindName))")
            }
            fields.append(
                AMCLBlock.Field(key: member.name, value: value, line: (document.line(of: path) ?? 1) + lineOffset))
        }
        let name = AMCLTextReader.fieldName(of: fields) ?? "entry \(position + 1)"
        return AMCLBlock(
            name: name, line: fields.first?.line ?? (document.line(of: entryPath) ?? 1) + lineOffset, fields: fields)
    }

    /// `a string`, `an array`, `null`, ...
    private static func article(_ kind: String) -> String {
        switch kind {
        case "null": "null"
        case "array", "object": "an \(kind)"
        default: "a \(kind)"
        }
    }
}
