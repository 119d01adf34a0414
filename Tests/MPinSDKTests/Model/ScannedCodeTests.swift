import MPinSDK
import Testing

@Suite struct ScannedCodeTests {
    @Test(arguments: [
        (
            "https://dd.dev.mpin.io#ad12b02575df473c68e9340d5dcc45ce", "https://dd.dev.mpin.io",
            "ad12b02575df473c68e9340d5dcc45ce"
        ),
        ("https://dd.dev.mpin.io/login/path?x=1#code", "https://dd.dev.mpin.io", "code"),
        ("http://127.0.0.1:8005#abc", "http://127.0.0.1:8005", "abc"),
        ("  https://Host.example:443/#a#b \n", "https://Host.example:443", "a#b"),
    ])
    func valid(payload: String, base: String, code: String) {
        #expect(ScannedCode(parsing: payload) == ScannedCode(baseURL: base, accessCode: code))
    }

    @Test(arguments: [
        "https://dd.dev.mpin.io", "https://dd.dev.mpin.io#", "dd.dev.mpin.io#abc", "#abc", "https:///path#abc", "",
    ])
    func invalid(payload: String) {
        #expect(ScannedCode(parsing: payload) == nil)
    }
}
