// The SDK's handling of server answers: a client with a transport that answers each request with
// the next part of the input runs registration, the logins (plain, OTP, access number, access
// code), the MFA platform's service and session calls and logout. Whatever the answers, every call
// returns or throws an `MPinError`; what the SDK stored reads back into a new client.
//
// Input: parts separated by a line `%%`. A first part `mfaPlatform` picks that flavour (the
// default is milagro). Each later part is one response: a first line with the status (200 when
// it is not a number) and the body; a part `!` is a transport failure. With no parts left, the
// transport fails.
import Foundation
import FuzzSupport
import Synchronization

@testable import MPinCrypto
@testable import MPinSDK
@testable import SDKSeams

/// Answers requests with the input's parts, in order.
final class ScriptedTransport: HTTPTransport, Sendable {
    private let parts: Mutex<[[UInt8]]>

    init(_ parts: [[UInt8]]) { self.parts = Mutex(parts) }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let part: [UInt8]? = parts.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let part, part != Array("!".utf8) else {
            throw TransportError(kind: .connectionRefused, message: "no answer", url: request.url)
        }
        let (line, rest) = FuzzInput.firstLine(part)
        if let status = Int(line.trimmingCharacters(in: .whitespaces)) {
            return HTTPResponse(status: status, body: rest)
        }
        return HTTPResponse(status: 200, body: part)
    }
}

/// The same bytes for every draw (so a run depends on the input only).
struct FixedRandom: RandomSource {
    func randomBytes(count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } }
}

/// 2026-01-01T00:00:00Z, never moving.
struct FixedClock: SDKClock {
    func nowMilliseconds() -> Int64 { 1_767_225_600_000 }
}

func flow(_ parts: [[UInt8]], flavour: MPinClient.Flavour) async {
    let storage = MemoryStorage()
    let client = MPinClient(
        transport: ScriptedTransport(parts), storage: storage, random: FixedRandom(), clock: FixedClock(),
        options: .init(flavour: flavour))
    let backend = "http://127.0.0.1:8005"
    try? await client.initialize(configuration: ["backend": backend])
    if flavour == .mfaPlatform {
        try? await client.setClientID("fuzz-client")
        try? await client.addTrustedDomain("127.0.0.1")
        _ = try? await client.getServiceDetails(url: backend)
        _ = try? await client.getSessionDetails(accessCode: "code")
    }
    guard let user = try? await client.makeNewUser(id: "bob", deviceName: "fuzz") else { return }
    try? await client.startRegistration(user)
    try? await client.confirmRegistration(user)
    try? await client.finishRegistration(user, pin: "1234")
    try? await client.startAuthentication(user)
    _ = try? await client.finishAuthentication(user, pin: "1234")
    try? await client.startAuthentication(user)
    _ = try? await client.finishAuthenticationOTP(user, pin: "1234")
    try? await client.checkAccessNumber("1234567")
    try? await client.startAuthentication(user)
    try? await client.finishAuthenticationAN(user, pin: "1234", accessNumber: "1234567")
    if flavour == .mfaPlatform {
        _ = try? await client.getAccessCode(authorizationURL: backend + "/authorize?client_id=fuzz")
        try? await client.startAuthentication(user, accessCode: "code")
        _ = try? await client.finishAuthenticationAuthz(user, pin: "1234", accessCode: "code")
        try? await client.abortSession(accessCode: "code")
    }
    if await client.canLogout(user) { _ = await client.logout(user) }
    _ = try? await client.listUsers()
    _ = try? await client.listBackends()
    await client.destroy()

    // What the SDK wrote, a new client reads.
    let again = MPinClient(
        transport: ScriptedTransport([]),
        storage: MemoryStorage(secure: storage.text(.secure), nonSecure: storage.text(.nonSecure)),
        random: FixedRandom(), clock: FixedClock(), options: .init(flavour: flavour))
    do throws(MPinError) {
        try await again.initialize(configuration: [:])
    } catch {
        FuzzDriver.fail(
            "the SDK cannot read back what it stored: \(error)\nsecure: \(storage.text(.secure) ?? "-")\nnon-secure: \(storage.text(.nonSecure) ?? "-")"
        )
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var parts = FuzzInput(data, size).parts()
    var flavour = MPinClient.Flavour.milagro
    if let first = parts.first, let chosen = MPinClient.Flavour(rawValue: String(decoding: first, as: UTF8.self)) {
        flavour = chosen
        parts.removeFirst()
    }
    let chosen = flavour
    let responses = parts
    Blocking.run { await flow(responses, flavour: chosen) }
    return 0
}

FuzzDriver.run()
