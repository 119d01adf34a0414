import OrderedJSON

extension JSONSyntaxError {
    /// The error as the vector tools report it after `FILE:LINE: `: `not JSON at column C: <message>`.
    var reportMessage: String { "not JSON at column \(column): \(message)" }
}
