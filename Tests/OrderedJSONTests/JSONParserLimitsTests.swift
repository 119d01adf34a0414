import OrderedJSON
import Testing

/// The parser's nesting limit chosen by the caller, the reason a refusal gives, and strings read
/// without escapes (the fast path) against strings read with them.
@Suite struct JSONParserLimitsTests {
    func refusal(_ text: String, duplicateMembers: JSONParser.DuplicateMembers = .refuse, maximumDepth: Int = 512)
        -> JSONSyntaxError?
    {
        do throws(JSONSyntaxError) {
            _ = try JSONParser.parse(Array(text.utf8), duplicateMembers: duplicateMembers, maximumDepth: maximumDepth)
            return nil
        } catch {
            return error
        }
    }

    func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }

    @Test func aCallerMayAllowLessNesting() {
        #expect(refusal(nested(32), maximumDepth: 32) == nil)
        let deeper = refusal(nested(33), maximumDepth: 32)
        #expect(
            deeper?.reason == .nestingTooDeep && deeper?.message == "nesting deeper than 32 levels"
                && deeper?.column == 33)
        #expect(refusal("{\"a\":" + nested(31) + "}", maximumDepth: 32) == nil)
        #expect(refusal("{\"a\":" + nested(32) + "}", maximumDepth: 32)?.reason == .nestingTooDeep)
        // Never more than the parser's own limit, never less than one level.
        #expect(refusal(nested(513), maximumDepth: 100_000)?.reason == .nestingTooDeep)
        #expect(refusal(nested(512), maximumDepth: 100_000) == nil)
        #expect(refusal("[]", maximumDepth: 0) == nil && refusal("[[]]", maximumDepth: 0)?.reason == .nestingTooDeep)
        // The default limit gives the same reason.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(nested(513)) }
        do { _ = try JSONParser.parse(nested(513)) } catch { #expect(error.reason == .nestingTooDeep) }
    }

    @Test func refusalsSayWhichRuleWasBroken() {
        #expect(refusal(#"{"a": 1, "b": {"c": 1, "c": 2}}"#)?.reason == .repeatedName("c"))
        #expect(refusal(#"{"a": 1, "a": 2}"#, duplicateMembers: .keep) == nil)
        for text in ["{", "[1,]", "\"\\x\"", "01", "{\"a\" 1}"] {
            #expect(refusal(text)?.reason == .grammar, "\(text)")
        }
    }

    /// Many members: the repeat is found past the objects searched member by member, too.
    @Test func repeatsInLargeObjects() {
        let members = (0..<40).map { "\"m\($0)\": \($0)" }
        #expect(refusal("{" + members.joined(separator: ", ") + "}") == nil)
        for repeated in [0, 14, 15, 16, 39] {
            let error = refusal("{" + (members + ["\"m\(repeated)\": 0"]).joined(separator: ", ") + "}")
            #expect(error?.reason == .repeatedName("m\(repeated)"), "\(repeated)")
            #expect(
                error?.message.hasPrefix(
                    "repeated member name \"m\(repeated)\" at $.m\(repeated): first at line 1, column \(2 + members[..<repeated].map { $0.utf8.count + 2 }.reduce(0, +))"
                ) == true,
                "\(error?.message ?? "")")
        }
    }

    @Test func stringsWithAndWithoutEscapes() throws {
        #expect(
            try JSONParser.parse(#"["plain", "é😀", "", "a\nb", "x\u0041y\"", "\\"]"#)
                == ["plain", "é😀", "", "a\nb", "xAy\"", "\\"])
        // Invalid UTF-8 and control characters are refused on both paths, at the same places.
        for prefix in [[UInt8](), Array(#"\n"#.utf8)] {
            let invalid = [0x22] + prefix + [0xC3, 0x28, 0x22]
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(invalid) }
            let control = try? JSONParser.parse([0x22] + prefix + [0x61, 0x01, 0x22])
            #expect(control == nil)
        }
        let unterminated = refusal("[\"abc")
        #expect(unterminated?.message == "unterminated string" && unterminated?.column == 2)
        let control = refusal("[\"ab\u{01}\"]")
        #expect(control?.message == "control character in string (escape it)" && control?.column == 5)
    }
}
