// The F_p¹² operations of the pairing on the x86-64 kernel (include/CFieldKernel.h): the whole
// operation in C, so that the F_p⁴ products (mpin_fp4_mul_adx, mpin_fp4_sqr_adx) and the additions
// between them run without a conversion to and from MPinCrypto's Swift values at every step.
//
// Each function computes exactly what MPinCrypto's portable Fp12 code computes, with the same
// formulas; every coefficient is reduced to [0, m), so the results are bit for bit the same (the
// tests compare both paths and GMP). Straight-line code: constant time in the operands.
#include "CFieldKernel.h"

#if defined(__x86_64__)
static inline __attribute__((always_inline)) mpin_fp4 fp4_add(mpin_fp4 x, mpin_fp4 y, mpin_limbs4 m) {
    mpin_fp4 r = { mpin_fp2_add(x.a, y.a, m), mpin_fp2_add(x.b, y.b, m) };
    return r;
}

static inline __attribute__((always_inline)) mpin_fp4 fp4_sub(mpin_fp4 x, mpin_fp4 y, mpin_limbs4 m) {
    mpin_fp4 r = { mpin_fp2_sub(x.a, y.a, m), mpin_fp2_sub(x.b, y.b, m) };
    return r;
}

/// ξ·x = (re - im) + (re + im)i, ξ = 1 + i.
static inline __attribute__((always_inline)) mpin_fp2 fp2_mul_xi(mpin_fp2 x, mpin_limbs4 m) {
    mpin_fp2 r = { mpin_sub_mod(x.re, x.im, m), mpin_add_mod(x.re, x.im, m) };
    return r;
}

/// s·(a + b·s) = ξb + a·s.
static inline __attribute__((always_inline)) mpin_fp4 fp4_mul_s(mpin_fp4 x, mpin_limbs4 m) {
    mpin_fp4 r = { fp2_mul_xi(x.b, m), x.a };
    return r;
}

/// (a + b·s)·k for k in F_p²: two F_p² products.
static inline __attribute__((always_inline)) mpin_fp4 fp4_scaled(mpin_fp4 x, mpin_fp2 k, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 r = { mpin_fp2_mul_adx(x.a.re, x.a.im, k.re, k.im, m, inv),
                   mpin_fp2_mul_adx(x.b.re, x.b.im, k.re, k.im, m, inv) };
    return r;
}

mpin_fp12 mpin_fp12_mul_adx(mpin_fp12 x, mpin_fp12 y, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 z0 = mpin_fp4_mul_adx(x.a, y.a, m, inv);
    mpin_fp4 z2 = mpin_fp4_mul_adx(x.b, y.b, m, inv);
    mpin_fp4 z1 = mpin_fp4_mul_adx(fp4_add(x.a, x.b, m), fp4_add(y.a, y.b, m), m, inv);
    z1 = fp4_sub(fp4_sub(z1, z0, m), z2, m);
    mpin_fp4 z3 = fp4_sub(mpin_fp4_mul_adx(fp4_add(x.b, x.c, m), fp4_add(y.b, y.c, m), m, inv), z2, m);
    z2 = fp4_sub(fp4_add(z2, mpin_fp4_mul_adx(fp4_add(x.a, x.c, m), fp4_add(y.a, y.c, m), m, inv), m), z0, m);
    mpin_fp4 t0 = mpin_fp4_mul_adx(x.c, y.c, m, inv);
    z2 = fp4_sub(z2, t0, m);
    z3 = fp4_sub(z3, t0, m);
    mpin_fp12 r = { fp4_add(z0, fp4_mul_s(z3, m), m), fp4_add(z1, fp4_mul_s(t0, m), m), z2 };
    return r;
}

mpin_fp12 mpin_fp12_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 sa = mpin_fp4_sqr_adx(x.a, m, inv);
    mpin_fp4 bc = mpin_fp4_mul_adx(x.b, x.c, m, inv);
    mpin_fp4 sb = fp4_add(bc, bc, m);
    mpin_fp4 sc = mpin_fp4_sqr_adx(x.c, m, inv);
    mpin_fp4 ab = mpin_fp4_mul_adx(x.a, x.b, m, inv);
    mpin_fp4 sd = fp4_add(ab, ab, m);
    mpin_fp4 t = mpin_fp4_sqr_adx(fp4_add(fp4_add(x.a, x.b, m), x.c, m), m, inv);
    mpin_fp4 sum = fp4_add(fp4_add(fp4_add(sa, sb, m), sc, m), sd, m);
    mpin_fp12 r = { fp4_add(sa, fp4_mul_s(sb, m), m), fp4_add(sd, fp4_mul_s(sc, m), m), fp4_sub(t, sum, m) };
    return r;
}

mpin_fp12 mpin_fp12_mul_line_adx(mpin_fp12 x, mpin_fp2 l0, mpin_fp2 l1, mpin_fp2 l3, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 la = { l0, l3 };
    mpin_fp4 z0 = mpin_fp4_mul_adx(x.a, la, m, inv);
    mpin_fp4 z1 = fp4_scaled(x.b, l1, m, inv);
    mpin_fp4 lb = { mpin_fp2_add(l0, l1, m), l3 };
    mpin_fp4 bb = fp4_sub(fp4_sub(mpin_fp4_mul_adx(fp4_add(x.a, x.b, m), lb, m, inv), z0, m), z1, m);
    mpin_fp4 cc = fp4_add(mpin_fp4_mul_adx(x.c, la, m, inv), z1, m);
    mpin_fp4 aa = fp4_add(z0, fp4_mul_s(fp4_scaled(x.c, l1, m, inv), m), m);
    mpin_fp12 r = { aa, bb, cc };
    return r;
}
/// x/2 mod m for x < m: (x + m)/2 when x is odd, x/2 else (mask, no branch; x + m < 2^255).
static inline __attribute__((always_inline)) mpin_limbs4 half_mod(mpin_limbs4 x, mpin_limbs4 m) {
    uint64_t odd = 0 - (x.l[0] & 1);
    unsigned long long c = 0;
    uint64_t s0 = __builtin_addcll(x.l[0], m.l[0] & odd, 0, &c);
    uint64_t s1 = __builtin_addcll(x.l[1], m.l[1] & odd, c, &c);
    uint64_t s2 = __builtin_addcll(x.l[2], m.l[2] & odd, c, &c);
    uint64_t s3 = __builtin_addcll(x.l[3], m.l[3] & odd, c, &c);
    mpin_limbs4 r = {{ s0 >> 1 | s1 << 63, s1 >> 1 | s2 << 63, s2 >> 1 | s3 << 63, s3 >> 1 }};
    return r;
}

static inline __attribute__((always_inline)) mpin_fp2 fp2_half(mpin_fp2 x, mpin_limbs4 m) {
    mpin_fp2 r = { half_mod(x.re, m), half_mod(x.im, m) };
    return r;
}

static inline __attribute__((always_inline)) mpin_fp2 fp2_mul(mpin_fp2 x, mpin_fp2 y, mpin_limbs4 m, uint64_t inv) {
    return mpin_fp2_mul_adx(x.re, x.im, y.re, y.im, m, inv);
}

static inline __attribute__((always_inline)) mpin_fp2 fp2_sqr(mpin_fp2 x, mpin_limbs4 m, uint64_t inv) {
    return mpin_fp2_sqr_adx(x.re, x.im, m, inv);
}

static inline __attribute__((always_inline)) mpin_fp2 fp2_neg(mpin_fp2 x, mpin_limbs4 m) {
    mpin_limbs4 zero = {{ 0, 0, 0, 0 }};
    mpin_fp2 r = { mpin_sub_mod(zero, x.re, m), mpin_sub_mod(zero, x.im, m) };
    return r;
}

static inline __attribute__((always_inline)) mpin_fp2 fp2_triple(mpin_fp2 x, mpin_limbs4 m) {
    return mpin_fp2_add(mpin_fp2_add(x, x, m), x, m);
}

mpin_miller_step mpin_miller_double_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_limbs4 m, uint64_t inv) {
    mpin_fp2 xx = fp2_sqr(x, m, inv);
    mpin_fp2 bb = fp2_sqr(y, m, inv);
    mpin_fp2 cc = fp2_sqr(z, m, inv);
    mpin_fp2 cc3 = fp2_triple(cc, m);
    // e = 3cc·b' with b' = 1 - i: (re + im) + (im - re)i.
    mpin_fp2 e = { mpin_add_mod(cc3.re, cc3.im, m), mpin_sub_mod(cc3.im, cc3.re, m) };
    mpin_fp2 f = fp2_triple(e, m);
    mpin_fp2 h = mpin_fp2_sub(mpin_fp2_sub(fp2_sqr(mpin_fp2_add(y, z, m), m, inv), bb, m), cc, m);
    mpin_miller_step r;
    r.la = h;
    r.lb = fp2_neg(fp2_triple(xx, m), m);
    r.lc = mpin_fp2_sub(bb, e, m);
    mpin_fp2 a = fp2_half(fp2_mul(x, y, m, inv), m);
    mpin_fp2 g = fp2_half(mpin_fp2_add(bb, f, m), m);
    mpin_fp2 e2 = fp2_sqr(e, m, inv);
    r.x = fp2_mul(a, mpin_fp2_sub(bb, f, m), m, inv);
    r.y = mpin_fp2_sub(fp2_sqr(g, m, inv), fp2_triple(e2, m), m);
    r.z = fp2_mul(bb, h, m, inv);
    return r;
}

mpin_miller_step mpin_miller_add_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_fp2 rx, mpin_fp2 ry,
                                     mpin_limbs4 m, uint64_t inv) {
    mpin_fp2 theta = mpin_fp2_sub(y, fp2_mul(ry, z, m, inv), m);
    mpin_fp2 lambda = mpin_fp2_sub(x, fp2_mul(rx, z, m, inv), m);
    mpin_miller_step r;
    r.la = lambda;
    r.lb = fp2_neg(theta, m);
    r.lc = mpin_fp2_sub(fp2_mul(theta, rx, m, inv), fp2_mul(lambda, ry, m, inv), m);
    mpin_fp2 c = fp2_sqr(theta, m, inv);
    mpin_fp2 d = fp2_sqr(lambda, m, inv);
    mpin_fp2 e = fp2_mul(lambda, d, m, inv);
    mpin_fp2 f = fp2_mul(z, c, m, inv);
    mpin_fp2 g = fp2_mul(x, d, m, inv);
    mpin_fp2 h = mpin_fp2_sub(mpin_fp2_add(e, f, m), mpin_fp2_add(g, g, m), m);
    r.x = fp2_mul(lambda, h, m, inv);
    r.y = mpin_fp2_sub(fp2_mul(theta, mpin_fp2_sub(g, h, m), m, inv), fp2_mul(y, e, m, inv), m);
    r.z = fp2_mul(z, e, m, inv);
    return r;
}
#endif
