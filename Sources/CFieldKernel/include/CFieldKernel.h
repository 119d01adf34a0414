// CFieldKernel: Montgomery multiplication modulo a 254-bit prime with the x86-64 instructions
// MULX (BMI2), ADCX and ADOX (ADX), for MPinCrypto's field arithmetic.
//
// MPinCrypto keeps its portable Swift path (Montgomery.mul) and chooses this kernel at run time
// when the processor has BMI2 and ADX (mpin_field_kernel_available). Both compute the same
// function, a·b·2^-256 mod m reduced to [0, m), and the tests cross-check them against each other
// and against GMP. The functions are static inline so that the Swift compiler inlines them into
// the field arithmetic (no call per multiplication).
//
// Constant time: straight-line code, no branch and no memory index that depends on the operands;
// the final conditional subtraction uses a mask.
#ifndef CFIELD_KERNEL_H
#define CFIELD_KERNEL_H
#include <stdint.h>

/// Hides a mask from the optimiser (an empty assembly statement that "may change" it): without it
/// the compiler may turn `x ^ ((x ^ y) & mask)` back into a comparison and a conditional branch on
/// the secret (the x86 backend's cmov-to-branch conversion did so in loops); `make ct-check` runs
/// the kernel under memcheck too, which reports such a branch.
#define MPIN_MASK_BARRIER(mask) __asm__("" : "+r"(mask))

/// Four 64-bit limbs, least significant first (MPinCrypto's Limbs4).
typedef struct { uint64_t l[4]; } mpin_limbs4;

/// 1 when the processor has BMI2 and ADX and the kernel was compiled for x86-64, else 0; set once
/// at load time. MPIN_FIELD_KERNEL=portable in the environment forces 0 (to time or check the
/// portable path). MPIN_FIELD_KERNEL=kernel forces 1 when cpuid hides BMI2 or ADX but the flags
/// line of /proc/cpuinfo names both (valgrind 3.19's cpuid reports no ADX, so the instruction
/// counts of Scripts/instruction_counts.py would else be of the portable path only); without both
/// flags there it keeps the detected 0, so it can never run an instruction the processor lacks.
extern int mpin_field_kernel_flag;
/// 1 when the kernel is on and cpuid reports AVX2 (the GT table lookup's wider variant), else 0.
extern int mpin_field_kernel_avx2;

static inline int mpin_field_kernel_avx2_available(void) { return mpin_field_kernel_avx2; }

static inline int mpin_field_kernel_available(void) { return mpin_field_kernel_flag; }

/// 1 when the processor has BMI2 and ADX (whatever MPIN_FIELD_KERNEL says), else 0: the tests
/// cross-check the kernel against the portable path whenever it can run.
int mpin_field_kernel_cpu_supported(void);

#if defined(__x86_64__)
/// r = t - m when t >= m, else t, for t = (t0, t1, t2, t3) < 2m: the final subtraction of every
/// reduction and modular sum, the one home of it. The subtraction always runs and a mask from its
/// borrow chooses, with no branch; `barrier` (a constant at every call) puts the mask behind
/// MPIN_MASK_BARRIER, for the callers in loops, where the compiler would else turn the choice into
/// a branch (it costs straight-line code about 10 instructions, so they go without). r may be where
/// t came from.
static inline __attribute__((always_inline))
void mpin_k_reduce_below_2m(uint64_t *r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3, const uint64_t *m,
                            int barrier) {
    unsigned long long borrow = 0;
    uint64_t d0 = __builtin_subcll(t0, m[0], 0, &borrow);
    uint64_t d1 = __builtin_subcll(t1, m[1], borrow, &borrow);
    uint64_t d2 = __builtin_subcll(t2, m[2], borrow, &borrow);
    uint64_t d3 = __builtin_subcll(t3, m[3], borrow, &borrow);
    uint64_t keep = 0 - (uint64_t)borrow;   // all ones when t < m
    if (barrier) { MPIN_MASK_BARRIER(keep); }
    r[0] = d0 ^ ((d0 ^ t0) & keep);
    r[1] = d1 ^ ((d1 ^ t1) & keep);
    r[2] = d2 ^ ((d2 ^ t2) & keep);
    r[3] = d3 ^ ((d3 ^ t3) & keep);
}

/// t - m when t >= m, else t, for t < 2m, on values (``mpin_k_reduce_below_2m``).
static inline __attribute__((always_inline))
mpin_limbs4 mpin_reduce_below_2m(mpin_limbs4 t, mpin_limbs4 m) {
    mpin_limbs4 r;
    mpin_k_reduce_below_2m(r.l, t.l[0], t.l[1], t.l[2], t.l[3], m.l, 0);
    return r;
}

// One word-by-word Montgomery round: t (A, B, C, D; E the top word) += k·m for k = A·inv, so that A
// becomes 0 and (B, C, D, E) is t/2^64 (ADCX carries the low halves of k·m, ADOX the high ones). The
// product below takes E as a fifth register; the reduction of a 512-bit value passes A again.
#define MPIN_REDC_ROUND(A, B, C, D, E) \
        "movq %[inv], %%rdx\n\t" \
        "imulq %[" #A "], %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[m]), %%rax, %%r9\n\t" \
        "adcxq %%rax, %[" #A "]\n\t" \
        "adoxq %%r9, %[" #B "]\n\t" \
        "mulxq 8(%[m]), %%rax, %%r9\n\t" \
        "adcxq %%rax, %[" #B "]\n\t" \
        "adoxq %%r9, %[" #C "]\n\t" \
        "mulxq 16(%[m]), %%rax, %%r9\n\t" \
        "adcxq %%rax, %[" #C "]\n\t" \
        "adoxq %%r9, %[" #D "]\n\t" \
        "mulxq 24(%[m]), %%rax, %%r9\n\t" \
        "adcxq %%rax, %[" #D "]\n\t" \
        "adoxq %%r9, %[" #E "]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %[" #E "]\n\t"

/// a·b·2^-256 mod m for a, b < m < 2^254 (CIOS, "no-carry" variant: m's top limb below 2^62, so no
/// word beyond the fourth is needed), reduced to [0, m). Each round adds a·b_i to the four words of
/// t (ADOX the low halves, ADCX the high ones, a fifth register taking the top), then adds k·m for
/// k = t0·inv and drops the zero low word: the words rotate through five registers instead of
/// moving down. Requires BMI2 and ADX: call it only when mpin_field_kernel_available() is 1.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_mont_mul_adx(mpin_limbs4 a, mpin_limbs4 b, mpin_limbs4 m, uint64_t inv) {
    uint64_t t0, t1, t2, t3, t4;
// (A, B, C, D) += a·b[OFF], the top word into E.
#define MPIN_CIOS_MULTIPLY(OFF, A, B, C, D, E) \
        "movq " #OFF "(%[b]), %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[a]), %%rax, %%r9\n\t" \
        "adoxq %%rax, %[" #A "]\n\t" \
        "mulxq 8(%[a]), %%rax, %[" #E "]\n\t" \
        "adcxq %%r9, %[" #B "]\n\t" \
        "adoxq %%rax, %[" #B "]\n\t" \
        "mulxq 16(%[a]), %%rax, %%r9\n\t" \
        "adcxq %[" #E "], %[" #C "]\n\t" \
        "adoxq %%rax, %[" #C "]\n\t" \
        "mulxq 24(%[a]), %%rax, %[" #E "]\n\t" \
        "adcxq %%r9, %[" #D "]\n\t" \
        "adoxq %%rax, %[" #D "]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %[" #E "]\n\t" \
        "adoxq %%rax, %[" #E "]\n\t"
    __asm__(
        // i = 0: t = a·b0
        "movq 0(%[b]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        "mulxq 0(%[a]), %[t0], %[t1]\n\t"
        "mulxq 8(%[a]), %%rax, %[t2]\n\t"
        "adoxq %%rax, %[t1]\n\t"
        "mulxq 16(%[a]), %%rax, %[t3]\n\t"
        "adoxq %%rax, %[t2]\n\t"
        "mulxq 24(%[a]), %%rax, %[t4]\n\t"
        "adoxq %%rax, %[t3]\n\t"
        "movl $0, %%eax\n\t"
        "adoxq %%rax, %[t4]\n\t"
        MPIN_REDC_ROUND(t0, t1, t2, t3, t4)
        MPIN_CIOS_MULTIPLY(8, t1, t2, t3, t4, t0)
        MPIN_REDC_ROUND(t1, t2, t3, t4, t0)
        MPIN_CIOS_MULTIPLY(16, t2, t3, t4, t0, t1)
        MPIN_REDC_ROUND(t2, t3, t4, t0, t1)
        MPIN_CIOS_MULTIPLY(24, t3, t4, t0, t1, t2)
        MPIN_REDC_ROUND(t3, t4, t0, t1, t2)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4)
        : [a] "r"(a.l), [b] "r"(b.l), [m] "r"(m.l), [inv] "rm"(inv),
          "m"(*(const uint64_t (*)[4])a.l), "m"(*(const uint64_t (*)[4])b.l), "m"(*(const uint64_t (*)[4])m.l)
        : "rax", "rdx", "r9", "cc");
#undef MPIN_CIOS_MULTIPLY
    // t = (t4, t0, t1, t2) < 2m: subtract m when t >= m.
    mpin_limbs4 t = {{ t4, t0, t1, t2 }};
    return mpin_reduce_below_2m(t, m);
}

/// x + y on 256 bits (the callers keep the sum below 2^256).
static inline __attribute__((always_inline))
mpin_limbs4 mpin_add256(mpin_limbs4 x, mpin_limbs4 y) {
    unsigned long long c = 0;
    mpin_limbs4 r;
    r.l[0] = __builtin_addcll(x.l[0], y.l[0], 0, &c);
    r.l[1] = __builtin_addcll(x.l[1], y.l[1], c, &c);
    r.l[2] = __builtin_addcll(x.l[2], y.l[2], c, &c);
    r.l[3] = __builtin_addcll(x.l[3], y.l[3], c, &c);
    return r;
}

/// a + b mod m for a, b < m < 2^255, reduced (mask, no branch). Portable C, used with the kernel.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_add_mod(mpin_limbs4 a, mpin_limbs4 b, mpin_limbs4 m) {
    return mpin_reduce_below_2m(mpin_add256(a, b), m);
}

/// a - b mod m for a, b < m (m added back by mask when a < b, no branch).
static inline __attribute__((always_inline))
mpin_limbs4 mpin_sub_mod(mpin_limbs4 a, mpin_limbs4 b, mpin_limbs4 m) {
    unsigned long long bw = 0, c = 0;
    uint64_t d0 = __builtin_subcll(a.l[0], b.l[0], 0, &bw);
    uint64_t d1 = __builtin_subcll(a.l[1], b.l[1], bw, &bw);
    uint64_t d2 = __builtin_subcll(a.l[2], b.l[2], bw, &bw);
    uint64_t d3 = __builtin_subcll(a.l[3], b.l[3], bw, &bw);
    uint64_t mask = 0 - (uint64_t)bw;
    mpin_limbs4 r;
    r.l[0] = __builtin_addcll(d0, m.l[0] & mask, 0, &c);
    r.l[1] = __builtin_addcll(d1, m.l[1] & mask, c, &c);
    r.l[2] = __builtin_addcll(d2, m.l[2] & mask, c, &c);
    r.l[3] = __builtin_addcll(d3, m.l[3] & mask, c, &c);
    return r;
}
// The extension-field arithmetic works on values in memory through pointers (the k_ helpers):
// each 512-bit product is written once and read once, and no operand is copied to the stack for
// the assembly to address it. Layout: an F_p² value is 8 words (re, im), F_p⁴ 16 (a, b), F_p¹²
// 48 (a, b, c), each coefficient a Montgomery residue in [0, m) on 4 words, least significant first.

/// r[0..8) = a·b (schoolbook, two carry chains). r must not overlap a or b. Requires BMI2 and ADX.
static inline __attribute__((always_inline)) void mpin_k_mulw(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w0, w1, w2, w3, w4;
    __asm__(
        "movq 0(%[b]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        "mulxq 0(%[a]), %[w0], %[w1]\n\t"
        "mulxq 8(%[a]), %%rax, %[w2]\n\t"
        "adoxq %%rax, %[w1]\n\t"
        "mulxq 16(%[a]), %%rax, %[w3]\n\t"
        "adoxq %%rax, %[w2]\n\t"
        "mulxq 24(%[a]), %%rax, %[w4]\n\t"
        "adoxq %%rax, %[w3]\n\t"
        "movl $0, %%eax\n\t"
        "adoxq %%rax, %[w4]\n\t"
        "movq %[w0], 0(%[r])\n\t"
#define MPIN_K_ROW(OFF, R0, R1, R2, R3, R4, OUT) \
        "movq " #OFF "(%[b]), %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[a]), %%rax, %%r9\n\t" \
        "adoxq %%rax, %[" #R0 "]\n\t" \
        "mulxq 8(%[a]), %%rax, %%r8\n\t" \
        "adcxq %%r9, %[" #R1 "]\n\t" \
        "adoxq %%rax, %[" #R1 "]\n\t" \
        "mulxq 16(%[a]), %%rax, %%r9\n\t" \
        "adcxq %%r8, %[" #R2 "]\n\t" \
        "adoxq %%rax, %[" #R2 "]\n\t" \
        "mulxq 24(%[a]), %%rax, %[" #R4 "]\n\t" \
        "adcxq %%r9, %[" #R3 "]\n\t" \
        "adoxq %%rax, %[" #R3 "]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %[" #R4 "]\n\t" \
        "adoxq %%rax, %[" #R4 "]\n\t" \
        "movq %[" #R0 "], " #OUT "(%[r])\n\t"
        MPIN_K_ROW(8, w1, w2, w3, w4, w0, 8)
        MPIN_K_ROW(16, w2, w3, w4, w0, w1, 16)
        MPIN_K_ROW(24, w3, w4, w0, w1, w2, 24)
#undef MPIN_K_ROW
        "movq %[w4], 32(%[r])\n\t"
        "movq %[w0], 40(%[r])\n\t"
        "movq %[w1], 48(%[r])\n\t"
        "movq %[w2], 56(%[r])\n\t"
        : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4)
        : [a] "r"(a), [b] "r"(b), [r] "r"(r)
        : "rax", "rdx", "r8", "r9", "cc", "memory");
}

/// r[0..4) = t·2^-256 mod m, reduced to [0, m), for a 512-bit t < m·2^256 (r may be t). Four
/// word-by-word Montgomery rounds on the low half, k = t0·inv and t ← (t + k·m)/2^64, the words
/// rotating through the registers (ADCX carries the low halves of k·m, ADOX the high ones); the
/// low half becomes (lo + K·m)/2^256 ≤ m, so adding the high half gives t·2^-256 mod m plus at most
/// m - 1, below 2m, and m is subtracted by mask when the sum is at least m. Requires BMI2 and ADX.
static inline __attribute__((always_inline)) void mpin_k_redc(uint64_t *r, const uint64_t *t, const uint64_t *m, uint64_t inv) {
    uint64_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    __asm__(
        MPIN_REDC_ROUND(t0, t1, t2, t3, t0) MPIN_REDC_ROUND(t1, t2, t3, t0, t1)
        MPIN_REDC_ROUND(t2, t3, t0, t1, t2) MPIN_REDC_ROUND(t3, t0, t1, t2, t3)
        : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3)
        : [m] "r"(m), [inv] "r"(inv), "m"(*(const uint64_t (*)[4])m)
        : "rax", "rdx", "r9", "cc");
    unsigned long long c = 0;
    t0 = __builtin_addcll(t0, t[4], 0, &c);
    t1 = __builtin_addcll(t1, t[5], c, &c);
    t2 = __builtin_addcll(t2, t[6], c, &c);
    t3 = __builtin_addcll(t3, t[7], c, &c);
    mpin_k_reduce_below_2m(r, t0, t1, t2, t3, m, 0);
}

/// r = t·2^-256 mod m for a signed (two's complement) 512-bit t with |t| < 7m² (< m·2^256 since
/// m < 2^254): m·2^256 is added when t is negative (sign mask), then ``mpin_k_redc``. t is modified.
static inline __attribute__((always_inline)) void mpin_k_redc_signed(uint64_t *r, uint64_t *t, const uint64_t *m, uint64_t inv) {
    uint64_t mask = (uint64_t)((int64_t)t[7] >> 63);
    unsigned long long c = 0;
    t[4] = __builtin_addcll(t[4], m[0] & mask, 0, &c);
    t[5] = __builtin_addcll(t[5], m[1] & mask, c, &c);
    t[6] = __builtin_addcll(t[6], m[2] & mask, c, &c);
    t[7] = __builtin_addcll(t[7], m[3] & mask, c, &c);
    mpin_k_redc(r, t, m, inv);
}

/// r = x + y on 256 bits (the callers keep the sum below 2^256).
static inline __attribute__((always_inline)) void mpin_k_add256(uint64_t *r, const uint64_t *x, const uint64_t *y) {
    unsigned long long c = 0;
    uint64_t r0 = __builtin_addcll(x[0], y[0], 0, &c);
    uint64_t r1 = __builtin_addcll(x[1], y[1], c, &c);
    uint64_t r2 = __builtin_addcll(x[2], y[2], c, &c);
    uint64_t r3 = __builtin_addcll(x[3], y[3], c, &c);
    r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3;
}

/// r = x + y mod m and r = x - y mod m for x, y < m (masks behind ``MPIN_MASK_BARRIER``, no
/// branch; r may be x or y). The extension-field code calls them in loops, where the compiler's
/// conversion of selects to branches would otherwise apply.
static inline __attribute__((always_inline)) void mpin_k_add(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *m) {
    unsigned long long c = 0;
    uint64_t t0 = __builtin_addcll(x[0], y[0], 0, &c);
    uint64_t t1 = __builtin_addcll(x[1], y[1], c, &c);
    uint64_t t2 = __builtin_addcll(x[2], y[2], c, &c);
    uint64_t t3 = __builtin_addcll(x[3], y[3], c, &c);
    mpin_k_reduce_below_2m(r, t0, t1, t2, t3, m, 1);
}
static inline __attribute__((always_inline)) void mpin_k_sub(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *m) {
    unsigned long long b = 0, c = 0;
    uint64_t d0 = __builtin_subcll(x[0], y[0], 0, &b);
    uint64_t d1 = __builtin_subcll(x[1], y[1], b, &b);
    uint64_t d2 = __builtin_subcll(x[2], y[2], b, &b);
    uint64_t d3 = __builtin_subcll(x[3], y[3], b, &b);
    uint64_t mask = 0 - (uint64_t)b;   // all ones when x < y
    MPIN_MASK_BARRIER(mask);
    uint64_t r0 = __builtin_addcll(d0, m[0] & mask, 0, &c);
    uint64_t r1 = __builtin_addcll(d1, m[1] & mask, c, &c);
    uint64_t r2 = __builtin_addcll(d2, m[2] & mask, c, &c);
    uint64_t r3 = __builtin_addcll(d3, m[3] & mask, c, &c);
    r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3;
}

/// r = x ± y on 512 bits, wrapping (two's complement: the unreduced sums are signed).
static inline __attribute__((always_inline)) void mpin_k_add512(uint64_t *r, const uint64_t *x, const uint64_t *y) {
    unsigned long long c = 0;
    for (int i = 0; i < 8; i++) { r[i] = __builtin_addcll(x[i], y[i], c, &c); }
}
static inline __attribute__((always_inline)) void mpin_k_sub512(uint64_t *r, const uint64_t *x, const uint64_t *y) {
    unsigned long long b = 0;
    for (int i = 0; i < 8; i++) { r[i] = __builtin_subcll(x[i], y[i], b, &b); }
}

/// x·y in F_p² before reduction, for coefficients below m (Karatsuba): re = x0y0 - x1y1 in
/// (-m², m²), im = (x0 + x1)(y0 + y1) - x0y0 - x1y1 = x0y1 + x1y0 in [0, 2m²).
static inline __attribute__((always_inline)) void mpin_k_fp2_mulw(uint64_t *re, uint64_t *im, const uint64_t *x, const uint64_t *y) {
    uint64_t t0[8], t1[8], sx[4], sy[4];
    mpin_k_add256(sx, x, x + 4);
    mpin_k_add256(sy, y, y + 4);
    mpin_k_mulw(t0, x, y);
    mpin_k_mulw(t1, x + 4, y + 4);
    mpin_k_mulw(im, sx, sy);
    mpin_k_sub512(re, t0, t1);
    mpin_k_sub512(im, im, t0);
    mpin_k_sub512(im, im, t1);
}

/// x² in F_p² before reduction: re = (x0 + x1)(x0 - x1) with both factors reduced, in [0, m²);
/// im = 2x0·x1 with 2x0 reduced, in [0, m²).
static inline __attribute__((always_inline)) void mpin_k_fp2_sqrw(uint64_t *re, uint64_t *im, const uint64_t *x, const uint64_t *m) {
    uint64_t s[4], d[4], dbl[4];
    mpin_k_add(s, x, x + 4, m);
    mpin_k_sub(d, x, x + 4, m);
    mpin_k_add(dbl, x, x, m);
    mpin_k_mulw(re, s, d);
    mpin_k_mulw(im, dbl, x + 4);
}

/// r = x·y in F_p²: three 512-bit products, two reductions (r may be x or y).
static inline __attribute__((always_inline)) void mpin_k_fp2_mul(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *m, uint64_t inv) {
    uint64_t re[8], im[8];
    mpin_k_fp2_mulw(re, im, x, y);
    mpin_k_redc_signed(r, re, m, inv);
    mpin_k_redc(r + 4, im, m, inv);
}

/// r = x² in F_p² = (x0 + x1)(x0 - x1) + 2x0x1·i, with x0 - x1 taken as x0 + (m - x1) in (0, 2m) so
/// that no product is negative: two 512-bit products below 4m² < m·2^256, two reductions.
static inline __attribute__((always_inline)) void mpin_k_fp2_sqr(uint64_t *r, const uint64_t *x, const uint64_t *m, uint64_t inv) {
    uint64_t re[8], im[8], s[4], d[4], dbl[4], neg[4];
    unsigned long long b = 0;
    neg[0] = __builtin_subcll(m[0], x[4], 0, &b);
    neg[1] = __builtin_subcll(m[1], x[5], b, &b);
    neg[2] = __builtin_subcll(m[2], x[6], b, &b);
    neg[3] = __builtin_subcll(m[3], x[7], b, &b);
    mpin_k_add256(s, x, x + 4);
    mpin_k_add256(d, x, neg);
    mpin_k_add256(dbl, x, x);
    mpin_k_mulw(re, s, d);
    mpin_k_mulw(im, dbl, x + 4);
    mpin_k_redc(r, re, m, inv);
    mpin_k_redc(r + 4, im, m, inv);
}

/// The F_p⁴ combination shared by the product and the square, one reduction per coefficient (four
/// instead of six): from t0 = x_a·y_a, t1 = x_b·y_b and t2 = (x_a + x_b)(y_a + y_b), unreduced,
/// a = t0 + ξ·t1 = (t0.re + t1.re - t1.im) + (t0.im + t1.re + t1.im)i and b = t2 - t0 - t1. With the
/// ranges of the callers every sum lies in (-4m², 5m²), inside ``mpin_k_redc_signed``'s.
static inline __attribute__((always_inline)) void mpin_k_fp4_combine(uint64_t *r, const uint64_t t0[2][8], const uint64_t t1[2][8],
                                                                     const uint64_t t2[2][8], const uint64_t *m, uint64_t inv) {
    uint64_t w[8];
    mpin_k_add512(w, t0[0], t1[0]);
    mpin_k_sub512(w, w, t1[1]);
    mpin_k_redc_signed(r, w, m, inv);
    mpin_k_add512(w, t0[1], t1[0]);
    mpin_k_add512(w, w, t1[1]);
    mpin_k_redc_signed(r + 4, w, m, inv);
    mpin_k_sub512(w, t2[0], t0[0]);
    mpin_k_sub512(w, w, t1[0]);
    mpin_k_redc_signed(r + 8, w, m, inv);
    mpin_k_sub512(w, t2[1], t0[1]);
    mpin_k_sub512(w, w, t1[1]);
    mpin_k_redc_signed(r + 12, w, m, inv);
}

/// r = x·y in F_p⁴ = F_p²[s]/(s² - ξ) (Karatsuba over F_p², lazy reduction): nine 512-bit
/// products, four reductions (r may be x or y).
static inline __attribute__((always_inline)) void mpin_k_fp4_mul(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *m, uint64_t inv) {
    uint64_t t0[2][8], t1[2][8], t2[2][8], sx[8], sy[8];
    mpin_k_fp2_mulw(t0[0], t0[1], x, y);
    mpin_k_fp2_mulw(t1[0], t1[1], x + 8, y + 8);
    mpin_k_add(sx, x, x + 8, m);
    mpin_k_add(sx + 4, x + 4, x + 12, m);
    mpin_k_add(sy, y, y + 8, m);
    mpin_k_add(sy + 4, y + 4, y + 12, m);
    mpin_k_fp2_mulw(t2[0], t2[1], sx, sy);
    mpin_k_fp4_combine(r, t0, t1, t2, m, inv);
}

/// r = x² in F_p⁴: a² + ξb² and (a + b)² - a² - b², six 512-bit products, four reductions.
static inline __attribute__((always_inline)) void mpin_k_fp4_sqr(uint64_t *r, const uint64_t *x, const uint64_t *m, uint64_t inv) {
    uint64_t t0[2][8], t1[2][8], t2[2][8], sx[8];
    mpin_k_fp2_sqrw(t0[0], t0[1], x, m);
    mpin_k_fp2_sqrw(t1[0], t1[1], x + 8, m);
    mpin_k_add(sx, x, x + 8, m);
    mpin_k_add(sx + 4, x + 4, x + 12, m);
    mpin_k_fp2_sqrw(t2[0], t2[1], sx, m);
    mpin_k_fp4_combine(r, t0, t1, t2, m, inv);
}

/// Eight 64-bit limbs, least significant first: a 512-bit product.
typedef struct { uint64_t l[8]; } mpin_limbs8;

/// The 512-bit product a·b (``mpin_k_mulw``). Requires BMI2 and ADX.
static inline __attribute__((always_inline)) mpin_limbs8 mpin_mul_wide_adx(mpin_limbs4 a, mpin_limbs4 b) {
    mpin_limbs8 r;
    mpin_k_mulw(r.l, a.l, b.l);
    return r;
}

/// x·2^-256 mod m, reduced to [0, m), for a 512-bit x < m·2^256 (``mpin_k_redc``).
static inline __attribute__((always_inline)) mpin_limbs4 mpin_redc_adx(mpin_limbs8 x, mpin_limbs4 m, uint64_t inv) {
    mpin_limbs4 r;
    mpin_k_redc(r.l, x.l, m.l, inv);
    return r;
}

/// x⁻¹ for a Montgomery residue x < m (so x·R⁻¹ ↦ x⁻¹·R), and 0 for 0, as x^(m-2) gives it:
/// Bernstein–Yang divsteps in constant time, then a product by R³ (Inverse.c). m < 2^254 prime,
/// inv = -m⁻¹ mod 2^64, r2 = R² mod m (R = 2^256). Requires BMI2 and ADX.
mpin_limbs4 mpin_fp_inverse_adx(mpin_limbs4 x, mpin_limbs4 m, uint64_t inv, mpin_limbs4 r2);

/// An element of F_p² as two Montgomery residues (re, im).
typedef struct { mpin_limbs4 re, im; } mpin_fp2;

/// (a0 + a1·i)(b0 + b1·i) in F_p[i]/(i² + 1), as MPinCrypto's Montgomery.mulFp2 (``mpin_k_fp2_mul``).
/// Requires m < 2^254 and BMI2, ADX.
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_mul_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 b0, mpin_limbs4 b1, mpin_limbs4 m, uint64_t inv) {
    mpin_fp2 x = { a0, a1 }, y = { b0, b1 }, r;
    mpin_k_fp2_mul(r.re.l, x.re.l, y.re.l, m.l, inv);
    return r;
}

/// (a0 + a1·i)² (``mpin_k_fp2_sqr``). Requires a0, a1 < m < 2^254 and BMI2, ADX.
static inline __attribute__((always_inline)) mpin_fp2 mpin_fp2_sqr_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 m, uint64_t inv) {
    mpin_fp2 x = { a0, a1 }, r;
    mpin_k_fp2_sqr(r.re.l, x.re.l, m.l, inv);
    return r;
}

/// An element of F_p⁴ = F_p²[s]/(s² - ξ), ξ = 1 + i, as (a, b) = a + b·s.
typedef struct { mpin_fp2 a, b; } mpin_fp4;

/// x·y in F_p⁴ (``mpin_k_fp4_mul``). Coefficients below m < 2^254; requires BMI2 and ADX.
static inline __attribute__((always_inline)) mpin_fp4 mpin_fp4_mul_adx(mpin_fp4 x, mpin_fp4 y, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 r;
    mpin_k_fp4_mul(r.a.re.l, x.a.re.l, y.a.re.l, m.l, inv);
    return r;
}

/// x² in F_p⁴ (``mpin_k_fp4_sqr``).
static inline __attribute__((always_inline)) mpin_fp4 mpin_fp4_sqr_adx(mpin_fp4 x, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 r;
    mpin_k_fp4_sqr(r.a.re.l, x.a.re.l, m.l, inv);
    return r;
}

/// An element of F_p¹² = F_p⁴[w]/(w³ - s) as a + b·w + c·w².
typedef struct { mpin_fp4 a, b, c; } mpin_fp12;

/// Granger–Scott squaring of a unitary element (MPinCrypto's Fp12.unitarySquared, AMCL's
/// FP12_usqr), in Fp12Kernel.c: a' = 3a² - 2·conj(a), b' = 3s·c² + 2·conj(b), c' = 3b² - 2·conj(c),
/// with conj(x + ys) = x - ys and s·(x + ys) = ξy + xs. Three F_p⁴ squarings and the linear
/// combinations, every coefficient reduced, so the result is the portable path's bit for bit.
mpin_fp12 mpin_fp12_cyclotomic_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv);

/// x·y in F_p¹² (Karatsuba over the cubic extension, six F_p⁴ products), as MPinCrypto's Fp12 `*`
/// (Fp12Kernel.c). Requires BMI2 and ADX.
mpin_fp12 mpin_fp12_mul_adx(mpin_fp12 x, mpin_fp12 y, mpin_limbs4 m, uint64_t inv);

/// x² in F_p¹² (Chung–Hasan: three F_p⁴ squarings, two products), as Fp12.squared (Fp12Kernel.c).
mpin_fp12 mpin_fp12_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv);

/// x·(l0 + l1·w + l3·w³), the sparse product by a Miller-loop line, as Fp12.multipliedByLine
/// (Fp12Kernel.c): three F_p⁴ products and four F_p² products.
mpin_fp12 mpin_fp12_mul_line_adx(mpin_fp12 x, mpin_fp2 l0, mpin_fp2 l1, mpin_fp2 l3, mpin_limbs4 m, uint64_t inv);

/// table[digit] for a secret digit in 0..<16: every entry is read and combined under a mask that
/// is all ones for the digit's entry alone (no branch and no memory index on the digit), as
/// MPinCrypto's GTExponentiation.lookup (Fp12Kernel.c).
mpin_fp12 mpin_fp12_select16(const mpin_fp12 *table, uint64_t digit);

/// mpin_fp12_select16's two variants, which it chooses between by mpin_field_kernel_avx2: SSE2 (any
/// x86-64) and AVX2 (only where cpuid reports it). Declared for the tests, which hold both to it.
mpin_fp12 mpin_fp12_select16_sse2(const mpin_fp12 *table, uint64_t digit);
mpin_fp12 mpin_fp12_select16_avx2(const mpin_fp12 *table, uint64_t digit);

/// One step of the Miller loop on the twist: the running point (x, y, z) after it and the line's
/// coefficients (la, lb, lc) before P enters (MPinCrypto's Pairing.LineState).
typedef struct { mpin_fp2 x, y, z, la, lb, lc; } mpin_miller_step;

/// The tangent at T = (x, y, z) and 2T, as LineState.doubleLine for the twist's b' = 1 - i
/// (Fp12Kernel.c).
mpin_miller_step mpin_miller_double_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_limbs4 m, uint64_t inv);

/// The chord through T = (x, y, z) and R = (rx, ry) (affine) and T + R, as LineState.addLine
/// (Fp12Kernel.c).
mpin_miller_step mpin_miller_add_adx(mpin_fp2 x, mpin_fp2 y, mpin_fp2 z, mpin_fp2 rx, mpin_fp2 ry,
                                     mpin_limbs4 m, uint64_t inv);
#endif

#endif
