import CommonFormats
import Testing

/// Byte-for-byte search and replace: the same answers as the standard library's on text whose
/// matches fall on grapheme boundaries, and matches the `Character` search misses inside a cluster.
@Suite struct UTF8SearchTests {
    private func first(_ target: String, _ text: String, from start: Int = 0) -> Int? {
        var target = target, text = text
        return text.withUTF8 { haystack in
            target.withUTF8 { UTF8Search.firstOffset(of: $0, in: haystack, from: start) }
        }
    }

    @Test func firstOffset() {
        #expect(first("{{", "ab{{c}}") == 2)
        #expect(first("{{", "ab{{c}}", from: 3) == nil)
        #expect(first("}}", "ab{{c}}", from: 3) == 5)
        #expect(first("abc", "ab") == nil)
        #expect(first("", "abc") == nil)
        #expect(first("abc", "abc") == 0)
        #expect(first("aab", "aaab") == 1)
        #expect(first("€", "a€b") == 1)
        #expect(first("x", "abc", from: -1) == nil)
    }

    @Test func replacingCountsWithoutOverlaps() {
        #expect(UTF8Search.replacing("aa", with: "b", in: "aaaaa") == ("bba", 2))
        #expect(UTF8Search.replacing("secret", with: "{{s}}", in: "a secret, secret") == ("a {{s}}, {{s}}", 2))
        #expect(UTF8Search.replacing("zz", with: "y", in: "abc") == ("abc", 0))
        #expect(UTF8Search.replacing("é€", with: "", in: "é€😀é€") == ("😀", 2))
        #expect(UTF8Search.replacing("ab", with: "ab", in: "abab ab").count == 3)
        #expect(UTF8Search.contains("😀", in: "x😀") && !UTF8Search.contains("😁", in: "x😀"))
        #expect(UTF8Search.contains("{{", in: Array("a{{b".utf8)) && !UTF8Search.contains("{{", in: Array("a{b{".utf8)))
    }

    @Test func agreesWithTheStandardLibraryOnPlainText() {
        let text = String(repeating: "0123456789abcdef-é€😀 ", count: 50) + "tail"
        for target in ["abc", "€😀 0", "tail", "f-é", "nothere"] {
            let ours = UTF8Search.replacing(target, with: "<>", in: text)
            #expect(ours.text == text.replacing(target, with: "<>"), "\(target)")
            #expect(ours.count == text.ranges(of: target).count, "\(target)")
        }
    }

    /// `e` followed by U+0301 is one `Character` é: the standard library finds no "e" there; bytes
    /// do, and putting the target back gives the very bytes.
    @Test func findsATargetInsideAGraphemeCluster() {
        let text = "cafe\u{301} secretvalue\u{301}"
        #expect(!text.contains("secretvalue"))
        let hidden = UTF8Search.replacing("secretvalue", with: "{{token}}", in: text)
        #expect(hidden == ("cafe\u{301} {{token}}\u{301}", 1))
        let back = UTF8Search.replacing("{{token}}", with: "secretvalue", in: hidden.text).text
        #expect(Array(back.utf8) == Array(text.utf8))
    }
}
