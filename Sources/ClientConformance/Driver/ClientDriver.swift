/// What runs the client under test for one run of a case (docs/conformance.md, "The driver
/// contract"): the built-in driver of the project's SDK (`BuiltinDriver`) or a command of the
/// user's (`ProcessDriver`). A run never throws: the client's statuses and the driver's own
/// failures are both in the `DriverRun`.
public protocol ClientDriver: Sendable {
    /// How reports name the client (`builtin`, the command line).
    var name: String { get }
    /// Runs one flow with `invocation`'s environment in its folder, within its time limit.
    func run(_ invocation: DriverInvocation) async -> DriverRun
    /// Why the client cannot be run at all (a command that is not there), or nil: checked once,
    /// before any case.
    func problem() -> String?
}

extension ClientDriver {
    public func problem() -> String? { nil }
}
