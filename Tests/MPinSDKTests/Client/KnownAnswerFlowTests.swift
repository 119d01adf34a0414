import MPinCrypto
import OrderedJSON
import Testing

@testable import MPinSDK

/// Flows checked against known crypto values made as docs/protocol.md §6.7(b) makes them (its master secrets,
/// an M-Pin ID of our own: `Canned`) and against the server-side check (SERVER_2 with the server
/// secret of the same section, which does not depend on the ID).
@Suite struct KnownAnswerFlowTests {
    static let serverSecret = Hex.decode(
        "1369a152e17ed4a1a3209afda78e28c0ba80418f013b1e2838d2b27ec7d4e8ff2270c1818101191b88ee7a90116fd718c53cdc8870233615ba6bbb24f1b86e34113ee87caf1fc7eff188082f9eef184769cfbad54e64cb0e29da32dad14d5af7042ac660e3f1234f9f0e2273ca5ff01c373735b717f1766e4b143517ceb58859"
    )!

    func token(in storage: MemoryStorage) throws -> String {
        let secure = try JSONParser.parse(storage.text(.secure) ?? "")
        return try #require(secure["data"]?[Canned.mpinID]?["token"]?.stringValue)
    }

    /// PIN "1234" under the C++ mapping (9442) gives the documented token; the integer mapping
    /// of "9442" gives the same token.
    @Test(arguments: [(PINMapping.legacyStringHash, "1234"), (.integer, "9442")])
    func registrationToken(mapping: PINMapping, pin: String) async throws {
        let harness = Harness(options: .init(pinMapping: mapping))
        try await harness.start()
        harness.transport.add(Canned.registration)
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        try await harness.client.confirmRegistration(user)
        try await harness.client.finishRegistration(user, pin: pin)
        #expect(try token(in: harness.storage) == Canned.token1234Legacy)
        let recombined = harness.log.events.compactMap {
            if case .crypto(let step) = $0, step.primitive == "recombineG1" { step } else { nil }
        }
        #expect(
            recombined.first?.outputs.first?.value
                == "040cece206b0501a0bf8f62442e4c99068b178e76fad2cc51b301c2df145d2a7841a9653fb4eec4dedf93f1e669d4bd007a022e98f522befcd16c0844d5506b214"
        )
    }

    struct Sent {
        var u: [UInt8]
        var ut: [UInt8]?
        var v: [UInt8]
    }

    func authenticate(pin: String, usePermits: Bool) async throws -> (Sent, MPin.Client1Output?, Harness) {
        let harness = Harness()
        let user = try await harness.registered(settings: Canned.settings(usePermits: usePermits))
        harness.transport.add((usePermits ? Canned.timePermits : []) + [Canned.pass1(), Canned.pass2(), Canned.rpa()])
        try await harness.client.startAuthentication(user)
        _ = try await harness.client.finishAuthentication(user, pin: pin)
        let bodies = harness.bodies
        let pass1 = try JSONParser.parse(bodies[bodies.count - 3])
        let pass2 = try JSONParser.parse(bodies[bodies.count - 2])
        let ut = Hex.decode(pass1["UT"]?.stringValue ?? "-") ?? []
        let u = Hex.decode(pass1["U"]?.stringValue ?? "-") ?? []
        let v = Hex.decode(pass2["V"]?.stringValue ?? "-") ?? []
        return (Sent(u: u, ut: ut.isEmpty ? nil : ut, v: v), nil, harness)
    }

    @Test(arguments: [(true, "1234", true), (false, "1234", true), (true, "1235", false), (false, "1235", false)])
    func serverAcceptsOnlyTheRightPIN(usePermits: Bool, pin: String, accepted: Bool) async throws {
        let (sent, _, harness) = try await authenticate(pin: pin, usePermits: usePermits)
        let mpin = MPin()
        let date: UInt32 = usePermits ? UInt32(Canned.date) : 0
        let id = Hex.decode(Canned.mpinID) ?? []
        let (hid, htid) = mpin.server1(date: date, id: id)
        #expect((sent.ut != nil) == usePermits)
        let result = mpin.server2(
            date: date, hid: hid, htid: htid, y: Hex.decode(Canned.y) ?? [],
            serverSecret: Self.serverSecret, u: sent.u, ut: sent.ut, v: sent.v)
        if accepted {
            #expect(result == .ok)
        } else {
            guard case .badPIN = result else {
                Issue.record("expected a bad PIN, got \(result)")
                return
            }
        }
        if usePermits {
            let permit = harness.log.events.compactMap {
                if case .crypto(let step) = $0, step.primitive == "recombineG1",
                    step.outputs.first?.name == "timePermit"
                {
                    step
                } else {
                    nil
                }
            }
            #expect(permit.first?.outputs.first?.value == Canned.tp)
        }
    }

    /// The second factor must be right as well.
    @Test(arguments: [("77", true), ("78", false)])
    func secondFactor(factor: String, accepted: Bool) async throws {
        let harness = Harness(options: .init(flavour: .mfaPlatform, pinMapping: .integer))
        try await harness.start(settings: Canned.settings(usePermits: false))
        harness.transport.add(Canned.registration + [Canned.pass1(), Canned.pass2(), Canned.rpa()])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        try await harness.client.confirmRegistration(user)
        try await harness.client.finishRegistration(user, pin: "1234", secondFactor: "77")
        try await harness.client.startAuthentication(user)
        _ = try await harness.client.finishAuthentication(user, pin: "1234", secondFactor: factor)
        let bodies = harness.bodies
        let u = Hex.decode(try JSONParser.parse(bodies[bodies.count - 3])["U"]?.stringValue ?? "-") ?? []
        let v = Hex.decode(try JSONParser.parse(bodies[bodies.count - 2])["V"]?.stringValue ?? "-") ?? []
        let mpin = MPin()
        let (hid, _) = mpin.server1(date: 0, id: Hex.decode(Canned.mpinID) ?? [])
        let result = mpin.server2(
            date: 0, hid: hid, htid: nil, y: Hex.decode(Canned.y) ?? [],
            serverSecret: Self.serverSecret, u: u, ut: nil, v: v)
        #expect((result == .ok) == accepted)
    }

    /// Shares that are not curve points are CRYPTO_ERROR at FinishRegistration.
    @Test func invalidShareIsACryptoError() async throws {
        let harness = Harness()
        try await harness.start()
        let bad = "04" + String(repeating: "11", count: 64)
        harness.transport.add([
            Canned.register(active: true),
            .get(
                "\(Canned.backend)/rps/signature/\(Canned.mpinID)?regOTT=\(Canned.regOTT)", 200,
                "{\"clientSecretShare\": \"\(bad)\", \"params\": \"\(Canned.params)\"}"),
            Canned.clientSecret(),
        ])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        try await harness.client.confirmRegistration(user)
        let error = await mpinError { () async throws(MPinError) in
            try await harness.client.finishRegistration(user, pin: "1234")
        }
        #expect(error?.code == .cryptoError)
        #expect(user.state == .activated)
    }
}
