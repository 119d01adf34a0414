import DeviceSecurity
import SDKSeams
import Testing

@Suite struct DoLoginTests {
    @Test func firstLoginRegistersTheDeviceThenLogsIn() async {
        let fixture = Fixture()
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .success, .serviceSuccess])
        #expect(response.serviceResCode == 0)
        #expect(await fixture.device.deviceHash == "hash-1")
        #expect(await fixture.device.deviceBorrowTime == 3600)
        #expect(await fixture.device.mvSessionID == "session-app")
        #expect(await fixture.device.accessIdentifier == "app")
        #expect(fixture.log.callNames == ["doLogin", "applicationLogin", "registerDevice", "applicationLogin"])
        #expect(
            fixture.log.requests.map { $0.url.split(separator: "/").last! } == ["registerDevice", "applicationLogin"])
        #expect(fixture.log.requests.allSatisfy { $0.timeout == 2 })
        #expect(fixture.service.state.withLock { $0.bodies[0]["deviceId"] } == "000102030405060708090a0b0c0d0e0f")
    }

    @Test func repeatedLoginNeedsNoRegistration() async {
        let fixture = Fixture()
        _ = await fixture.login()
        fixture.clock.advance(seconds: 60)
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(response.hasAccess)
        #expect(response.serviceResult == [.success, .serviceSuccess])
    }

    @Test func credentialsAreExchangedForASession() async {
        let fixture = Fixture(answer: .credentials(username: "alice", password: "secret", group: .school))
        let (_, response) = await fixture.login()
        #expect(response.hasAccess)
        #expect(
            fixture.service.state.withLock { $0.bodies[0] } == [
                "username": "alice", "password": "secret", "group": "school",
            ])
    }

    @Test func wrongCredentialsGiveNoAccess() async {
        let fixture = Fixture(answer: .credentials(username: "alice", password: "wrong", group: .school))
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .invalidMVSessionID, .serviceSuccess])
        #expect(response.serviceResCode == 1005)
    }

    @Test func anExcludedGroupIsRefusedOnTheDevice() async {
        let fixture = Fixture(answer: .credentials(username: "alice", password: "secret", group: .private))
        await fixture.device.excludeLoginGroup(.private)
        #expect(await fixture.device.loginGroups == [.school, .company])
        let (_, response) = await fixture.login()
        #expect(!response.hasAccess)
        #expect(response.serviceResCode == DeviceResultCode.excludedGroup)
        #expect(fixture.service.state.withLock { $0.bodies.isEmpty })
        await fixture.device.includeAllLoginGroups()
        #expect(await fixture.device.loginGroups == LoginGroup.allCases)
        #expect(await fixture.login().response.hasAccess)
    }

    @Test func noLoginProviderMeansNoAccessAtOnce() async {
        let fixture = Fixture(answer: nil)
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(!response.hasAccess)
        #expect(response.serviceResult == .deviceBorrowTimeExpired)
        #expect(response.serviceResCode == DeviceResultCode.noLogin)
        #expect(fixture.log.requests.isEmpty)
    }

    @Test func aCancelledLoginGivesNoAccess() async {
        let fixture = Fixture(answer: .cancel)
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(!response.hasAccess)
    }

    @Test func invalidSessionID() async {
        let fixture = Fixture(answer: .sessionID("stale"))
        let (_, response) = await fixture.login()
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .invalidMVSessionID, .serviceSuccess])
        #expect(response.serviceResCode == 1001)
        #expect(await fixture.device.deviceHash == nil)
    }

    @Test func accessDenied() async {
        let fixture = Fixture()
        let (_, response) = await fixture.login("other.app")
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .success, .accessDenied, .serviceSuccess])
        #expect(response.serviceResCode == 1002)
    }

    @Test func aServiceFault() async {
        let fixture = Fixture()
        _ = await fixture.login()
        fixture.service.state.withLock { $0.faultNext = true }
        let (_, response) = await fixture.login()
        #expect(!response.hasAccess)
        #expect(response.serviceResult == .serviceFault)
        #expect(response.serviceResCode == 5000)
    }

    @Test func theServiceForgettingTheDeviceAsksForALoginAgain() async {
        let fixture = Fixture()
        _ = await fixture.login()
        fixture.clock.advance(seconds: 3600)
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .success, .serviceSuccess])
        #expect(await fixture.device.deviceHash == "hash-2")
    }

    @Test func responsesArriveInOrderOnTheStream() async {
        let fixture = Fixture()
        await fixture.device.doLogin("app")
        await fixture.device.doLogin("other.app")
        var iterator = fixture.device.responses.makeAsyncIterator()
        #expect(await iterator.next()?.accessIdentifier == "app")
        #expect(await iterator.next()?.accessIdentifier == "other.app")
    }

    @Test func concurrentCallsRunOneAtATime() async {
        let fixture = Fixture()
        _ = await fixture.login()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await fixture.device.applicationLogin("app") } }
        }
        let names = fixture.log.all.compactMap { event -> String? in
            switch event {
            case .call: "call"
            case .result: "result"
            default: nil
            }
        }
        #expect(names.count == 8 + 8 + 8)
        #expect(Array(names.suffix(16)) == Array(repeating: ["call", "result"], count: 8).flatMap { $0 })
    }
}
