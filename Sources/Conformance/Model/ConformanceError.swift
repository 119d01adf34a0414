import SDKSeams

/// Why a case could not reach a verdict of its own. `ConformanceCase.run` turns each into one:
/// an exhausted budget or a missing operator action is `skipped`, a missing optional feature
/// `unimplemented`, anything else `fail`.
public enum ConformanceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The run's or the case's request budget is spent.
    case budgetExhausted(String)
    /// The backend could not be reached (connection refused, timeout, ...).
    case transport(TransportError)
    /// A step the case needs before its check went wrong: what was done, and what came back.
    case setup(String)
    /// The case needs an operator action this run cannot take (no `/admin/*`, no flag).
    case needsOperator(String)
    /// The backend lacks an optional feature the case needs (e.g. no access numbers in its settings).
    case unimplemented(String)

    public var description: String {
        switch self {
        case .budgetExhausted(let what): "request budget spent: \(what)"
        case .transport(let error): "transport: \(error)"
        case .setup(let what): "set-up failed: \(what)"
        case .needsOperator(let what): "needs an operator action: \(what)"
        case .unimplemented(let what): what
        }
    }

    /// The verdict of a case that stopped with this error.
    public var verdict: Verdict {
        switch self {
        case .budgetExhausted, .needsOperator: .skipped(description)
        case .unimplemented: .unimplemented(description)
        case .transport, .setup: .fail(description)
        }
    }
}
