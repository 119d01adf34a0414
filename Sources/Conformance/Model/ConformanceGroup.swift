/// The groups of cases, in the order the report lists them (issue 28's list).
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
        }
    }

    public static func < (a: ConformanceGroup, b: ConformanceGroup) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
