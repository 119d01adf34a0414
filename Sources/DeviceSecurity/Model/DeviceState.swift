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
        version = 1
        applications = [:]
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
