import OrderedJSON
import Testing

/// The minified writer (bodies on the wire) and the byte-level string quoting both writers share.
@Suite struct JSONWriterMinifiedTests {
    func minified(_ value: JSONValue) -> String { String(decoding: JSONWriter.minified(value), as: UTF8.self) }

    @Test func noWhitespaceMembersInOrderLiteralsAsRead() throws {
        let value: JSONValue = .object([
            .init("z", .number("1.50")), .init("a", [true, false, nil, .number("-0"), .number("1E+2")]),
            .init("z", .object([])), .init("e", []),
        ])
        #expect(minified(value) == #"{"z":1.50,"a":[true,false,null,-0,1E+2],"z":{},"e":[]}"#)
        let text = #"{"mpin_id":"7b22","U":"04ab","UT":"","pass":1,"nested":{"b":[1,{"c":null}],"a":"x"}}"#
        #expect(minified(try JSONParser.parse(text)) == text, "a minified text comes back byte for byte")
    }

    @Test func stringsEscapeOnlyWhatJSONRequires() {
        #expect(minified("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(minified("\n\r\t\u{08}\u{0C}") == #""\n\r\t\b\f""#)
        #expect(minified("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(minified("\u{7F}é😀") == "\"\u{7F}é😀\"", "U+007F and non-ASCII are written as they are")
        #expect(minified(.object([.init("k\"\u{1}", "v")])) == #"{"k\"\u0001":"v"}"#, "names are quoted as strings are")
    }

    /// `quoted` as it was written scalar by scalar: the byte-level quoting gives the same text.
    static func referenceQuoted(_ text: String, escapingDelete: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || (escapingDelete && scalar.value == 0x7F) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test func quotingMatchesTheScalarByScalarForm() {
        var texts = (0..<0x100).map { String(UnicodeScalar(UInt8($0))) }
        texts += [
            "", "plain", "mixed \u{1} and é and \"q\" and 😀\u{7F}", String(repeating: "ab\\", count: 100), "e\u{301}",
            "\u{2028}",
        ]
        for text in texts {
            for escapingDelete in [true, false] {
                #expect(
                    JSONWriter.quoted(text, escapingDelete: escapingDelete)
                        == Self.referenceQuoted(text, escapingDelete: escapingDelete),
                    "\(Array(text.unicodeScalars).map(\.value)) \(escapingDelete)")
            }
            #expect(minified(.string(text)) == Self.referenceQuoted(text, escapingDelete: false))
        }
    }
}
