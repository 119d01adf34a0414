/// The DeviceSecurity service's result flags (the MVID connector's `ServiceResult` values) and
/// result codes, as it answers them in `result` and `resCode`.
enum DeviceSecurityFlag {
    static let success: Int64 = 1
    static let invalidMVSessionID: Int64 = 2
    static let accessDenied: Int64 = 4
    static let applicationBorrowTimeExpired: Int64 = 8
    static let deviceBorrowTimeExpired: Int64 = 16
    static let serviceFault: Int64 = 32
    static let serviceSuccess: Int64 = 64
}

/// `resCode` values of the service (documented in docs/devicesecurity.md, "DeviceSecurity connector").
enum DeviceSecurityCode {
    static let ok: Int64 = 0
    static let invalidSession: Int64 = 1001
    static let accessDenied: Int64 = 1002
    static let deviceUnknown: Int64 = 1003
    static let loginRefused: Int64 = 1005
    static let badRequest: Int64 = 4000
    static let injectedFault: Int64 = 5000
}

/// An MVID user: credentials, login group and the applications it may use.
struct DeviceSecurityUser: Sendable {
    var password: String
    var group: String
    var applications: Set<String>
}

/// An MV session: whose, and when it was opened.
struct DeviceSecuritySession: Sendable {
    var username: String
    var opened: Int64
}

/// A device mapped to a user: its id, and when the service last confirmed it (registration or
/// application login), the start of its device borrow time.
struct DeviceMapping: Sendable {
    var username: String
    var deviceID: String
    var confirmed: Int64
}

/// A fault armed by the admin hook: the next `count` calls of `operation` (or of every
/// operation, `*`) answer a fault (500) or are delayed by `seconds` before being answered.
struct DeviceSecurityFault: Sendable {
    enum Kind: String, Sendable { case fault, delay }
    var operation: String
    var kind: Kind
    var count: Int
    var seconds: Double
}

/// The service's settings: borrow time of device registrations and lifetime of MV sessions, in seconds.
struct DeviceSecuritySettings: Sendable {
    var deviceBorrowTime: Int64 = 7 * 86_400
    var sessionLifetime: Int64 = 600
    var defaultApplicationBorrowTime: Int64 = 86_400
}
