/// The bounds of a driver's run: what the suite reads of its output and how long it waits.
public enum DriverLimits {
    /// The most bytes of standard output read; past it the driver is stopped (a driver error).
    public static let standardOutput = 1 << 20
    /// The most bytes of standard error kept (its end), for the report.
    public static let standardErrorTail = 4096
    /// The longest call line, in bytes.
    public static let line = 4096
    /// The exit status by which a driver says the client has no such flow.
    public static let unimplementedStatus: Int32 = 3
    /// The seconds a run may take by default (`--run-timeout`).
    public static let defaultTimeLimit = 60.0
}
