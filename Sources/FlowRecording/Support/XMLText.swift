/// Text made safe for XML 1.0 and HTML: the one escaping of the JUnit report and the diagram page.
package enum XMLText {
    /// `text` made safe for XML 1.0 content (`attribute: false`) or a double- or single-quoted
    /// attribute value: `&`, `<`, `>`, `"` and `'` as entities; in attributes tab, line feed and
    /// carriage return as character references too (a parser would otherwise turn them into
    /// spaces), in content carriage return (a parser would otherwise drop it before a line feed);
    /// characters XML 1.0 does not allow (W3C XML 1.0, section 2.2, "Char") as the visible `\u{XX}`.
    /// The same text is safe in HTML content and quoted HTML attributes (HTML Living Standard,
    /// 13.1.2.6 and 13.1.4: only `&`, `<` and the quote end or start markup there).
    package static func escaped(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\t": out += attribute ? "&#9;" : "\t"
            case "\n": out += attribute ? "&#10;" : "\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
