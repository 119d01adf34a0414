/// The "MVIDLoginResponseReady" result of `doLogin`: what the document's notification carries in
/// its userInfo.
///
/// It is delivered on `DeviceSecurity.responses`, an `AsyncStream`, once per `doLogin`, before
/// `doLogin` returns (the stream buffers every response until it is read).
public struct LoginResponse: Sendable, Hashable {
    /// `service_result`: the bitwise combination of the results of every call `doLogin` made.
    public var serviceResult: ServiceResult
    /// `has_access`: whether the access identifier was granted (online or from the borrow time).
    public var hasAccess: Bool
    /// `service_res_code`: the service's result code of the last call (see docs/devicesecurity.md; negative codes
    /// come from the device itself: -1 network error, -2 offline grant, -3 no login, -4 excluded
    /// login group, -5 unreadable answer).
    public var serviceResCode: Int
    /// `service_res_msg`: the service's result message of the last call.
    public var serviceResMsg: String
    /// The access identifier that was checked.
    public var accessIdentifier: String

    public init(
        serviceResult: ServiceResult, hasAccess: Bool, serviceResCode: Int, serviceResMsg: String,
        accessIdentifier: String
    ) {
        self.serviceResult = serviceResult
        self.hasAccess = hasAccess
        self.serviceResCode = serviceResCode
        self.serviceResMsg = serviceResMsg
        self.accessIdentifier = accessIdentifier
    }

    /// The notification's userInfo, with the document's keys.
    public var userInfo: [String: String] {
        [
            "service_result": String(serviceResult.rawValue), "has_access": hasAccess ? "1" : "0",
            "service_res_code": String(serviceResCode), "service_res_msg": serviceResMsg,
        ]
    }
}
