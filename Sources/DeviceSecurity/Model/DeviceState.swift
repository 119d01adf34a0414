/// What the device keeps between logins (the connector's "device-side knowledge about MVID").
///
/// Times are milliseconds since 1970 read from the injected clock; borrow times are whole seconds
/// as the service gives them. The state is stored as JSON (see `DeviceStateStore`).
public struct DeviceState: Sendable, Hashable, Codable {
    /// Layout version of the stored JSON.
    public var version: Int
    /// This device's own id (hex of 16 random bytes), drawn at the first registration and kept
    /// when the registration is released.
    public var deviceID: String?
    /// The device hash the service issued at registration; nil when not registered.
    public var deviceHash: String?
    /// The latest MV session id (from `registerDevice`, refreshed by each granted `applicationLogin`).
    public var mvSessionID: String?
    /// Seconds the device registration may be used offline after the last online `applicationLogin`.
    public var deviceBorrowTime: Int64?
    /// When the service last confirmed the device (registration or online `applicationLogin`).
    public var deviceConfirmedAt: Int64?
    /// Granted applications by access identifier.
    public var applications: [String: ApplicationGrant]
    /// The access identifier of the latest `applicationLogin`.
    public var accessIdentifier: String?

    public init() {
        version = Self.currentVersion
        applications = [:]
    }

    /// The layout version this connector writes and reads.
    public static let currentVersion = 1
    /// The times a stored state may hold: 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in ms.
    public static let timeRange: ClosedRange<Int64> = 0...253_402_300_799_999
    /// The borrow times a stored state may hold: none to a hundred years of 365 days, in seconds.
    public static let borrowTimeRange: ClosedRange<Int64> = 0...3_153_600_000

    /// What is wrong with a stored state's numbers (`field: what`), nil when each is within its range.
    public var problem: String? {
        func time(_ value: Int64?, _ field: String) -> String? {
            guard let value, !Self.timeRange.contains(value) else { return nil }
            return
                "\(field) \(value) is not a time from \(Self.timeRange.lowerBound) to \(Self.timeRange.upperBound) ms since 1970"
        }
        func borrow(_ value: Int64?, _ field: String) -> String? {
            guard let value, !Self.borrowTimeRange.contains(value) else { return nil }
            return
                "\(field) \(value) is not a borrow time from \(Self.borrowTimeRange.lowerBound) to \(Self.borrowTimeRange.upperBound) s"
        }
        if version != Self.currentVersion {
            return "version \(version) is not \(Self.currentVersion), the layout this connector reads"
        }
        if let found = time(deviceConfirmedAt, "deviceConfirmedAt") ?? borrow(deviceBorrowTime, "deviceBorrowTime") {
            return found
        }
        for (name, grant) in applications.sorted(by: { $0.key < $1.key }) {
            if let found = time(grant.grantedAt, "applications.\(name).grantedAt")
                ?? borrow(grant.borrowTime, "applications.\(name).borrowTime")
            {
                return found
            }
        }
        return nil
    }

    /// One application the service granted: when, and for how long it may be borrowed offline.
    public struct ApplicationGrant: Sendable, Hashable, Codable {
        /// When the last online `applicationLogin` of this application was granted.
        public var grantedAt: Int64
        /// Seconds it may be used offline after `grantedAt`.
        public var borrowTime: Int64

        public init(grantedAt: Int64, borrowTime: Int64) {
            self.grantedAt = grantedAt
            self.borrowTime = borrowTime
        }
    }
}
