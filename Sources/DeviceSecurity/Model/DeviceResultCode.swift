/// Device-side result codes (`service_res_code` values the device sets itself).
public enum DeviceResultCode {
    /// The request got no answer.
    public static let networkError = -1
    /// Access granted offline from the device's stored state.
    public static let offlineGrant = -2
    /// No login could be done: no login provider, or the user cancelled.
    public static let noLogin = -3
    /// The login used a group that is excluded.
    public static let excludedGroup = -4
    /// The service's answer could not be read.
    public static let unreadableAnswer = -5
}
