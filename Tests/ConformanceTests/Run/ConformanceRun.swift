import Conformance
import CurlTransport
import Foundation
import ReferenceBackend
import SDKSeams
import TestSupport

/// Runs the suite against the reference backend started in-process with a profile: seeded
/// randomness for the suite, the system clocks (the backend's timers are real), libcurl.
enum ConformanceRun {
    static func run(
        profile: BackendProfile, flavour: BackendFlavour = .milagro, pattern: String? = nil, rate: Double? = nil,
        budget: Int = 5_000, clock: any ConformanceClock = SystemConformanceClock()
    ) async throws -> ConformanceReport {
        var configuration = BackendConfiguration(
            flavour: flavour, seed: "conformance-\(profile.rawValue)-\(flavour.rawValue)")
        configuration.profile = profile
        if flavour == .mfaPlatform { configuration.clientID = "conform-cid" }
        let backend = try await ReferenceBackend.start(configuration)
        var options = ConformanceSuite.Options(backendURL: backend.baseURL)
        options.pattern = pattern.flatMap(CasePattern.init)
        options.rate = rate
        options.budget = budget
        if flavour == .mfaPlatform { options.clientID = "conform-cid" }
        options.userPrefix = "conform-test"
        let suite = ConformanceSuite(
            options: options, transport: CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 5)),
            random: SeededSource(seed: 28), sdkClock: SystemClock(), clock: clock)
        let report = await suite.run()
        await backend.stop()
        return report
    }

    /// The verdicts of a report as the expected-verdicts file holds them: id → [verdict, reason].
    static func verdicts(_ report: ConformanceReport) -> [String: Verdict] {
        Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0.verdict) })
    }
}

/// Seeded bytes (SplitMix64), shared by the cases of one run.
final class SeededSource: RandomSource, @unchecked Sendable {
    private var generator: SplitMix64
    private let lock = NSLock()

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    func randomBytes(count: Int) -> [UInt8] {
        lock.withLock { (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
    }
}

/// A clock that only advances: each wait moves it on at once, and is kept.
final class AdvancingClock: ConformanceClock, @unchecked Sendable {
    private var seconds = 0.0
    private(set) var waits: [Double] = []
    private let lock = NSLock()

    func now() -> Double { lock.withLock { seconds } }

    func sleep(seconds wait: Double) async {
        lock.withLock {
            waits.append(wait)
            seconds += wait
        }
    }
}
