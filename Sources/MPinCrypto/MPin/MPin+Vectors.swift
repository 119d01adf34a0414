/// Primitives the vector generator and checkers need beyond AMCL's M-Pin API, specialised per curve
/// like the rest of the facade.
extension MPin {
    /// The G1 generator P, 65 bytes.
    package var g1Generator: [UInt8] {
        on2({ G1Point<BN254CX>.generator.encoded() }, { G1Point<BN254>.generator.encoded() })
    }

    /// The G2 generator Q, 128 bytes.
    package var g2Generator: [UInt8] {
        on2({ G2Point<BN254CX>.generator.encoded() }, { G2Point<BN254>.generator.encoded() })
    }

    /// The field modulus p and the group order r, 32 bytes each.
    package var fieldModulus: [UInt8] { on2({ Fp<BN254CX>.modulusBytes }, { Fp<BN254>.modulusBytes }) }
    package var groupOrder: [UInt8] { on2({ Fr<BN254CX>.modulusBytes }, { Fr<BN254>.modulusBytes }) }

    /// What mapit did with a hash: the first candidate x0 = OS2I(h) mod p, how many times x was
    /// incremented before x³ + 2 was a non-zero square, and the point (65 bytes).
    package struct MapTrace: Sendable, Equatable {
        package var firstCandidate: [UInt8]
        package var increments: Int
        package var point: [UInt8]
    }

    /// mapit(h) with its trace (docs/crypto.md §4).
    package func mapToG1Trace(_ hash: [UInt8]) -> MapTrace {
        func run<C: PairingCurve>(_: C.Type) -> MapTrace {
            let x0 = Fp<C>(reducing: Array(hash.prefix(32)))
            var x = x0
            var increments = 0
            while !(x.squared() * x + Fp(2)).isSquare {
                x = x + .one
                increments += 1
            }
            return MapTrace(
                firstCandidate: x0.bytes, increments: increments,
                point: MPinEngine<C>.mapToG1(hash).encoded())
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// (a·b) mod r and (a + b) mod r and (−a) mod r, 32 bytes.
    package func scalarProduct(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        on2(
            { (Fr<BN254CX>(reducing: a) * Fr<BN254CX>(reducing: b)).bytes },
            { (Fr<BN254>(reducing: a) * Fr<BN254>(reducing: b)).bytes })
    }

    package func scalarSum(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        on2(
            { (Fr<BN254CX>(reducing: a) + Fr<BN254CX>(reducing: b)).bytes },
            { (Fr<BN254>(reducing: a) + Fr<BN254>(reducing: b)).bytes })
    }

    /// a⁻¹ mod r; nil for a ≡ 0.
    package func scalarInverse(_ a: [UInt8]) -> [UInt8]? {
        on2({ Fr<BN254CX>(reducing: a).inverse()?.bytes }, { Fr<BN254>(reducing: a).inverse()?.bytes })
    }

    package func scalarNegation(_ a: [UInt8]) -> [UInt8] {
        on2({ (-Fr<BN254CX>(reducing: a)).bytes }, { (-Fr<BN254>(reducing: a)).bytes })
    }

    /// ∏ e(Qᵢ, Pᵢ) with one final exponentiation, 384 bytes; nil when a point does not decode.
    package func pairingProduct(_ pairs: [(g2: [UInt8], g1: [UInt8])]) -> [UInt8]? {
        func run<C: PairingCurve>(_: C.Type) -> [UInt8]? {
            var decoded: [(G2Point<C>, G1Point<C>)] = []
            for pair in pairs {
                guard let q = G2Point<C>(encoded: pair.g2), let p = G1Point<C>(encoded: pair.g1) else { return nil }
                decoded.append((q, p))
            }
            return Pairing<C>.product(decoded).bytes
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// Whether a 384-byte GT encoding is the unit; nil when it does not decode.
    package func gtIsOne(_ g: [UInt8]) -> Bool? {
        on2({ Fp12<BN254CX>(bytes: g)?.isOne }, { Fp12<BN254>(bytes: g)?.isOne })
    }

    /// The error class of decoding a G1 encoding (nil when it decodes), and the decoded point.
    package func decodeG1(_ bytes: [UInt8]) -> Result<[UInt8], PointDecodingError> {
        func run<C: PairingCurve>(_: C.Type) -> Result<[UInt8], PointDecodingError> {
            do throws(PointDecodingError) { return .success(try G1Point<C>.decode(bytes).encoded()) } catch {
                return .failure(error)
            }
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// The same for G2, with the subgroup check.
    package func decodeG2(_ bytes: [UInt8]) -> Result<[UInt8], PointDecodingError> {
        func run<C: PairingCurve>(_: C.Type) -> Result<[UInt8], PointDecodingError> {
            do throws(PointDecodingError) {
                return .success(try G2Point<C>.decode(bytes, checkSubgroup: true).encoded())
            } catch {
                return .failure(error)
            }
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// The first x ≥ OS2I(seed) mod p for which x³ + 2 is not a square (no G1 point has it), 32 bytes.
    package func nonResidueAbscissa(from seed: [UInt8]) -> [UInt8] {
        func run<C: PairingCurve>(_: C.Type) -> [UInt8] {
            var x = Fp<C>(reducing: Array(seed.prefix(32)))
            while (x.squared() * x + Fp(2)).isSquare { x = x + .one }
            return x.bytes
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// A point of the twist E'(F_p²) outside G2 (128 bytes), searched from x = seed (mod p) + 0·i
    /// upwards; the twist's order is r·(2p − r), so nearly every point qualifies.
    package func twistPointOutsideG2(from seed: [UInt8]) -> [UInt8] {
        func run<C: PairingCurve>(_: C.Type) -> [UInt8] {
            var x = Fp2<C>(Fp<C>(reducing: Array(seed.prefix(32))), .one)
            while true {
                if let y = (x.squared() * x + G2Point<C>.b).squareRoot(), let point = G2Point<C>(x: x, y: y),
                    !point.isInSubgroup
                {
                    return point.encoded()
                }
                x = x + .one
            }
        }
        return on2({ run(BN254CX.self) }, { run(BN254.self) })
    }

    private func on2<T>(_ cx: () -> T, _ nogami: () -> T) -> T {
        switch curve {
        case .bn254cx: return cx()
        case .bn254: return nogami()
        }
    }
}
