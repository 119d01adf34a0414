import SDKSeams

/// The MVID DeviceSecurity connector: device registration and application login against the
/// DeviceSecurity service, with offline use within the borrow times.
///
/// The Swift counterpart of the iOS class `DeviceSecurity` (MVIDDeviceConnector). Transport,
/// clock, randomness and the device-state store are injected; the login UI is a `LoginProvider`
/// closure. The primary method is `doLogin(_:)`: it registers the device when needed, logs in to
/// the application and delivers a `LoginResponse` ("MVIDLoginResponseReady") on `responses`.
///
/// ```swift
/// let device = DeviceSecurity(serviceURL: backend + "/devicesecurity", transport: CurlTransport(),
///                             store: FileDeviceStateStore(directory: appSupport)) { prompt in
///     .credentials(username: "alice", password: "secret", group: .school)
/// }
/// await device.excludeLoginGroup(.private)
/// Task { for await response in device.responses { print(response.hasAccess) } }
/// await device.doLogin("product.ios.ml.myapp")
/// ```
///
/// Calls may come from many tasks at once; they run one at a time in arrival order, so the state
/// and the observer's events stay coherent. Each request has a time limit of `timeout` seconds
/// (2 by default, the document's figure); a request without an answer gives `NetworkError`.
public actor DeviceSecurity {
    /// The document's request time limit: "Service requests timeout after 2 seconds".
    public static let defaultTimeout: Double = 2
    /// The request time limits the connector takes, in seconds: a millisecond to an hour. A
    /// `timeout` outside it (or not a number) sends nothing: each request ends in `NetworkError`
    /// with an `invalidRequest` transport error that names the range.
    public static let timeoutRange: ClosedRange<Double> = 0.001...3600

    /// The service's base URL (`http://host:port/devicesecurity`); operations are appended as path segments.
    public nonisolated let serviceURL: String
    /// Time limit of each request, in seconds.
    public nonisolated let timeout: Double
    let transport: any HTTPTransport
    let store: any DeviceStateStore
    let clock: any SDKClock
    let random: any RandomSource
    let observer: (any ClientObserver)?
    let loginProvider: LoginProvider?
    private let continuation: AsyncStream<LoginResponse>.Continuation

    /// The "MVIDLoginResponseReady" results, one per `doLogin`, in order. The stream buffers
    /// every response until it is read; it has one reader at a time (iterate it from one task).
    public nonisolated let responses: AsyncStream<LoginResponse>

    var state = DeviceState()
    var loaded = false
    /// Groups hidden from the login.
    var excludedGroups: Set<LoginGroup> = []

    /// The transport error of the latest request, nil when it got an answer (`network_error`).
    public internal(set) var networkError: TransportError?
    /// The result code of the latest operation (`service_res_code`).
    public internal(set) var serviceResCode = 0
    /// The result message of the latest operation (`service_res_msg`).
    public internal(set) var serviceResMsg = ""

    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - serviceURL: the DeviceSecurity service, e.g. `http://127.0.0.1:8080/devicesecurity`.
    ///   - transport: how requests go out (libcurl, recording, replay).
    ///   - store: where the device state lives (default: in memory).
    ///   - clock: the time of the borrow-time rules.
    ///   - random: where the device id comes from.
    ///   - observer: sees every call, exchange, clock read and draw (`ClientEvent`), and the notes
    ///     `loginResponse` and `storageFailure`. The inner `registerDevice` and `applicationLogin`
    ///     calls of `doLogin` nest inside its `call` … `result`; its `loginResponse` note comes just
    ///     before its `result`.
    ///   - timeout: seconds per request (default 2), within `timeoutRange`.
    ///   - loginProvider: supplies an MV session id or credentials when a login is needed; nil
    ///     means no login can be shown.
    public init(
        serviceURL: String, transport: any HTTPTransport, store: any DeviceStateStore = MemoryDeviceStateStore(),
        clock: any SDKClock = SystemClock(), random: any RandomSource = SystemRandomSource(),
        observer: (any ClientObserver)? = nil, timeout: Double = DeviceSecurity.defaultTimeout,
        loginProvider: LoginProvider? = nil
    ) {
        self.serviceURL = serviceURL.hasSuffix("/") ? String(serviceURL.dropLast()) : serviceURL
        self.transport = transport
        self.store = store
        self.clock = clock
        self.random = random
        self.observer = observer
        self.timeout = timeout
        self.loginProvider = loginProvider
        (responses, continuation) = AsyncStream.makeStream(of: LoginResponse.self, bufferingPolicy: .unbounded)
    }

    deinit {
        continuation.finish()
    }

    // MARK: - Properties of the document

    /// `mv_session_id`: the latest MV session id (from registration or a granted login).
    public var mvSessionID: String? { currentState().mvSessionID }
    /// `access_identifier`: the application of the latest `applicationLogin`.
    public var accessIdentifier: String? { currentState().accessIdentifier }
    /// `device_hash`: the hash the service gave this device at registration; nil when not registered.
    public var deviceHash: String? { currentState().deviceHash }
    /// `device_borrow_time`: seconds the registration may be used offline after the last online login.
    public var deviceBorrowTime: Int64? { currentState().deviceBorrowTime }
    /// The login groups offered to the login provider.
    public var loginGroups: [LoginGroup] { LoginGroup.allCases.filter { !excludedGroups.contains($0) } }
    /// The whole device state, as stored.
    public var deviceState: DeviceState { currentState() }

    // MARK: - Plumbing

    func emit(_ event: ClientEvent) {
        observer?.observe(event)
    }

    func deliver(_ response: LoginResponse) {
        emit(.note(.loginResponse(response)))
        continuation.yield(response)
    }

    /// Reads the clock for a purpose (and reports it).
    func now(_ purpose: String) -> Int64 {
        let value = clock.nowMilliseconds()
        emit(.clock(.init(purpose: purpose, milliseconds: value)))
        return value
    }

    func currentState() -> DeviceState {
        if !loaded {
            loaded = true
            do throws(DeviceStorageError) {
                state = try store.load() ?? DeviceState()
            } catch {
                emit(.note(.storageFailure(error)))
            }
        }
        return state
    }

    func update(_ change: (inout DeviceState) -> Void) {
        var next = currentState()
        change(&next)
        state = next
        do throws(DeviceStorageError) {
            try store.save(next)
        } catch {
            emit(.note(.storageFailure(error)))
        }
    }

    /// Runs `body` when no other call runs (calls queue in arrival order).
    func serialized<T: Sendable>(_ body: () async -> T) async -> T {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        }
        busy = true
        defer {
            if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
        }
        return await body()
    }

    /// Reports a call, runs it, reports its result.
    func reported(_ name: String, _ arguments: [NamedValue], _ body: () async -> ServiceResult) async -> ServiceResult {
        emit(.call(.init(name: name, arguments: arguments)))
        let result = await body()
        emit(.result(.service(name, result, resCode: serviceResCode, resMessage: serviceResMsg, outputs: outputs())))
        return result
    }

    /// The state a call leaves behind, in a fixed order (empty values for what is not set).
    func outputs() -> [NamedValue] {
        let state = currentState()
        return [
            .init("mvSessionId", state.mvSessionID ?? ""), .init("accessIdentifier", state.accessIdentifier ?? ""),
            .init("deviceHash", state.deviceHash ?? ""),
            .init("deviceBorrowTime", state.deviceBorrowTime.map(String.init) ?? ""),
        ]
    }
}
