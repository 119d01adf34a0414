import Foundation
import TestSupport
import Testing

/// `bench backend` (formerly `serve --bench`, still accepted) end to end, on a small load: every figure the README quotes is printed, and the
/// figures agree with one another (counts of exchanges and latencies, the share against the bound
/// measured in the same run, the crypto timed before and between the runs). No figure is judged
/// for speed: these are benchmarks, not timed tests.
@Suite("bench backend", .enabled(if: WorkbenchProcess.path != nil))
struct ServeBenchmarkExecutableTests {
    @Test("--json gives per client count the rate, its own bound and share, latencies, CPU, the HTTP floor and memory")
    func benchJSON() throws {
        let result = try WorkbenchProcess.run(
            ["bench", "backend", "--clients", "1", "2", "--runs", "2", "--authentications", "4", "--json"],
            seconds: 300)
        #expect(result.status == 0, "\(result)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect(object["runs"] as? Int == 2)
        #expect(object["authenticationsPerRun"] as? Int == 4)
        let crypto = try #require(object["crypto"] as? [String: Any])
        // Seven samples before each client count's runs and seven after each run: 2 × (1 + 2) × 7.
        #expect(crypto["samples"] as? Int == 42)
        for key in ["server12Milliseconds", "permitShareMilliseconds", "client12Milliseconds", "boundPerSecond"] {
            #expect((crypto[key] as? Double ?? 0) > 0, "crypto.\(key)")
        }
        // The bound counts SERVER_1+2 and CLIENT_1+2, not time-permit share 1, which the RPS keeps.
        let perAuthentication =
            (crypto["server12Milliseconds"] as? Double ?? 0) + (crypto["client12Milliseconds"] as? Double ?? 0)
        let cores = Double(object["cores"] as? Int ?? 0)
        let wholeBound = crypto["boundPerSecond"] as? Double ?? 0
        #expect(
            abs(wholeBound - cores * 1000 / perAuthentication) <= 0.01 * wholeBound,
            "bound \(wholeBound), crypto \(crypto)")
        let rows = try #require(object["results"] as? [[String: Any]])
        #expect(rows.compactMap { $0["clients"] as? Int } == [1, 2])
        for row in rows {
            let clients = row["clients"] as? Int ?? 0
            let authentications = 2 * clients * (4 / clients)  // runs × clients × authentications per client
            let rate = row["authenticationsPerSecond"] as? Double ?? 0
            let bound = row["boundPerSecond"] as? Double ?? 0
            let share = row["shareOfBound"] as? Double ?? -1
            #expect(rate > 0 && bound > 0, "\(clients) clients")
            #expect(
                abs(share - rate / bound) < 0.002, "\(clients) clients: share \(share), rate \(rate), bound \(bound)")
            #expect((row["runs"] as? [Double])?.count == 2)
            #expect((row["cpuMillisecondsPerAuthentication"] as? Double ?? 0) > 0)
            #expect((row["cryptoMillisecondsPerAuthentication"] as? Double ?? 0) > 0)
            let floor = row["floorMicrosecondsPerExchange"] as? Double ?? 0
            #expect(floor > 0, "\(clients) clients")
            // The ceiling the floor leaves: crypto / (crypto + 4 × floor), from the row's own figures.
            let crypto = row["cryptoMillisecondsPerAuthentication"] as? Double ?? 0
            let ceiling = try #require(row["floorCeilingShare"] as? Double, "\(clients) clients: no floorCeilingShare")
            #expect(
                abs(ceiling - crypto / (crypto + 4 * floor / 1000)) < 0.002,
                "\(clients) clients: ceiling \(ceiling), crypto \(crypto), floor \(floor)")
            #expect(
                row["exchanges"] as? Int == 4 * authentications, "\(clients) clients: four exchanges per authentication"
            )
            #expect((row["authenticationMicroseconds"] as? [String: Any])?["count"] as? Int == authentications)
            #expect((row["exchangeMicroseconds"] as? [String: Any])?["count"] as? Int == 4 * authentications)
            let percentiles = row["authenticationMicroseconds"] as? [String: Any] ?? [:]
            let (p50, p90, p99) = (
                percentiles["p50"] as? Int ?? 0, percentiles["p90"] as? Int ?? 0, percentiles["p99"] as? Int ?? 0
            )
            #expect(0 < p50 && p50 <= p90 && p90 <= p99, "\(clients) clients: \(percentiles)")
            #expect((row["peakResidentBytes"] as? Int ?? 0) > 1_000_000)
        }
    }

    @Test("the text form names the floor and the bound of each client count; the old spelling warns once")
    func benchText() throws {
        let result = try WorkbenchProcess.run(
            [
                "serve", "--bench", "--bench-clients", "2", "--bench-runs", "1",
                "--bench-authentications", "2",
            ], seconds: 300)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "warning: `serve --bench` is now `bench backend`, `--bench-clients` is `--clients`"), "\(result.stderr)"
        )
        #expect(result.stdout.contains("  2 clients: "))
        #expect(result.stdout.contains("of the crypto bound ("))
        #expect(result.stdout.contains("HTTP floor "))
        #expect(result.stdout.contains("µs of CPU per exchange (GET /rps/clientSettings, median of 1)"))
        #expect(result.stdout.contains("; with that alone beside the crypto, at most 0."))
        #expect(result.stdout.contains("crypto per authentication (medians of 14, timed between the runs)"))
    }
}
