extension ClientEvent {
    /// A clock reading for a purpose, in milliseconds since 1970.
    public struct ClockRead: Sendable, Hashable {
        public var purpose: String
        public var milliseconds: Int64

        public init(purpose: String, milliseconds: Int64) {
            self.purpose = purpose
            self.milliseconds = milliseconds
        }
    }
}
