extension ClientEvent {
    /// One crypto primitive: for the M-Pin SDK `hashID`, `mapToG1`, `randomScalar`, `recombineG1`,
    /// `extractPIN`, `extractFactor`, `restoreFactor`, `client1`, `client2`. Values are lowercase
    /// hex, except integers (PIN scalars, dates) which are decimal; a failed primitive has no outputs.
    public struct CryptoStep: Sendable, Hashable {
        public var primitive: String
        public var inputs: [NamedValue]
        public var outputs: [NamedValue]

        public init(primitive: String, inputs: [NamedValue], outputs: [NamedValue]) {
            self.primitive = primitive
            self.inputs = inputs
            self.outputs = outputs
        }
    }
}
