import Foundation
import Hummingbird
import OrderedJSON

/// The MVID DeviceSecurity service of the reference backend: JSON over HTTP under `/devicesecurity/`.
///
/// Service operations (all `POST`, JSON object bodies; the wire format is in docs/devicesecurity.md,
/// "Wire format"):
/// * `login` `{username, password, group}` → an MV session id (the MVID web login);
/// * `registerDevice` `{mvSessionId, deviceId}` → a device hash mapping the device to the user;
/// * `applicationLogin` `{deviceHash, accessIdentifier}` → access, with the borrow times.
///
/// Every answer of an operation carries `result` (the `ServiceResult` flags), `resCode` and
/// `resMsg`; verdicts are 200, injected faults 500 with `result` 32, bad input 400 with `result`
/// 32 and a `message`. Operator endpoints under `/devicesecurity/admin/` set up users,
/// applications, rights, borrow times and faults.
final class DeviceSecurityService: Sendable {
    let store: DeviceSecurityStore

    /// - Parameter capacity: the most MV sessions and the most mapped devices kept (`DeviceSecurityStore`).
    init(capacity: Int = 10_000) {
        store = DeviceSecurityStore(capacity: capacity)
    }

    /// Routes `/devicesecurity/...`.
    func handle(_ call: Call, core: BackendCore) async throws(APIError) -> Reply {
        let s = Array(call.segments.dropFirst())
        if s.first == "admin" {
            guard s.count == 2 else {
                throw APIError(.notFound, "No such endpoint: /devicesecurity/\(s.joined(separator: "/"))")
            }
            return try await admin(call, s[1], core: core)
        }
        guard s.count == 1, ["login", "registerDevice", "applicationLogin"].contains(s[0]) else {
            throw APIError(.notFound, "No such DeviceSecurity operation: /devicesecurity/\(s.joined(separator: "/"))")
        }
        guard call.method == .post else { throw APIError(.methodNotAllowed, "Use POST for /devicesecurity/\(s[0])") }
        if let fault = await store.takeFault(s[0]) {
            switch fault.kind {
            case .fault:
                return Self.answer(
                    DeviceSecurityFlag.serviceFault, DeviceSecurityCode.injectedFault, "injected service fault",
                    status: .internalServerError)
            case .delay:
                try? await Task.sleep(for: .milliseconds(Int64(fault.seconds * 1000)))
            }
        }
        do throws(APIError) {
            let body = try call.json()
            switch s[0] {
            case "login": return try await login(body, core: core)
            case "registerDevice": return try await registerDevice(body, core: core)
            default: return try await applicationLogin(body, core: core)
            }
        } catch {
            throw Self.badRequest(error.message)
        }
    }

    // MARK: - Operations

    func login(_ body: JSONBody, core: BackendCore) async throws(APIError) -> Reply {
        let username = try body.string("username", maxLength: 256)
        let password = try body.string("password", nonEmpty: false, maxLength: 256)
        let group = try body.string("group", maxLength: 32)
        guard Self.groups.contains(group) else {
            throw APIError(.badRequest, "Field 'group' must be school, company or private")
        }
        let outcome = await store.login(
            username: username, password: password, group: group, sessionID: core.random.hex(16), now: core.now)
        switch outcome {
        case .refused:
            return Self.answer(
                DeviceSecurityFlag.invalidMVSessionID | DeviceSecurityFlag.serviceSuccess,
                DeviceSecurityCode.loginRefused,
                "wrong username, password or login group")
        case .opened(let session):
            let lifetime = await store.settings.sessionLifetime
            return Self.answer(
                DeviceSecurityFlag.success | DeviceSecurityFlag.serviceSuccess, DeviceSecurityCode.ok, "logged in",
                extra: [("mvSessionId", .string(session)), ("sessionLifetime", .integer(lifetime))])
        }
    }

    func registerDevice(_ body: JSONBody, core: BackendCore) async throws(APIError) -> Reply {
        let session = try body.string("mvSessionId", maxLength: 256)
        let deviceID = try body.string("deviceId", maxLength: 256)
        guard let hash = await store.register(sessionID: session, deviceID: deviceID, now: core.now) else {
            return Self.answer(
                DeviceSecurityFlag.invalidMVSessionID | DeviceSecurityFlag.serviceSuccess,
                DeviceSecurityCode.invalidSession,
                "invalid or expired MV session id")
        }
        let borrow = await store.settings.deviceBorrowTime
        return Self.answer(
            DeviceSecurityFlag.success | DeviceSecurityFlag.serviceSuccess, DeviceSecurityCode.ok, "device registered",
            extra: [
                ("deviceHash", .string(hash)), ("deviceBorrowTime", .integer(borrow)),
                ("mvSessionId", .string(session)),
            ])
    }

    func applicationLogin(_ body: JSONBody, core: BackendCore) async throws(APIError) -> Reply {
        let hash = try body.string("deviceHash", maxLength: 256)
        let accessIdentifier = try body.string("accessIdentifier", maxLength: 256)
        let now = core.now
        switch await store.applicationLogin(deviceHash: hash, accessIdentifier: accessIdentifier, now: now) {
        case .deviceExpired:
            return Self.answer(
                DeviceSecurityFlag.deviceBorrowTimeExpired | DeviceSecurityFlag.serviceSuccess,
                DeviceSecurityCode.deviceUnknown,
                "device not registered or its borrow time expired: login required", extra: [("hasAccess", .bool(false))]
            )
        case .denied:
            return Self.answer(
                DeviceSecurityFlag.accessDenied | DeviceSecurityFlag.serviceSuccess, DeviceSecurityCode.accessDenied,
                "access denied to \(accessIdentifier)", extra: [("hasAccess", .bool(false))])
        case .granted(let username, let borrowTime):
            let session = core.random.hex(16)
            await store.openSession(username: username, sessionID: session, now: now)
            let deviceBorrow = await store.settings.deviceBorrowTime
            return Self.answer(
                DeviceSecurityFlag.success | DeviceSecurityFlag.serviceSuccess, DeviceSecurityCode.ok, "access granted",
                extra: [
                    ("hasAccess", .bool(true)), ("mvSessionId", .string(session)),
                    ("applicationBorrowTime", .integer(borrowTime)), ("deviceBorrowTime", .integer(deviceBorrow)),
                ])
        }
    }

    // MARK: - Helpers

    static let groups = ["school", "company", "private"]

    /// `{"result", "resCode", "resMsg", …extra}`.
    static func answer(
        _ result: Int64, _ code: Int64, _ message: String, extra: [(String, JSONValue)] = [],
        status: HTTPResponse.Status = .ok
    ) -> Reply {
        .json(
            status,
            .fields([("result", .integer(result)), ("resCode", .integer(code)), ("resMsg", .string(message))] + extra))
    }

    static func badRequest(_ message: String) -> APIError {
        APIError(
            .badRequest, message,
            fields: [
                ("result", .integer(DeviceSecurityFlag.serviceFault)),
                ("resCode", .integer(DeviceSecurityCode.badRequest)), ("resMsg", .string(message)),
            ])
    }
}
