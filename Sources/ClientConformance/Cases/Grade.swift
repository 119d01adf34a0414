import Conformance
import MilagroProtocol

/// The verdicts the cases give from a run, in words that name the calls and the statuses.
enum Grade {
    /// Every call returned OK: pass; else fail, naming the first that did not.
    static func works(_ run: DriverRun, _ what: String) -> Verdict {
        guard let failure = run.firstFailure else { return .pass("\(what): every call returned OK (\(run.flow))") }
        return .fail("\(what): \(failure.name) returned \(failure.status.name)" + note(failure))
    }

    /// The flow ended with `expected`: pass. Another status: `otherwise` (fail unless told); OK: fail.
    static func status(
        _ run: DriverRun, _ expected: StatusCode, source: String, otherwise: Verdict.Kind = .fail
    ) -> Verdict {
        guard let failure = run.firstFailure else {
            return .fail("every call returned OK; \(expected.name) was expected (\(source))")
        }
        if failure.status == expected {
            return .pass("\(failure.name) returned \(expected.name), as \(source) says")
        }
        return Verdict(
            otherwise,
            "\(failure.name) returned \(failure.status.name)" + note(failure)
                + "; \(expected.name) was expected (\(source))")
    }

    /// The flow did not succeed: pass (non-strict when `preferred` is given and another status came);
    /// every call OK: fail, saying what the client accepted.
    static func refused(_ run: DriverRun, accepted: String, preferred: StatusCode? = nil) -> Verdict {
        guard let failure = run.firstFailure else {
            return .fail("every call returned OK: the client accepted \(accepted)")
        }
        if let preferred, failure.status != preferred {
            return .nonStrict(
                "\(failure.name) returned \(failure.status.name)" + note(failure)
                    + "; refused, but \(preferred.name) is the status for it")
        }
        return .pass("\(failure.name) returned \(failure.status.name): the client refused \(accepted)")
    }

    /// The driver ran the flow to its end (no crash, no hang): pass, whatever the statuses.
    static func survives(_ run: DriverRun, _ what: String) -> Verdict {
        .pass(
            "the client ran the flow to its end with \(what) (\(run.calls.map(\.description).joined(separator: ", ")))")
    }

    static func note(_ call: DriverCall) -> String {
        guard let message = call.message, !message.isEmpty else { return "" }
        return " (\"\(message.count > 160 ? String(message.prefix(160)) + "…" : message)\")"
    }
}
