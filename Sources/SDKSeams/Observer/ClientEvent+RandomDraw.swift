extension ClientEvent {
    /// Random bytes drawn for a purpose (`x` for the SDK's pass-1 scalar, `deviceId` for the
    /// connector's device id).
    public struct RandomDraw: Sendable, Hashable {
        public var purpose: String
        public var bytes: [UInt8]

        public init(purpose: String, bytes: [UInt8]) {
            self.purpose = purpose
            self.bytes = bytes
        }
    }
}
