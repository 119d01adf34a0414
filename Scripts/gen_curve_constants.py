#!/usr/bin/env python3
"""Generates Sources/MPinCrypto/Curves/{BN254CX,BN254}Constants.swift.

Every constant the Swift field and curve code needs, in the form it needs it (little-endian 64-bit
limbs, Montgomery form with R = 2^256 where the code works in Montgomery form), derived from the
curve parameter u and the generators of docs/crypto.md §2.1. Run from the repository root:
    python3 Scripts/gen_curve_constants.py
The derived values are checked here (p, r from u; generators on their curves; r·P = O is checked by
the Swift tests) so a typo in the inputs cannot pass silently.

It also derives the constants of the endomorphism-accelerated multiplications
(Sources/MPinCrypto/Groups/ScalarDecomposition.swift and its users):
* GLV on G1 (Gallant, Lambert, Vanstone, "Faster point multiplication on elliptic curves with
  efficient endomorphisms", CRYPTO 2001): phi(x, y) = (beta*x, y) with beta a primitive cube root
  of unity in F_p acts on G1 = E(F_p) as multiplication by lambda, lambda^2 + lambda + 1 = 0 mod r.
  The pair (beta, lambda) is matched by computing phi(G) and lambda*G here. The lattice
  {(x0, x1) : x0 + x1*lambda = 0 mod r} gets a Lagrange-reduced basis (vectors of about 127 bits).
* GLS on G2 and GT (Galbraith, Scott, "Exponentiation in pairing-friendly groups using
  homomorphisms", Pairing 2008; Galbraith, Lin, Scott, EUROCRYPT 2009): the Frobenius psi acts
  on G2 and x -> x^p on GT as multiplication by p = 6u^2 mod r, and the lattice
  {x : x0 + x1*p + x2*p^2 + x3*p^3 = 0 mod r} has the basis
  (u+1, u, u, -2u), (2u+1, -u, -(u+1), -u), (u, -u, u, 2u+1), (-2u, -(u+1), u, -u):
  the first two rows are those of Galbraith-Scott's BN example; their other two rows,
  (2u, 2u+1, 2u+1, 2u+1) and (u-1, 4u+2, -2u+1, u-1), span only a sublattice of index 3
  (determinant 3r), so these two come from an LLL reduction of the lattice instead. Both
  psi(Q) = p*Q (on the generator Q) and that the basis spans this lattice (determinant +-r) are
  checked here.
For a basis B (rows b_j) the Babai rounding of (k, 0, ..., 0) is k_vec = (k, 0, ...) - sum_j c_j*b_j
with c_j = round(k*beta_j / r), beta_j = r * (B^-1)[0][j] (integers, as det B = +-r). Division is
replaced by the precomputed multiplier g_j = round(2^256*|beta_j| / r): at run time
c_j = floor((k*g_j + 2^255) / 2^256) (the high half of a 512-bit product), and
k_i = [i == 0]*k + sum_j c_j * M[j][i] mod 2^256 with M[j][i] = -sign(beta_j)*B[j][i] stored in
two's complement. For 0 <= k < r, |c_j*sign(beta_j) - k*beta_j/r| <= 1/2 + eps_j with
eps_j = (r - 1)*|g_j - 2^256*|beta_j|/r| / 2^256 < 1/8, so |k_i| <= sum_j (1/2 + eps_j)*|B[j][i]|:
the bounds below, from which the number of 4-bit windows follows (the bit length of the parts),
and the number of signed 5-bit windows of the multiplication (digits in [-16, 15], the top one in
[0, 15]). A window w of the multiplication (see JacobianPoint) may use the addition without the
doubling case when no nonzero lattice vector has all |y_i| <= bound_i / 32^w + 33 (the
accumulator's coefficients differ from the parts' upper digits by less than 1, and by 32 where
a table is still to come in the window, the entry's digit by at most 16, doubled); since every nonzero lattice vector has
sup norm >= min_j |b*_j| / sqrt(d) (Gram-Schmidt lengths), the windows below `completeWindows`
are the ones that keep the complete addition. Every bound is re-checked by decomposing edge and
random scalars with the same 256-bit arithmetic as the Swift code.
"""
import os
import random
from fractions import Fraction
from math import gcd, isqrt

CURVES = {
    "BN254CX": dict(
        u=-0x4000000003C012B1,
        p=0x2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3,
        r=0x2400000008702a0db0bddf647a6366d2c43fd6ee0cc906cebe11c0a636eb1f6d,
        qxa=0x19682d2c7053b256358b2500f5c34bbb907c85bfa03e2726c0851ceee4d2ec74,
        qxb=0x1466b9ec3e19f64aa011c937a8e99743f81b97b0c209c30f47a58e8b2e29cfe1,
        qya=0x0a79edd972332b8dd81e22157daee2096361b33d847ec1b30cfbfcebcf0be09f,
        qyb=0x06160c39ecc4c09035c6e4512d8d3461c2864ea569d2edebed904b228898ee9d,
        fra=0x1359082fa63a0164afe18b8aaca7189868677326f173f8215bd9083355c80ea3,
        frb=0x10a6f7d0623628a900dc53d9cdbc4e3abbd863c7269546c0628d1bbc06534710,
    ),
    "BN254": dict(
        u=-0x4080000000000001,
        p=0x2523648240000001ba344d80000000086121000000000013a700000000000013,
        r=0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d,
        qxa=0x061a10bb519eb62feb8d8c7e8c61edb6a4648bbb4898bf0d91ee4224c803fb2b,
        qxb=0x0516aaf9ba737833310aa78c5982aa5b1f4d746bae3784b70d8c34c1e7d54cf3,
        qya=0x021897a06baf93439a90e096698c822329bd0ae6bdbe09bd19f0e07891cd2b9a,
        qyb=0x0ebb2b0e7c8b15268f6d4456f5f38d37b09006ffd739c9578a2d1aec6b3ace9b,
        fra=0x1b377619212e7c8cb6499b50a846953f850974924d3f77c2e17de6c06f2a6de9,
        frb=0x09ebee691ed1837503eab22f57b96ac8dc178b6db2c08850c582193f90d5922a,
    ),
}

R = 1 << 256


def limbs(x):
    return "(" + ", ".join("0x%016x" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(4)) + ")"


def fp2mul(a, b, p):
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def fp2pow(a, e, p):
    res = (1, 0)
    while e:
        if e & 1:
            res = fp2mul(res, a, p)
        a = fp2mul(a, a, p)
        e >>= 1
    return res


def naf_digits(n):
    """AMCL's loop digits for the Miller loop: bit(3n, i) - bit(n, i) for i = nb-2 ... 1."""
    n3 = 3 * n
    nb = n3.bit_length()
    return [((n3 >> i) & 1) - ((n >> i) & 1) for i in range(nb - 2, 0, -1)]


def ec_add(P, Q, p, mul, add, sub, inv, zero):
    """Affine addition on y^2 = x^3 + b over a field given by its operations (None is infinity)."""
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if add(y1, y2) == zero:
            return None
        three = add(add(mul(x1, x1), mul(x1, x1)), mul(x1, x1))
        m = mul(three, inv(add(y1, y1)))
    else:
        m = mul(sub(y2, y1), inv(sub(x2, x1)))
    x3 = sub(sub(mul(m, m), x1), x2)
    return (x3, sub(mul(m, sub(x1, x3)), y1))


def ec_mul(k, P, ops):
    R = None
    for bit in bin(k)[2:]:
        R = ec_add(R, R, *ops)
        if bit == "1":
            R = ec_add(R, P, *ops)
    return R


def fp_ops(p):
    return (p, lambda a, b: a * b % p, lambda a, b: (a + b) % p, lambda a, b: (a - b) % p,
            lambda a: pow(a, -1, p), 0)


def fp2_ops(p):
    def inv(a):
        n = pow((a[0] * a[0] + a[1] * a[1]) % p, -1, p)
        return (a[0] * n % p, -a[1] * n % p)
    return (p, lambda a, b: fp2mul(a, b, p), lambda a, b: ((a[0] + b[0]) % p, (a[1] + b[1]) % p),
            lambda a, b: ((a[0] - b[0]) % p, (a[1] - b[1]) % p), inv, (0, 0))


def inverse_matrix(B):
    """Exact inverse of a square integer matrix (Gauss-Jordan over the rationals)."""
    d = len(B)
    A = [[Fraction(B[i][j]) for j in range(d)] + [Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    for col in range(d):
        piv = next(i for i in range(col, d) if A[i][col] != 0)
        A[col], A[piv] = A[piv], A[col]
        f = A[col][col]
        A[col] = [v / f for v in A[col]]
        for i in range(d):
            if i != col and A[i][col] != 0:
                g = A[i][col]
                A[i] = [a - g * b for a, b in zip(A[i], A[col])]
    return [row[d:] for row in A]


def determinant(B):
    d = len(B)
    if d == 1:
        return B[0][0]
    return sum((-1) ** j * B[0][j] * determinant([row[:j] + row[j + 1:] for row in B[1:]]) for j in range(d))


def gram_schmidt_min_sq(B):
    """min_j |b*_j|^2 (a lower bound on the squared length of every nonzero lattice vector)."""
    star = []
    for b in B:
        v = [Fraction(x) for x in b]
        for s_ in star:
            mu = sum(a * c for a, c in zip(v, s_)) / sum(c * c for c in s_)
            v = [a - mu * c for a, c in zip(v, s_)]
        star.append(v)
    return min(sum(x * x for x in v) for v in star)


def lagrange_reduce(a, b):
    """Lagrange-Gauss reduction of a 2-dimensional integer lattice basis."""
    n = lambda v: v[0] * v[0] + v[1] * v[1]
    if n(a) < n(b):
        a, b = b, a
    while True:
        mu = round(Fraction(a[0] * b[0] + a[1] * b[1], n(b)))
        a = (a[0] - mu * b[0], a[1] - mu * b[1])
        if n(a) >= n(b):
            return b, a
        a, b = b, a


W256 = 1 << 256


def decomposition(B, r, eigen, label):
    """Babai-rounding constants for the lattice basis B of {x : sum x_i*eigen^i = 0 mod r}, with
    the bounds, windows and complete windows described in the module docstring."""
    d = len(B)
    for b in B:
        assert sum(x * pow(eigen, i, r) for i, x in enumerate(b)) % r == 0, label + ": basis vector not in the lattice"
    det = determinant(B)
    assert abs(det) == r, label + ": the basis does not span the whole lattice (|det| != r)"
    inv = inverse_matrix(B)
    betas = []
    for j in range(d):
        bj = inv[0][j] * r
        assert bj.denominator == 1, label
        betas.append(int(bj))
    # (k, 0, ..., 0) = sum_j (k*beta_j/r) * b_j
    for i in range(d):
        assert sum(Fraction(betas[j], r) * B[j][i] for j in range(d)) == int(i == 0), label
    mult = [(2 * W256 * abs(bj) + r) // (2 * r) for bj in betas]
    assert all(0 <= g < W256 for g in mult)
    eps = [Fraction(r - 1, W256) * abs(Fraction(g) - Fraction(W256 * abs(bj), r)) for g, bj in zip(mult, betas)]
    assert all(e < Fraction(1, 8) for e in eps), label
    M = [[(-(1 if betas[j] > 0 else -1) * B[j][i]) for i in range(d)] for j in range(d)]
    bounds = [sum((Fraction(1, 2) + eps[j]) * abs(B[j][i]) for j in range(d)) for i in range(d)]
    maxbits = max(int(bd).bit_length() for bd in bounds)
    windows = (maxbits + 3) // 4
    # Sup-norm lower bound of nonzero lattice vectors: |v|_inf >= |v|_2 / sqrt(d) >= min|b*| / sqrt(d).
    supmin = isqrt(int(gram_schmidt_min_sq(B) / d))
    # The multiplications use signed 5-bit windows (JacobianPoint.multipliedDecomposed): digits in
    # [-16, 15] below the top one, which must come out in [0, 15] with no carry beyond it.
    signed = 1
    while not all(int(bd / 32 ** (signed - 1)) <= 14 for bd in bounds):
        signed += 1
    complete = 0
    while not all(int(bd / 32 ** w) + 33 < supmin for bd in bounds for w in range(complete, signed)):
        complete += 1
    assert complete <= signed

    def run(k):
        """The Swift algorithm with 256-bit wrapping arithmetic: (magnitudes, signs)."""
        cs = [(k * g + (1 << 255)) >> 256 for g in mult]
        out = []
        for i in range(d):
            acc = (k if i == 0 else 0)
            for j in range(d):
                acc = (acc + cs[j] * (M[j][i] % W256)) % W256
            neg = acc >> 255
            out.append((W256 - acc) % W256 if neg else acc)
            out[-1] = -out[-1] if neg else out[-1]
        return out

    rng = random.Random(2009)
    samples = [0, 1, 2, r - 1, r - 2, r // 2, (r + 1) // 2] + [rng.randrange(r) for _ in range(3000)]
    samples += [(r * t) // (2 * 16) for t in range(32)]
    for k in samples:
        ks = run(k)
        assert sum(x * pow(eigen, i, r) for i, x in enumerate(ks)) % r == k, label + ": decomposition identity"
        for i in range(d):
            assert abs(ks[i]) <= bounds[i], label + ": bound"
    magnitudes = [abs(v) for k in samples for v in run(k)] + [int(bd) for bd in bounds]
    for x in magnitudes:
        digits = signed_digits(x, signed)
        assert sum(dg * 32 ** j for j, dg in enumerate(digits)) == x, label + ": signed digits"
        assert all(-16 <= dg <= 15 for dg in digits) and 0 <= digits[-1] <= 15, label + ": digit range"
    return dict(mult=mult, M=M, bounds=bounds, windows=windows, signed=signed, complete=complete,
                supmin=supmin, betas=betas, maxbits=maxbits, B=B)


def signed_digits(x, count):
    """x = sum d_j*32^j, d_j in [-16, 15] (16 as -16 with a carry), as the Swift recoding."""
    digits, carry = [], 0
    for j in range(count):
        v = ((x >> (5 * j)) & 31) + carry
        carry = 1 if v >= 16 else 0
        digits.append(v - 32 if carry else v)
    assert carry == 0
    return digits


def signed_limbs(x):
    return limbs(x % W256)


def emit(name, c):
    u, p, r = c["u"], c["p"], c["r"]
    assert p == 36 * u**4 + 36 * u**3 + 24 * u**2 + 6 * u + 1, name
    assert r == 36 * u**4 + 36 * u**3 + 18 * u**2 + 6 * u + 1, name
    assert p % 4 == 3 and p < (1 << 254) and r < (1 << 254)
    xi = (1, 1)
    X = (c["fra"], c["frb"])
    assert fp2pow(xi, (p - 1) // 6, p) == X, "Frobenius constant"
    # twist b' = 2 / xi = 1 - i
    bt = (1, p - 1)
    x = (c["qxa"], c["qxb"])
    y = (c["qya"], c["qyb"])
    x3 = fp2mul(fp2mul(x, x, p), x, p)
    rhs = ((x3[0] + bt[0]) % p, (x3[1] + bt[1]) % p)
    assert fp2mul(y, y, p) == rhs, "G2 generator on the twist"
    assert ((p - 1) ** 3 + 2 - 1) % p == 0, "G1 generator"

    mont = lambda v: (v % p) * R % p
    montr = lambda v: (v % r) * R % r
    fp2m = lambda v: "(%s, %s)" % (limbs(mont(v[0])), limbs(mont(v[1])))
    X2 = fp2mul(X, X, p)
    X3 = fp2mul(X2, X, p)
    X4 = fp2mul(X3, X, p)
    X5 = fp2mul(X4, X, p)
    n = 6 * abs(u) - 2  # |6u + 2| for u < 0
    digits = naf_digits(n)

    # GLV on G1: beta^3 = 1 in F_p, lambda^2 + lambda + 1 = 0 mod r, matched on the generator.
    assert u < 0, "the GT membership test and the Miller loop assume u < 0"
    lam = (36 * u**3 + 18 * u**2 + 6 * u + 1) % r
    assert (lam * lam + lam + 1) % r == 0, "lambda is a primitive cube root of unity mod r"
    g1 = (p - 1, 1)
    g1ops = fp_ops(p)
    lamG = ec_mul(lam, g1, g1ops)
    beta = None
    for cand in (pow(g, (p - 1) // 3, p) for g in range(2, 50)):
        if cand != 1 and (cand * g1[0] % p, g1[1]) == lamG:
            beta = cand
            break
    assert beta is not None and pow(beta, 3, p) == 1 and beta != 1, "phi(G) = lambda*G"
    assert ec_mul(r, g1, g1ops) is None, "r*G = O"
    v1, v2 = lagrange_reduce((r, 0), (-lam % r, 1))
    glv = decomposition([list(v1), list(v2)], r, lam, name + " GLV")
    # GLS on G2 and GT: psi(Q) = p*Q on the generator, p = 6u^2 mod r.
    assert p % r == 6 * u * u % r
    q2ops = fp2_ops(p)
    psiQ = (fp2mul((x[0], -x[1] % p), X2, p), fp2mul((y[0], -y[1] % p), X3, p))
    assert ec_mul(p % r, (x, y), q2ops) == psiQ, "psi(Q) = p*Q on G2"
    gsb = [[u + 1, u, u, -2 * u], [2 * u + 1, -u, -(u + 1), -u], [u, -u, u, 2 * u + 1], [-2 * u, -(u + 1), u, -u]]
    gls = decomposition(gsb, r, p % r, name + " GLS")
    # The GT membership test (GTExponentiation.isInGT) raises a cyclotomic x to
    # A = (u+1) + u*p + u*p^2 - 2u*p^3, the first GS vector: x^A = 1 iff x^r = 1, as
    # gcd(A, Phi12(p)) = r (the order of x divides Phi12(p) = p^4 - p^2 + 1).
    A = (u + 1) + u * p + u * p**2 - 2 * u * p**3
    assert gcd(A, p**4 - p**2 + 1) == r, "GT membership exponent"
    # The scalar is first reduced below r by conditional subtractions: 2^256 < 8r.
    assert W256 < 8 * r
    out = []
    w = out.append
    w("// Generated by Scripts/gen_curve_constants.py from the parameters of docs/crypto.md §2.1.")
    w("// Do not edit by hand: change the script and run it again.")
    w("")
    w("extension %s {" % name)
    w("    package static var id: CurveID { .%s }" % name.lower())
    w("    /// u = %s%s" % ("-" if u < 0 else "", hex(abs(u))))
    w("    package static var _absU: UInt64 { 0x%016x }" % abs(u))
    w("    /// p = 36u^4 + 36u^3 + 24u^2 + 6u + 1 = %s" % hex(p))
    w("    package static var _p: Limbs4 { %s }" % limbs(p))
    w("    /// -p^-1 mod 2^64")
    w("    package static var _pInv: UInt64 { 0x%016x }" % ((-pow(p, -1, 2**64)) % 2**64))
    w("    /// R mod p, R = 2^256 (one in Montgomery form)")
    w("    package static var _pOne: Limbs4 { %s }" % limbs(R % p))
    w("    /// R^2 mod p")
    w("    package static var _pR2: Limbs4 { %s }" % limbs(R * R % p))
    w("    /// (p - 2), (p - 1) / 2, (p + 1) / 4: exponents for inverse, Legendre symbol, square root")
    w("    package static var _pMinus2: Limbs4 { %s }" % limbs(p - 2))
    w("    package static var _pMinus1Half: Limbs4 { %s }" % limbs((p - 1) // 2))
    w("    package static var _pPlus1Quarter: Limbs4 { %s }" % limbs((p + 1) // 4))
    w("    /// r = 36u^4 + 36u^3 + 18u^2 + 6u + 1 = %s" % hex(r))
    w("    package static var _r: Limbs4 { %s }" % limbs(r))
    w("    package static var _rInv: UInt64 { 0x%016x }" % ((-pow(r, -1, 2**64)) % 2**64))
    w("    package static var _rOne: Limbs4 { %s }" % limbs(R % r))
    w("    package static var _rR2: Limbs4 { %s }" % limbs(R * R % r))
    w("    package static var _rMinus2: Limbs4 { %s }" % limbs(r - 2))
    w("    /// 2^280 mod p in Montgomery form: AMCL's 64-bit Montgomery radix (5 limbs of 56 bits)")
    w("    package static var _amclRadix: Limbs4 { %s }" % limbs(mont(pow(2, 280, p))))
    w("    /// G2 generator (Montgomery form)")
    w("    package static var _g2x: (Limbs4, Limbs4) { %s }" % fp2m(x))
    w("    package static var _g2y: (Limbs4, Limbs4) { %s }" % fp2m(y))
    w("    /// Frobenius constant X = xi^((p-1)/6) and its powers X^2 ... X^5 (Montgomery form)")
    w("    package static var _frob1: (Limbs4, Limbs4) { %s }" % fp2m(X))
    w("    package static var _frob2: (Limbs4, Limbs4) { %s }" % fp2m(X2))
    w("    package static var _frob3: (Limbs4, Limbs4) { %s }" % fp2m(X3))
    w("    package static var _frob4: (Limbs4, Limbs4) { %s }" % fp2m(X4))
    w("    package static var _frob5: (Limbs4, Limbs4) { %s }" % fp2m(X5))
    w("    /// Miller loop digits for |6u+2| = %s: bit(3n, i) - bit(n, i), i = nb-2 ... 1" % hex(n))
    w("    package static let _millerDigits: [Int8] = [%s]" % ", ".join(str(d) for d in digits))
    w("    /// The generator's Miller-loop lines (a `static let`: computed once, on first use).")
    w("    package static let _generatorLines = Pairing<%s>.prepare(G2Point<%s>.generator)!" % (name, name))
    w("    /// GLV (G1): beta = %s (here in Montgomery form)," % hex(beta))
    w("    /// a cube root of unity in F_p with phi(x, y) = (beta*x, y) = lambda*(x, y) on E(F_p) for")
    w("    /// lambda = 36u^3 + 18u^2 + 6u + 1 mod r = %s" % hex(lam))
    w("    package static var _glvBeta: Limbs4 { %s }" % limbs(mont(beta)))
    w("    package static var _glvLambda: Limbs4 { %s }" % limbs(lam))
    for label, dd, key in (("GLV (G1)", glv, "glv"), ("GLS (G2, GT)", gls, "gls")):
        basis = "[" + ", ".join("(" + ", ".join(str(v) for v in row) + ")" for row in dd["B"]) + "]"
        w("    /// %s Babai rounding: basis rows %s;" % (label, basis))
        w("    /// multipliers g_j = round(2^256*|beta_j|/r), beta_j = %s; the matrix is -sign(beta_j)*b_j mod 2^256;" % dd["betas"])
        w("    /// |k_i| <= %s (%d bits, %d windows); nonzero lattice vectors have sup norm >= %s" % (
            [int(b) for b in dd["bounds"]], dd["maxbits"], dd["windows"], hex(dd["supmin"])))
        w("    package static let _%sMultipliers: [Limbs4] = [%s]" % (key, ", ".join(limbs(g) for g in dd["mult"])))
        w("    package static let _%sMatrix: [[Limbs4]] = [%s]" % (
            key, ", ".join("[" + ", ".join(signed_limbs(v) for v in row) + "]" for row in dd["M"])))
        w("    package static var _%sWindows: Int { %d }" % (key, dd["windows"]))
        w("    /// The multiplication's signed 5-bit windows, and how many of the lowest keep the complete addition")
        w("    package static var _%sSignedWindows: Int { %d }" % (key, dd["signed"]))
        w("    package static var _%sCompleteWindows: Int { %d }" % (key, dd["complete"]))
    w("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    dest = os.path.join(here, "..", "Sources", "MPinCrypto", "Curves")
    os.makedirs(dest, exist_ok=True)
    for name, c in CURVES.items():
        with open(os.path.join(dest, name + "Constants.swift"), "w") as f:
            f.write(emit(name, c))
    print("wrote", ", ".join(n + "Constants.swift" for n in CURVES))
