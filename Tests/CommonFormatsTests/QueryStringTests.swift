import CommonFormats
import Testing

/// Query strings, the one home: RFC 3986 percent-encoding of names and values (unreserved
/// characters as they are, so hex and plain ids encode to themselves), appending to a URL, and
/// form-encoded parsing.
@Suite struct QueryStringTests {
    @Test func reservedSpacesAndNonASCIIArePercentEncoded() {
        #expect(QueryString.percentEncode("a&b=c d é") == "a%26b%3Dc%20d%20%C3%A9")
        #expect(QueryString.percentEncode("x/y?z#+%") == "x%2Fy%3Fz%23%2B%25")
        #expect(QueryString.build([("user id", "a&b=c"), ("k", "€")]) == "user%20id=a%26b%3Dc&k=%E2%82%AC")
        #expect(
            QueryString.build([("expires", "2016-10-11T13:59:16Z"), ("e", "")]) == "expires=2016-10-11T13%3A59%3A16Z&e="
        )
    }

    @Test func unreservedCharactersEncodeToThemselves() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(QueryString.percentEncode(unreserved) == unreserved)
        let hex = "7b226d6f62696c65223a20317d"
        #expect(
            QueryString.build([("hash_mpin_id", hex), ("app_id", "app1"), ("mobile", "1")])
                == "hash_mpin_id=\(hex)&app_id=app1&mobile=1")
        // Every byte outside the set is `%XX`, upper case.
        for byte in UInt8(0)...UInt8(0x7F) where !QueryString.isUnreserved(byte) {
            let text = String(decoding: [byte], as: UTF8.self)
            let digits = String(byte, radix: 16, uppercase: true)
            #expect(QueryString.percentEncode(text) == "%" + (digits.count == 1 ? "0" : "") + digits)
        }
    }

    @Test func formEncodingVariant() {
        // Python 2's `quote_plus`: a space is `+`, and `~` is escaped.
        let keeping = { (byte: UInt8) in QueryString.isUnreserved(byte) && byte != UInt8(ascii: "~") }
        #expect(QueryString.percentEncode("a b~c", keeping: keeping, spaceAsPlus: true) == "a+b%7Ec")
    }

    @Test func appendingToAURL() {
        #expect(QueryString.appending([("a", "1")], to: "http://h/p") == "http://h/p?a=1")
        #expect(QueryString.appending([("a", "1")], to: "http://h/p?x=1") == "http://h/p?x=1&a=1")
        #expect(QueryString.appending([("a", "1")], to: "http://h/p?") == "http://h/p?a=1")
        #expect(QueryString.appending([("a", "1")], to: "http://h/p?x=1&") == "http://h/p?x=1&a=1")
        #expect(QueryString.appending([], to: "http://h/p") == "http://h/p")
        #expect(
            QueryString.appending([("q", "a&b=c d é")], to: "/admin/mailbox")
                == "/admin/mailbox?q=a%26b%3Dc%20d%20%C3%A9")
    }

    @Test func parsing() {
        #expect(QueryString.parse("a=1&b=x%3Ay&c=&d=a+b") == ["a": "1", "b": "x:y", "c": "", "d": "a b"])
        #expect(QueryString.parse(nil) == [:])
        #expect(
            QueryString.parse("a=%Z1") == nil && QueryString.parse("a=%") == nil && QueryString.parse("a=%FF") == nil)
        #expect(QueryString.parse("a&&b=2&a=3") == ["a": "3", "b": "2"])
        #expect(QueryString.parse(QueryString.build([("k", "a&b=c d é+")])) == ["k": "a&b=c d é+"])
        #expect(QueryString.decode("a+b%2B", plusIsSpace: false) == "a+b+")
    }

    @Test func rawItemsAreNotDecoded() {
        let items = QueryString.items("a=1&&b=x%20y&c&=v").map { [String($0.name), String($0.value)] }
        #expect(items == [["a", "1"], ["b", "x%20y"], ["c", ""], ["", "v"]])
    }
}
