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
