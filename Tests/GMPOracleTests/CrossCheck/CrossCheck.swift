import GMPOracle
import MPinCrypto
import TestSupport

/// One disagreement between the GMP oracle and `MPinCrypto`.
struct Mismatch: CustomStringConvertible {
    let curve: String
    let index: Int
    let operation: String
    let inputs: [(name: String, value: String)]
    let oracle: String
    let crypto: String

    var description: String {
        let arguments = inputs.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        return "[\(curve) #\(index)] \(operation)(\(arguments)): oracle=\(oracle) MPinCrypto=\(crypto)"
    }
}

/// How many operations of each kind one run compares, per curve.
struct CrossCheckPlan {
    var fpAdd = 300, fpSub = 300, fpNeg = 200, fpMul = 3000, fpSquare = 1200, fpInverse = 800
    var fpSqrt = 800, fpPow = 600
    var frAdd = 200, frSub = 200, frNeg = 100, frMul = 1500, frSquare = 400, frInverse = 400, frPow = 300
    var g1Add = 1500, g1Double = 800, g1Negate = 200, g1Subtract = 300, g1Mul = 500, g1Encoding = 300

    /// The plan of the full property test (about 16,600 operations per curve, plus the input conversions).
    static let full = CrossCheckPlan()

    /// A few of each, for the fault-injection test.
    static let small = CrossCheckPlan(
        fpAdd: 5, fpSub: 5, fpNeg: 5, fpMul: 5, fpSquare: 5, fpInverse: 5, fpSqrt: 5, fpPow: 5,
        frAdd: 5, frSub: 5, frNeg: 5, frMul: 5, frSquare: 5, frInverse: 5, frPow: 5,
        g1Add: 5, g1Double: 5, g1Negate: 5, g1Subtract: 5, g1Mul: 3, g1Encoding: 5)
}

/// Runs random operations through both the GMP oracle and `MPinCrypto`'s generic public API on
/// the curve `C` and records every disagreement. Inputs come from a seeded SplitMix64, so a run
/// is reproducible from its seed. Values are compared as their canonical encodings
/// (32-byte big-endian field elements, 65-byte `04‖x‖y` points, `O` for infinity, `nil`).
///
/// `faultAt` corrupts the oracle's answer of comparison number `faultAt` on purpose, to show that
/// a wrong value is reported.
struct CrossCheck<C: PairingCurve> {
    let oracle: GMPCurve
    private var rng: SplitMix64
    private let faultAt: Int?
    private(set) var comparisons = 0
    /// Comparisons made while building inputs (reductions, point construction), a subset of
    /// `comparisons`; the rest are the operations under test.
    private(set) var inputComparisons = 0
    private(set) var perOperation: [String: Int] = [:]
    private(set) var mismatches: [Mismatch] = []

    init(seed: UInt64, faultAt: Int? = nil) {
        switch C.id {
        case .bn254cx: oracle = .bn254cx
        case .bn254: oracle = .bn254
        }
        rng = SplitMix64(seed: seed)
        self.faultAt = faultAt
    }

    private var fp: GMPField { oracle.field }
    private var fr: GMPField { oracle.scalarField }

    // MARK: - Comparison

    /// Compares one result and records a mismatch with the operation, its inputs and both outputs.
    private mutating func compare(
        _ operation: String, _ inputs: [(name: String, value: String)],
        oracle expected: String, crypto actual: String, isInput: Bool = false
    ) {
        var expected = expected
        if isInput { inputComparisons += 1 }
        if comparisons == faultAt { expected = Self.corrupted(expected) }
        perOperation[operation, default: 0] += 1
        if expected != actual {
            mismatches.append(
                Mismatch(
                    curve: oracle.name, index: comparisons, operation: operation,
                    inputs: inputs, oracle: expected, crypto: actual))
        }
        comparisons += 1
    }

    /// A different value of the same shape: the last hexadecimal digit changed.
    private static func corrupted(_ value: String) -> String {
        guard let last = value.last, last.isHexDigit else { return value + "0" }
        return String(value.dropLast()) + (last == "0" ? "1" : "0")
    }

    private func hex(_ x: GMPInteger, in field: GMPField) -> String { Hex.encode(field.bytes(x)) }
    private func hex(_ x: Fp<C>) -> String { Hex.encode(x.bytes) }
    private func hex(_ x: Fr<C>) -> String { Hex.encode(x.bytes) }
    private func hex(_ point: GMPPoint) -> String {
        point.isInfinity ? "O" : Hex.encode(oracle.encode(point))
    }
    private func hex(_ point: G1Point<C>) -> String {
        point.isInfinity ? "O" : Hex.encode(point.encoded())
    }

    // MARK: - Inputs

    /// A random element as a pair (MPinCrypto value, oracle value); 1 in 16 is an edge value
    /// (0, 1, 2, m − 1, m − 2). Building the pair compares `init(reducing:)` or `init?(bytes:)`.
    private mutating func fpPair(allowZero: Bool = true) -> (Fp<C>, GMPInteger) {
        if rng.next() % 16 == 0 {
            let edges = [0, 1, 2, -1, -2].filter { allowZero || $0 != 0 }
            let x = fp.element(GMPInteger(edges[Int(rng.next() % UInt64(edges.count))]))
            let bytes = fp.bytes(x)
            guard let value = Fp<C>(bytes: bytes) else {
                compare(
                    "Fp.init(bytes:)", [("bytes", Hex.encode(bytes))], oracle: hex(x, in: fp), crypto: "nil",
                    isInput: true)
                return (Fp<C>(reducing: bytes), x)
            }
            return (value, x)
        }
        while true {
            let bytes = rng.bytes(Int(rng.next() % 3 == 0 ? 64 : 32))
            let x = fp.reducing(bytes: bytes)
            let value = Fp<C>(reducing: bytes)
            compare(
                "Fp.init(reducing:)", [("bytes", Hex.encode(bytes))], oracle: hex(x, in: fp), crypto: hex(value),
                isInput: true)
            if allowZero || !x.isZero { return (value, x) }
        }
    }

    /// As `fpPair` for the scalar field.
    private mutating func frPair() -> (Fr<C>, GMPInteger) {
        if rng.next() % 16 == 0 {
            let edges = [0, 1, 2, -1, -2]
            let x = fr.element(GMPInteger(edges[Int(rng.next() % UInt64(edges.count))]))
            let bytes = fr.bytes(x)
            guard let value = Fr<C>(bytes: bytes) else {
                compare(
                    "Fr.init(bytes:)", [("bytes", Hex.encode(bytes))], oracle: hex(x, in: fr), crypto: "nil",
                    isInput: true)
                return (Fr<C>(reducing: bytes), x)
            }
            return (value, x)
        }
        let bytes = rng.bytes(Int(rng.next() % 3 == 0 ? 64 : 32))
        let x = fr.reducing(bytes: bytes)
        let value = Fr<C>(reducing: bytes)
        compare(
            "Fr.init(reducing:)", [("bytes", Hex.encode(bytes))], oracle: hex(x, in: fr), crypto: hex(value),
            isInput: true)
        return (value, x)
    }

    /// Byte strings at the edge of canonical encodings: 0, 1, m − 1, m, m + 1, 2²⁵⁶ − 1, and
    /// lengths 0, 31 and 33.
    private func edgeEncodings(of field: GMPField) -> [[UInt8]] {
        let one = GMPInteger(1), m = field.modulus
        return [GMPInteger(0), one, m - one, m, m + one].map { $0.bigEndianBytes()! }
            + [
                [UInt8](repeating: 0xFF, count: 32), [], [UInt8](repeating: 0, count: 31),
                [0] + (m - one).bigEndianBytes()!,
            ]
    }

    /// An exponent: random big-endian bytes of length 1…64, or an edge value (0, 1, m − 1, (m − 1)/2).
    private mutating func exponent(for field: GMPField) -> [UInt8] {
        let one = GMPInteger(1)
        switch rng.next() % 16 {
        case 0: return [0]
        case 1: return [1]
        case 2: return (field.modulus - one).bigEndianBytes()!
        case 3: return ((field.modulus - one) / GMPInteger(2)).bigEndianBytes()!
        default: return rng.bytes(1 + Int(rng.next() % 64))
        }
    }

    /// A random point by try-and-increment on the oracle side (x random, x += 1 until x³ + 2 is
    /// a square, random sign of y), built on the MPinCrypto side with `init?(x:y:)`.
    private mutating func pointPair() -> (G1Point<C>, GMPPoint) {
        var x = fp.reducing(bytes: rng.bytes(32))
        while !fp.isSquare(oracle.rightHandSide(x)) { x = fp.add(x, GMPInteger(1)) }
        var y = fp.squareRoot(oracle.rightHandSide(x))!
        if rng.next() & 1 == 1 { y = fp.negate(y) }
        let expected = GMPPoint.affine(x: x, y: y)
        let point = G1Point<C>(x: Fp<C>(bytes: fp.bytes(x))!, y: Fp<C>(bytes: fp.bytes(y))!)
        compare(
            "G1.init(x:y:)", [("x", hex(x, in: fp)), ("y", hex(y, in: fp))],
            oracle: hex(expected), crypto: point.map(hex) ?? "nil", isInput: true)
        return (point ?? .infinity, expected)
    }

    // MARK: - Runs

    /// Base field: reduce, add, sub, negate, mul, square, inverse, sqrt and isSquare, pow.
    mutating func runFp(_ plan: CrossCheckPlan) {
        for bytes in edgeEncodings(of: fp) {
            compare(
                "Fp.init(bytes:)", [("bytes", Hex.encode(bytes))],
                oracle: fp.element(bytes: bytes).map { hex($0, in: fp) } ?? "nil",
                crypto: Fp<C>(bytes: bytes).map(hex) ?? "nil")
        }
        for _ in 0..<plan.fpAdd {
            let (a, ga) = fpPair(), (b, gb) = fpPair()
            compare("Fp.add", [("a", hex(a)), ("b", hex(b))], oracle: hex(fp.add(ga, gb), in: fp), crypto: hex(a + b))
        }
        for _ in 0..<plan.fpSub {
            let (a, ga) = fpPair(), (b, gb) = fpPair()
            compare(
                "Fp.sub", [("a", hex(a)), ("b", hex(b))], oracle: hex(fp.subtract(ga, gb), in: fp), crypto: hex(a - b))
        }
        for _ in 0..<plan.fpNeg {
            let (a, ga) = fpPair()
            compare("Fp.negate", [("a", hex(a))], oracle: hex(fp.negate(ga), in: fp), crypto: hex(-a))
        }
        for _ in 0..<plan.fpMul {
            let (a, ga) = fpPair(), (b, gb) = fpPair()
            compare(
                "Fp.mul", [("a", hex(a)), ("b", hex(b))], oracle: hex(fp.multiply(ga, gb), in: fp), crypto: hex(a * b))
        }
        for _ in 0..<plan.fpSquare {
            let (a, ga) = fpPair()
            compare("Fp.square", [("a", hex(a))], oracle: hex(fp.square(ga), in: fp), crypto: hex(a.squared()))
        }
        for _ in 0..<plan.fpInverse {
            let (a, ga) = fpPair()
            compare(
                "Fp.inverse", [("a", hex(a))],
                oracle: fp.inverse(ga).map { hex($0, in: fp) } ?? "nil", crypto: a.inverse().map(hex) ?? "nil")
        }
        for index in 0..<plan.fpSqrt {
            // Half random elements (about half of them squares), half known squares. Zero is left
            // out: the contract does not say whether √0 is 0 or nil.
            var (a, ga) = fpPair(allowZero: false)
            if index & 1 == 1 { (a, ga) = (a.squared(), fp.square(ga)) }
            compare("Fp.isSquare", [("a", hex(a))], oracle: String(fp.isSquare(ga)), crypto: String(a.isSquare))
            compare(
                "Fp.sqrt", [("a", hex(a))],
                oracle: fp.squareRoot(ga).map { hex($0, in: fp) } ?? "nil", crypto: a.squareRoot().map(hex) ?? "nil")
        }
        for _ in 0..<plan.fpPow {
            let (a, ga) = fpPair(), e = exponent(for: fp)
            compare(
                "Fp.pow", [("a", hex(a)), ("e", Hex.encode(e))],
                oracle: hex(fp.power(ga, exponent: e), in: fp), crypto: hex(a.power(e)))
        }
    }

    /// Scalar field: reduce, add, sub, negate, mul, square, inverse, pow.
    mutating func runFr(_ plan: CrossCheckPlan) {
        for bytes in edgeEncodings(of: fr) {
            compare(
                "Fr.init(bytes:)", [("bytes", Hex.encode(bytes))],
                oracle: fr.element(bytes: bytes).map { hex($0, in: fr) } ?? "nil",
                crypto: Fr<C>(bytes: bytes).map(hex) ?? "nil")
        }
        for _ in 0..<plan.frAdd {
            let (a, ga) = frPair(), (b, gb) = frPair()
            compare("Fr.add", [("a", hex(a)), ("b", hex(b))], oracle: hex(fr.add(ga, gb), in: fr), crypto: hex(a + b))
        }
        for _ in 0..<plan.frSub {
            let (a, ga) = frPair(), (b, gb) = frPair()
            compare(
                "Fr.sub", [("a", hex(a)), ("b", hex(b))], oracle: hex(fr.subtract(ga, gb), in: fr), crypto: hex(a - b))
        }
        for _ in 0..<plan.frNeg {
            let (a, ga) = frPair()
            compare("Fr.negate", [("a", hex(a))], oracle: hex(fr.negate(ga), in: fr), crypto: hex(-a))
        }
        for _ in 0..<plan.frMul {
            let (a, ga) = frPair(), (b, gb) = frPair()
            compare(
                "Fr.mul", [("a", hex(a)), ("b", hex(b))], oracle: hex(fr.multiply(ga, gb), in: fr), crypto: hex(a * b))
        }
        for _ in 0..<plan.frSquare {
            let (a, ga) = frPair()
            compare("Fr.square", [("a", hex(a))], oracle: hex(fr.square(ga), in: fr), crypto: hex(a.squared()))
        }
        for _ in 0..<plan.frInverse {
            let (a, ga) = frPair()
            compare(
                "Fr.inverse", [("a", hex(a))],
                oracle: fr.inverse(ga).map { hex($0, in: fr) } ?? "nil", crypto: a.inverse().map(hex) ?? "nil")
        }
        for _ in 0..<plan.frPow {
            let (a, ga) = frPair(), e = exponent(for: fr)
            compare(
                "Fr.pow", [("a", hex(a)), ("e", Hex.encode(e))],
                oracle: hex(fr.power(ga, exponent: e), in: fr), crypto: hex(a.power(e)))
        }
    }

    /// G1: constants, on-curve checks, add (including P + P, P + (−P), P + O), double, negate,
    /// subtract, scalar mul (random and edge scalars), encode and decode.
    mutating func runG1(_ plan: CrossCheckPlan) {
        let generator = G1Point<C>.generator
        compare("G1.generator", [], oracle: hex(oracle.generator), crypto: hex(generator))
        compare("G1.infinity", [], oracle: "O", crypto: hex(G1Point<C>.infinity))
        compare(
            "Fp.modulusBytes", [], oracle: Hex.encode(oracle.p.bigEndianBytes()!),
            crypto: Hex.encode(Fp<C>.modulusBytes))
        compare(
            "Fr.modulusBytes", [], oracle: Hex.encode(oracle.r.bigEndianBytes()!),
            crypto: Hex.encode(Fr<C>.modulusBytes))

        for index in 0..<plan.g1Add {
            let (p, gp) = pointPair()
            let (q, gq): (G1Point<C>, GMPPoint)
            switch index % 20 {
            case 0: (q, gq) = (p, gp)  // doubling through +
            case 1: (q, gq) = (-p, oracle.negate(gp))  // P + (−P) = O
            case 2: (q, gq) = (.infinity, .infinity)  // P + O
            default: (q, gq) = pointPair()
            }
            compare("G1.add", [("P", hex(p)), ("Q", hex(q))], oracle: hex(oracle.add(gp, gq)), crypto: hex(p + q))
            if index % 20 == 2 {
                compare(
                    "G1.add", [("P", "O"), ("Q", hex(p))], oracle: hex(oracle.add(.infinity, gp)),
                    crypto: hex(G1Point<C>.infinity + p))
            }
        }
        for _ in 0..<plan.g1Double {
            let (p, gp) = pointPair()
            compare("G1.double", [("P", hex(p))], oracle: hex(oracle.double(gp)), crypto: hex(p.doubled()))
        }
        compare(
            "G1.double", [("P", "O")], oracle: hex(oracle.double(.infinity)), crypto: hex(G1Point<C>.infinity.doubled())
        )
        for _ in 0..<plan.g1Negate {
            let (p, gp) = pointPair()
            compare("G1.negate", [("P", hex(p))], oracle: hex(oracle.negate(gp)), crypto: hex(-p))
        }
        for _ in 0..<plan.g1Subtract {
            let (p, gp) = pointPair(), (q, gq) = pointPair()
            compare("G1.sub", [("P", hex(p)), ("Q", hex(q))], oracle: hex(oracle.subtract(gp, gq)), crypto: hex(p - q))
        }

        // Scalar multiplication: edge scalars on the generator, then random scalars on random points.
        let one = GMPInteger(1)
        let edgeScalars: [[UInt8]] = [
            [], [0], [1], [2], [3], (oracle.r - one).bigEndianBytes()!, oracle.r.bigEndianBytes()!,
            (oracle.r + one).bigEndianBytes()!, oracle.p.bigEndianBytes()!, [UInt8](repeating: 0xFF, count: 32),
            [UInt8](repeating: 0, count: 8) + [5],
        ]
        for scalar in edgeScalars {
            compare(
                "G1.mul", [("P", "G"), ("k", Hex.encode(scalar))],
                oracle: hex(oracle.multiply(oracle.generator, scalar: scalar)),
                crypto: hex(generator.multiplied(by: scalar)))
        }
        for index in 0..<plan.g1Mul {
            let (p, gp) = index == 0 ? (generator, oracle.generator) : pointPair()
            let scalar = rng.bytes(index % 10 == 9 ? 64 : 32)
            compare(
                "G1.mul", [("P", hex(p)), ("k", Hex.encode(scalar))],
                oracle: hex(oracle.multiply(gp, scalar: scalar)), crypto: hex(p.multiplied(by: scalar)))
        }
        compare(
            "G1.mul", [("P", "O"), ("k", "07")], oracle: hex(oracle.multiply(.infinity, scalar: [7])),
            crypto: hex(G1Point<C>.infinity.multiplied(by: [7])))

        // Malformed encodings: every one must be rejected by both.
        let zero32 = [UInt8](repeating: 0, count: 32), one32 = zero32.dropLast() + [1]
        let pBytes = oracle.p.bigEndianBytes()!, gFull = oracle.encode(oracle.generator)
        let malformed: [[UInt8]] = [
            [], [0x04], [0x00], Array(gFull.dropLast()), gFull + [0], [0x05] + gFull.dropFirst(),
            [0x04] + pBytes + one32,  // x = p
            [0x04] + gFull[1...32] + pBytes,  // y = p
            [0x04] + zero32 + one32,  // off the curve
            [0x02] + zero32, [0x03] + zero32,  // x³ + 2 = 2 is no square
            [0x02] + pBytes, [0x06] + gFull[1...32], [0x04] + gFull[1...32],
        ]
        for bytes in malformed {
            compare(
                "G1.decode(malformed)", [("bytes", Hex.encode(bytes))], oracle: oracle.decode(bytes).map(hex) ?? "nil",
                crypto: G1Point<C>(encoded: bytes).map(hex) ?? "nil")
        }

        // Encodings: both forms out, both forms back in; off-curve inputs rejected by both.
        for _ in 0..<plan.g1Encoding {
            let (p, gp) = pointPair()
            let full = oracle.encode(gp), short = oracle.encode(gp, compressed: true)
            compare("G1.encoded", [("P", hex(p))], oracle: Hex.encode(full), crypto: Hex.encode(p.encoded()))
            compare(
                "G1.encoded(compressed)", [("P", hex(p))], oracle: Hex.encode(short),
                crypto: Hex.encode(p.encoded(compressed: true)))
            compare(
                "G1.decode(65)", [("bytes", Hex.encode(full))], oracle: oracle.decode(full).map(hex) ?? "nil",
                crypto: G1Point<C>(encoded: full).map(hex) ?? "nil")
            compare(
                "G1.decode(33)", [("bytes", Hex.encode(short))], oracle: oracle.decode(short).map(hex) ?? "nil",
                crypto: G1Point<C>(encoded: short).map(hex) ?? "nil")
            var bent = full
            bent[64] ^= 1  // y ± 1: off the curve
            compare(
                "G1.decode(off-curve)", [("bytes", Hex.encode(bent))], oracle: oracle.decode(bent).map(hex) ?? "nil",
                crypto: G1Point<C>(encoded: bent).map(hex) ?? "nil")
            let (x, y) = gp.coordinates!
            let yBent = fp.add(y, one)
            compare(
                "G1.init(x:y:) off-curve", [("x", hex(x, in: fp)), ("y", hex(yBent, in: fp))],
                oracle: oracle.point(x: x, y: yBent).map(hex) ?? "nil",
                crypto: G1Point<C>(x: Fp<C>(bytes: fp.bytes(x))!, y: Fp<C>(bytes: fp.bytes(yBent))!).map(hex) ?? "nil")
            if let affine = p.affine {
                compare(
                    "G1.affine", [("P", hex(p))], oracle: hex(x, in: fp) + "," + hex(y, in: fp),
                    crypto: hex(affine.x) + "," + hex(affine.y))
            } else {
                compare("G1.affine", [("P", hex(p))], oracle: hex(x, in: fp) + "," + hex(y, in: fp), crypto: "nil")
            }
        }
    }

    /// Everything in `plan`.
    mutating func run(_ plan: CrossCheckPlan) {
        runFp(plan)
        runFr(plan)
        runG1(plan)
    }
}
