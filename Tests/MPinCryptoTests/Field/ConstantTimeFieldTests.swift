import TestSupport
import Testing

@testable import MPinCrypto

/// The branch-free limb helpers and the constant-time GT power against plain references.
struct ConstantTimeFieldTests {
    typealias F = Fp<BN254CX>

    @Test func masksAndSelection() {
        #expect(Montgomery.mask(1) == .max && Montgomery.mask(0) == 0)
        for w: UInt64 in [0, 1, 2, 1 << 63, .max, 0x8000_0000] {
            #expect(Montgomery.zeroMask(w) == (w == 0 ? .max : 0), "w = \(w)")
        }
        let a: Limbs4 = (1, 2, 3, 4), b: Limbs4 = (5, 6, 7, 8)
        #expect(Montgomery.zeroMask((0, 0, 0, 0)) == .max && Montgomery.zeroMask((0, 0, 0, 1)) == 0)
        #expect(Montgomery.equalMask(a, a) == .max && Montgomery.equalMask(a, b) == 0)
        #expect(Montgomery.equalMask(a, (1, 2, 3, 5)) == 0)
        #expect(Montgomery.select(a, b, .max) == b && Montgomery.select(a, b, 0) == a)
        for w in 0..<64 {
            let k: Limbs4 = (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 0x8796_A5B4_C3D2_E1F0)
            var expected: UInt64 = 0
            for bit in 0..<4 { expected |= Montgomery.bit(k, 4 * w + bit) << UInt64(bit) }
            #expect(Montgomery.window(k, w) == expected, "window \(w)")
        }
    }

    @Test func negationAndHalvingWithoutBranches() {
        var rng = SplitMix64(seed: 31)
        let values = [F.zero, .one, -F.one, F(2)] + (0..<20).map { _ in F(reducing: rng.bytes(32)) }
        for x in values {
            #expect(x + (-x) == .zero)
            #expect((-x).isZero == x.isZero)
            #expect(x.halved().doubled() == x)
            #expect(x.zeroMask == (x.isZero ? .max : 0))
        }
        #expect((-F.zero).v == F.zero.v, "-0 is 0, not p")
        #expect(F.select(.one, F(2), mask: .max) == F(2) && F.select(.one, F(2), mask: 0) == .one)
    }

    /// x mod m by repeated subtraction (the reduction's former algorithm, branching on x).
    static func reference(_ x: Limbs4, _ m: Limbs4) -> Limbs4 {
        var c = x
        while !Montgomery.less(c, m) { c = Montgomery.subRaw(c, m) }
        return c
    }

    @Test func reductionOfAnyChunkTakesSevenSubtractions() {
        var rng = SplitMix64(seed: 32)
        var inputs: [[UInt8]] = [
            [UInt8](repeating: 0xFF, count: 32), [UInt8](repeating: 0xFF, count: 64), [], [1],
            Fr<BN254CX>.modulusBytes, F.modulusBytes, [UInt8](repeating: 0, count: 31) + [0xFF],
        ]
        inputs += (0..<20).map { i in rng.bytes(i < 10 ? 32 : 33 + i) }
        for bytes in inputs {
            for (m, inv, r2) in [
                (BN254CX._p, BN254CX._pInv, BN254CX._pR2), (BN254CX._r, BN254CX._rInv, BN254CX._rR2),
                (BN254._p, BN254._pInv, BN254._pR2), (BN254._r, BN254._rInv, BN254._rR2),
            ] {
                // The reference, on canonical integers: acc = acc·2^256 + chunk (mod m), each chunk
                // reduced by the branching subtraction; mul(acc, R²) is acc·R = acc·2^256 mod m.
                let padded = [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32) + bytes
                var acc: Limbs4 = (0, 0, 0, 0)
                var offset = 0
                while offset < padded.count {
                    let chunk = Self.reference(Montgomery.limbs(bigEndian: padded[offset..<offset + 32]), m)
                    acc = offset == 0 ? chunk : Montgomery.add(Montgomery.mul(acc, r2, m, inv), chunk, m)
                    offset += 32
                }
                let got = Montgomery.mul(
                    Montgomery.reduceToMontgomery(bigEndian: bytes, m, inv, r2), (1, 0, 0, 0), m, inv)
                #expect(got == acc, "\(Hex.encode(bytes))")
            }
        }
    }

    /// x^e by the former variable-time window (skips leading and zero digits), for bit-exactness on
    /// any input, unitary or not.
    static func previousUnitaryPower<C: PairingCurve>(_ x: Fp12<C>, _ e: Limbs4) -> Fp12<C> {
        var table = [Fp12<C>](repeating: .one, count: 16)
        table[1] = x
        for i in 2..<16 { table[i] = table[i - 1] * x }
        let n = Montgomery.bitLength(e)
        if n == 0 { return .one }
        let windows = (n + 3) / 4
        var result = Fp12<C>.one
        var w = windows - 1
        while w >= 0 {
            if w != windows - 1 { result = result.unitarySquared().unitarySquared().unitarySquared().unitarySquared() }
            let digit = Int(Montgomery.window(e, w))
            if digit != 0 { result = result * table[digit] }
            w -= 1
        }
        return result
    }

    @Test func gtPowerIsBitExact() {
        typealias C = BN254CX
        let gt = Pairing<C>.pair(.generator, .generator)
        var rng = SplitMix64(seed: 33)
        let notUnitary = Fp12<C>(bytes: rng.bytes(384).enumerated().map { $0.offset % 32 == 0 ? 0 : $0.element })!
        let r = C._r
        var exponents: [Limbs4] = [
            (0, 0, 0, 0), (1, 0, 0, 0), (15, 0, 0, 0), (16, 0, 0, 0), r,
            Montgomery.subRaw(r, (1, 0, 0, 0)), (.max, .max, .max, .max), (0, 0, 0, 1 << 60),
            (1, 0, 0, 1 << 60), (0, 0xF000, 0, 0),
        ]
        exponents += (0..<8).map { _ in Montgomery.limbs(bigEndian: rng.bytes(32)[...]) }
        for e in exponents {
            let bytes = Montgomery.bytes(e)
            #expect(gt.unitaryPower(bytes) == gt.power(bytes), "e = \(Hex.encode(bytes))")
            #expect(gt.unitaryPower(limbs: e) == Self.previousUnitaryPower(gt, e))
            #expect(notUnitary.unitaryPower(limbs: e) == Self.previousUnitaryPower(notUnitary, e))
        }
        #expect(gt.unitaryPower(Montgomery.bytes(r)).isOne)
        for pin: UInt64 in [0, 1, 1234, 9999, 16383] {
            #expect(
                gt.unitaryPower(limbs: (pin, 0, 0, 0), bits: MPin.pinBits) == gt.unitaryPower(limbs: (pin, 0, 0, 0)))
        }
    }
}
