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
                    throw failure(path, "field \(member.name): values must be strings or numbers, found \(article(member.value.kindName))")
                }
                fields.append(AMCLBlock.Field(key: member.name, value: value, line: document.line(of: path) ?? 1))
            }
            let name = AMCLTextReader.fieldName(of: fields) ?? "entry \(position + 1)"
            blocks.append(AMCLBlock(name: name, line: fields.first?.line ?? document.line(of: entryPath) ?? 1, fields: fields))
        }
        return blocks
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
