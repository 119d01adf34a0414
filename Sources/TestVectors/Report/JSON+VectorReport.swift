import OrderedJSON

extension JSONPath {
    /// The path as the vector reports write it: without the leading `$.` (`testGroups[0].tests[2].tcId`),
    /// and `$` for the root.
    var reportText: String {
        let text = description
        if text.hasPrefix("$.") { return String(text.dropFirst(2)) }
        return text.count > 1 ? String(text.dropFirst()) : text
    }

    /// The path of test `test` of group `group`: `testGroups[group].tests[test]`.
    static func test(group: Int, test: Int) -> JSONPath { ["testGroups", .index(group), "tests", .index(test)] }
}

extension JSONSyntaxError {
    /// The error as the vector tools report it after `FILE:LINE: `: `not JSON at column C: <message>`,
    /// or `column C: <message>` for a repeated member name (valid JSON syntax that the readers refuse,
    /// RFC 8259 §4).
    var reportMessage: String {
        message.hasPrefix("repeated member name")
            ? "column \(column): \(message)" : "not JSON at column \(column): \(message)"
    }
}
