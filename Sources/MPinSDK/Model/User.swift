import Synchronization

/// An end user of M-Pin authentication on this device (the C++ `MPinSDK::User`).
///
/// A reference: the SDK updates the object it handed out (state, M-Pin ID, ...), as the C++
/// `UserPtr` does. Only the SDK changes it; reading from any task is safe.
public final class User: Sendable, CustomStringConvertible {
    /// Everything the SDK keeps about a user. Secrets (`regOTT`, `token`, the client-secret and
    /// time-permit shares) never leave the module.
    struct Record: Sendable, Hashable {
        var state: UserState = .invalid
        var backend = ""
        var mpinIDHex = ""
        var customerID = ""
        var appID = ""
        var regOTT = ""
        var accessCode = ""
        var token = ""
        /// Client-secret shares from ConfirmRegistration, kept in memory only.
        var clientSecret1: [UInt8]?
        var clientSecret2: [UInt8]?
        /// Time-permit share 1 and its day from StartAuthentication, memory only.
        var timePermit1: [UInt8]?
        var timePermitDate: UInt32 = 0
        /// The cached time-permit share 2 and its day (persisted).
        var timePermitCacheDate: UInt32 = 0
        var timePermitCache: [UInt8] = []
        /// Logout data from an access-number login.
        var logoutData = ""
        var logoutURL = ""
    }

    public let id: String
    public let deviceName: String
    private let storedRecord: Mutex<Record>

    init(id: String, deviceName: String, record: Record = Record()) {
        self.id = id
        self.deviceName = deviceName
        self.storedRecord = Mutex(record)
    }

    var record: Record {
        get { storedRecord.withLock { $0 } }
        set { storedRecord.withLock { $0 = newValue } }
    }

    func update(_ change: (inout Record) -> Void) {
        storedRecord.withLock { change(&$0) }
    }

    public var state: UserState { record.state }
    /// The backend key (URL without scheme and trailing `/`) the user was registered with; empty before.
    public var backend: String { record.backend }
    /// The M-Pin ID issued by the server, as hex; empty before registration.
    public var mpinID: String { record.mpinIDHex }
    /// MFA platform: the customer the registration belongs to; empty otherwise.
    public var customerID: String { record.customerID }
    /// MFA platform: the application the registration belongs to; empty otherwise.
    public var appID: String { record.appID }

    public var description: String { "\(id) [\(state)]" + (backend.isEmpty ? "" : " @\(backend)") }
}
