import Testing

@testable import ReferenceBackend

/// The DeviceSecurity service's MV sessions and mapped devices are capped: at the cap a new
/// session replaces the one opened first, a new device the one confirmed longest ago.
@Suite struct DeviceSecurityStoreLimitsTests {
    private func store() async -> DeviceSecurityStore {
        let store = DeviceSecurityStore(capacity: 2)
        await store.putUser("alice", DeviceSecurityUser(password: "p", group: "g", applications: []))
        return store
    }

    @Test func aNewSessionReplacesTheOneOpenedFirst() async {
        let store = await store()
        for (index, id) in ["s1", "s2", "s3"].enumerated() {
            _ = await store.login(username: "alice", password: "p", group: "g", sessionID: id, now: Int64(index))
        }
        #expect(await store.session("s1", now: 3) == nil)
        #expect(await store.session("s2", now: 3) != nil)
        #expect(await store.session("s3", now: 3) != nil)
        #expect(await store.counts()["sessions"] == 2)
    }

    @Test func aNewDeviceReplacesTheOneConfirmedLongestAgo() async {
        let store = await store()
        _ = await store.login(username: "alice", password: "p", group: "g", sessionID: "s", now: 0)
        var hashes: [String] = []
        for (index, device) in ["d1", "d2", "d3"].enumerated() {
            hashes.append(await store.register(sessionID: "s", deviceID: device, now: Int64(index)) ?? "")
        }
        #expect(await store.counts()["devices"] == 2)
        #expect(await store.devices[hashes[0]] == nil)
        #expect(await store.devices[hashes[2]] != nil)
    }
}
