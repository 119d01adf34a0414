extension ClientEvent {
    /// An API call as made: its name (the Swift method, e.g. `finishAuthenticationAN`,
    /// `applicationLogin`) and its arguments in order (a user is given by its id).
    public struct Call: Sendable, Hashable {
        public var name: String
        public var arguments: [NamedValue]

        public init(name: String, arguments: [NamedValue]) {
            self.name = name
            self.arguments = arguments
        }
    }
}
