import CommonFormats
import Foundation
import MPinCrypto
import SDKSeams
import Testing

@testable import ReferenceBackend

/// With the same seed and clock, the same requests get the same bytes back (what record and
/// replay rely on); another seed gives other secrets.
@Suite struct DeterminismTests {
    /// A fixed client-side x, so the requests themselves are identical too.
    static let x = Array(repeating: UInt8(7), count: 32)

    func transcript(seed: String) async throws -> [String] {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        let harness = try await BackendHarness.start(seed: seed, clock: clock)
        defer { Task { await harness.stop() } }
        var bodies: [String] = []
        let settings = try await harness.send(.get, "/rps/clientSettings")
        bodies.append(settings.text)
        let identity = try await harness.rawRegister("dora")
        bodies.append(identity.mpinID + Hex.encode(identity.token))
        let pass2 = try await harness.rawPasses(identity, otp: true, x: Self.x)
        bodies.append(pass2.text)
        bodies.append(try await harness.send(.post, "/rps/getAccessNumber", body: "{}").text)
        let secret = try await harness.send(
            .get,
            "/dta1/serverSecret?"
                + QueryString.build([
                    ("app_id", harness.backend.core.appID), ("expires", "2030-01-01T00:00:00Z"),
                    (
                        "signature",
                        harness.backend.core.signer.serverSecret(
                            appID: harness.backend.core.appID, expires: "2030-01-01T00:00:00Z")
                    ),
                ]))
        bodies.append(secret.string("serverSecret"))
        return bodies
    }

    @Test func sameSeedSameBytes() async throws {
        let first = try await transcript(seed: "replay-me")
        let second = try await transcript(seed: "replay-me")
        #expect(first == second)
        let other = try await transcript(seed: "another")
        #expect(first[0] != other[0])  // the app id
        #expect(first[4] != other[4])  // the server secret share
    }

    @Test func seededRandomIsAFixedStream() {
        let a = BackendRandom(seed: "s"), b = BackendRandom(seed: "s")
        #expect(a.bytes(40) == b.bytes(40))
        #expect(a.hex(16) == b.hex(16))
        #expect(a.digits(6) == b.digits(6))
        // Block 0 is SHA256(SHA256(label ‖ seed) ‖ be64(0)).
        let key = SHA256.hash(Array("mpin-workbench reference backend seed:s".utf8))
        #expect(BackendRandom(seed: "s").bytes(32) == SHA256.hash(key + [UInt8](repeating: 0, count: 8)))
        #expect(BackendRandom(seed: "t").bytes(32) != BackendRandom(seed: "s").bytes(32))
        #expect(!BackendRandom(seed: nil).isSeeded)
    }
}
