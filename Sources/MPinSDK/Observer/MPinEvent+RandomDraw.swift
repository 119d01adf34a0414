extension MPinEvent {
    /// Random bytes drawn for a purpose (e.g. `x` for the pass-1 scalar).
    public struct RandomDraw: Sendable, Hashable {
        public var purpose: String
        public var bytes: [UInt8]

        public init(purpose: String, bytes: [UInt8]) {
            self.purpose = purpose
            self.bytes = bytes
        }
    }
}
