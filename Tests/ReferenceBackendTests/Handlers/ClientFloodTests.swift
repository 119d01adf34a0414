import Testing

@testable import ReferenceBackend

/// A flood from one client does not deny service to the others: each client (told apart by its
/// address) holds at most `clientRecordLimit` records of a kind, and a store at its cap makes room
/// from the client that holds the most. Before, 10,000 registrations (or access numbers and QR
/// codes, which share the sessions' store) from one client got every client a 503 for an hour.
/// Driven through the backend's core, with each client's source address as its peer.
@Suite struct ClientFloodTests {
    @Test func registrationsFromOneClientLeaveTheOthersTheirs() async throws {
        let core = BackendCore.testCore()
        let flooder = try CoreClient(core, address: "127.0.0.2")
        let other = try CoreClient(core, address: "127.0.0.3")
        let before = await other.register("before@example.com")
        #expect(before.status == 200)
        var refused = 0
        for index in 0..<12_000 where await flooder.register("flood\(index)@example.com").status != 200 {
            refused += 1
        }
        #expect(refused == 0, "the flooder's own registrations make room for its new ones")
        let after = await other.register("after@example.com")
        #expect(after.status == 200, "\(after.body)")
        // Both of the other client's registrations are still pending: the flood dropped neither.
        for registration in [before, after] {
            let mpinID = registration.body["mpinId"] as? String ?? "",
                regOTT = registration.body["regOTT"] as? String ?? ""
            let signature = await other.send(.get, "/rps/signature/\(mpinID)?regOTT=\(regOTT)")
            #expect(signature.status == 200, "\(signature.body)")
        }
        let counts = await core.store.counts()
        #expect((counts["registrations"] ?? 0) <= core.configuration.clientRecordLimit)
    }

    @Test func accessNumbersAndQRCodesFromOneClientLeaveTheOthersTheirs() async throws {
        let core = BackendCore.testCore()
        let flooder = try CoreClient(core, address: "127.0.0.2")
        let other = try CoreClient(core, address: "127.0.0.3")
        let number = await other.send(.post, "/rps/getAccessNumber")
        let qr = await other.send(.post, "/rps/getQrUrl")
        #expect(number.status == 200 && qr.status == 200)
        var refused = 0
        for index in 0..<12_000
        where await flooder.send(.post, index % 2 == 0 ? "/rps/getAccessNumber" : "/rps/getQrUrl").status != 200 {
            refused += 1
        }
        #expect(refused == 0)
        #expect(await other.send(.post, "/rps/getAccessNumber").status == 200)
        #expect(await other.send(.post, "/rps/getQrUrl").status == 200)
        for session in [number, qr] {
            let poll = await other.send(
                .post, "/rps/access", json: "{\"webOTT\":\"\(session.body["webOTT"] as? String ?? "")\"}")
            #expect(poll.status == 200 && poll.body["status"] as? String == "new", "\(poll.body)")
        }
    }

    /// Many clients each under their quota fill the store: then the client holding the most gives
    /// up its oldest record, never one holding fewer.
    @Test func aFullStoreMakesRoomFromTheBiggestHolder() async throws {
        let core = BackendCore.testCore {
            $0.recordLimit = 6
            $0.clientRecordLimit = 4
        }
        let big = try CoreClient(core, address: "127.0.0.2")
        let small = try CoreClient(core, address: "127.0.0.3")
        let newcomer = try CoreClient(core, address: "127.0.0.4")
        let kept = await small.register("small0")
        #expect(kept.status == 200)
        #expect(await small.register("small1").status == 200)
        for index in 0..<4 { #expect(await big.register("big\(index)").status == 200) }
        // Full (6): the newcomer's registration takes the room of the big client's oldest.
        #expect(await newcomer.register("new").status == 200)
        let mpinID = kept.body["mpinId"] as? String ?? "", regOTT = kept.body["regOTT"] as? String ?? ""
        #expect(await small.send(.get, "/rps/signature/\(mpinID)?regOTT=\(regOTT)").status == 200)
    }
}
