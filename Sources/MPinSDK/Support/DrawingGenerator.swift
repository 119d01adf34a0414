/// A `RandomNumberGenerator` over a `RandomSource` that remembers what it handed out.
/// Each `next()` draws 8 bytes and reads them as a little-endian UInt64.
struct DrawingGenerator: RandomNumberGenerator {
    let source: any RandomSource
    var drawn: [UInt8] = []

    init(source: any RandomSource) {
        self.source = source
    }

    mutating func next() -> UInt64 {
        let bytes = source.randomBytes(count: 8)
        drawn += bytes
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        return value
    }
}
