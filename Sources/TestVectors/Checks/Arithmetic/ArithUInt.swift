/// A small unsigned big integer for the arithmetic vectors: AMCL's `BIG` scalars as the XTR ladders
/// and `FP12_compow` handle them (compare, subtract, halve, divide). Speed does not matter here.
struct ArithUInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Little-endian 64-bit limbs without high zero limbs (zero is `[]`).
    private(set) var limbs: [UInt64]

    init(_ value: UInt64) {
        limbs = value == 0 ? [] : [value]
    }

    /// A big-endian integer of any length.
    init(bytes: [UInt8]) {
        var limbs: [UInt64] = []
        var limb: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes.reversed() {
            limb |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                limbs.append(limb)
                limb = 0
                shift = 0
            }
        }
        if shift > 0 { limbs.append(limb) }
        self.init(limbs: limbs)
    }

    /// Hex digits (any case, any length, at least one digit); nil for anything else.
    init?(hex text: some StringProtocol) {
        var nibbles: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9": nibbles.append(UInt8(scalar.value - 48))
            case "a"..."f": nibbles.append(UInt8(scalar.value - 87))
            case "A"..."F": nibbles.append(UInt8(scalar.value - 55))
            default: return nil
            }
        }
        guard !nibbles.isEmpty else { return nil }
        if nibbles.count % 2 == 1 { nibbles.insert(0, at: 0) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(nibbles.count / 2)
        var index = 0
        while index < nibbles.count {
            bytes.append(nibbles[index] << 4 | nibbles[index + 1])
            index += 2
        }
        self.init(bytes: bytes)
    }

    private init(limbs: [UInt64]) {
        var limbs = limbs
        while limbs.last == 0 { limbs.removeLast() }
        self.limbs = limbs
    }

    /// Minimal big-endian bytes (`[]` for zero).
    var bytes: [UInt8] {
        var out: [UInt8] = []
        for limb in limbs.reversed() {
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
            }
        }
        return Array(out.drop(while: { $0 == 0 }))
    }

    /// Big-endian bytes, left-padded with zeros to at least `count` bytes.
    func bytes(atLeast count: Int) -> [UInt8] {
        let minimal = bytes
        return minimal.count >= count ? minimal : [UInt8](repeating: 0, count: count - minimal.count) + minimal
    }

    var isZero: Bool { limbs.isEmpty }
    var isOdd: Bool { (limbs.first ?? 0) & 1 == 1 }
    var isEven: Bool { !isOdd }

    /// Number of significant bits (0 for zero).
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 64 - top.leadingZeroBitCount
    }

    /// Bit `index` (0 = least significant).
    func bit(_ index: Int) -> Bool {
        let limb = index / 64
        guard limb < limbs.count else { return false }
        return (limbs[limb] >> UInt64(index % 64)) & 1 == 1
    }

    /// AMCL-style hex (upper case, whole bytes, no leading zero bytes, `00` for zero).
    var description: String { ArithNotation.hex(bytes) }

    static func < (a: ArithUInt, b: ArithUInt) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for index in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[index] != b.limbs[index] {
            return a.limbs[index] < b.limbs[index]
        }
        return false
    }

    static func + (a: ArithUInt, b: ArithUInt) -> ArithUInt {
        var out: [UInt64] = []
        var carry: UInt64 = 0
        for index in 0..<max(a.limbs.count, b.limbs.count) {
            let x = index < a.limbs.count ? a.limbs[index] : 0
            let y = index < b.limbs.count ? b.limbs[index] : 0
            let (s1, o1) = x.addingReportingOverflow(y)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            out.append(s2)
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        if carry > 0 { out.append(carry) }
        return ArithUInt(limbs: out)
    }

    /// a − b; a must be at least b.
    static func - (a: ArithUInt, b: ArithUInt) -> ArithUInt {
        precondition(!(a < b), "ArithUInt subtraction below zero")
        var out: [UInt64] = []
        var borrow: UInt64 = 0
        for index in 0..<a.limbs.count {
            let y = index < b.limbs.count ? b.limbs[index] : 0
            let (d1, o1) = a.limbs[index].subtractingReportingOverflow(y)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            out.append(d2)
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        return ArithUInt(limbs: out)
    }

    /// a · k for a small k.
    static func * (a: ArithUInt, k: UInt64) -> ArithUInt {
        var out: [UInt64] = []
        var carry: UInt64 = 0
        for limb in a.limbs {
            let (high, low) = limb.multipliedFullWidth(by: k)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            out.append(sum)
            carry = high + (overflow ? 1 : 0)
        }
        if carry > 0 { out.append(carry) }
        return ArithUInt(limbs: out)
    }

    /// a >> 1.
    var halved: ArithUInt {
        var out = limbs
        for index in 0..<out.count {
            let next = index + 1 < out.count ? out[index + 1] : 0
            out[index] = out[index] >> 1 | next << 63
        }
        return ArithUInt(limbs: out)
    }

    /// 2a + (low ? 1 : 0).
    private func doubled(plus low: Bool) -> ArithUInt {
        var out: [UInt64] = []
        var carry: UInt64 = low ? 1 : 0
        for limb in limbs {
            out.append(limb << 1 | carry)
            carry = limb >> 63
        }
        if carry > 0 { out.append(carry) }
        return ArithUInt(limbs: out)
    }

    /// (self / divisor, self mod divisor) by schoolbook binary division; divisor must not be zero.
    func quotientAndRemainder(dividingBy divisor: ArithUInt) -> (quotient: ArithUInt, remainder: ArithUInt) {
        precondition(!divisor.isZero, "ArithUInt division by zero")
        var quotientLimbs = [UInt64](repeating: 0, count: limbs.count)
        var remainder = ArithUInt(0)
        for index in stride(from: bitWidth - 1, through: 0, by: -1) {
            remainder = remainder.doubled(plus: bit(index))
            if !(remainder < divisor) {
                remainder = remainder - divisor
                quotientLimbs[index / 64] |= 1 << UInt64(index % 64)
            }
        }
        return (ArithUInt(limbs: quotientLimbs), remainder)
    }
}
