import CurlTransport
import Foundation
import Histogram
import MPinCrypto
import MPinSDK
import ReferenceBackend
import SDKSeams
import Synchronization

/// `serve --bench`: authentications per second against an in-process reference backend, with
/// 1, 4 and 16 concurrent SDK clients over libcurl on loopback (median of several runs), next to
/// the crypto cost that bounds it; per client count also the latency percentiles of an
/// authentication and of one HTTP exchange (HdrHistogram), the CPU time per authentication, the
/// connections opened, and the peak resident memory of the process so far.
struct ServeBenchmark {
    var clientCounts: [Int]
    var runs: Int
    var authenticationsPerRun: Int

    /// Latencies are recorded in microseconds, up to a minute, to 3 significant digits.
    static let highestLatency: UInt64 = 60_000_000

    static func latencyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(highestTrackableValue: highestLatency, numberOfSignificantValueDigits: .three)
    }

    struct Row {
        var clients: Int
        var perSecond: [Double] = []
        /// CPU time of the whole process (user + system) per authentication in each run, in ms.
        var cpuMilliseconds: [Double] = []
        /// One authentication (startAuthentication + finishAuthentication), in µs, over every run.
        var authentication = ServeBenchmark.latencyHistogram()
        /// One HTTP exchange as the SDK sees it (the transport's `send`), in µs, over every run.
        var exchange = ServeBenchmark.latencyHistogram()
        /// Exchanges the transport ran in the measured runs, and the new connections they opened.
        var exchanges = 0
        var connectionsOpened = 0
        /// The process's peak resident set size so far (after this row's runs), in bytes.
        var peakResidentBytes = 0

        var median: Double { Self.median(perSecond) }
        var medianCPU: Double { Self.median(cpuMilliseconds) }

        static func median(_ values: [Double]) -> Double {
            values.isEmpty ? 0 : values.sorted()[values.count / 2]
        }
    }

    /// The percentiles printed for each latency.
    static let percentiles: [Double] = [50, 90, 99]

    func run(say: (String) -> Void, json: Bool = false) async throws {
        let cost = CryptoCost.measure()
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "bench"))
        defer { Task { await backend.stop() } }
        let timer = ExchangeTimer(base: CurlTransport(options: .init(defaultTimeout: 120, connectTimeout: 10)))
        if !json {
            say("reference backend at \(backend.baseURL); \(ProcessInfo.processInfo.activeProcessorCount) cores; "
                + "\(runs) runs of \(authenticationsPerRun) authentications per client count")
        }

        var rows: [Row] = []
        for count in clientCounts {
            var clients: [(MPinClient, User)] = []
            for index in 0..<count {
                let client = MPinClient(transport: timer, storage: MemoryStorage())
                try await client.initialize(configuration: ["backend": backend.baseURL])
                let user = try await client.makeNewUser(id: "bench-\(count)-\(index)")
                try await client.startRegistration(user)
                try await client.confirmRegistration(user)
                try await client.finishRegistration(user, pin: "1234")
                try await Self.authenticate(client, user)   // warm-up, caches time-permit share 2
                clients.append((client, user))
            }
            var row = Row(clients: count)
            timer.reset()
            let before = CurlTransport.sharedPoolStatistics
            for _ in 0..<runs {
                let perClient = max(1, authenticationsPerRun / count)
                let cpuStart = Self.processCPUSeconds()
                let start = DispatchTime.now().uptimeNanoseconds
                let latencies = try await withThrowingTaskGroup(of: Histogram<UInt64>.self) { group in
                    for (client, user) in clients {
                        group.addTask {
                            var histogram = Self.latencyHistogram()
                            for _ in 0..<perClient {
                                let begun = DispatchTime.now().uptimeNanoseconds
                                try await Self.authenticate(client, user)
                                _ = histogram.record(Self.microseconds(since: begun))
                            }
                            return histogram
                        }
                    }
                    var all = Self.latencyHistogram()
                    for try await histogram in group { all.add(histogram) }
                    return all
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let authentications = Double(perClient * count)
                row.perSecond.append(authentications / seconds)
                row.cpuMilliseconds.append((Self.processCPUSeconds() - cpuStart) * 1000 / authentications)
                row.authentication.add(latencies)
            }
            let after = CurlTransport.sharedPoolStatistics
            row.exchange = timer.histogram
            row.exchanges = after.exchanges - before.exchanges
            row.connectionsOpened = after.connectionsOpened - before.connectionsOpened
            row.peakResidentBytes = Self.peakResidentBytes()
            rows.append(row)
            if !json { say(describe(row, cost: cost)) }
        }
        say(json ? Self.json(rows, cost: cost, runs: runs, authenticationsPerRun: authenticationsPerRun) : cost.description)
    }

    /// One authentication as an app does it: time permit, pass 1, pass 2, RPA login.
    static func authenticate(_ client: MPinClient, _ user: User) async throws {
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
    }

    func describe(_ row: Row, cost: CryptoCost) -> String {
        let share = cost.bound > 0 ? row.median / cost.bound : 0
        return String(format: "%3d clients: %7.1f authentications/s (median of %d; runs %@), %.2f of the crypto bound",
                      row.clients, row.median, runs, row.perSecond.map { String(format: "%.1f", $0) }.joined(separator: " "), share)
            + "\n     latency per authentication " + Self.percentileText(row.authentication)
            + "; per HTTP exchange " + Self.percentileText(row.exchange)
            + String(format: "\n     CPU %.2f ms per authentication (crypto %.2f ms); %d exchanges opened %d new connections; ",
                     row.medianCPU, cost.perAuthentication, row.exchanges, row.connectionsOpened)
            + String(format: "peak RSS so far %.1f MiB", Double(row.peakResidentBytes) / 1_048_576)
    }

    /// "p50 12.34 ms, p90 15.67 ms, p99 20.12 ms"
    static func percentileText(_ histogram: Histogram<UInt64>) -> String {
        percentiles.map { String(format: "p%.0f %.2f ms", $0, Double(histogram.valueAtPercentile($0)) / 1000) }.joined(separator: ", ")
    }

    /// The results as one JSON object: per client count the rates, latency percentiles in
    /// microseconds, CPU per authentication, connections and peak RSS; the crypto medians and bound.
    static func json(_ rows: [Row], cost: CryptoCost, runs: Int, authenticationsPerRun: Int) -> String {
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        func percentiles(_ histogram: Histogram<UInt64>) -> String {
            "{" + Self.percentiles.map { "\"p\(Int($0))\": \(histogram.valueAtPercentile($0))" }.joined(separator: ", ")
                + ", \"count\": \(histogram.totalCount)}"
        }
        let entries = rows.map { row in
            "{\"clients\": \(row.clients), \"authenticationsPerSecond\": \(number(row.median)), "
                + "\"runs\": [\(row.perSecond.map(number).joined(separator: ", "))], "
                + "\"shareOfBound\": \(number(cost.bound > 0 ? row.median / cost.bound : 0)), "
                + "\"authenticationMicroseconds\": \(percentiles(row.authentication)), "
                + "\"exchangeMicroseconds\": \(percentiles(row.exchange)), "
                + "\"cpuMillisecondsPerAuthentication\": \(number(row.medianCPU)), "
                + "\"exchanges\": \(row.exchanges), \"connectionsOpened\": \(row.connectionsOpened), "
                + "\"peakResidentBytes\": \(row.peakResidentBytes)}"
        }
        return "{\"runs\": \(runs), \"authenticationsPerRun\": \(authenticationsPerRun), \"cores\": \(Int(cost.cores)), "
            + "\"crypto\": {\"server12Milliseconds\": \(number(cost.server)), \"permitShareMilliseconds\": \(number(cost.permit)), "
            + "\"client12Milliseconds\": \(number(cost.client)), \"boundPerSecond\": \(number(cost.bound))}, "
            + "\"results\": [\(entries.joined(separator: ", "))]}"
    }

    static func microseconds(since start: UInt64) -> UInt64 {
        min((DispatchTime.now().uptimeNanoseconds &- start) / 1000, highestLatency)
    }

    /// User plus system CPU time of the whole process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's peak resident set size so far, in bytes (`ru_maxrss`, which Linux gives in KiB).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024
    }

    /// Medians of the crypto each authentication costs, server side and client side, and the
    /// authentications per second they would allow if the cores did nothing else.
    struct CryptoCost {
        /// SERVER_1 + SERVER_2, time-permit share 1, CLIENT_1 + CLIENT_2: medians in ms.
        var server: Double
        var permit: Double
        var client: Double
        var cores: Double

        var perAuthentication: Double { server + permit + client }
        var bound: Double { perAuthentication > 0 ? cores * 1000 / perAuthentication : 0 }

        var description: String {
            String(format: """
                crypto per authentication (medians): SERVER_1+SERVER_2 %.2f ms, time-permit share %.2f ms (server); \
                CLIENT_1+CLIENT_2 %.2f ms (client)
                bound with server and clients sharing %.0f cores: about %.0f authentications/s (crypto alone)
                """, server, permit, client, cores, bound)
        }

        static func measure() -> CryptoCost {
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
            return CryptoCost(server: server, permit: permitCost, client: client,
                              cores: Double(ProcessInfo.processInfo.activeProcessorCount))
        }
    }
}

extension ServeBenchmark {
    /// The SDK's transport in the benchmark: the libcurl transport, timing every exchange into one
    /// histogram (µs) shared by all clients.
    final class ExchangeTimer: HTTPTransport {
        let base: CurlTransport
        private let latencies = Mutex(ServeBenchmark.latencyHistogram())

        init(base: CurlTransport) {
            self.base = base
        }

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            let start = DispatchTime.now().uptimeNanoseconds
            defer {
                let elapsed = ServeBenchmark.microseconds(since: start)
                latencies.withLock { _ = $0.record(elapsed) }
            }
            return try await base.send(request)
        }

        /// Forgets what was recorded (registrations and warm-ups before the measured runs).
        func reset() {
            latencies.withLock { $0.reset() }
        }

        var histogram: Histogram<UInt64> {
            latencies.withLock { $0 }
        }
    }
}
