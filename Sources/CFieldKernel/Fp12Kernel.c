// The F_p¹² operations of the pairing on the x86-64 kernel (include/CFieldKernel.h), whole in C on
// values in memory (the mpin_k_ helpers), so that the F_p⁴ products and the additions between them
// run without a conversion to and from MPinCrypto's Swift values, or a copy, at every step.
//
// Each function computes exactly what MPinCrypto's portable Fp12 code computes, with the same
// formulas; every coefficient is reduced to [0, m), so the results are bit for bit the same (the
// tests compare both paths and GMP). Straight-line code: constant time in the operands. Offsets in
// words: an F_p² value is 8, an F_p⁴ value 16 (a, b), an F_p¹² value 48 (a, b, c).
#include "CFieldKernel.h"

#if defined(__x86_64__)
typedef uint64_t u64;

static inline __attribute__((always_inline)) void fp2_add(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    mpin_k_add(r, x, y, m);
    mpin_k_add(r + 4, x + 4, y + 4, m);
}

static inline __attribute__((always_inline)) void fp2_sub(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    mpin_k_sub(r, x, y, m);
    mpin_k_sub(r + 4, x + 4, y + 4, m);
}

static inline __attribute__((always_inline)) void fp4_add(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    for (int i = 0; i < 16; i += 4) { mpin_k_add(r + i, x + i, y + i, m); }
}

static inline __attribute__((always_inline)) void fp4_sub(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    for (int i = 0; i < 16; i += 4) { mpin_k_sub(r + i, x + i, y + i, m); }
}

/// r = x + s·y for F_p⁴ values, s·(a + b·s) = ξb + a·s, ξ·(re + im·i) = (re - im) + (re + im)i.
static inline __attribute__((always_inline)) void fp4_add_times_s(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    u64 t[16];
    mpin_k_sub(t, y + 8, y + 12, m);
    mpin_k_add(t + 4, y + 8, y + 12, m);
    for (int i = 0; i < 8; i++) { t[8 + i] = y[i]; }
    fp4_add(r, x, t, m);
}

mpin_fp12 mpin_fp12_mul_adx(mpin_fp12 x, mpin_fp12 y, mpin_limbs4 m, uint64_t inv) {
    const u64 *xa = x.a.a.re.l, *xb = x.b.a.re.l, *xc = x.c.a.re.l;
    const u64 *ya = y.a.a.re.l, *yb = y.b.a.re.l, *yc = y.c.a.re.l;
    const u64 *p = m.l;
    u64 z0[16], z1[16], z2[16], z3[16], t0[16], s[16], t[16];
    mpin_k_fp4_mul(z0, xa, ya, p, inv);
    mpin_k_fp4_mul(z2, xb, yb, p, inv);
    fp4_add(s, xa, xb, p);
    fp4_add(t, ya, yb, p);
    mpin_k_fp4_mul(z1, s, t, p, inv);
    fp4_sub(z1, z1, z0, p);
    fp4_sub(z1, z1, z2, p);
    fp4_add(s, xb, xc, p);
    fp4_add(t, yb, yc, p);
    mpin_k_fp4_mul(z3, s, t, p, inv);
    fp4_sub(z3, z3, z2, p);
    fp4_add(s, xa, xc, p);
    fp4_add(t, ya, yc, p);
    mpin_k_fp4_mul(s, s, t, p, inv);
    fp4_add(z2, z2, s, p);
    fp4_sub(z2, z2, z0, p);
    mpin_k_fp4_mul(t0, xc, yc, p, inv);
    fp4_sub(z2, z2, t0, p);
    fp4_sub(z3, z3, t0, p);
    mpin_fp12 r;
    fp4_add_times_s(r.a.a.re.l, z0, z3, p);
    fp4_add_times_s(r.b.a.re.l, z1, t0, p);
    for (int i = 0; i < 16; i++) { r.c.a.re.l[i] = z2[i]; }
    return r;
}

mpin_fp12 mpin_fp12_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv) {
    const u64 *a = x.a.a.re.l, *b = x.b.a.re.l, *c = x.c.a.re.l;
    const u64 *p = m.l;
    u64 sa[16], sb[16], sc[16], sd[16], t[16], sum[16];
    mpin_k_fp4_sqr(sa, a, p, inv);
    mpin_k_fp4_mul(sb, b, c, p, inv);
    fp4_add(sb, sb, sb, p);
    mpin_k_fp4_sqr(sc, c, p, inv);
    mpin_k_fp4_mul(sd, a, b, p, inv);
    fp4_add(sd, sd, sd, p);
    fp4_add(t, a, b, p);
    fp4_add(t, t, c, p);
    mpin_k_fp4_sqr(t, t, p, inv);
    fp4_add(sum, sa, sb, p);
    fp4_add(sum, sum, sc, p);
    fp4_add(sum, sum, sd, p);
    mpin_fp12 r;
    fp4_add_times_s(r.a.a.re.l, sa, sb, p);
    fp4_add_times_s(r.b.a.re.l, sd, sc, p);
    fp4_sub(r.c.a.re.l, t, sum, p);
    return r;
}

mpin_fp12 mpin_fp12_mul_line_adx(mpin_fp12 x, mpin_fp2 l0, mpin_fp2 l1, mpin_fp2 l3, mpin_limbs4 m, uint64_t inv) {
    const u64 *a = x.a.a.re.l, *b = x.b.a.re.l, *c = x.c.a.re.l;
    const u64 *p = m.l;
    u64 la[16], lb[16], z0[16], z1[16], s[16], bb[16], cc[16], cl[16];
    for (int i = 0; i < 8; i++) {
        la[i] = l0.re.l[i];
        la[8 + i] = l3.re.l[i];
        lb[8 + i] = l3.re.l[i];
    }
    fp2_add(lb, l0.re.l, l1.re.l, p);
    mpin_k_fp4_mul(z0, a, la, p, inv);
    mpin_k_fp2_mul(z1, b, l1.re.l, p, inv);
    mpin_k_fp2_mul(z1 + 8, b + 8, l1.re.l, p, inv);
    fp4_add(s, a, b, p);
    mpin_k_fp4_mul(bb, s, lb, p, inv);
    fp4_sub(bb, bb, z0, p);
    fp4_sub(bb, bb, z1, p);
    mpin_k_fp4_mul(cc, c, la, p, inv);
    fp4_add(cc, cc, z1, p);
    mpin_k_fp2_mul(cl, c, l1.re.l, p, inv);
    mpin_k_fp2_mul(cl + 8, c + 8, l1.re.l, p, inv);
    mpin_fp12 r;
    fp4_add_times_s(r.a.a.re.l, z0, cl, p);
    for (int i = 0; i < 16; i++) {
        r.b.a.re.l[i] = bb[i];
        r.c.a.re.l[i] = cc[i];
    }
    return r;
}

/// r = 3x - 2y = x + 2(x - y) and r = 3x + 2y = x + 2(x + y) in F_p².
static inline __attribute__((always_inline)) void fp2_3x_minus_2y(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    u64 t[8];
    fp2_sub(t, x, y, m);
    fp2_add(t, t, t, m);
    fp2_add(r, x, t, m);
}

static inline __attribute__((always_inline)) void fp2_3x_plus_2y(u64 *r, const u64 *x, const u64 *y, const u64 *m) {
    u64 t[8];
    fp2_add(t, x, y, m);
    fp2_add(t, t, t, m);
    fp2_add(r, x, t, m);
}

mpin_fp12 mpin_fp12_cyclotomic_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv) {
    const u64 *a = x.a.a.re.l, *b = x.b.a.re.l, *c = x.c.a.re.l;
    const u64 *p = m.l;
    u64 a2[16], b2[16], c2[16], xic2b[8];
    mpin_k_fp4_sqr(a2, a, p, inv);
    mpin_k_fp4_sqr(b2, b, p, inv);
    mpin_k_fp4_sqr(c2, c, p, inv);
    mpin_k_sub(xic2b, c2 + 8, c2 + 12, p);
    mpin_k_add(xic2b + 4, c2 + 8, c2 + 12, p);
    mpin_fp12 r;
    u64 *o = r.a.a.re.l;
    fp2_3x_minus_2y(o, a2, a, p);
    fp2_3x_plus_2y(o + 8, a2 + 8, a + 8, p);
    fp2_3x_plus_2y(o + 16, xic2b, b, p);
    fp2_3x_minus_2y(o + 24, c2, b + 8, p);
    fp2_3x_minus_2y(o + 32, b2, c, p);
    fp2_3x_plus_2y(o + 40, b2 + 8, c + 8, p);
    return r;
}

/// x/2 mod m for x < m: (x + m)/2 when x is odd, x/2 else (mask, no branch; x + m < 2^255).
static inline __attribute__((always_inline)) void half_mod(u64 *r, const u64 *x, const u64 *m) {
    u64 odd = 0 - (x[0] & 1);
    MPIN_MASK_BARRIER(odd);
    unsigned long long c = 0;
    u64 s0 = __builtin_addcll(x[0], m[0] & odd, 0, &c);
    u64 s1 = __builtin_addcll(x[1], m[1] & odd, c, &c);
    u64 s2 = __builtin_addcll(x[2], m[2] & odd, c, &c);
    u64 s3 = __builtin_addcll(x[3], m[3] & odd, c, &c);
    r[0] = s0 >> 1 | s1 << 63;
    r[1] = s1 >> 1 | s2 << 63;
    r[2] = s2 >> 1 | s3 << 63;
    r[3] = s3 >> 1;
}

static inline __attribute__((always_inline)) void fp2_half(u64 *r, const u64 *x, const u64 *m) {
    half_mod(r, x, m);
    half_mod(r + 4, x + 4, m);
}

static inline __attribute__((always_inline)) void fp2_triple(u64 *r, const u64 *x, const u64 *m) {
    u64 t[8];
    fp2_add(t, x, x, m);
    fp2_add(r, t, x, m);
}

static inline __attribute__((always_inline)) void fp2_neg(u64 *r, const u64 *x, const u64 *m) {
    static const u64 zero[8] = { 0 };
    fp2_sub(r, zero, x, m);
}

mpin_miller_step mpin_miller_double_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_limbs4 m, uint64_t inv) {
    const u64 *X = x.re.l, *Y = y.re.l, *Z = z.re.l, *p = m.l;
    u64 xx[8], bb[8], cc[8], e[8], f[8], h[8], t[8], a[8], g[8], e2[8];
    mpin_miller_step r;
    mpin_k_fp2_sqr(xx, X, p, inv);
    mpin_k_fp2_sqr(bb, Y, p, inv);
    mpin_k_fp2_sqr(cc, Z, p, inv);
    fp2_triple(t, cc, p);
    // e = 3cc·b' with b' = 1 - i: (re + im) + (im - re)i.
    mpin_k_add(e, t, t + 4, p);
    mpin_k_sub(e + 4, t + 4, t, p);
    fp2_triple(f, e, p);
    fp2_add(t, Y, Z, p);
    mpin_k_fp2_sqr(h, t, p, inv);
    fp2_sub(h, h, bb, p);
    fp2_sub(h, h, cc, p);
    for (int i = 0; i < 8; i++) { r.la.re.l[i] = h[i]; }
    fp2_triple(t, xx, p);
    fp2_neg(r.lb.re.l, t, p);
    fp2_sub(r.lc.re.l, bb, e, p);
    mpin_k_fp2_mul(t, X, Y, p, inv);
    fp2_half(a, t, p);
    fp2_add(t, bb, f, p);
    fp2_half(g, t, p);
    mpin_k_fp2_sqr(e2, e, p, inv);
    fp2_sub(t, bb, f, p);
    mpin_k_fp2_mul(r.x.re.l, a, t, p, inv);
    mpin_k_fp2_sqr(t, g, p, inv);
    fp2_triple(e2, e2, p);
    fp2_sub(r.y.re.l, t, e2, p);
    mpin_k_fp2_mul(r.z.re.l, bb, h, p, inv);
    return r;
}

mpin_miller_step mpin_miller_add_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_fp2 rx, mpin_fp2 ry,
                                     mpin_limbs4 m, uint64_t inv) {
    const u64 *X = x.re.l, *Y = y.re.l, *Z = z.re.l, *RX = rx.re.l, *RY = ry.re.l, *p = m.l;
    u64 theta[8], lambda[8], t[8], u[8], c[8], d[8], e[8], f[8], g[8], h[8];
    mpin_miller_step r;
    mpin_k_fp2_mul(t, RY, Z, p, inv);
    fp2_sub(theta, Y, t, p);
    mpin_k_fp2_mul(t, RX, Z, p, inv);
    fp2_sub(lambda, X, t, p);
    for (int i = 0; i < 8; i++) { r.la.re.l[i] = lambda[i]; }
    fp2_neg(r.lb.re.l, theta, p);
    mpin_k_fp2_mul(t, theta, RX, p, inv);
    mpin_k_fp2_mul(u, lambda, RY, p, inv);
    fp2_sub(r.lc.re.l, t, u, p);
    mpin_k_fp2_sqr(c, theta, p, inv);
    mpin_k_fp2_sqr(d, lambda, p, inv);
    mpin_k_fp2_mul(e, lambda, d, p, inv);
    mpin_k_fp2_mul(f, Z, c, p, inv);
    mpin_k_fp2_mul(g, X, d, p, inv);
    fp2_add(h, e, f, p);
    fp2_add(t, g, g, p);
    fp2_sub(h, h, t, p);
    mpin_k_fp2_mul(r.x.re.l, lambda, h, p, inv);
    fp2_sub(t, g, h, p);
    mpin_k_fp2_mul(t, theta, t, p, inv);
    mpin_k_fp2_mul(u, Y, e, p, inv);
    fp2_sub(r.y.re.l, t, u, p);
    mpin_k_fp2_mul(r.z.re.l, Z, e, p, inv);
    return r;
}

/// The body of mpin_fp12_select16, compiled twice: for the baseline processor (SSE2, two words per
/// operation) and for AVX2 (four; 634 instructions a lookup where SSE2 takes 2,036).
static inline __attribute__((always_inline)) mpin_fp12 select16(const mpin_fp12 *table, uint64_t digit) {
    mpin_fp12 r;
    u64 *o = r.a.a.re.l;
    for (int j = 0; j < 48; j++) { o[j] = 0; }
    for (u64 i = 0; i < 16; i++) {
        u64 x = i ^ digit;
        u64 mask = ((x | (0 - x)) >> 63) - 1;   // all ones when i = digit
        MPIN_MASK_BARRIER(mask);
        const u64 *e = table[i].a.a.re.l;
        for (int j = 0; j < 48; j++) { o[j] |= e[j] & mask; }
    }
    return r;
}

mpin_fp12 mpin_fp12_select16_sse2(const mpin_fp12 *table, uint64_t digit) { return select16(table, digit); }

__attribute__((target("avx2"))) mpin_fp12 mpin_fp12_select16_avx2(const mpin_fp12 *table, uint64_t digit) {
    return select16(table, digit);
}

mpin_fp12 mpin_fp12_select16(const mpin_fp12 *table, uint64_t digit) {
    // The processor's flag, read once at load time (public): the same entry either way.
    return mpin_field_kernel_avx2 ? mpin_fp12_select16_avx2(table, digit) : mpin_fp12_select16_sse2(table, digit);
}
#endif
