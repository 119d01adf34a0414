import Synchronization

/// What bounds one run, whatever the backend does: a deadline for the whole run, a time limit for
/// each request, the largest answer taken, the most bytes its cassettes keep in all, and the origins
/// requests may go to. The cases of a run share it; each case's transports (`PacedTransport`,
/// `BackendBoundary`) apply it.
final class RunBounds: Sendable {
    /// The clock the deadline is read on.
    let clock: any ConformanceClock
    /// Seconds the run may take (nil: no deadline).
    let deadlineSeconds: Double?
    /// When the deadline falls, on `clock`.
    let deadline: Double?
    /// The most seconds one request may take.
    let requestTimeout: Double
    /// The largest answer body taken, in bytes.
    let maximumBodySize: Int
    /// The most bytes the exchanges of the run's cassettes take in their files, all cases together.
    let maximumRecordedBytes: Int
    let origins: OriginPolicy
    private let recorded = Mutex(0)

    init(options: ConformanceSuite.Options, clock: any ConformanceClock) {
        self.clock = clock
        deadlineSeconds = options.deadline
        deadline = options.deadline.map { clock.now() + $0 }
        requestTimeout = options.requestTimeout
        maximumBodySize = options.maximumBodySize
        maximumRecordedBytes = options.maximumRecordedBytes
        origins = OriginPolicy(
            backendURL: options.backendURL, allowed: options.allowedOrigins + [options.authorizeURL].compactMap { $0 })
    }

    /// Seconds left before the deadline (nil: no deadline); 0 or less once it has passed.
    var remaining: Double? { deadline.map { $0 - clock.now() } }

    /// Whether the deadline has passed.
    var deadlinePassed: Bool { (remaining ?? 1) <= 0 }

    /// The time limit of a request asking for `timeout` (nil: none of its own): at most
    /// `requestTimeout`, and no later than the deadline.
    func timeLimit(asked timeout: Double?) -> Double {
        var limit = min(timeout ?? requestTimeout, requestTimeout)
        if let remaining { limit = min(limit, max(remaining, 0.001)) }
        return limit
    }

    /// Takes `bytes` of the run's recording allowance: false (and nothing taken) when they would
    /// take the run past `maximumRecordedBytes`.
    func record(bytes: Int) -> Bool {
        recorded.withLock { total in
            guard total + bytes <= maximumRecordedBytes else { return false }
            total += bytes
            return true
        }
    }

    /// `seconds` as the reasons print it (`300 s`, `0.5 s`).
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
