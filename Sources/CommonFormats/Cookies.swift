/// Cookie text: the `Cookie` field a browser sends (RFC 6265 §4.2.1, `name=value; other=value`)
/// and the `Set-Cookie` field a server answers with (§4.1.1, `name=value; Path=/; HttpOnly`).
/// Names and values are compared and returned as written, with optional whitespace (spaces and
/// tabs) around them trimmed; no quotes are removed and nothing is decoded. The one place in the
/// package that reads cookies.
package enum Cookies {
    /// The value of the first cookie called `name` in a `Cookie` field value; nil when none is.
    /// A pair without `=` names no cookie; a value may be empty.
    package static func value(named name: String, inCookie field: some StringProtocol) -> String? {
        for pair in field.split(separator: ";") {
            guard let equals = pair.firstIndex(of: "="), pair[..<equals].trimmingOptionalWhitespace == name else {
                continue
            }
            return pair[pair.index(after: equals)...].trimmingOptionalWhitespace
        }
        return nil
    }

    /// The value a `Set-Cookie` field value gives the cookie `name` (its `name=value` before the
    /// first `;`, the attributes after it ignored); nil when it sets another cookie.
    package static func value(named name: String, inSetCookie field: some StringProtocol) -> String? {
        let pair = field.prefix { $0 != ";" }
        guard let equals = pair.firstIndex(of: "="), pair[..<equals].trimmingOptionalWhitespace == name else {
            return nil
        }
        return pair[pair.index(after: equals)...].trimmingOptionalWhitespace
    }
}
