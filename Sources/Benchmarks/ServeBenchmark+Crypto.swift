import Dispatch
import Foundation
import MPinCrypto

extension ServeBenchmark {
    /// Medians of the crypto each authentication costs, server side and client side, and the
    /// authentications per second they would allow if the cores did nothing else.
    ///
    /// Time-permit share 1 is timed and shown but not counted per authentication: the RPS fetches
    /// it for 7 to 13 days at a time and keeps it, as the open-source RPS does (docs/protocol.md §8.2), and
    /// every user of the benchmark has made its first authentication before the runs.
    struct CryptoCost {
        /// SERVER_1 + SERVER_2, time-permit share 1, CLIENT_1 + CLIENT_2: medians in ms.
        var server: Double
        var permit: Double
        var client: Double
        var cores: Double
        /// Timed repetitions behind each median.
        var samples: Int

        var perAuthentication: Double { server + client }
        var bound: Double { perAuthentication > 0 ? cores * 1000 / perAuthentication : 0 }

        var description: String {
            String(
                format: """
                    crypto per authentication (medians of %d, timed between the runs): SERVER_1+SERVER_2 %.2f ms (server); \
                    CLIENT_1+CLIENT_2 %.2f ms (client); time-permit share 1 %.2f ms per user and day, made 7 to 13 days at a time (the RPS keeps them)
                    bound with server and clients sharing %.0f cores: about %.0f authentications/s (crypto alone)
                    """, samples, server, client, permit, cores, bound)
        }
    }

    /// Times the crypto of one authentication in repeated short batches, so that the bound is
    /// measured in the same minutes as the runs it is compared with: the machine's speed drifts
    /// (on a shared machine by a quarter within minutes), and one batch timed before all the runs
    /// would put that drift into every share.
    struct CryptoSampler {
        private let mpin = MPin()
        private let id = Array("{\"userID\": \"bench\"}".utf8)
        private let date: UInt32 = 20_000
        private let masterSecret: [UInt8], hashedID: [UInt8], token: [UInt8], permit: [UInt8], serverSecret: [UInt8]
        private let x: [UInt8], y: [UInt8], u: [UInt8], ut: [UInt8]?, v: [UInt8]
        private(set) var server: [Double] = []
        private(set) var permitShare: [Double] = []
        private(set) var client: [Double] = []

        init() {
            var rng = SystemRandomNumberGenerator()
            masterSecret = mpin.randomScalar(using: &rng)
            hashedID = mpin.hashID(id)
            let secret = mpin.clientSecret(masterSecret: masterSecret, hashedID: hashedID)!
            token = mpin.extractPIN(id: id, pin: 1234, token: secret)!
            permit = mpin.clientPermit(date: date, masterSecret: masterSecret, hashedID: hashedID)!
            serverSecret = mpin.serverSecret(masterSecret: masterSecret)!
            x = mpin.randomScalar(using: &rng)
            y = mpin.randomScalar(using: &rng)
            let one = mpin.client1(date: date, id: id, x: x, pin: 1234, token: token, permit: permit)!
            (u, ut) = (one.u, one.ut)
            v = mpin.client2(x: x, y: y, sec: one.sec)!
        }

        /// Times each part `count` times (after one untimed call of each).
        mutating func sample(_ count: Int) {
            let (mpin, id, date) = (self.mpin, self.id, self.date)
            let (masterSecret, hashedID, token, permit, serverSecret) = (
                self.masterSecret, self.hashedID, self.token, self.permit, self.serverSecret
            )
            let (x, y, u, ut, v) = (self.x, self.y, self.u, self.ut, self.v)
            func time(_ body: () -> Void, into samples: inout [Double]) {
                body()
                for _ in 0..<count {
                    let start = DispatchTime.now().uptimeNanoseconds
                    body()
                    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
            }
            time(
                {
                    let (hid, htid) = mpin.server1(date: date, id: id)
                    precondition(
                        mpin.server2(
                            date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret, u: u, ut: ut, v: v)
                            == .ok)
                }, into: &server)
            time(
                { _ = mpin.clientPermit(date: date, masterSecret: masterSecret, hashedID: hashedID) },
                into: &permitShare)
            time(
                {
                    let first = mpin.client1(date: date, id: id, x: x, pin: 1234, token: token, permit: permit)!
                    _ = mpin.client2(x: x, y: y, sec: first.sec)
                }, into: &client)
        }

        /// The medians of every sample so far.
        var cost: CryptoCost { cost(since: 0) }

        /// The medians of the samples taken since `mark` (a count of samples, from `samplesTaken`).
        func cost(since mark: Int) -> CryptoCost {
            CryptoCost(
                server: Median.of(Array(server[mark...])), permit: Median.of(Array(permitShare[mark...])),
                client: Median.of(Array(client[mark...])), cores: Double(ProcessInfo.processInfo.activeProcessorCount),
                samples: server.count - mark)
        }

        var samplesTaken: Int { server.count }
    }
}
