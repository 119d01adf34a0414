import CFieldKernel

/// The reduced optimal-ate pairing of AMCL (`PAIR_ate` + `PAIR_fexp`), e: G2 × G1 → GT ⊂ F_p¹²:
///
///     e(Q, P) = f_opt(Q, P)^((p¹² - 1)/r),
///     f_opt = f_{6u+2,Q}(P) · l_{[6u+2]Q, π(Q)}(P) · l_{[6u+2]Q+π(Q), -π²(Q)}(P)
///
/// (Vercauteren's optimal ate, docs/crypto.md §2.3). The Miller loop walks the digits
/// bit(3n, i) - bit(n, i) of n = |6u+2| with the running point in homogeneous projective
/// coordinates on the twist; line values differ from the affine ones by F_p² factors, which the
/// final exponentiation removes, so the GT bytes agree with AMCL's exactly. The final
/// exponentiation is the easy part (p⁶-1)(p²+1) and AMCL's hard-part chain, which is exactly
/// (p⁴-p²+1)/r (not a multiple of it).
///
/// Constant time in the points (a token, a server secret): the loop follows the public digits of
/// 6u+2 and the exponent chain the public |u|; only whether a point is infinity becomes public.
package enum Pairing<C: PairingCurve> {
    /// e(Q, P); 1 when either point is infinity.
    package static func pair(_ q: G2Point<C>, _ p: G1Point<C>) -> Fp12<C> {
        finalExponentiation(millerLoop(q, p))
    }

    /// ∏ e(Qᵢ, Pᵢ) with one shared Miller loop and one final exponentiation (AMCL `PAIR_double_ate`
    /// for two pairs).
    package static func product(_ pairs: [(G2Point<C>, G1Point<C>)]) -> Fp12<C> {
        finalExponentiation(multiMillerLoop(pairs))
    }

    /// ∏ e(Qᵢ, Pᵢ) · ∏ e(Q'ⱼ, P'ⱼ) where the Q'ⱼ come with their lines prepared (``prepare(_:)``):
    /// the same value as ``product(_:)`` of all the pairs, without the G2 arithmetic of the prepared ones.
    package static func product(_ pairs: [(G2Point<C>, G1Point<C>)], prepared: [(PreparedLines, G1Point<C>)]) -> Fp12<C>
    {
        finalExponentiation(multiMillerLoop(pairs, prepared: prepared))
    }

    /// f_opt(Q, P) before the final exponentiation.
    package static func millerLoop(_ q: G2Point<C>, _ p: G1Point<C>) -> Fp12<C> {
        multiMillerLoop([(q, p)])
    }

    /// The running point T = (X, Y, Z) of the Miller loop, x = X/Z, y = Y/Z on the twist.
    struct LineState {
        var x: Fp2<C>, y: Fp2<C>, z: Fp2<C>
        let qx: Fp2<C>, qy: Fp2<C>  // Q, affine
        let px: Fp<C>, py: Fp<C>  // P, affine

        /// Tangent at T evaluated at P, then T ← 2T. With B = Y², E = 3b'Z², H = 2YZ the line is
        /// H·yP - 3X²·xP·w + (B - E)·w³.
        mutating func double() -> (Fp2<C>, Fp2<C>, Fp2<C>) {
            doubleLine().at(px: px, py: py)
        }

        /// The tangent's coefficients before P enters, (H, -3X², B - E), then T ← 2T.
        mutating func doubleLine() -> Line {
            #if arch(x86_64)
                if mpin_field_kernel_available() != 0 {
                    return take(
                        mpin_miller_double_adx(
                            x.kernelValue, y.kernelValue, z.kernelValue, mpin_limbs4(l: C._p), C._pInv))
                }
            #endif
            let xx = x.squared()
            let bb = y.squared()
            let cc = z.squared()
            let e = (cc + cc + cc).timesTwistB()
            let f = e + e + e
            let h = (y + z).squared() - bb - cc
            let line = Line(a: h, b: -(xx + xx + xx), c: bb - e)
            let a = (x * y).halved()
            let g = (bb + f).halved()
            let e2 = e.squared()
            x = a * (bb - f)
            y = g.squared() - (e2 + e2 + e2)
            z = bb * h
            return line
        }

        /// Line through T and R = (rx, ry) (affine) evaluated at P, then T ← T + R. With
        /// θ = Y - ry·Z, λ = X - rx·Z the line is λ·yP - θ·xP·w + (θ·rx - λ·ry)·w³.
        mutating func add(_ rx: Fp2<C>, _ ry: Fp2<C>) -> (Fp2<C>, Fp2<C>, Fp2<C>) {
            addLine(rx, ry).at(px: px, py: py)
        }

        /// The chord's coefficients before P enters, (λ, -θ, θ·rx - λ·ry), then T ← T + R.
        mutating func addLine(_ rx: Fp2<C>, _ ry: Fp2<C>) -> Line {
            #if arch(x86_64)
                if mpin_field_kernel_available() != 0 {
                    return take(
                        mpin_miller_add_adx(
                            x.kernelValue, y.kernelValue, z.kernelValue, rx.kernelValue, ry.kernelValue,
                            mpin_limbs4(l: C._p), C._pInv))
                }
            #endif
            let theta = y - ry * z
            let lambda = x - rx * z
            let line = Line(a: lambda, b: -theta, c: theta * rx - lambda * ry)
            let c = theta.squared()
            let d = lambda.squared()
            let e = lambda * d
            let f = z * c
            let g = x * d
            let h = e + f - g.doubled()
            x = lambda * h
            y = theta * (g - h) - y * e
            z = z * e
            return line
        }

        #if arch(x86_64)
            /// The kernel's step (``mpin_miller_double_adx``, ``mpin_miller_add_adx``): T ← its point, and its line.
            @inline(__always) mutating func take(_ step: mpin_miller_step) -> Line {
                x = Fp2(step.x)
                y = Fp2(step.y)
                z = Fp2(step.z)
                return Line(a: Fp2(step.la), b: Fp2(step.lb), c: Fp2(step.lc))
            }
        #endif
    }

    /// One line of a Miller loop before P enters: its value at P is a·yP + b·xP·w + c·w³.
    package struct Line: Sendable {
        let a: Fp2<C>, b: Fp2<C>, c: Fp2<C>

        /// The coefficients at P = (px, py): (a·yP, b·xP, c), as `Fp12.multipliedByLine` takes them.
        func at(px: Fp<C>, py: Fp<C>) -> (Fp2<C>, Fp2<C>, Fp2<C>) {
            (a.scaled(by: py), b.scaled(by: px), c)
        }
    }

    /// The lines of the Miller loop for a fixed Q, in the order the loop uses them (per digit the
    /// tangent, then the chord when the digit is ±1; then the two Frobenius chords). They depend on
    /// Q alone, so a Q that is paired again and again (the generator in SERVER_2) is prepared once.
    package struct PreparedLines: Sendable {
        let lines: [Line]
    }

    /// Q's lines (the same arithmetic as the loop of ``multiMillerLoop(_:prepared:)``, kept);
    /// nil for infinity. Constant time in Q like the loop itself.
    package static func prepare(_ q: G2Point<C>) -> PreparedLines? {
        guard let (qx, qy) = q.affine else { return nil }
        var state = LineState(x: qx, y: qy, z: .one, qx: qx, qy: qy, px: .one, py: .one)
        var lines: [Line] = []
        lines.reserveCapacity(2 * C._millerDigits.count + 2)
        for digit in C._millerDigits {
            lines.append(state.doubleLine())
            if digit == 1 {
                lines.append(state.addLine(qx, qy))
            } else if digit == -1 {
                lines.append(state.addLine(qx, -qy))
            }
        }
        state.y = -state.y
        let (k1x, k1y, k2x, k2y) = frobeniusImages(qx, qy)
        lines.append(state.addLine(k1x, k1y))
        lines.append(state.addLine(k2x, -k2y))
        return PreparedLines(lines: lines)
    }

    /// π(Q) = (conj(x)·X², conj(y)·X³) and π²(Q) = π(π(Q)) of an affine Q.
    static func frobeniusImages(_ qx: Fp2<C>, _ qy: Fp2<C>) -> (Fp2<C>, Fp2<C>, Fp2<C>, Fp2<C>) {
        let x2 = Fp2<C>(C._frob2), x3 = Fp2<C>(C._frob3)
        let k1x = qx.conjugate() * x2
        let k1y = qy.conjugate() * x3
        return (k1x, k1y, k1x.conjugate() * x2, k1y.conjugate() * x3)
    }

    /// The Miller loops of every pair at once, sharing the squarings of f; the prepared pairs take
    /// their lines from the list and only scale them by P's coordinates. Each line enters f once,
    /// whatever the order, so the value is that of the loop over all pairs.
    static func multiMillerLoop(_ pairs: [(G2Point<C>, G1Point<C>)], prepared: [(PreparedLines, G1Point<C>)] = [])
        -> Fp12<C>
    {
        var states: [LineState] = []
        for (q, p) in pairs {
            guard let (qx, qy) = q.affine, let (px, py) = p.affine else { continue }
            states.append(LineState(x: qx, y: qy, z: .one, qx: qx, qy: qy, px: px, py: py))
        }
        var fixed: [(lines: [Line], px: Fp<C>, py: Fp<C>)] = []
        for (prepared, p) in prepared {
            guard let (px, py) = p.affine else { continue }
            fixed.append((prepared.lines, px, py))
        }
        if states.isEmpty && fixed.isEmpty { return .one }
        func multiply(_ f: inout Fp12<C>, by index: Int) {
            for (lines, px, py) in fixed {
                let (l0, l1, l3) = lines[index].at(px: px, py: py)
                f = f.multipliedByLine(l0, l1, l3)
            }
        }
        var f = Fp12<C>.one
        var next = 0  // the prepared lines' index
        for digit in C._millerDigits {
            f = f.squared()
            multiply(&f, by: next)
            next += 1
            if digit != 0 {
                multiply(&f, by: next)
                next += 1
            }
            for k in states.indices {
                let (l0, l1, l3) = states[k].double()
                f = f.multipliedByLine(l0, l1, l3)
                if digit == 1 {
                    let (m0, m1, m3) = states[k].add(states[k].qx, states[k].qy)
                    f = f.multipliedByLine(m0, m1, m3)
                } else if digit == -1 {
                    let (m0, m1, m3) = states[k].add(states[k].qx, -states[k].qy)
                    f = f.multipliedByLine(m0, m1, m3)
                }
            }
        }
        // u < 0: f_{6u+2} = conj(f_{|6u+2|}) up to factors that the final exponentiation removes; T ← -T.
        f = f.conjugate()
        multiply(&f, by: next)
        multiply(&f, by: next + 1)
        for k in states.indices {
            states[k].y = -states[k].y
            let (k1x, k1y, k2x, k2y) = frobeniusImages(states[k].qx, states[k].qy)
            let (l0, l1, l3) = states[k].add(k1x, k1y)
            f = f.multipliedByLine(l0, l1, l3)
            let (m0, m1, m3) = states[k].add(k2x, -k2y)
            f = f.multipliedByLine(m0, m1, m3)
        }
        return f
    }

    /// f^((p¹²-1)/r): easy part f^((p⁶-1)(p²+1)), then AMCL's hard-part chain for BN curves with
    /// three powers by |u| (docs/crypto.md §2.3; the chain computes exactly (p⁴-p²+1)/r).
    package static func finalExponentiation(_ m: Fp12<C>) -> Fp12<C> {
        // Easy part.
        var r = m.conjugate() * m.inverseOrZero
        r = r.frobenius().frobenius() * r
        // Hard part (u < 0 for both curves, so no conjugations after the powers by |u|). No
        // shortcut for r = 1, which the chain maps to 1 anyway: it would branch on r.
        let res = r
        var t0 = res.frobenius()
        var x0 = t0.frobenius()
        x0 = x0 * (res * t0)
        x0 = x0.frobenius()
        let x1 = res.conjugate()
        var x4 = res.unitaryPowerAbsU()
        let x3 = x4.frobenius()
        var x2 = x4.unitaryPowerAbsU()
        let x5 = x2.conjugate()
        t0 = x2.unitaryPowerAbsU()
        x2 = x2.frobenius()
        x4 = x4 * x2.conjugate()
        x2 = x2.frobenius()
        t0 = t0 * t0.frobenius()
        t0 = t0.unitarySquared()
        t0 = t0 * x4
        t0 = t0 * x5
        var out = x3 * x5
        out = out * t0
        t0 = t0 * x2
        out = out.unitarySquared()
        out = out * t0
        out = out.unitarySquared()
        t0 = out * x1
        out = out * x0
        t0 = t0.unitarySquared()
        return out * t0
    }
}
