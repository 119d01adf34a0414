import CurlTransport
import Foundation
import Histogram
import MPinCrypto
import MPinSDK
import ReferenceBackend
import SDKSeams
import Synchronization

/// `bench backend` (formerly `serve --bench`): authentications per second against an in-process reference backend, with
/// 1, 4 and 16 concurrent SDK clients over libcurl on loopback (median of several runs), next to
/// the crypto cost that bounds it; per client count also the latency percentiles of an
/// authentication and of one HTTP exchange (HdrHistogram), the CPU time per authentication, the
/// connections opened, and the peak resident memory of the process so far. The crypto is timed
/// between the runs (``CryptoSampler``), and each client count also times the cheapest exchange
/// through the same transport and server, its HTTP floor.
package struct ServeBenchmark {
    var clientCounts: [Int]
    var runs: Int
    var authenticationsPerRun: Int

    package init(clientCounts: [Int], runs: Int, authenticationsPerRun: Int) {
        self.clientCounts = clientCounts
        self.runs = runs
        self.authenticationsPerRun = authenticationsPerRun
    }

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
        /// The crypto timed before and between this row's runs, and the bound it gives.
        var cost = CryptoCost(server: 0, permit: 0, client: 0, cores: 0, samples: 0)
        /// The HTTP floor in each run: CPU time of the whole process per `GET /rps/clientSettings`
        /// with the same clients, transport and server, in µs.
        var floorMicroseconds: [Double] = []

        var median: Double { Median.of(perSecond) }
        var medianCPU: Double { Median.of(cpuMilliseconds) }
        var medianFloor: Double { Median.of(floorMicroseconds) }
        var share: Double { cost.bound > 0 ? median / cost.bound : 0 }
        /// The most of the bound the HTTP floor leaves: with every core busy and an authentication's
        /// four exchanges costing only the floor, the rate is cores / (crypto + 4 × floor), and its
        /// share of the bound cores / crypto is crypto / (crypto + 4 × floor).
        var floorCeiling: Double {
            cost.perAuthentication > 0 ? cost.perAuthentication / (cost.perAuthentication + floorPerAuthentication) : 0
        }
        /// What the floor costs for the exchanges of one authentication, in ms.
        var floorPerAuthentication: Double { medianFloor * Double(ServeBenchmark.exchangesPerAuthentication) / 1000 }
    }

    /// The percentiles printed for each latency.
    static let percentiles: [Double] = [50, 90, 99]

    /// Timed repetitions of each crypto part before a client count's runs and after each run.
    static let cryptoSamplesPerBatch = 7
    /// HTTP exchanges per authentication: time-permit share, pass 1, pass 2, the RPA's login.
    static let exchangesPerAuthentication = 4
    /// The path the HTTP floor requests: the smallest answer the backend gives an SDK.
    static let floorPath = Endpoint.clientSettings.path

    package func run(say: (String) -> Void, json: Bool = false) async throws {
        var sampler = CryptoSampler()
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "bench"))
        defer { Task { await backend.stop() } }
        let timer = ExchangeTimer(base: CurlTransport(options: .init(defaultTimeout: 120, connectTimeout: 10)))
        if !json {
            say(
                "reference backend at \(backend.baseURL); \(ProcessInfo.processInfo.activeProcessorCount) cores; "
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
                try await Self.authenticate(client, user)  // warm-up: the SDK keeps share 2, the RPS share 1
                clients.append((client, user))
            }
            var row = Row(clients: count)
            let mark = sampler.samplesTaken
            sampler.sample(Self.cryptoSamplesPerBatch)
            timer.reset()
            let before = CurlTransport.sharedDriverStatistics
            let perClient = max(1, authenticationsPerRun / count)
            for _ in 0..<runs {
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
                sampler.sample(Self.cryptoSamplesPerBatch)
            }
            let after = CurlTransport.sharedDriverStatistics
            row.exchange = timer.histogram
            row.exchanges = after.exchanges - before.exchanges
            row.connectionsOpened = after.connectionsOpened - before.connectionsOpened
            for _ in 0..<runs {
                row.floorMicroseconds.append(
                    try await Self.floor(
                        clients: count, exchangesPerClient: Self.exchangesPerAuthentication * perClient,
                        url: backend.baseURL + Self.floorPath, transport: timer.base))
            }
            row.cost = sampler.cost(since: mark)
            row.peakResidentBytes = Self.peakResidentBytes()
            rows.append(row)
            if !json { say(describe(row)) }
        }
        let cost = sampler.cost
        say(
            json
                ? Self.json(rows, cost: cost, runs: runs, authenticationsPerRun: authenticationsPerRun)
                : cost.description)
    }

    /// `clients` tasks each sending `exchangesPerClient` GETs of `url`: the CPU time of the whole
    /// process per exchange, in µs. Every answer must be a 200.
    static func floor(clients: Int, exchangesPerClient: Int, url: String, transport: CurlTransport) async throws
        -> Double
    {
        let cpuStart = processCPUSeconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    for _ in 0..<exchangesPerClient {
                        let response = try await transport.send(HTTPRequest(method: .get, url: url))
                        guard response.status == 200 else { throw FloorError(url: url, status: response.status) }
                    }
                }
            }
            try await group.waitForAll()
        }
        return (processCPUSeconds() - cpuStart) * 1e6 / Double(clients * exchangesPerClient)
    }

    /// The floor's request was not answered with a 200.
    struct FloorError: Error, CustomStringConvertible {
        let url: String
        let status: Int
        var description: String { "the HTTP floor's GET \(url) was answered with status \(status), not 200" }
    }

    /// One authentication as an app does it: time permit, pass 1, pass 2, RPA login.
    static func authenticate(_ client: MPinClient, _ user: User) async throws {
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
    }

    func describe(_ row: Row) -> String {
        String(
            format: "%3d clients: %7.1f authentications/s (median of %d; runs %@), %.2f of the crypto bound (%.0f/s)",
            row.clients, row.median, runs, row.perSecond.map { String(format: "%.1f", $0) }.joined(separator: " "),
            row.share, row.cost.bound)
            + "\n     latency per authentication " + Self.percentileText(row.authentication)
            + "; per HTTP exchange " + Self.percentileText(row.exchange)
            + String(
                format:
                    "\n     CPU %.2f ms per authentication (crypto %.2f ms); %d exchanges opened %d new connections; ",
                row.medianCPU, row.cost.perAuthentication, row.exchanges, row.connectionsOpened)
            + String(format: "peak RSS so far %.1f MiB", Double(row.peakResidentBytes) / 1_048_576)
            + String(
                format:
                    "\n     HTTP floor %.0f µs of CPU per exchange (GET %@, median of %d), %.2f ms for the %d exchanges of an authentication",
                row.medianFloor, Self.floorPath, row.floorMicroseconds.count,
                row.floorPerAuthentication, Self.exchangesPerAuthentication)
            + String(format: "; with that alone beside the crypto, at most %.2f of the bound", row.floorCeiling)
    }

    /// "p50 12.34 ms, p90 15.67 ms, p99 20.12 ms"
    static func percentileText(_ histogram: Histogram<UInt64>) -> String {
        percentiles.map { String(format: "p%.0f %.2f ms", $0, Double(histogram.valueAtPercentile($0)) / 1000) }.joined(
            separator: ", ")
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
                + "\"shareOfBound\": \(number(row.share)), \"boundPerSecond\": \(number(row.cost.bound)), "
                + "\"cryptoMillisecondsPerAuthentication\": \(number(row.cost.perAuthentication)), "
                + "\"floorMicrosecondsPerExchange\": \(number(row.medianFloor)), \"floorCeilingShare\": \(number(row.floorCeiling)), "
                + "\"authenticationMicroseconds\": \(percentiles(row.authentication)), "
                + "\"exchangeMicroseconds\": \(percentiles(row.exchange)), "
                + "\"cpuMillisecondsPerAuthentication\": \(number(row.medianCPU)), "
                + "\"exchanges\": \(row.exchanges), \"connectionsOpened\": \(row.connectionsOpened), "
                + "\"peakResidentBytes\": \(row.peakResidentBytes)}"
        }
        return
            "{\"runs\": \(runs), \"authenticationsPerRun\": \(authenticationsPerRun), \"cores\": \(Int(cost.cores)), "
            + "\"crypto\": {\"server12Milliseconds\": \(number(cost.server)), \"permitShareMilliseconds\": \(number(cost.permit)), "
            + "\"client12Milliseconds\": \(number(cost.client)), \"boundPerSecond\": \(number(cost.bound)), "
            + "\"samples\": \(cost.samples)}, "
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
