import CurlTransport
import Foundation
import MPinCrypto
import MPinSDK
import ReferenceBackend
import SDKSeams

/// `serve --bench`: authentications per second against an in-process reference backend, with
/// 1, 4 and 16 concurrent SDK clients over libcurl on loopback (median of several runs), next to
/// the crypto cost that bounds it.
struct ServeBenchmark {
    var clientCounts: [Int]
    var runs: Int
    var authenticationsPerRun: Int

    struct Row {
        var clients: Int
        var perSecond: [Double]
        var median: Double { perSecond.sorted()[perSecond.count / 2] }
    }

    func run(say: (String) -> Void) async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "bench"))
        defer { Task { await backend.stop() } }
        let transport = CurlTransport(options: .init(defaultTimeout: 120, connectTimeout: 10))
        say("reference backend at \(backend.baseURL); \(ProcessInfo.processInfo.activeProcessorCount) cores; "
            + "\(runs) runs of \(authenticationsPerRun) authentications per client count")

        var rows: [Row] = []
        for count in clientCounts {
            var clients: [(MPinClient, User)] = []
            for index in 0..<count {
                let client = MPinClient(transport: transport, storage: MemoryStorage())
                try await client.initialize(configuration: ["backend": backend.baseURL])
                let user = try await client.makeNewUser(id: "bench-\(count)-\(index)")
                try await client.startRegistration(user)
                try await client.confirmRegistration(user)
                try await client.finishRegistration(user, pin: "1234")
                try await Self.authenticate(client, user)   // warm-up, caches time-permit share 2
                clients.append((client, user))
            }
            var row = Row(clients: count, perSecond: [])
            for _ in 0..<runs {
                let perClient = max(1, authenticationsPerRun / count)
                let start = DispatchTime.now().uptimeNanoseconds
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (client, user) in clients {
                        group.addTask { for _ in 0..<perClient { try await Self.authenticate(client, user) } }
                    }
                    try await group.waitForAll()
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                row.perSecond.append(Double(perClient * count) / seconds)
            }
            rows.append(row)
            say(String(format: "%3d clients: %7.1f authentications/s (median of %d; runs %@)", count, row.median, runs,
                       row.perSecond.map { String(format: "%.1f", $0) }.joined(separator: " ")))
        }
        say(costs())
    }

    /// One authentication as an app does it: time permit, pass 1, pass 2, RPA login.
    static func authenticate(_ client: MPinClient, _ user: User) async throws {
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
    }

    /// Medians of the crypto each authentication costs, server side and client side.
    func costs() -> String {
        let mpin = MPin()
        var rng = SystemRandomNumberGenerator()
        let id = Array("{\"userID\": \"bench\"}".utf8)
        let s = mpin.randomScalar(using: &rng)
        let hash = mpin.hashID(id)
        let date: UInt32 = 20_000
        let secret = mpin.clientSecret(masterSecret: s, hashedID: hash)!
        let token = mpin.extractPIN(id: id, pin: 1234, token: secret)!
        let permit = mpin.clientPermit(date: date, masterSecret: s, hashedID: hash)!
        let serverSecret = mpin.serverSecret(masterSecret: s)!
        let x = mpin.randomScalar(using: &rng), y = mpin.randomScalar(using: &rng)
        let one = mpin.client1(date: date, id: id, x: x, pin: 1234, token: token, permit: permit)!
        let v = mpin.client2(x: x, y: y, sec: one.sec)!

        func median(_ body: () -> Void) -> Double {
            body()
            var samples: [Double] = []
            for _ in 0..<31 {
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return samples.sorted()[samples.count / 2]
        }
        let server = median {
            let (hid, htid) = mpin.server1(date: date, id: id)
            precondition(mpin.server2(date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret, u: one.u, ut: one.ut, v: v) == .ok)
        }
        let permitCost = median { _ = mpin.clientPermit(date: date, masterSecret: s, hashedID: hash) }
        let client = median {
            let first = mpin.client1(date: date, id: id, x: x, pin: 1234, token: token, permit: permit)!
            _ = mpin.client2(x: x, y: y, sec: first.sec)
        }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let perAuthentication = server + permitCost + client
        return String(format: """
            crypto per authentication (medians): SERVER_1+SERVER_2 %.2f ms, time-permit share %.2f ms (server); \
            CLIENT_1+CLIENT_2 %.2f ms (client)
            bound with server and clients sharing %.0f cores: about %.0f authentications/s (crypto alone)
            """, server, permitCost, client, cores, cores * 1000 / perAuthentication)
    }
}
