/// Details of a browser session, from `getSessionDetails(accessCode:)` (docs/protocol.md §3.7).
public struct SessionDetails: Sendable, Hashable {
    /// The user id the browser session proposes, or empty.
    public var prerollID = ""
    public var appName = ""
    public var appIconURL = ""
    public var customerID = ""
    public var customerName = ""
    public var customerIconURL = ""

    public init(
        prerollID: String = "", appName: String = "", appIconURL: String = "", customerID: String = "",
        customerName: String = "", customerIconURL: String = ""
    ) {
        self.prerollID = prerollID
        self.appName = appName
        self.appIconURL = appIconURL
        self.customerID = customerID
        self.customerName = customerName
        self.customerIconURL = customerIconURL
    }
}
