/// The groups of cases, in the order the report lists them: the backend suite's (issue 28's list),
/// then the client suite's (`conform --client`, issue 35's list; `isClient`).
public enum ConformanceGroup: String, Sendable, CaseIterable, Hashable, Comparable {
    case settings
    case http
    case registration
    case dta
    case permits
    case pass
    case pin
    case access
    case otp
    case logout
    case platform
    case concurrency
    // The client suite's groups.
    case flow
    case activation
    case httpFault = "http-fault"
    case protocolFault = "protocol"
    case random
    case secrets

    /// The heading of the group in reports.
    public var title: String {
        switch self {
        case .settings: "Client settings"
        case .http: "HTTP hygiene"
        case .registration: "Registration and restart"
        case .dta: "D-TAs"
        case .permits: "Time permits"
        case .pass: "Pass 1 and pass 2"
        case .pin: "PIN verdicts and blocking"
        case .access: "Access numbers and the held login"
        case .otp: "OTP"
        case .logout: "Logout"
        case .platform: "MFA platform endpoints"
        case .concurrency: "Concurrency"
        case .flow: "Flows"
        case .activation: "Activation modes"
        case .httpFault: "HTTP faults"
        case .protocolFault: "Protocol faults"
        case .random: "Randomness"
        case .secrets: "Secrets and shares"
        }
    }

    /// Whether the group is the client suite's (`conform --client`).
    public var isClient: Bool {
        switch self {
        case .flow, .activation, .httpFault, .protocolFault, .random, .secrets: true
        default: false
        }
    }

    public static func < (a: ConformanceGroup, b: ConformanceGroup) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
