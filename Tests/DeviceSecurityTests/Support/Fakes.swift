import DeviceSecurity
import Foundation
import SDKSeams
import Synchronization
import TestSupport

/// A clock that moves only when told.
final class ManualClock: SDKClock {
    private let now: Mutex<Int64>
    init(_ milliseconds: Int64 = 1_767_225_600_000) { now = Mutex(milliseconds) }
    func nowMilliseconds() -> Int64 { now.withLock { $0 } }
    func advance(seconds: Int64) { now.withLock { $0 += seconds * 1000 } }
}

/// Keeps every event.
final class EventLog: ClientObserver {
    private let events = Mutex<[ClientEvent]>([])
    func observe(_ event: ClientEvent) { events.withLock { $0.append(event) } }
    var all: [ClientEvent] { events.withLock { $0 } }
    var callNames: [String] {
        all.compactMap { if case .call(let call) = $0 { call.name } else { nil } }
    }
    var requests: [HTTPRequest] {
        all.compactMap { if case .http(let exchange) = $0 { exchange.request } else { nil } }
    }
    var results: [ClientEvent.Result] {
        all.compactMap { if case .result(let result) = $0 { result } else { nil } }
    }
    var notes: [ClientEvent.Note] {
        all.compactMap { if case .note(let note) = $0 { note } else { nil } }
    }
}

/// An in-memory DeviceSecurity service with the reference backend's rules, or no network at all.
final class FakeService: HTTPTransport {
    struct State {
        var online = true
        var deviceBorrowTime: Int64 = 3600
        var applicationBorrowTime: Int64 = 600
        var sessions: Set<String> = ["session-1"]
        var granted: Set<String> = ["app"]
        var devices: [String: Int64] = [:]
        var faultNext = false
        var counter = 0
        var bodies: [[String: String]] = []
    }
    let state = Mutex(State())
    let clock: ManualClock

    init(clock: ManualClock) { self.clock = clock }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let operation = String(request.url.split(separator: "/").last ?? "")
        let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: String] ?? [:]
        let now = clock.nowMilliseconds()
        let reply: [String: Any]? = state.withLock { state in
            guard state.online else { return nil }
            state.bodies.append(body)
            if state.faultNext {
                state.faultNext = false
                return ["result": 32, "resCode": 5000, "resMsg": "injected service fault", "status": 500]
            }
            switch operation {
            case "login":
                guard body["password"] == "secret" else {
                    return ["result": 66, "resCode": 1005, "resMsg": "wrong username or password"]
                }
                state.counter += 1
                state.sessions.insert("session-l\(state.counter)")
                return ["result": 65, "resCode": 0, "resMsg": "OK", "mvSessionId": "session-l\(state.counter)"]
            case "registerDevice":
                guard let session = body["mvSessionId"], state.sessions.contains(session) else {
                    return ["result": 66, "resCode": 1001, "resMsg": "invalid or expired MV session id"]
                }
                state.counter += 1
                let hash = "hash-\(state.counter)"
                state.devices[hash] = now
                return [
                    "result": 65, "resCode": 0, "resMsg": "device registered", "deviceHash": hash,
                    "deviceBorrowTime": state.deviceBorrowTime, "mvSessionId": session,
                ]
            case "applicationLogin":
                guard let hash = body["deviceHash"], let last = state.devices[hash],
                    now - last < state.deviceBorrowTime * 1000
                else {
                    state.devices[body["deviceHash"] ?? ""] = nil
                    return [
                        "result": 80, "hasAccess": false, "resCode": 1003,
                        "resMsg": "device not registered or borrow time expired",
                    ]
                }
                state.devices[hash] = now
                guard state.granted.contains(body["accessIdentifier"] ?? "") else {
                    return ["result": 68, "hasAccess": false, "resCode": 1002, "resMsg": "access denied"]
                }
                return [
                    "result": 65, "hasAccess": true, "resCode": 0, "resMsg": "access granted",
                    "mvSessionId": "session-app",
                    "applicationBorrowTime": state.applicationBorrowTime, "deviceBorrowTime": state.deviceBorrowTime,
                ]
            default:
                return ["message": "no such operation", "status": 404]
            }
        }
        guard var reply else {
            throw TransportError(kind: .connectionRefused, message: "offline", url: request.url)
        }
        let status = reply.removeValue(forKey: "status") as? Int ?? 200
        let data = try! JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
    }
}

/// A fixture: a connector over a fake service, a manual clock and a memory store.
struct Fixture {
    let clock = ManualClock()
    let service: FakeService
    let store: MemoryDeviceStateStore
    let log = EventLog()
    let device: DeviceSecurity

    init(answer: LoginAnswer? = .sessionID("session-1"), store: MemoryDeviceStateStore = MemoryDeviceStateStore()) {
        service = FakeService(clock: clock)
        self.store = store
        let provider: LoginProvider? = answer.map { answer in { @Sendable _ in answer } }
        device = DeviceSecurity(
            serviceURL: "http://service.test/devicesecurity", transport: service, store: store, clock: clock,
            random: CountingRandom(), observer: log, loginProvider: provider)
    }

    /// Runs doLogin and returns its response from the stream.
    func login(_ accessIdentifier: String = "app") async -> (shown: Bool, response: LoginResponse) {
        let shown = await device.doLogin(accessIdentifier)
        var iterator = device.responses.makeAsyncIterator()
        let response = await iterator.next()!
        return (shown, response)
    }
}
