import ClientConformance
import Foundation
import MPinCrypto
import OrderedJSON
import SDKSeams
import Synchronization

/// Clients built on the project's SDK with one flaw each, the test doubles of issue 35: each must
/// fail the one case that covers its flaw, and no other.
enum BrokenClients {
    /// x is drawn once per case and then again and again: a generator that repeats its first
    /// 64 bytes (fails `random.x-fresh`).
    static let repeatsX = BuiltinDriver(
        name: "repeats x", seams: .init(random: { folder in PerFolder.repeating.source(for: folder) }))

    /// x from SplitMix64 seeded with 42 when the case's "process" starts (fails `random.x-unpredictable`).
    static let fixedSeed = BuiltinDriver(
        name: "fixed seed", seams: .init(random: { folder in PerFolder.seeded.source(for: folder) }))

    /// A transport that follows a 307 to wherever it points, carrying the request (fails
    /// `http-fault.redirect-pass2`).
    static let followsRedirects = BuiltinDriver(
        name: "follows redirects", seams: .init(transport: { base, _ in RedirectFollowing(base: base) }))

    /// Uses D-TA 2's client-secret share whatever it is: one that is not on the curve is swapped for
    /// a point that is, as a client that never checks it would go on (fails `secrets.dta-share-off-curve`).
    static let skipsShareCheck = BuiltinDriver(
        name: "skips the share check", seams: .init(transport: { base, _ in ShareUnchecked(base: base) }))

    /// Sends the PIN with pass 1 (fails `secrets.pin`).
    static let sendsPIN = BuiltinDriver(
        name: "sends the PIN",
        seams: .init(transport: { base, invocation in PINSending(base: base, pin: invocation.pin) })
    )
}

/// One random source per case folder, made on first use: the runs of one case share it, as the
/// runs of one process would.
final class PerFolder: Sendable {
    private let sources = Mutex<[String: any RandomSource]>([:])
    private let make: @Sendable () -> any RandomSource

    init(_ make: @escaping @Sendable () -> any RandomSource) { self.make = make }

    func source(for folder: String) -> any RandomSource {
        sources.withLock { sources in
            if let source = sources[folder] { return source }
            let source = make()
            sources[folder] = source
            return source
        }
    }

    static let repeating = PerFolder { Repeating() }
    static let seeded = PerFolder { Seeded(seed: 42) }
}

/// The first 64 bytes of the system's generator, over and over.
final class Repeating: RandomSource {
    private let state = Mutex<(block: [UInt8], next: Int)>((SystemRandomSource().randomBytes(count: 64), 0))

    func randomBytes(count: Int) -> [UInt8] {
        state.withLock { state in
            (0..<count).map { _ in
                defer { state.next = (state.next + 1) % state.block.count }
                return state.block[state.next]
            }
        }
    }
}

/// SplitMix64 of a seed, eight bytes a word, low byte first.
final class Seeded: RandomSource {
    private let generator: Mutex<SplitMix64>

    init(seed: UInt64) { generator = Mutex(SplitMix64(seed: seed)) }

    func randomBytes(count: Int) -> [UInt8] { generator.withLock { $0.bytes(count) } }
}

/// Follows a 307 once, to its Location, with the same method, fields and body.
struct RedirectFollowing: HTTPTransport {
    let base: any HTTPTransport

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await base.send(request)
        guard response.status == 307, let location = response.headers["Location"] else { return response }
        var followed = request
        followed.url = location
        return try await base.send(followed)
    }
}

/// Swaps a D-TA client-secret share that is not on the curve (65 bytes of hex) for one that is.
struct ShareUnchecked: HTTPTransport {
    let base: any HTTPTransport

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var response = try await base.send(request)
        guard request.url.contains("/clientSecret?"), let json = try? JSONParser.parse(response.body),
            var members = json.objectMembers,
            let index = members.firstIndex(where: { $0.name == "clientSecret" }),
            let hex = members[index].value.stringValue, hex.utf8.count == 130,
            let bytes = Hex.decode(hex), !MPin(curve: .bn254cx).isUncompressedG1(bytes)
        else { return response }
        let mpin = MPin(curve: .bn254cx)
        members[index].value = .string(Hex.encode(mpin.mapToG1(mpin.hashID(Array("any point".utf8)))))
        response.body = Array(JSONWriter.compact(.object(members)).utf8)
        return response
    }
}

/// Adds `"pin"` to the body of pass 1.
struct PINSending: HTTPTransport {
    let base: any HTTPTransport
    let pin: String

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard request.url.hasSuffix("/pass1"), let json = try? JSONParser.parse(request.body),
            let members = json.objectMembers
        else { return try await base.send(request) }
        var sent = request
        sent.body = Array(JSONWriter.compact(.object(members + [.init("pin", .string(pin))])).utf8)
        return try await base.send(sent)
    }
}
