import MilagroProtocol

/// What one run of a driver gave: the calls it reported, in order, or the problem that made it
/// not a run of the flow; whether the client has the flow at all (a driver exits 3 when not);
/// the run's time and, for a process, its peak resident memory and the end of its standard error.
public struct DriverRun: Sendable, Hashable, CustomStringConvertible {
    public var flow: ClientFlow
    public var calls: [DriverCall]
    /// Nil when the driver ran the flow (exit 0 and every line a call line).
    public var problem: DriverProblem?
    /// The driver said the client has no such flow (exit status 3).
    public var unimplemented: Bool
    public var seconds: Double
    /// The process's peak resident set size, in bytes (nil for the built-in driver).
    public var peakMemoryBytes: Int?
    /// The last bytes of the driver's standard error (at most `DriverLimits.standardErrorTail`).
    public var standardError: String

    public init(
        flow: ClientFlow, calls: [DriverCall], problem: DriverProblem? = nil, unimplemented: Bool = false,
        seconds: Double = 0, peakMemoryBytes: Int? = nil, standardError: String = ""
    ) {
        self.flow = flow
        self.calls = calls
        self.problem = problem
        self.unimplemented = unimplemented
        self.seconds = seconds
        self.peakMemoryBytes = peakMemoryBytes
        self.standardError = standardError
    }

    /// Whether every call returned OK (and there was at least one, and no problem).
    public var allOK: Bool { problem == nil && !unimplemented && !calls.isEmpty && calls.allSatisfy(\.isOK) }

    /// The first call that did not return OK.
    public var firstFailure: DriverCall? { calls.first { !$0.isOK } }

    /// The status the flow ended with: the first failure's, or OK.
    public var outcome: StatusCode { firstFailure?.status ?? .ok }

    /// The calls as `name STATUS, ...`, with the problem when there was one.
    public var description: String {
        var text = "\(flow): " + (calls.isEmpty ? "no calls" : calls.map(\.description).joined(separator: ", "))
        if unimplemented { text += " (the client has no such flow)" }
        if let problem {
            text += "; \(problem)" + (standardError.isEmpty ? "" : " (stderr: \(Self.tail(standardError)))")
        }
        return text
    }

    /// The end of a text, at most 300 characters, on one line.
    static func tail(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " / ")
        return line.count > 300 ? "…" + line.suffix(300) : line
    }
}
