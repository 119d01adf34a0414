import GMPOracle

/// What the arithmetic checks ask of a big integer beyond GMP's own operations: AMCL's `BIG`
/// scalars as the XTR ladders and `FP12_compow` handle them (halve, divide with remainder) and as
/// the field and curve code takes them (big-endian bytes). The values here are never negative.
extension GMPInteger {
    /// Big-endian bytes, left-padded with zeros to at least `count` bytes (more when the value needs
    /// more); `[]` for a negative value, which the checks never make.
    func bytes(atLeast count: Int) -> [UInt8] {
        bigEndianBytes(count: Swift.max(count, (bitWidth + 7) / 8)) ?? []
    }

    var isEven: Bool { !isOdd }

    /// ⌊self / 2⌋ (AMCL `BIG_fshr(·, 1)`).
    var halved: GMPInteger { self / GMPInteger(2) }

    /// (⌊self / divisor⌋, self mod divisor) for a non-negative self and a positive divisor.
    func quotientAndRemainder(dividingBy divisor: GMPInteger) -> (quotient: GMPInteger, remainder: GMPInteger) {
        let quotient = self / divisor
        return (quotient, self - quotient * divisor)
    }
}
