import OrderedJSON

extension JSONParser {
    /// How the SDK reads a response body, a stored document or the logout data: `parse(_:)`,
    /// except that a leading UTF-8 byte order mark is an error instead of being skipped (RFC 8259
    /// allows either): what the SDK reads must be a plain JSON text.
    ///
    /// A repeated member name is kept, not refused (`duplicateMembers: .keep`), and the SDK's
    /// lookups take the first one (`subscript(first:)`): the SDK reads what servers and the other
    /// platforms' cores wrote, and docs/protocol.md defines no refusal of repeated names, so an answer
    /// with one is read as the SDK has always read it rather than failing with
    /// RESPONSE_PARSE_ERROR. The workbench's own files (cassettes, vector files, recordings) are
    /// read strictly.
    static func parseRefusingByteOrderMark(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw JSONSyntaxError(message: "byte order mark before the JSON value", line: 1, column: 1, offset: 0)
        }
        return try parse(bytes, duplicateMembers: .keep)
    }

    static func parseRefusingByteOrderMark(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parseRefusingByteOrderMark(Array(text.utf8))
    }
}
