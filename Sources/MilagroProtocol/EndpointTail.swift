/// What may follow an endpoint's path in a request's path: the segments after the path's own.
public enum EndpointTail: Sendable, Hashable {
    /// Nothing: the path itself (`/rps/pass1`).
    case none
    /// One segment, the M-Pin ID in hex (`/rps/signature/<mpinId>`).
    case id
    /// Nothing or one segment, an M-Pin ID (the registration, `/rps/user[/<mpinId>]`).
    case optionalID
    /// One segment, the operation (a D-TA's `<base><operation>`, `/admin/<operation>`).
    case operation
    /// Any number of segments, none included (the time-permit storages, the DeviceSecurity service).
    case subtree
}
