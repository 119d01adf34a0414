/// Whose answers the reference backend gives, for the same flows (docs/backend.md, "Profiles").
public enum BackendProfile: String, Sendable, CaseIterable, Hashable {
    /// The workbench's own answers: relative URLs in the client settings, `usePermits`, the
    /// capitalisation the SDK reads, no `WWW-Authenticate`, `{"message"}` on every refusal.
    case `default`
    /// The open-source Milagro server (RPS, D-TAs, demo RPA; docs/protocol.md §13) request for request,
    /// flaws included, derived from its Python and Tornado 4.1 (`OpenSourceServer`): statuses,
    /// reason phrases, header fields in order, bodies.
    case milagroOSS = "milagro-oss"
    /// The backend the C++ SDK core's unit tests were recorded against (its
    /// `tests/unit_tests_recorded_data.json`): an RPS 0.3 with the demo RPA at one origin, the
    /// hosted D-TA's v3 API as the second D-TA (`certivoxURL` ending `/v3/`) and a time-permit
    /// storage that answers 404. Relative URLs, the browser's `/rps/accessnumber` poll, D-TA
    /// answers with `version` "3", 400s with empty bodies (`MilagroHostedV3.swift`).
    case milagroHostedV3 = "milagro-hosted-v3"
}

extension BackendProfile {
    /// Why this profile cannot play `flavour` with `activation`, or nil when it can: the
    /// `milagro-oss` profile is the open-source Milagro server (the milagro flavour, whose demo RPA
    /// has no activation codes), and `milagro-hosted-v3` the RPS and demo RPA of the SDK core's
    /// recording (the milagro flavour, auto or email activation). The one statement of the rule,
    /// for the backend's configuration and for scenario scripts.
    public func problem(flavour: BackendFlavour, activation: ActivationMode) -> String? {
        switch self {
        case .default:
            return nil
        case .milagroOSS where flavour != .milagro:
            return
                "the milagro-oss profile is the open-source Milagro server: it goes with the milagro flavour, not \(flavour.rawValue)"
        case .milagroOSS where activation == .code:
            return "the milagro-oss profile's demo RPA has no activation codes: use the auto or email activation"
        case .milagroOSS:
            return nil
        case .milagroHostedV3 where flavour != .milagro || activation == .code:
            return "the milagro-hosted-v3 profile is the RPS and demo RPA of the SDK core's recording: "
                + "it goes with the milagro flavour and the auto or email activation, not \(flavour.rawValue) with \(activation.rawValue)"
        case .milagroHostedV3:
            return nil
        }
    }
}
