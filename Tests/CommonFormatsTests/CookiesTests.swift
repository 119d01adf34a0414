import CommonFormats
import Testing

/// Cookies read from `Cookie` and `Set-Cookie` field values: names and values as written, optional
/// whitespace around them trimmed.
@Suite struct CookiesTests {
    @Test(arguments: [
        ("a=1; mpinSession=abc; b=2", "abc"),
        ("mpinSession=abc", "abc"),
        ("  mpinSession \t=  abc  ;x=y", "abc"),
        ("mpinSession=", ""),
        ("mpinSession=\"q\"", "\"q\""),
        ("mpinSession=a=b", "a=b"),
        ("mpinSession=first; mpinSession=second", "first"),
    ])
    func cookieField(field: String, value: String) {
        #expect(Cookies.value(named: "mpinSession", inCookie: field) == value)
    }

    @Test(arguments: ["", "a=1; b=2", "mpinSession", "MPINSESSION=x", "mpinSessionX=1", "x=mpinSession=1"])
    func cookieFieldWithout(field: String) {
        #expect(Cookies.value(named: "mpinSession", inCookie: field) == nil)
    }

    @Test func setCookieField() {
        #expect(Cookies.value(named: "mpinSession", inSetCookie: "mpinSession=abc; Path=/; HttpOnly") == "abc")
        #expect(Cookies.value(named: "mpinSession", inSetCookie: " mpinSession = abc ") == "abc")
        #expect(
            Cookies.value(named: "mpinSession", inSetCookie: "mpinSession=; expires=Thu, 01 Jan 1970 00:00:00 GMT")
                == "")
        #expect(Cookies.value(named: "mpinSession", inSetCookie: "other=1; mpinSession=abc") == nil)
        #expect(Cookies.value(named: "mpinSession", inSetCookie: "mpinSession") == nil)
    }
}
