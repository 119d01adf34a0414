import FileAccess
import FlowRecording

/// The outcome of a run: the backend, the users' prefix, the selection, the pace, and each
/// case's result. Written as a terminal summary, JUnit XML, JSON and an HTML page
/// (`ConformanceReport+*.swift`); the JSON reads back (`init(json:)`).
///
/// A report of the client suite (`conform --client`) names the client graded (`client`); its
/// `backendURL` is the graded backend's description (the reference backend and its profile).
public struct ConformanceReport: Sendable {
    public var backendURL: String
    /// The client graded, for a report of the client suite (its driver's name); nil for a backend's.
    public var client: String?
    /// Why the client could not be run at all (a report of the client suite; the command then exits 2).
    public var couldNotRun: String?
    /// The prefix of every user the run created on the backend.
    public var userPrefix: String
    public var pattern: String?
    public var rate: Double?
    /// Requests sent in all.
    public var requests: Int
    public var seconds: Double
    public var operatorEndpoints: Bool
    public var results: [CaseResult]
    /// Why the run stopped before it could finish every case (the deadline passed); nil when it finished.
    public var deadlinePassed: String?

    public init(
        backendURL: String, userPrefix: String, pattern: String?, rate: Double?, requests: Int, seconds: Double,
        operatorEndpoints: Bool, results: [CaseResult], deadlinePassed: String? = nil
    ) {
        self.backendURL = backendURL
        self.userPrefix = userPrefix
        self.pattern = pattern
        self.rate = rate
        self.requests = requests
        self.seconds = seconds
        self.operatorEndpoints = operatorEndpoints
        self.results = results
        self.deadlinePassed = deadlinePassed
    }

    /// Whether a MUST case failed (the command then exits 1).
    public var failsRun: Bool { results.contains(where: \.failsRun) }

    /// Why the run could not grade the backend (the command then exits 2): the deadline passed
    /// before every case had finished, or no case got a verdict other than skipped. Nil when it could.
    public var couldNotGrade: String? {
        if let couldNotRun { return couldNotRun }
        if let deadlinePassed {
            return
                "\(deadlinePassed): \(results.filter(\.deadlineHit).count) of \(results.count) cases were cut short or not run"
        }
        if !results.isEmpty, results.allSatisfy({ $0.verdict.kind == .skipped }) {
            return "no case was graded: every one was skipped"
        }
        return nil
    }

    /// How many results have each verdict.
    public func count(_ kind: Verdict.Kind, level: RequirementLevel? = nil) -> Int {
        results.filter { $0.verdict.kind == kind && (level == nil || $0.level == level) }.count
    }

    /// Writes each case's cassette as `<directory>/<case id>.json` and notes the paths. Every
    /// exchange in them was read back before it was recorded (`BackendBoundary`), so each file
    /// reads back; the suite has redacted them (`ConformanceSuite.Options.redactedFields`).
    public func writingCassettes(to directory: String) throws(ConformanceReportError) -> ConformanceReport {
        var report = self
        do {
            try Directories.create(directory)
        } catch {
            throw .write(directory, "\(error)")
        }
        for index in report.results.indices {
            guard let cassette = report.results[index].cassette else { continue }
            let path = directory + "/" + report.results[index].id + ".json"
            do {
                try CassetteFile.write(cassette, to: path)
            } catch {
                throw .write(path, "\(error)")
            }
            report.results[index].cassettePath = path
        }
        return report
    }
}

/// Why a report could not be written or read: the file or JSON path, and what was wrong.
public enum ConformanceReportError: Error, Sendable, Hashable, CustomStringConvertible {
    case write(String, String)
    case read(String, String)

    public var description: String {
        switch self {
        case .write(let path, let why): "cannot write \(path): \(why)"
        case .read(let path, let why): "cannot read the report at \(path): \(why)"
        }
    }
}
