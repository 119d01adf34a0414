import TestSupport
import Testing

@testable import MPinCrypto

/// The GLV and GLS decompositions (ScalarDecomposition) directly: k ≡ Σ kᵢ·λⁱ (mod r) with
/// |kᵢ| < 16^windows, on edge scalars (0, 1, r - 1, r, r + 1, 2^256 - 1, multiples of r), random
/// ones, and the scalars where a rounding coefficient c_j = ⌊(k·g_j + 2^255) / 2^256⌋ steps up.
struct ScalarDecompositionTests {
    static func small(_ k: UInt64) -> Limbs4 { (k, 0, 0, 0) }

    /// Edge scalars for the curve's r, as 256-bit limbs.
    static func edgeScalars<C: PairingCurve>(_: C.Type) -> [Limbs4] {
        let r = C._r
        let plus = ScalarDecomposition.add
        var out: [Limbs4] = [
            small(0), small(1), small(2), small(15), small(16), Montgomery.subRaw(r, small(1)), r,
            plus(r, small(1)), plus(r, r), plus(plus(r, r), Montgomery.subRaw(r, small(1))),
            (.max, .max, .max, .max), (0, 0, 0, 1 << 63), (0, 1, 0, 0), (0, 0, 1, 0),
            Montgomery.subRaw(r, small(2)),
            (r.0 >> 1 | r.1 << 63, r.1 >> 1 | r.2 << 63, r.2 >> 1 | r.3 << 63, r.3 >> 1),
        ]
        // Seven times r and the largest 256-bit multiple's neighbours: the reduction's last steps.
        var m = r
        for _ in 0..<6 { m = plus(m, r) }
        out += [m, Montgomery.subRaw(m, small(1)), plus(m, small(1))]
        return out
    }

    static func randomScalars(_ seed: UInt64, count: Int) -> [Limbs4] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in (rng.next(), rng.next(), rng.next(), rng.next()) }
    }

    /// ⌊(k·g + 2^255) / 2^256⌋, the rounding coefficient of the decomposition.
    static func coefficient(_ k: Limbs4, _ g: Limbs4) -> Limbs4 {
        let (lo, hi) = Montgomery.mulWide(k, g)
        let (_, carry) = Montgomery.adc(lo.3, 1 << 63, 0)
        return ScalarDecomposition.add(hi, (carry, 0, 0, 0))
    }

    /// The scalars k < r around which the coefficient for multiplier g steps from below c to c
    /// (binary search on the monotone coefficient): the largest k with coefficient < c, and k + 1.
    static func boundary(_ g: Limbs4, reaching c: Limbs4) -> [Limbs4] {
        var k: Limbs4 = (0, 0, 0, 0)
        for bit in stride(from: 255, through: 0, by: -1) {
            var candidate = k
            switch bit >> 6 {
            case 0: candidate.0 |= 1 << UInt64(bit & 63)
            case 1: candidate.1 |= 1 << UInt64(bit & 63)
            case 2: candidate.2 |= 1 << UInt64(bit & 63)
            default: candidate.3 |= 1 << UInt64(bit & 63)
            }
            if Montgomery.less(coefficient(candidate, g), c) { k = candidate }
        }
        return [k, ScalarDecomposition.add(k, small(1))]
    }

    /// Boundary scalars for every multiplier: for coefficients spread over the range that k < r
    /// reaches, the two scalars on each side of the step.
    static func boundaryScalars(multipliers: [Limbs4], order r: Limbs4, seed: UInt64) -> [Limbs4] {
        var rng = SplitMix64(seed: seed)
        var out: [Limbs4] = []
        for g in multipliers {
            let top = coefficient(Montgomery.subRaw(r, small(1)), g)
            var cs: [Limbs4] = [small(1), top]
            for _ in 0..<6 {
                // A random coefficient below the top one: random limbs masked to fewer bits.
                let bits = Montgomery.bitLength(top) - 1
                func keep(_ i: Int) -> UInt64 {
                    let n = max(0, min(64, bits - 64 * i))
                    return n == 64 ? .max : (1 << UInt64(n)) - 1
                }
                let c: Limbs4 = (rng.next() & keep(0), rng.next() & keep(1), rng.next() & keep(2), rng.next() & keep(3))
                cs.append(c)
            }
            for c in cs { out += boundary(g, reaching: c).filter { Montgomery.less($0, r) } }
        }
        return out
    }

    /// Σ kᵢ·λⁱ mod r, from the magnitudes and signs, with Fr arithmetic.
    static func recombine<C: PairingCurve>(_ d: ScalarDecomposition, lambda: Fr<C>) -> Fr<C> {
        var sum = Fr<C>.zero
        var power = Fr<C>.one
        for i in 0..<d.magnitudes.count {
            let magnitude = Fr<C>(reducing: Montgomery.bytes(d.magnitudes[i]))
            sum = sum + (d.negative[i] == 0 ? magnitude : -magnitude) * power
            power = power * lambda
        }
        return sum
    }

    func check<C: PairingCurve>(_ d: ScalarDecomposition, _ k: Limbs4, lambda: Fr<C>, windows: Int, _: C.Type) {
        #expect(
            Self.recombine(d, lambda: lambda) == Fr<C>(reducing: Montgomery.bytes(k)),
            "k = \(Hex.encode(Montgomery.bytes(k)))")
        for i in 0..<d.magnitudes.count {
            #expect(
                Montgomery.bitLength(d.magnitudes[i]) <= 4 * windows,
                "k = \(Hex.encode(Montgomery.bytes(k))), part \(i)")
            #expect(d.negative[i] == 0 || d.negative[i] == .max)
        }
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func decompositionsRecombineToTheScalar(curve: CurveID) {
        switch curve {
        case .bn254cx: checkCurve(BN254CX.self)
        case .bn254: checkCurve(BN254.self)
        }
    }

    func checkCurve<C: PairingCurve>(_: C.Type) {
        let lambda = Fr<C>(reducing: Montgomery.bytes(C._glvLambda))
        let p = Fr<C>(reducing: Montgomery.bytes(C._p))
        #expect(lambda * lambda + lambda + .one == .zero, "λ² + λ + 1 ≡ 0 (mod r)")
        let scalars = Self.edgeScalars(C.self) + Self.randomScalars(14, count: 200)
        let glvScalars = scalars + Self.boundaryScalars(multipliers: C._glvMultipliers, order: C._r, seed: 1)
        let glsScalars = scalars + Self.boundaryScalars(multipliers: C._glsMultipliers, order: C._r, seed: 2)
        #expect(glvScalars.count > scalars.count + 20 && glsScalars.count > scalars.count + 40)
        for k in glvScalars {
            check(ScalarDecomposition.glv(k, curve: C.self), k, lambda: lambda, windows: C._glvWindows, C.self)
        }
        for k in glsScalars {
            check(ScalarDecomposition.gls(k, curve: C.self), k, lambda: p, windows: C._glsWindows, C.self)
        }
        #expect(C._glvWindows == 32 && C._glsWindows == 16, "half- and quarter-length sub-scalars")
    }

    /// The sub-scalars are signed: some scalars give negative parts in every position (else the
    /// sign masks would go untested).
    @Test func partsTakeBothSigns() {
        var negatives = [0, 0, 0, 0], glvNegatives = [0, 0]
        for k in Self.randomScalars(15, count: 64) {
            let d = ScalarDecomposition.gls(k, curve: BN254CX.self)
            for i in 0..<4 where d.negative[i] != 0 { negatives[i] += 1 }
            let e = ScalarDecomposition.glv(k, curve: BN254CX.self)
            for i in 0..<2 where e.negative[i] != 0 { glvNegatives[i] += 1 }
        }
        #expect(negatives.allSatisfy { $0 > 0 && $0 < 64 }, "\(negatives)")
        #expect(glvNegatives.allSatisfy { $0 > 0 && $0 < 64 }, "\(glvNegatives)")
    }
}

/// The signed 5-bit recoding of the decomposed multiplications (JacobianPoint.signedDigits): every
/// part of every decomposition above, and the largest magnitudes the window count allows, come back
/// exactly from their digits, with each digit in [-16, 15], the top one in [0, 15], and digits of
/// both signs and of magnitude 16 among them (else the carry and the table's last entry would go
/// untested).
struct SignedDigitsTests {
    typealias Point = JacobianPoint<Fp<BN254CX>>

    /// Σ dⱼ·32^j as a signed integer (the magnitudes tested fit in 127 bits).
    static func value(_ digits: [(magnitude: UInt64, negative: UInt64)]) -> Int128 {
        var total: Int128 = 0
        for digit in digits.reversed() {
            let d = Int128(digit.magnitude)
            // Wrapping: a partial sum may pass Int128.max on the way (a last digit of -1).
            total = total &* 32 &+ (digit.negative != 0 ? -d : d)
        }
        return total
    }

    func check(_ k: Limbs4, count: Int, seen: inout (negative: Int, sixteen: Int)) {
        let digits = Point.signedDigits(k, count: count)
        #expect(digits.count == count)
        #expect(Self.value(digits) == Int128(k.1) << 64 | Int128(k.0), "digits of \(k)")
        for digit in digits {
            #expect(digit.magnitude <= 16 && (digit.negative == 0 || digit.negative == .max))
            if digit.negative != 0 { seen.negative += 1 }
            if digit.magnitude == 16 { seen.sixteen += 1 }
        }
        #expect(digits[count - 1].negative == 0 && digits[count - 1].magnitude <= 15, "top digit of \(k)")
    }

    @Test(arguments: [CurveID.bn254cx, .bn254]) func partsComeBackFromTheirDigits(curve: CurveID) {
        switch curve {
        case .bn254cx: checkCurve(BN254CX.self)
        case .bn254: checkCurve(BN254.self)
        }
    }

    func checkCurve<C: PairingCurve>(_: C.Type) {
        var seen = (negative: 0, sixteen: 0)
        let scalars =
            ScalarDecompositionTests.edgeScalars(C.self) + ScalarDecompositionTests.randomScalars(16, count: 300)
        for k in scalars {
            for part in ScalarDecomposition.glv(k, curve: C.self).magnitudes {
                check(part, count: C._glvSignedWindows, seen: &seen)
            }
            for part in ScalarDecomposition.gls(k, curve: C.self).magnitudes {
                check(part, count: C._glsSignedWindows, seen: &seen)
            }
        }
        // The largest magnitudes the counts allow, 15·32^(count-1) - 1 (or Int128.max, below it, where
        // that does not fit), and every field 16 (a carry out of each).
        for count in [C._glvSignedWindows, C._glsSignedWindows] {
            let top = 5 * (count - 1) + 4 < 127 ? (Int128(15) << (5 * (count - 1))) - 1 : Int128.max
            let limbs = { (x: Int128) -> Limbs4 in
                (UInt64(truncatingIfNeeded: x), UInt64(truncatingIfNeeded: x >> 64), 0, 0)
            }
            var sixteens: Int128 = 0
            for j in 0..<(count - 1) { sixteens |= Int128(16) << (5 * j) }
            for x in [top, sixteens, sixteens | 15] where x <= top {
                check(limbs(x), count: count, seen: &seen)
            }
        }
        #expect(seen.negative > 100 && seen.sixteen > 10, "negative digits \(seen.negative), sixteens \(seen.sixteen)")
    }

    /// window5 reads the same bits as bit(_:_:), across the limb boundaries too.
    @Test func fiveBitFieldsAreTheBits() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<50 {
            let a: Limbs4 = (rng.next(), rng.next(), rng.next(), rng.next())
            for j in 0..<52 {
                var expected: UInt64 = 0
                for b in 0..<5 where 5 * j + b < 256 { expected |= Montgomery.bit(a, 5 * j + b) << UInt64(b) }
                #expect(Montgomery.window5(a, j) == expected, "field \(j) of \(a)")
            }
        }
    }
}
