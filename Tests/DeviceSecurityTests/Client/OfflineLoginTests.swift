import DeviceSecurity
import Testing

/// Borrow times of the fake service: device 3600 s, application 600 s.
@Suite struct OfflineLoginTests {
    func loggedIn() async -> Fixture {
        let fixture = Fixture()
        _ = await fixture.login()
        fixture.service.state.withLock { $0.online = false }
        return fixture
    }

    @Test func withinTheBorrowTimesTheDeviceGrantsAccess() async {
        let fixture = await loggedIn()
        fixture.clock.advance(seconds: 599)
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(response.hasAccess)
        #expect(response.serviceResult == [.success, .networkError])
        #expect(response.serviceResCode == DeviceResultCode.offlineGrant)
        #expect(response.serviceResMsg.contains("1 s left"))
    }

    @Test func pastTheApplicationBorrowTime() async {
        let fixture = await loggedIn()
        fixture.clock.advance(seconds: 600)
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.applicationBorrowTimeExpired, .networkError])
    }

    @Test func pastTheDeviceBorrowTime() async {
        let fixture = Fixture()
        fixture.service.state.withLock { $0.applicationBorrowTime = 86_400 }
        _ = await fixture.login()
        fixture.service.state.withLock { $0.online = false }
        fixture.clock.advance(seconds: 3600)
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .networkError])
        // Offline, the registration is kept: the service decides once it answers again.
        #expect(await fixture.device.deviceHash != nil)
    }

    @Test func pastBothBorrowTimes() async {
        let fixture = await loggedIn()
        fixture.clock.advance(seconds: 7200)
        #expect(
            await fixture.device.applicationLogin("app") == [
                .applicationBorrowTimeExpired, .deviceBorrowTimeExpired, .networkError,
            ])
    }

    @Test func offlineLoginsDoNotExtendTheBorrowTime() async {
        let fixture = await loggedIn()
        fixture.clock.advance(seconds: 500)
        #expect(await fixture.login().response.hasAccess)
        fixture.clock.advance(seconds: 100)
        #expect(await !fixture.login().response.hasAccess)
    }

    @Test func anOnlineLoginRenewsTheBorrowTime() async {
        let fixture = await loggedIn()
        fixture.clock.advance(seconds: 500)
        fixture.service.state.withLock { $0.online = true }
        #expect(await fixture.login().response.serviceResult == [.success, .serviceSuccess])
        fixture.service.state.withLock { $0.online = false }
        fixture.clock.advance(seconds: 500)
        #expect(await fixture.login().response.hasAccess)
    }

    @Test func releasedUsageNeedsTheService() async {
        let fixture = await loggedIn()
        await fixture.device.releaseApplicationUsage("app")
        #expect(await fixture.device.deviceHash != nil)
        #expect(await fixture.device.applicationLogin("app") == [.applicationBorrowTimeExpired, .networkError])
        fixture.service.state.withLock { $0.online = true }
        let (shown, response) = await fixture.login()
        #expect(!shown)
        #expect(response.serviceResult == [.success, .serviceSuccess])
    }

    @Test func releasedRegistrationNeedsALogin() async {
        let fixture = Fixture()
        _ = await fixture.login()
        let id = await fixture.device.deviceState.deviceID
        await fixture.device.releaseDeviceRegistration()
        #expect(await fixture.device.deviceHash == nil)
        #expect(await fixture.device.mvSessionID == nil)
        #expect(await fixture.device.deviceState.deviceID == id)
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .success, .serviceSuccess])
        #expect(await fixture.device.deviceHash == "hash-2")
    }

    @Test func anUnregisteredDeviceOfflineGetsNoAccessAndNoLogin() async {
        let fixture = Fixture()
        fixture.service.state.withLock { $0.online = false }
        let (shown, response) = await fixture.login()
        #expect(shown)
        #expect(!response.hasAccess)
        #expect(response.serviceResult == [.deviceBorrowTimeExpired, .networkError])
    }

    @Test func theStateSurvivesANewConnectorOnTheSameStore() async {
        let fixture = await loggedIn()
        let again = Fixture(store: fixture.store)
        again.service.state.withLock { $0.online = false }
        again.clock.advance(seconds: 10)
        let (_, response) = await again.login()
        #expect(response.hasAccess)
        #expect(response.serviceResult == [.success, .networkError])
    }

    @Test func theClockIsReadAndReported() async {
        let fixture = await loggedIn()
        _ = await fixture.login()
        let purposes = fixture.log.all.compactMap { if case .clock(let read) = $0 { read.purpose } else { nil } }
        #expect(purposes.last == "offlineLogin")
    }
}
