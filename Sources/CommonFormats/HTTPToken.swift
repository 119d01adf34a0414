/// The token of HTTP (RFC 9110 §5.6.2): one or more of the letters, digits and
/// ``!#$%&'*+-.^_`|~``. Methods and field names are tokens; the one test of it in the package.
package enum HTTPToken {
    /// Whether `byte` is a token character (`tchar`).
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Whether `text` is a token: not empty, token characters only.
    package static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }
}
