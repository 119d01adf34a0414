// Inversion modulo the field prime by Bernstein and Yang's divsteps ("Fast constant-time gcd
// computation and modular inversion", TCHES 2019, §§8-11), in constant time, on the x86-64 kernel.
//
// A divstep maps (δ, f, g), f odd, to
//     (1 - δ, g, (g - f)/2)   when δ > 0 and g is odd,
//     (1 + δ, f, (g + f)/2)   when g is odd otherwise,
//     (1 + δ, f, g/2)         when g is even;
// from (1, p, x) it reaches g = 0 with f = ±gcd(p, x) = ±1 within ⌊(49d + 57)/17⌋ steps for
// inputs below 2^d (Theorem 11.2; d = 256: 741). This file runs 12 batches of 62 steps, 744: the
// bound, not the typical case (400,000 random inputs modulo both curves' p all reached g = 0 within
// 9 batches, and most within 8), so no test of values can show a batch too few; the count is fixed by
// the theorem.
// Each batch computes its 62 steps on the low 64 bits of f and g alone (the i-th step reads bit i
// of the inputs at most), as a matrix M with [f; g]·2^62 = M·[f₀; g₀] after it, then applies M
// to the full f and g (an exact division by 2^62) and to d and e, kept with f ≡ d·x and g ≡ e·x
// (mod p), to which a multiple of p is added to make the division exact. At the end
// x⁻¹ = ±d. Every step and batch runs whatever the values (masks behind MPIN_MASK_BARRIER, no
// branch or memory index on them), and 0 maps to 0, as x^(p-2) does.
#include "CFieldKernel.h"

#if defined(__x86_64__)
typedef uint64_t u64;
typedef int64_t i64;
typedef __int128 i128;

#define LOW62 ((((u64)1) << 62) - 1)

/// A signed integer Σ v[i]·2^(62i): v[0..3] in [0, 2^62), v[4] signed (two's complement over the
/// five limbs).
typedef struct { i64 v[5]; } s62;

/// The matrix of a batch, scaled by 2^62: f·2^62 = u·f₀ + v·g₀ and g·2^62 = q·f₀ + r·g₀, with
/// |u| + |v| ≤ 2^62 and |q| + |r| ≤ 2^62 (each step at most doubles a row's sum).
typedef struct { i64 u, v, q, r; } transition;

static inline __attribute__((always_inline)) s62 from_limbs(const u64 *a) {
    s62 x = { { (i64)(a[0] & LOW62), (i64)((a[0] >> 62 | a[1] << 2) & LOW62), (i64)((a[1] >> 60 | a[2] << 4) & LOW62),
                (i64)((a[2] >> 58 | a[3] << 6) & LOW62), (i64)(a[3] >> 56) } };
    return x;
}

/// The limbs of x in [0, 2^256).
static inline __attribute__((always_inline)) void to_limbs(u64 *a, const s62 *x) {
    u64 v0 = (u64)x->v[0], v1 = (u64)x->v[1], v2 = (u64)x->v[2], v3 = (u64)x->v[3], v4 = (u64)x->v[4];
    a[0] = v0 | v1 << 62;
    a[1] = v1 >> 2 | v2 << 60;
    a[2] = v2 >> 4 | v3 << 58;
    a[3] = v3 >> 6 | v4 << 56;
}

/// 62 divsteps from δ on the low 64 bits of f (odd) and g; the batch's matrix in t, δ after it.
/// A step in masks: when g is odd, g ← g - f if δ > 0 and g + f otherwise (f negated under the
/// mask of δ > 0), and then, when both hold, f ← f + (g - f) = g, the swap; the rows follow f and g.
static inline __attribute__((always_inline)) i64 divsteps62(i64 delta, u64 f, u64 g, transition *t) {
    u64 u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 62; i++) {
        u64 positive = (u64)((0 - delta) >> 63);   // δ > 0
        u64 odd = 0 - (g & 1);
        MPIN_MASK_BARRIER(positive);
        MPIN_MASK_BARRIER(odd);
        u64 nf = (f ^ positive) - positive, nu = (u ^ positive) - positive, nv = (v ^ positive) - positive;
        g += nf & odd;
        q += nu & odd;
        r += nv & odd;
        u64 swap = positive & odd;
        delta = (i64)(((u64)delta ^ swap) - swap) + 1;
        f += g & swap;
        u += q & swap;
        v += r & swap;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t->u = (i64)u;
    t->v = (i64)v;
    t->q = (i64)q;
    t->r = (i64)r;
    return delta;
}

/// (x, y) ← (u·x + v·y + kx·p, q·x + r·y + ky·p)/2^62 for the batch's matrix, where the caller has
/// made both sums multiples of 2^62 (the steps do for f and g with kx = ky = 0; update_de chooses
/// k for d and e). Limb by limb in 128-bit sums: each product is below 2^124.
static inline __attribute__((always_inline)) void apply_matrix(s62 *x, s62 *y, const transition *t, i64 kx, i64 ky,
                                                               const s62 *p) {
    i128 cx = (i128)t->u * x->v[0] + (i128)t->v * y->v[0] + (i128)kx * p->v[0];
    i128 cy = (i128)t->q * x->v[0] + (i128)t->r * y->v[0] + (i128)ky * p->v[0];
    cx >>= 62;
    cy >>= 62;
    for (int i = 1; i < 5; i++) {
        cx += (i128)t->u * x->v[i] + (i128)t->v * y->v[i] + (i128)kx * p->v[i];
        cy += (i128)t->q * x->v[i] + (i128)t->r * y->v[i] + (i128)ky * p->v[i];
        x->v[i - 1] = (i64)((u64)cx & LOW62);
        y->v[i - 1] = (i64)((u64)cy & LOW62);
        cx >>= 62;
        cy >>= 62;
    }
    x->v[4] = (i64)cx;
    y->v[4] = (i64)cy;
}

/// x ← x + p when mask is all ones (x + p below 2^63·2^248 on the top limb).
static inline __attribute__((always_inline)) void add_masked(s62 *x, const s62 *p, i64 mask) {
    i64 c = 0;
    for (int i = 0; i < 4; i++) {
        c += x->v[i] + (p->v[i] & mask);
        x->v[i] = (i64)((u64)c & LOW62);
        c >>= 62;
    }
    x->v[4] += c + (p->v[4] & mask);
}

/// x ← x - p when x ≥ p, for x in [0, 2p).
static inline __attribute__((always_inline)) void subtract_if_at_least(s62 *x, const s62 *p) {
    i64 y[5], c = 0;
    for (int i = 0; i < 4; i++) {
        c += x->v[i] - p->v[i];
        y[i] = (i64)((u64)c & LOW62);
        c >>= 62;
    }
    y[4] = x->v[4] - p->v[4] + c;
    i64 keep = y[4] >> 63;   // all ones when x < p
    MPIN_MASK_BARRIER(keep);
    for (int i = 0; i < 5; i++) { x->v[i] = y[i] ^ ((y[i] ^ x->v[i]) & keep); }
}

/// (d, e) ← M·(d, e)/2^62 mod p, for d, e in [0, p), into [0, p): k·p with k in [0, 2^62) makes
/// each sum a multiple of 2^62 (k = sum·(-p⁻¹) mod 2^62, and -p⁻¹ mod 2^64 is the Montgomery
/// constant inv); the quotient lies in [-p, 2p), since |u·d + v·e| ≤ 2^62·p.
static inline __attribute__((always_inline)) void update_de(s62 *d, s62 *e, const transition *t, const s62 *p, u64 inv) {
    u64 kd = ((u64)t->u * (u64)d->v[0] + (u64)t->v * (u64)e->v[0]) * inv & LOW62;
    u64 ke = ((u64)t->q * (u64)d->v[0] + (u64)t->r * (u64)e->v[0]) * inv & LOW62;
    apply_matrix(d, e, t, (i64)kd, (i64)ke, p);
    add_masked(d, p, d->v[4] >> 63);
    add_masked(e, p, e->v[4] >> 63);
    subtract_if_at_least(d, p);
    subtract_if_at_least(e, p);
}

mpin_limbs4 mpin_fp_inverse_adx(mpin_limbs4 a, mpin_limbs4 m, uint64_t inv, mpin_limbs4 r2) {
    s62 p = from_limbs(m.l), f = p, g = from_limbs(a.l), d = { { 0, 0, 0, 0, 0 } }, e = { { 1, 0, 0, 0, 0 } };
    i64 delta = 1;
    for (int batch = 0; batch < 12; batch++) {
        transition t;
        delta = divsteps62(delta, (u64)f.v[0] | (u64)f.v[1] << 62, (u64)g.v[0] | (u64)g.v[1] << 62, &t);
        update_de(&d, &e, &t, &p, inv);
        apply_matrix(&f, &g, &t, 0, 0, &p);
    }
    // f = ±1 (or p when x = 0, with d = 0): x⁻¹ = d, or p - d when f is negative.
    i64 negative = f.v[4] >> 63;
    MPIN_MASK_BARRIER(negative);
    s62 n;
    i64 c = 0;
    for (int i = 0; i < 4; i++) {
        c += p.v[i] - d.v[i];
        n.v[i] = (i64)((u64)c & LOW62);
        c >>= 62;
    }
    n.v[4] = p.v[4] - d.v[4] + c;
    for (int i = 0; i < 5; i++) { d.v[i] ^= (d.v[i] ^ n.v[i]) & negative; }
    // d = (aR)⁻¹ as an integer; a⁻¹·R = d·R² = redc(d·R³), and R³ = redc(R²·R²).
    u64 y[4], w[8], r3[4];
    mpin_limbs4 out;
    to_limbs(y, &d);
    mpin_k_mulw(w, r2.l, r2.l);
    mpin_k_redc(r3, w, m.l, inv);
    mpin_k_mulw(w, y, r3);
    mpin_k_redc(out.l, w, m.l, inv);
    return out;
}
#endif
