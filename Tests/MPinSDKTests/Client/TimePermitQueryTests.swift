import MPinSDK
import Testing

/// The D-TA's time-permit request (docs/protocol.md §8.4): its query values are percent-encoded
/// (RFC 3986), so a storage id or signature with reserved characters cannot add or change
/// parameters; hex and plain ids, what backends send, go out as they are (`Canned.timePermitDTA`).
@Suite struct TimePermitQueryTests {
    @Test func reservedCharactersInTheAnswerArePercentEncoded() async throws {
        let harness = Harness()
        let user = try await harness.registered(settings: Canned.settings(storageURL: ""))
        let signature = "a&b=c d é"
        harness.transport.add([
            .get(
                "\(Canned.backend)/rps/timePermit/\(Canned.mpinID)", 200,
                "{\"date\": \(Canned.date), \"signature\": \"\(signature)\", \"storageId\": \"\(Canned.hashMPinID)\", "
                    + "\"timePermit\": \"\(Canned.tp1)\", \"message\": \"M-Pin Time Permit Generated\", \"version\": \"0.3\"}"
            ),
            .get(
                "https://dta.test/v3/timePermit?hash_mpin_id=\(Canned.hashMPinID)&app_id=\(Canned.appID)&mobile=1"
                    + "&signature=a%26b%3Dc%20d%20%C3%A9", 200,
                "{\"timePermit\": \"\(Canned.tp2)\", \"message\": \"OK\", \"version\": \"3\"}"),
        ])
        try await harness.client.startAuthentication(user)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
    }
}
