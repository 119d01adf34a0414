import Conformance

/// Why a case could not reach a verdict of its own; `ClientCase.run` turns each into one.
package enum ClientCaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A run of the driver was not a run of the flow (it crashed, hung, wrote something else):
    /// the case fails, naming the driver's problem.
    case driver(DriverRun)
    /// The client has no such flow (its driver exited 3): `unimplemented`.
    case noFlow(ClientFlow)
    /// A step the case needs before its check went wrong (a registration that should have
    /// worked): the case fails, saying what came back.
    case setup(String)
    /// The suite could not do its own part (start the backend, play the browser): the case fails.
    case suite(String)

    package var description: String {
        switch self {
        case .driver(let run): "driver error: \(run)"
        case .noFlow(let flow): "the client has no \(flow) flow (its driver exited \(DriverLimits.unimplementedStatus))"
        case .setup(let what): "set-up failed: \(what)"
        case .suite(let what): "the suite could not run the case: \(what)"
        }
    }

    /// The verdict of a case that stopped with this error. A MAY case's set-up that fails is
    /// `unimplemented` (nothing it asks for can fail a client).
    package func verdict(level: RequirementLevel) -> Verdict {
        switch self {
        case .noFlow: .unimplemented(description)
        case .setup where level == .may: .unimplemented(description)
        case .driver, .setup, .suite: .fail(description)
        }
    }

    /// Whether the driver itself failed (the run counts toward "the client could not be run").
    package var isDriverProblem: Bool {
        if case .driver = self { return true }
        return false
    }
}
