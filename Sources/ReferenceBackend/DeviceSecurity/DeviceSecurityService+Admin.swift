import Foundation
import Hummingbird
import OrderedJSON

/// Operator endpoints of the DeviceSecurity service (`/devicesecurity/admin/<operation>`):
/// users, applications, rights, settings, faults on demand, and a state summary.
extension DeviceSecurityService {
    func admin(_ call: Call, _ operation: String, core: BackendCore) async throws(APIError) -> Reply {
        if operation == "state" {
            guard call.method == .get else {
                throw APIError(.methodNotAllowed, "Use GET for /devicesecurity/admin/state")
            }
            let counts = await store.counts()
            let devices = await store.devices.sorted { $0.key < $1.key }
            let settings = await store.settings
            return .ok(
                counts.keys.sorted().map { ($0, JSONValue.integer(Int64(counts[$0] ?? 0))) } + [
                    ("deviceBorrowTime", .integer(settings.deviceBorrowTime)),
                    ("sessionLifetime", .integer(settings.sessionLifetime)),
                    (
                        "mappings",
                        .array(
                            devices.map {
                                .fields([("deviceHash", .string($0.key)), ("username", .string($0.value.username))])
                            })
                    ),
                ])
        }
        guard ["user", "application", "grant", "deny", "settings", "fault", "clearFaults"].contains(operation) else {
            throw APIError(.notFound, "No such DeviceSecurity admin operation: \(operation)")
        }
        guard call.method == .post else {
            throw APIError(.methodNotAllowed, "Use POST for /devicesecurity/admin/\(operation)")
        }
        let body = try call.json(allowEmpty: operation == "clearFaults")
        switch operation {
        case "user":
            let username = try body.string("username", maxLength: 256)
            let password = try body.string("password", nonEmpty: false, maxLength: 256)
            let group = try body.string("group", maxLength: 32)
            guard Self.groups.contains(group) else {
                throw APIError(.badRequest, "Field 'group' must be school, company or private")
            }
            let applications = try Self.strings(body, "applications")
            await store.putUser(
                username, DeviceSecurityUser(password: password, group: group, applications: Set(applications)))
            for application in applications where await store.applications[application] == nil {
                await store.putApplication(application, borrowTime: nil)
            }
            return .ok([
                ("username", .string(username)), ("applications", .array(applications.sorted().map { .string($0) })),
            ])
        case "application":
            let accessIdentifier = try body.string("accessIdentifier", maxLength: 256)
            let borrow = try Self.seconds(body, "borrowTime")
            await store.putApplication(accessIdentifier, borrowTime: borrow)
            return .ok([
                ("accessIdentifier", .string(accessIdentifier)),
                ("borrowTime", .integer(await store.applications[accessIdentifier] ?? 0)),
            ])
        case "grant", "deny":
            let username = try body.string("username", maxLength: 256)
            let accessIdentifier = try body.string("accessIdentifier", maxLength: 256)
            guard
                await store.setAccess(
                    username: username, accessIdentifier: accessIdentifier, granted: operation == "grant")
            else {
                throw APIError(.notFound, "No such user: \(username)")
            }
            return .ok([
                ("username", .string(username)), ("accessIdentifier", .string(accessIdentifier)),
                ("granted", .bool(operation == "grant")),
            ])
        case "settings":
            let device = try Self.seconds(body, "deviceBorrowTime")
            let session = try Self.seconds(body, "sessionLifetime")
            let application = try Self.seconds(body, "defaultApplicationBorrowTime")
            await store.update { settings in
                if let device { settings.deviceBorrowTime = device }
                if let session { settings.sessionLifetime = session }
                if let application { settings.defaultApplicationBorrowTime = application }
            }
            let settings = await store.settings
            return .ok([
                ("deviceBorrowTime", .integer(settings.deviceBorrowTime)),
                ("sessionLifetime", .integer(settings.sessionLifetime)),
                ("defaultApplicationBorrowTime", .integer(settings.defaultApplicationBorrowTime)),
            ])
        case "fault":
            let target = try body.optionalString("operation", maxLength: 64) ?? "*"
            guard ["login", "registerDevice", "applicationLogin", "*"].contains(target) else {
                throw APIError(.badRequest, "Field 'operation' must be login, registerDevice, applicationLogin or *")
            }
            let kindText = try body.optionalString("kind", maxLength: 16) ?? "fault"
            guard let kind = DeviceSecurityFault.Kind(rawValue: kindText) else {
                throw APIError(.badRequest, "Field 'kind' must be fault or delay")
            }
            let count = try Self.seconds(body, "count") ?? 1
            let seconds = try Self.seconds(body, "seconds") ?? 3
            guard count <= 1000, seconds <= 30 else {
                throw APIError(.badRequest, "At most 1000 faults and 30 s of delay")
            }
            await store.arm(
                DeviceSecurityFault(operation: target, kind: kind, count: Int(count), seconds: Double(seconds)))
            return .ok([
                ("operation", .string(target)), ("kind", .string(kind.rawValue)), ("count", .integer(count)),
                ("seconds", .integer(seconds)),
            ])
        default:
            await store.clearFaults()
            return .ok([("faults", .integer(0))])
        }
    }

    /// A whole number of seconds (or a count) given as a JSON number (`600`, `600.0`, `6e2`) or a
    /// decimal string (`"600"`), 1 … 10 years; nil when absent or null. Anything else (a fraction, a
    /// boolean, a number beyond 64 bits) is a 400.
    static func seconds(_ body: JSONBody, _ key: String) throws(APIError) -> Int64? {
        guard let value = body.value(key) else { return nil }
        let number: Int64?
        switch value {
        case .string(let text): number = Int64(text)
        case .number(let literal): number = Int64(literal) ?? Double(literal).flatMap { Int64(exactly: $0) }
        default: number = nil
        }
        guard let number, number >= 1, number <= 10 * 366 * 86_400 else {
            throw APIError(.badRequest, "Field '\(key)' must be a whole number from 1 to 316224000")
        }
        return number
    }

    /// A list of strings (or one string, or lines of one string); empty when absent.
    static func strings(_ body: JSONBody, _ key: String) throws(APIError) -> [String] {
        guard let value = body.value(key) else { return [] }
        let list: [String]
        if case .string(let text) = value {
            list = text.split(whereSeparator: { $0 == "\n" || $0 == "," }).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
        } else if let items = value.arrayValue, case let texts = items.compactMap(\.stringValue),
            texts.count == items.count
        {
            list = texts
        } else {
            throw APIError(.badRequest, "Field '\(key)' must be a list of strings")
        }
        guard list.count <= 256, list.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
            throw APIError(.badRequest, "Field '\(key)' must hold at most 256 non-empty names of at most 256 bytes")
        }
        return list
    }
}
