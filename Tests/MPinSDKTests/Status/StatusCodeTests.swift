import MPinSDK
import Testing

@Suite struct StatusCodeTests {
    @Test func milagroOrderAndNames() {
        let names = StatusCode.allCases.map(\.name)
        #expect(
            names == [
                "OK", "PIN_INPUT_CANCELED", "CRYPTO_ERROR", "STORAGE_ERROR", "NETWORK_ERROR", "RESPONSE_PARSE_ERROR",
                "FLOW_ERROR", "IDENTITY_NOT_AUTHORIZED", "IDENTITY_NOT_VERIFIED", "REQUEST_EXPIRED", "REVOKED",
                "INCORRECT_PIN", "INCORRECT_ACCESS_NUMBER", "HTTP_SERVER_ERROR", "HTTP_REQUEST_ERROR",
                "BAD_USER_AGENT", "CLIENT_SECRET_EXPIRED", "BAD_CLIENT_VERSION", "UNTRUSTED_DOMAIN_ERROR",
                "REGISTRATION_EXPIRED", "REPLAY_DIVERGED",
            ])
        #expect(StatusCode.allCases.map(\.rawValue) == Array(0...20))
    }

    @Test(arguments: StatusCode.allCases)
    func everyCodeHasAMessageAndRoundTripsByName(code: StatusCode) {
        #expect(!code.defaultMessage.isEmpty)
        #expect(StatusCode(name: code.name) == code)
        #expect(MPinStatus(code).message == code.defaultMessage)
        #expect(MPinError(code, "why").description.hasPrefix(code.name + ": why"))
    }
}
