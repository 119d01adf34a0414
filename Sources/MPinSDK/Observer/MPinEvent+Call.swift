extension MPinEvent {
    /// An API call as made: its name (the Swift method, e.g. `finishAuthenticationAN`) and arguments.
    public struct Call: Sendable, Hashable {
        public var name: String
        /// The arguments in order; a user is given by its id.
        public var arguments: [NamedValue]

        public init(name: String, arguments: [NamedValue]) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// How an API call ended.
    public struct Result: Sendable, Hashable {
        public var name: String
        public var status: MPinStatus
        /// The state of the call's user afterwards, for calls that take a user.
        public var userState: UserState?
        /// Values the call returned (authResultData, the OTP, an access code, ...).
        public var outputs: [NamedValue]

        public init(name: String, status: MPinStatus, userState: UserState?, outputs: [NamedValue]) {
            self.name = name
            self.status = status
            self.userState = userState
            self.outputs = outputs
        }
    }
}
