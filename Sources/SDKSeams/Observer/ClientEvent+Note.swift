extension ClientEvent {
    /// Something one client reports that the others do not, by name with its values: the
    /// connector's `loginResponse` (a "MVIDLoginResponseReady" result was delivered) and
    /// `storageFailure` (the device state could not be loaded or saved).
    public struct Note: Sendable, Hashable {
        public var name: String
        public var values: [NamedValue]

        public init(name: String, values: [NamedValue]) {
            self.name = name
            self.values = values
        }
    }
}
