extension StringProtocol {
    /// The text without leading and trailing optional whitespace, spaces and horizontal tabs (OWS,
    /// RFC 9110 §5.6.3): how a header field's value and the elements of a comma-separated list are
    /// read, and how the package trims the other short texts it splits (`|`-separated flags, a
    /// template's filters). The one such helper in the package.
    package var trimmingOptionalWhitespace: String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
