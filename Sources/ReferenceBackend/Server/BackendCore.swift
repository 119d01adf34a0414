import Foundation
import MPinCrypto
import MilagroProtocol
import Synchronization

/// The backend's fixed parts, shared by every request: configuration, crypto, secrets, clock,
/// randomness and the state actor. Handlers are extensions of this type, one file per role.
///
/// A class, so that the server's handler and the tasks that answer requests hold one reference
/// to it: as a struct of fourteen fields it was copied, field by field, each time a request
/// was handed to its task.
final class BackendCore: Sendable {
    let configuration: BackendConfiguration
    let mpin: MPin
    let clock: any BackendClock
    let random: BackendRandom
    /// How many days of share 1 the RPS fetches at a time: a stream of its own, so that drawing the
    /// count moves no value of `random` (the recorded answers stay as they were).
    let permitDays: BackendRandom
    let store: BackendStore
    let deviceSecurity: DeviceSecurityService
    let signer: RequestSigner
    let appID: String
    let customerID: String
    let dta1: TrustedAuthority
    let dta2: TrustedAuthority
    /// (s1 + s2)·Q, recombined from both D-TAs' shares.
    let serverSecret: [UInt8]
    let base: BaseURL
    /// D-TA 2's own origin (`BackendConfiguration.dta2OwnOrigin`), empty when it is under `/dta2/`.
    let dta2Base = BaseURL()
    /// When the backend started, on its clock (ms): the `milagro-oss` D-TA's `startTime`.
    let startedAt: Int64
    /// The `milagro-oss` profile's state, kept as the open-source server's memory storage keeps it.
    let openSourceStore: OpenSourceStore
    /// The `milagro-oss` demo RPA's `cookieSecret` (its own stream: drawing it moves no value of `random`).
    let cookieSecret: [UInt8]
    let mail: @Sendable (ActivationMessage) -> Void
    /// This profile's handler for each endpoint it serves (`BackendRoutes`).
    let routes: EndpointIndex<Route>
    /// The MFA platform's RPS paths (their segment after `/rps`) a client calls without its
    /// `X-MIRACL-CID`: the browser's.
    let browserSegments: Set<String>
    /// The faults served on purpose and the exchange observer; nil without either (`FaultTable`).
    let faultTable: FaultTable?

    /// Draws the secrets in a fixed order (share 1, share 2, app key, app id, customer id), so a
    /// seed fixes them all.
    init(
        configuration: BackendConfiguration, clock: any BackendClock,
        mail: @escaping @Sendable (ActivationMessage) -> Void
    ) {
        self.configuration = configuration
        self.clock = clock
        self.mail = mail
        startedAt = clock.nowMilliseconds()
        openSourceStore = OpenSourceStore(capacity: configuration.recordLimit)
        deviceSecurity = DeviceSecurityService(capacity: configuration.recordLimit)
        store = BackendStore(configuration)
        mpin = MPin(curve: configuration.curve)
        random = BackendRandom(seed: configuration.seed)
        permitDays = BackendRandom(seed: configuration.seed, stream: "time-permit days")
        let share1 = random.scalar(mpin)
        let share2 = random.scalar(mpin)
        signer = RequestSigner(appKey: random.bytes(32))
        let generatedAppID = random.hex(16)
        appID = configuration.flavour == .mfaPlatform ? "OIDC" : generatedAppID
        let c = random.hex(16)
        customerID = [
            c.prefix(8), c.dropFirst(8).prefix(4), c.dropFirst(12).prefix(4), c.dropFirst(16).prefix(4),
            c.dropFirst(20),
        ]
        .map(String.init).joined(separator: "-")
        dta1 = TrustedAuthority(name: "dta1", masterSecret: share1, appID: appID, signer: signer, mpin: mpin)
        dta2 = TrustedAuthority(name: "dta2", masterSecret: share2, appID: appID, signer: signer, mpin: mpin)
        serverSecret = mpin.recombineG2(dta1.serverSecretShare, dta2.serverSecretShare) ?? []
        base = BaseURL()
        cookieSecret = BackendRandom(seed: configuration.seed, stream: "demo cookie secret").bytes(32)
        let routes = BackendRoutes.index(for: configuration)
        self.routes = routes
        browserSegments = Set(Endpoint.browserEndpoints.filter { routes.entries[$0] != nil }.map(\.lastSegment))
        faultTable = FaultTable(configuration)
    }

    var now: Int64 { clock.nowMilliseconds() }

    var usesPermits: Bool { configuration.flavour == .milagro }

    /// The `milagro-oss` profile: answer as the open-source server does (docs/protocol.md §13), through
    /// `OpenSourceServer` (servers/demo/mpinDemo.py, servers/rps/rps.py, servers/dta/dta.py).
    var openSource: Bool { configuration.profile == .milagroOSS }

    /// The default profile's answers to browser clients (`CORSPolicy`).
    var cors: CORSPolicy { CORSPolicy(allowedOrigins: configuration.corsOrigins) }

    func milliseconds(_ seconds: Double) -> Int64 { Int64(seconds * 1000) }

    /// An M-Pin ID given in a path or body: hex of at most 2 KiB.
    func mpinIDBytes(_ text: String) throws(APIError) -> [UInt8] {
        guard !text.isEmpty, text.utf8.count <= 4096, let bytes = Hex.decode(text) else {
            throw APIError(.badRequest, "The M-Pin ID must be hex")
        }
        return bytes
    }

    /// A G1 point in the 65-byte uncompressed form, on the curve.
    func checkG1(_ bytes: [UInt8], _ name: String) throws(APIError) {
        guard mpin.isUncompressedG1(bytes) else {
            throw APIError(.badRequest, "\(name) is not a point of G1")
        }
    }
}

/// The backend's own base URL (scheme, host and port), known once the server has bound its port.
final class BaseURL: Sendable {
    private let value = Mutex("")

    var url: String { value.withLock { $0 } }

    func set(_ url: String) { value.withLock { $0 = url } }
}
