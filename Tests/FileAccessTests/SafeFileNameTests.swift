import FileAccess
import Testing

@Suite struct SafeFileNameTests {
    @Test func namesCannotLeaveTheFolder() {
        #expect(SafeFileName.make("../../x") == "______x")
        #expect(SafeFileName.make("/etc/passwd") == "_etc_passwd")
        #expect(SafeFileName.make("..") == "__")
        #expect(SafeFileName.make("") == "_")
        #expect(SafeFileName.make("otp-login_2") == "otp-login_2")
        #expect(SafeFileName.make("a b\u{0}c\\d") == "a_b_c_d")
        #expect(SafeFileName.make("café") == "café")
    }
}

@Suite struct SafeFileNameLengthTests {
    /// A 300-character name (issue 33, point 8) is shortened with a hash: within 255 bytes less
    /// what the caller reserves, the same every time, and apart from another long name with the
    /// same beginning.
    @Test func longNamesAreShortenedWithAHash() {
        let long = String(repeating: "t", count: 300)
        let made = SafeFileName.make(long)
        #expect(made.utf8.count <= SafeFileName.maximumBytes)
        #expect(made == SafeFileName.make(long), "stable")
        #expect(made.hasPrefix(String(repeating: "t", count: 200)) && made.count == 255)
        #expect(SafeFileName.make(long + "x") != made)
        let reserved = SafeFileName.make(long, reserving: 25)
        #expect(reserved.utf8.count <= 230 && reserved.hasSuffix(String(made.suffix(16))))
        // Characters of several bytes are kept whole.
        let accents = SafeFileName.make(String(repeating: "é", count: 200), reserving: 5)
        #expect(accents.utf8.count <= 250 && accents.hasPrefix("éé"))
        #expect(SafeFileName.make(String(repeating: "a", count: 255)) == String(repeating: "a", count: 255))
    }
}
