import OrderedJSON

extension JSONSyntaxError {
    /// The error as the vector tools report it after `FILE:LINE: `: `not JSON at column C: <message>`,
    /// or `column C: <message>` for a repeated member name (valid JSON syntax that the readers refuse,
    /// RFC 8259 §4).
    var reportMessage: String {
        message.hasPrefix("repeated member name") ? "column \(column): \(message)" : "not JSON at column \(column): \(message)"
    }
}
