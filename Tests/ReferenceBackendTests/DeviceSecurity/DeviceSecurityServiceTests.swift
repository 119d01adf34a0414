import Foundation
import SDKSeams
import Testing

@testable import ReferenceBackend

/// The DeviceSecurity service over HTTP: sessions, device registration, application login with
/// rights and borrow times, faults on demand, and bad input.
@Suite(.serialized) struct DeviceSecurityServiceTests {
    static let start: Int64 = 1_767_225_600_000

    struct Service {
        let harness: BackendHarness
        let clock: ManualBackendClock

        static func start() async throws -> Service {
            let clock = ManualBackendClock(milliseconds: DeviceSecurityServiceTests.start)
            let harness = try await BackendHarness.start(clock: clock)
            let service = Service(harness: harness, clock: clock)
            try await service.admin(
                "user",
                [
                    "username": "alice", "password": "secret", "group": "school",
                    "applications": ["product.ios.ml.myapp"],
                ])
            try await service.admin("application", ["accessIdentifier": "product.ios.ml.myapp", "borrowTime": 600])
            try await service.admin("settings", ["deviceBorrowTime": 3600, "sessionLifetime": 300])
            return service
        }

        func stop() async { await harness.stop() }

        @discardableResult
        func admin(_ operation: String, _ body: [String: Any]) async throws -> RawResponse {
            let answer = try await harness.send(
                .post, "/devicesecurity/admin/" + operation, body: BackendHarness.json(body))
            #expect(answer.status == 200, "\(operation): \(answer.text)")
            return answer
        }

        func call(_ operation: String, _ body: [String: Any]) async throws -> RawResponse {
            try await harness.send(.post, "/devicesecurity/" + operation, body: BackendHarness.json(body))
        }

        func session() async throws -> String {
            let answer = try await call("login", ["username": "alice", "password": "secret", "group": "school"])
            #expect(answer.json["result"] as? Int == 65, "\(answer.text)")
            return answer.string("mvSessionId")
        }

        func registered() async throws -> String {
            let answer = try await call("registerDevice", ["mvSessionId": try await session(), "deviceId": "device-1"])
            #expect(answer.json["result"] as? Int == 65, "\(answer.text)")
            return answer.string("deviceHash")
        }
    }

    func result(_ answer: RawResponse) -> Int? { answer.json["result"] as? Int }

    @Test func loginOpensASessionAndRefusesWrongCredentials() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        #expect(try await service.session().count == 32)
        for (password, group) in [("wrong", "school"), ("secret", "company")] {
            let refused = try await service.call("login", ["username": "alice", "password": password, "group": group])
            #expect(refused.status == 200)
            #expect(result(refused) == 66)
            #expect(refused.json["resCode"] as? Int == 1005)
        }
    }

    @Test func registerDeviceWithAValidAndAnInvalidSession() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let session = try await service.session()
        let answer = try await service.call("registerDevice", ["mvSessionId": session, "deviceId": "device-1"])
        #expect(result(answer) == 65)
        #expect(answer.string("deviceHash").count == 64)
        #expect(answer.json["deviceBorrowTime"] as? Int == 3600)
        let invalid = try await service.call("registerDevice", ["mvSessionId": "nope", "deviceId": "device-1"])
        #expect(result(invalid) == 66)
        #expect(invalid.json["resCode"] as? Int == 1001)
        service.clock.advance(seconds: 300)
        let expired = try await service.call("registerDevice", ["mvSessionId": session, "deviceId": "device-1"])
        #expect(result(expired) == 66)
    }

    @Test func applicationLoginGrantsDeniesAndForgetsDevices() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let hash = try await service.registered()
        let granted = try await service.call(
            "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])
        #expect(result(granted) == 65)
        #expect(granted.json["hasAccess"] as? Bool == true)
        #expect(granted.json["applicationBorrowTime"] as? Int == 600)
        #expect(granted.json["deviceBorrowTime"] as? Int == 3600)
        #expect(granted.string("mvSessionId").count == 32)
        let denied = try await service.call(
            "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.other"])
        #expect(result(denied) == 68)
        #expect(denied.json["hasAccess"] as? Bool == false)
        // Each login confirms the device again: 3599 s later it still holds, then 3600 s of silence unmap it.
        service.clock.advance(seconds: 3599)
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])) == 65)
        service.clock.advance(seconds: 3600)
        let expired = try await service.call(
            "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])
        #expect(result(expired) == 80)
        #expect(expired.json["resCode"] as? Int == 1003)
        service.clock.advance(seconds: 1)
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])) == 80)
        #expect(
            result(try await service.call("applicationLogin", ["deviceHash": "unknown", "accessIdentifier": "x"])) == 80
        )
    }

    @Test func rightsCanBeGrantedAndWithdrawn() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let hash = try await service.registered()
        try await service.admin("grant", ["username": "alice", "accessIdentifier": "product.other"])
        #expect(
            result(
                try await service.call("applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.other"]))
                == 65)
        try await service.admin("deny", ["username": "alice", "accessIdentifier": "product.other"])
        #expect(
            result(
                try await service.call("applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.other"]))
                == 68)
        let unknown = try await service.harness.send(
            .post, "/devicesecurity/admin/grant",
            body: BackendHarness.json(["username": "bob", "accessIdentifier": "x"]))
        #expect(unknown.status == 404)
    }

    @Test func aNewRegistrationReplacesTheDevicesOldHash() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let first = try await service.registered()
        let second = try await service.registered()
        #expect(first != second)
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": first, "accessIdentifier": "product.ios.ml.myapp"])) == 80)
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": second, "accessIdentifier": "product.ios.ml.myapp"])) == 65)
        let state = try await service.harness.send(.get, "/devicesecurity/admin/state")
        #expect(state.json["devices"] as? Int == 1)
    }

    @Test func faultsOnDemand() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let hash = try await service.registered()
        try await service.admin("fault", ["operation": "applicationLogin", "count": 2])
        for _ in 0..<2 {
            let fault = try await service.call(
                "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])
            #expect(fault.status == 500)
            #expect(result(fault) == 32)
            #expect(fault.json["resCode"] as? Int == 5000)
        }
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])) == 65)
        try await service.admin("fault", ["operation": "*", "count": "5"])
        try await service.admin("clearFaults", [:])
        #expect(
            result(
                try await service.call(
                    "applicationLogin", ["deviceHash": hash, "accessIdentifier": "product.ios.ml.myapp"])) == 65)
        try await service.admin("fault", ["operation": "login", "kind": "delay", "seconds": 1])
        let started = Date()
        _ = try await service.session()
        #expect(Date().timeIntervalSince(started) >= 0.9)
    }

    @Test func badInputIsA4xxJSONAnswer() async throws {
        let service = try await Service.start()
        defer { Task { await service.stop() } }
        let bodies = [
            "", "not json", "[1]", #"{"mvSessionId":5,"deviceId":"d"}"#, #"{"deviceId":"d"}"#,
            #"{"username":"a","password":"b","group":"club"}"#,
            "{\"mvSessionId\":\"" + String(repeating: "a", count: 300) + "\"}",
        ]
        for operation in ["login", "registerDevice", "applicationLogin"] {
            for body in bodies {
                let answer = try await service.harness.send(.post, "/devicesecurity/" + operation, body: body)
                #expect(answer.status == 400, "\(operation) \(body.prefix(30)): \(answer.text)")
                #expect(result(answer) == 32)
                #expect(answer.json["resCode"] as? Int == 4000)
                #expect(!answer.message.isEmpty)
            }
            #expect(try await service.harness.send(.get, "/devicesecurity/" + operation).status == 405)
        }
        #expect(try await service.harness.send(.post, "/devicesecurity/nothing", body: "{}").status == 404)
        #expect(try await service.harness.send(.post, "/devicesecurity", body: "{}").status == 404)
        #expect(try await service.harness.send(.post, "/devicesecurity/admin/x/y", body: "{}").status == 404)
        #expect(try await service.harness.send(.post, "/devicesecurity/admin/nothing", body: "{}").status == 404)
        #expect(try await service.harness.send(.get, "/devicesecurity/admin/user").status == 405)
        #expect(try await service.harness.send(.post, "/devicesecurity/admin/state", body: "{}").status == 405)
        let adminBodies: [(String, String)] = [
            ("user", #"{"username":"a","password":"b","group":"club"}"#),
            ("user", #"{"username":"a","password":"b","group":"school","applications":5}"#),
            ("application", #"{"accessIdentifier":"a","borrowTime":0}"#),
            ("application", #"{"accessIdentifier":"a","borrowTime":"ten"}"#),
            ("application", #"{"accessIdentifier":"a","borrowTime":1.5}"#), ("settings", #"{"deviceBorrowTime":-1}"#),
            ("fault", #"{"operation":"everything"}"#), ("fault", #"{"kind":"explode"}"#),
            ("fault", #"{"seconds":31,"kind":"delay"}"#),
            ("grant", #"{"username":"alice"}"#), ("user", "nope"),
        ]
        for (operation, body) in adminBodies {
            let answer = try await service.harness.send(.post, "/devicesecurity/admin/" + operation, body: body)
            #expect(answer.status == 400, "\(operation) \(body): \(answer.text)")
            #expect(!answer.message.isEmpty)
        }
    }
}
