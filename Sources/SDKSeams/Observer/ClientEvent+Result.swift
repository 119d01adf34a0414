extension ClientEvent {
    /// How an API call ended: its status, the state of its user and what it returned.
    public struct Result: Sendable, Hashable {
        public var name: String
        public var status: Status
        /// The state of the call's user afterwards (the M-Pin SDK's `UserState` raw value, e.g.
        /// `REGISTERED`), for calls that take a user; nil otherwise.
        public var userState: String?
        /// Values the call returned or left behind, in a fixed order (authResultData, the OTP, an
        /// access code; the connector's `serviceResult`, `resCode`, `hasAccess`, `deviceHash`, ...).
        public var outputs: [NamedValue]

        public init(name: String, status: Status, userState: String? = nil, outputs: [NamedValue]) {
            self.name = name
            self.status = status
            self.userState = userState
            self.outputs = outputs
        }
    }

    /// A call's status as text: the code's name and a message.
    ///
    /// The M-Pin SDK gives the Milagro status name (`OK`, `INCORRECT_PIN`) and its message; the
    /// connector gives the `ServiceResult` flag names (`Success|ServiceSuccess`) and the result
    /// message for the calls that ask the service, `OK` and an empty message for the others.
    public struct Status: Sendable, Hashable, CustomStringConvertible {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }

        public var description: String { "\(code): \(message)" }
    }
}
