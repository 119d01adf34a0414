/// Why a run of a driver is not a run of the flow: the driver's own failure, reported as such
/// (the case it happened in fails, naming it; a run where no case could run the client exits 2).
public enum DriverProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command could not be started (not found, not executable, ...): the system's reason.
    case couldNotStart(String)
    /// It exited with a status other than 0 (or 3, "no such flow").
    case exitStatus(Int32)
    /// A signal ended it.
    case signal(Int32)
    /// It ran past the run's time limit, in seconds, and was stopped.
    case timedOut(Double)
    /// It wrote more than this many bytes on standard output, and was stopped.
    case outputTooLarge(Int)
    /// A line of its standard output is not a call line: the line's number, its start, and why.
    case badLine(Int, String, String)

    public var description: String {
        switch self {
        case .couldNotStart(let reason): "the driver could not be started: \(reason)"
        case .exitStatus(let status): "the driver exited with status \(status)"
        case .signal(let signal): "the driver was ended by signal \(signal)"
        case .timedOut(let seconds):
            "the driver ran past the run's time limit (\(Self.seconds(seconds))) and was stopped"
        case .outputTooLarge(let bytes): "the driver wrote more than \(bytes) bytes on standard output and was stopped"
        case .badLine(let number, let text, let why):
            "line \(number) of the driver's output is not a call line (\(why)): \(text)"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
