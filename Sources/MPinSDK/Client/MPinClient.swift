import MPinCrypto
import MilagroProtocol

/// The M-Pin client SDK: the Swift counterpart of the Milagro core's `MPinSDK` class (and, with
/// the `.mfaPlatform` flavour, of the later `MfaSDK`).
///
/// Transport, storage, randomness and clock are injected; an optional observer sees every call,
/// exchange, crypto step, random draw and clock read. Calls may come from many tasks at once; they
/// run one at a time, in arrival order, so the state and the observer's event stream stay coherent.
/// Failures throw `MPinError`, whose status is one of the Milagro codes.
///
/// Lifecycle as in the C++ core: make the client, `initialize` it (loads the users from storage
/// and, when the configuration names a backend, sets it), use it, `destroy` it. Before
/// `initialize` (and after `destroy`) every call fails with FLOW_ERROR.
public actor MPinClient {
    /// Which core's behaviour to follow where the two differ.
    public enum Flavour: String, Sendable, CaseIterable, Hashable {
        /// The Milagro core 2.2: `X-MIRACL-Client-ID`, the whole pass-2 answer as `mpinResponse`,
        /// users listed per backend, a user key `id@backend`.
        case milagro
        /// The MIRACL MFA platform core: `X-MIRACL-CID`, `{"mpinResponse":{"authOTT"},
        /// "authzRequest"}`, all users listed, a user key `id:backend:customerId:appId`,
        /// 404 on registration → REGISTRATION_EXPIRED, 412 on the service → BAD_CLIENT_VERSION.
        case mfaPlatform
    }

    /// Settings fixed for the life of the client.
    public struct Options: Sendable, Hashable {
        public var flavour: Flavour
        /// How a PIN string becomes the scalar that is taken out of the client secret.
        /// `.integer` (the default) reads the decimal digits; `.legacyStringHash` is the C++ core's
        /// mapping, needed for tokens it created (docs/protocol.md §6.3).
        public var pinMapping: PINMapping
        public var curve: CurveID
        /// Time limit for each request, in seconds; nil leaves it to the transport (the C++ core sets none).
        public var requestTimeout: Double?
        /// How hosts are matched against the trusted domains: `.hostOrSubdomain` (the default) or
        /// the MFA-platform core's plain suffix match, `.legacySuffix`.
        public var trustedDomainMatching: TrustedDomainMatching

        public init(
            flavour: Flavour = .milagro, pinMapping: PINMapping = .integer, curve: CurveID = .bn254cx,
            requestTimeout: Double? = nil, trustedDomainMatching: TrustedDomainMatching = .hostOrSubdomain
        ) {
            self.flavour = flavour
            self.pinMapping = pinMapping
            self.curve = curve
            self.requestTimeout = requestTimeout
            self.trustedDomainMatching = trustedDomainMatching
        }
    }

    /// The version of the Milagro core API this SDK implements.
    public static let version = "2.2.0"

    public nonisolated let options: Options
    let transport: any HTTPTransport
    let storage: any SDKStorage
    let random: any RandomSource
    let clock: any SDKClock
    let observer: (any ClientObserver)?
    let mpin: MPin

    var initialized = false
    var backendURL = ""
    var backendKey = ""
    /// Nil until a backend is set.
    var settings: ClientSettings?
    var customHeaders = HTTPHeaders()
    var clientID = ""
    var trustedDomains: [String] = []
    /// The known users by key (see `Flavour`).
    var users: [String: User] = [:]

    /// The FIFO gate of `perform`. An actor alone is not enough: every request is an `await`, at
    /// which the actor lets another call in; the flows hold the user's record between their actions
    /// and each call's events must stay contiguous, so calls are queued, in arrival order, for
    /// their whole run. (`Synchronization.Mutex` cannot be held across an `await`.)
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(
        transport: any HTTPTransport, storage: any SDKStorage, random: any RandomSource = SystemRandomSource(),
        clock: any SDKClock = SystemClock(), observer: (any ClientObserver)? = nil, options: Options = Options()
    ) {
        self.transport = transport
        self.storage = storage
        self.random = random
        self.clock = clock
        self.observer = observer
        self.options = options
        self.mpin = MPin(curve: options.curve)
    }

    // MARK: - Lifecycle

    /// Initializes the SDK (`Init`): keeps the custom headers, loads the users from storage and,
    /// when the configuration names a backend, sets it.
    ///
    /// Configuration keys: `backend` (legacy alias `RPA_server`) and the RPS prefix as
    /// `rpsPrefix` or `rps_prefix` (default `rps`). Unknown keys are ignored.
    /// - Throws: STORAGE_ERROR when a storage file is unusable (it is moved aside, see docs/sdk.md, "Storage"),
    ///   or whatever `setBackend` throws.
    public func initialize(configuration: [String: String], customHeaders: HTTPHeaders = [:]) async throws(MPinError) {
        let arguments =
            configuration.sorted { $0.key < $1.key }.map { NamedValue($0.key, $0.value) }
            + customHeaders.map { NamedValue("header." + $0.name, $0.value) }
        try await perform("initialize", arguments, requiresInit: false) { () async throws(MPinError) in
            destroyState()
            self.customHeaders = customHeaders
            users = try loadUsers()
            initialized = true
            let backend = configuration["backend"] ?? configuration["RPA_server"] ?? ""
            let prefix = configuration["rpsPrefix"] ?? configuration["rps_prefix"] ?? Endpoint.defaultRPSPrefix
            if !backend.isEmpty {
                try await setBackendImpl(backend, rpsPrefix: prefix)
            }
        }
    }

    /// Forgets everything in memory (`Destroy`); storage is kept. Call `initialize` again to reuse.
    public func destroy() async {
        try? await perform("destroy", [], requiresInit: false) { () async throws(MPinError) in destroyState() }
    }

    public var isInitialized: Bool { initialized }

    private func destroyState() {
        initialized = false
        backendURL = ""
        backendKey = ""
        settings = nil
        customHeaders = HTTPHeaders()
        clientID = ""
        trustedDomains = []
        users = [:]
    }

    // MARK: - Running calls one at a time

    /// Runs one API call: waits for the previous ones, reports it to the observer, checks that
    /// the SDK is initialized (unless told otherwise) and reports how it ended.
    func perform<T: Sendable>(
        _ name: String, _ arguments: [NamedValue], user: User? = nil, requiresInit: Bool = true,
        outputs: (T) -> [NamedValue] = { _ in [] },
        _ body: () async throws(MPinError) -> T
    ) async throws(MPinError) -> T {
        await acquire()
        defer { release() }
        emit(
            .call(ClientEvent.Call(name: name, arguments: (user.map { [NamedValue("user", $0.id)] } ?? []) + arguments))
        )
        do throws(MPinError) {
            if requiresInit && !initialized { throw MPinError.flow("The SDK is not initialized") }
            let value = try await body()
            emit(
                .result(
                    ClientEvent.Result(
                        name: name, status: .init(.ok), userState: user?.state.rawValue, outputs: outputs(value))))
            return value
        } catch {
            emit(
                .result(
                    ClientEvent.Result(
                        name: name, status: .init(error.status), userState: user?.state.rawValue, outputs: [])))
            throw error
        }
    }

    private func acquire() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }

    func emit(_ event: ClientEvent) {
        observer?.observe(event)
    }

    /// Reads the clock, reporting the reading.
    func now(for purpose: String) -> Int64 {
        let milliseconds = clock.nowMilliseconds()
        emit(.clock(ClientEvent.ClockRead(purpose: purpose, milliseconds: milliseconds)))
        return milliseconds
    }

    // MARK: - Preconditions

    func requireBackend() throws(MPinError) -> ClientSettings {
        try FlowPreconditions.backend(settings)
    }
}
