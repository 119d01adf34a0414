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

/// Four 64-bit limbs, least significant first (MPinCrypto's Limbs4).
typedef struct { uint64_t l[4]; } mpin_limbs4;

/// 1 when the processor has BMI2 and ADX and the kernel was compiled for x86-64, else 0; set once
/// at load time. MPIN_FIELD_KERNEL=portable in the environment forces 0 (to time or check the
/// portable path). MPIN_FIELD_KERNEL=kernel forces 1 when cpuid hides BMI2 or ADX but the flags
/// line of /proc/cpuinfo names both (valgrind 3.19's cpuid reports no ADX, so the instruction
/// counts of Scripts/instruction_counts.py would else be of the portable path only); without both
/// flags there it keeps the detected 0, so it can never run an instruction the processor lacks.
extern int mpin_field_kernel_flag;

static inline int mpin_field_kernel_available(void) { return mpin_field_kernel_flag; }

/// 1 when the processor has BMI2 and ADX (whatever MPIN_FIELD_KERNEL says), else 0: the tests
/// cross-check the kernel against the portable path whenever it can run.
int mpin_field_kernel_cpu_supported(void);

#if defined(__x86_64__)
/// t - m when t >= m, else t, for t < 2m (the final subtraction of every reduction): the
/// subtraction always runs and a mask from its borrow chooses, with no branch.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_reduce_below_2m(mpin_limbs4 t, mpin_limbs4 m) {
    unsigned long long borrow = 0;
    uint64_t d0 = __builtin_subcll(t.l[0], m.l[0], 0, &borrow);
    uint64_t d1 = __builtin_subcll(t.l[1], m.l[1], borrow, &borrow);
    uint64_t d2 = __builtin_subcll(t.l[2], m.l[2], borrow, &borrow);
    uint64_t d3 = __builtin_subcll(t.l[3], m.l[3], borrow, &borrow);
    uint64_t keep = 0 - (uint64_t)borrow;   // all ones when t < m
    mpin_limbs4 r = {{ d0 ^ ((d0 ^ t.l[0]) & keep), d1 ^ ((d1 ^ t.l[1]) & keep),
                       d2 ^ ((d2 ^ t.l[2]) & keep), d3 ^ ((d3 ^ t.l[3]) & keep) }};
    return r;
}

/// a·b·2^-256 mod m for a, b < m < 2^254 (CIOS, "no-carry" variant: m's top limb below 2^62, so no
/// word beyond the fourth is needed), reduced to [0, m). Requires BMI2 and ADX: call it only when
/// mpin_field_kernel_available() is 1.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_mont_mul_adx(mpin_limbs4 a, mpin_limbs4 b, mpin_limbs4 m, uint64_t inv) {
    uint64_t t0, t1, t2, t3;
    __asm__(
        // i = 0: t = a·b0
        "movq 0(%[b]), %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        "mulxq 0(%[a]), %[t0], %[t1]\n\t"
        "mulxq 8(%[a]), %%rax, %[t2]\n\t"
        "adoxq %%rax, %[t1]\n\t"
        "mulxq 16(%[a]), %%rax, %[t3]\n\t"
        "adoxq %%rax, %[t2]\n\t"
        "mulxq 24(%[a]), %%rax, %%r8\n\t"
        "adoxq %%rax, %[t3]\n\t"
        "movl $0, %%eax\n\t"
        "adoxq %%rax, %%r8\n\t"
        // reduce: t = (t + k·m) / 2^64, k = t0·inv
        "movq %[inv], %%rdx\n\t"
        "imulq %[t0], %%rdx\n\t"
        "xorl %%eax, %%eax\n\t"
        "mulxq 0(%[m]), %%rax, %%r9\n\t"
        "adcxq %[t0], %%rax\n\t"
        "movq %%r9, %[t0]\n\t"
        "mulxq 8(%[m]), %%rax, %%r9\n\t"
        "adcxq %[t1], %[t0]\n\t"
        "adoxq %%rax, %[t0]\n\t"
        "movq %%r9, %[t1]\n\t"
        "mulxq 16(%[m]), %%rax, %%r9\n\t"
        "adcxq %[t2], %[t1]\n\t"
        "adoxq %%rax, %[t1]\n\t"
        "movq %%r9, %[t2]\n\t"
        "mulxq 24(%[m]), %%rax, %%r9\n\t"
        "adcxq %[t3], %[t2]\n\t"
        "adoxq %%rax, %[t2]\n\t"
        "movq %%r9, %[t3]\n\t"
        "movl $0, %%eax\n\t"
        "adcxq %%rax, %[t3]\n\t"
        "adoxq %%r8, %[t3]\n\t"
#define MPIN_CIOS_ROUND(OFF) \
        "movq " #OFF "(%[b]), %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[a]), %%rax, %%r9\n\t" \
        "adoxq %%rax, %[t0]\n\t" \
        "mulxq 8(%[a]), %%rax, %%r8\n\t" \
        "adcxq %%r9, %[t1]\n\t" \
        "adoxq %%rax, %[t1]\n\t" \
        "mulxq 16(%[a]), %%rax, %%r9\n\t" \
        "adcxq %%r8, %[t2]\n\t" \
        "adoxq %%rax, %[t2]\n\t" \
        "mulxq 24(%[a]), %%rax, %%r8\n\t" \
        "adcxq %%r9, %[t3]\n\t" \
        "adoxq %%rax, %[t3]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %%r8\n\t" \
        "adoxq %%rax, %%r8\n\t" \
        "movq %[inv], %%rdx\n\t" \
        "imulq %[t0], %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t0], %%rax\n\t" \
        "movq %%r9, %[t0]\n\t" \
        "mulxq 8(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t1], %[t0]\n\t" \
        "adoxq %%rax, %[t0]\n\t" \
        "movq %%r9, %[t1]\n\t" \
        "mulxq 16(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t2], %[t1]\n\t" \
        "adoxq %%rax, %[t1]\n\t" \
        "movq %%r9, %[t2]\n\t" \
        "mulxq 24(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t3], %[t2]\n\t" \
        "adoxq %%rax, %[t2]\n\t" \
        "movq %%r9, %[t3]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %[t3]\n\t" \
        "adoxq %%r8, %[t3]\n\t"
        MPIN_CIOS_ROUND(8)
        MPIN_CIOS_ROUND(16)
        MPIN_CIOS_ROUND(24)
#undef MPIN_CIOS_ROUND
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
        : [a] "r"(a.l), [b] "r"(b.l), [m] "r"(m.l), [inv] "rm"(inv),
          "m"(*(const uint64_t (*)[4])a.l), "m"(*(const uint64_t (*)[4])b.l), "m"(*(const uint64_t (*)[4])m.l)
        : "rax", "rdx", "r8", "r9", "cc");
    // t < 2m: subtract m when t >= m.
    mpin_limbs4 t = {{ t0, t1, t2, t3 }};
    return mpin_reduce_below_2m(t, m);
}

/// Eight 64-bit limbs, least significant first: a 512-bit product.
typedef struct { uint64_t l[8]; } mpin_limbs8;

/// The 512-bit product a·b (schoolbook, two carry chains). Requires BMI2 and ADX.
static inline __attribute__((always_inline))
mpin_limbs8 mpin_mul_wide_adx(mpin_limbs4 a, mpin_limbs4 b) {
    mpin_limbs8 r;
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
#define MPIN_WIDE_ROW(OFF, R0, R1, R2, R3, R4, OUT) \
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
        MPIN_WIDE_ROW(8, w1, w2, w3, w4, w0, 8)
        MPIN_WIDE_ROW(16, w2, w3, w4, w0, w1, 16)
        MPIN_WIDE_ROW(24, w3, w4, w0, w1, w2, 24)
#undef MPIN_WIDE_ROW
        "movq %[w4], 32(%[r])\n\t"
        "movq %[w0], 40(%[r])\n\t"
        "movq %[w1], 48(%[r])\n\t"
        "movq %[w2], 56(%[r])\n\t"
        : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4),
          "=m"(*(uint64_t (*)[8])r.l)
        : [a] "r"(a.l), [b] "r"(b.l), [r] "r"(r.l),
          "m"(*(const uint64_t (*)[4])a.l), "m"(*(const uint64_t (*)[4])b.l)
        : "rax", "rdx", "r8", "r9", "cc");
    return r;
}

/// Montgomery reduction of the low half: (lo + K·m) / 2^256 with K < 2^256 chosen so that the
/// division is exact; the result is at most m. Adding the high half of a 512-bit t < m·2^256 gives
/// t·2^-256 mod m plus at most m - 1, below 2m. Requires BMI2 and ADX.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_redc_low_adx(mpin_limbs4 lo, mpin_limbs4 m, uint64_t inv) {
    uint64_t t0 = lo.l[0], t1 = lo.l[1], t2 = lo.l[2], t3 = lo.l[3];
#define MPIN_REDC_ROUND \
        "movq %[inv], %%rdx\n\t" \
        "imulq %[t0], %%rdx\n\t" \
        "xorl %%eax, %%eax\n\t" \
        "mulxq 0(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t0], %%rax\n\t" \
        "movq %%r9, %[t0]\n\t" \
        "mulxq 8(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t1], %[t0]\n\t" \
        "adoxq %%rax, %[t0]\n\t" \
        "movq %%r9, %[t1]\n\t" \
        "mulxq 16(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t2], %[t1]\n\t" \
        "adoxq %%rax, %[t1]\n\t" \
        "movq %%r9, %[t2]\n\t" \
        "mulxq 24(%[m]), %%rax, %%r9\n\t" \
        "adcxq %[t3], %[t2]\n\t" \
        "adoxq %%rax, %[t2]\n\t" \
        "movq %%r9, %[t3]\n\t" \
        "movl $0, %%eax\n\t" \
        "adcxq %%rax, %[t3]\n\t" \
        "adoxq %%rax, %[t3]\n\t"
    __asm__(
        MPIN_REDC_ROUND MPIN_REDC_ROUND MPIN_REDC_ROUND MPIN_REDC_ROUND
        : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3)
        : [m] "r"(m.l), [inv] "rm"(inv), "m"(*(const uint64_t (*)[4])m.l)
        : "rax", "rdx", "r9", "cc");
#undef MPIN_REDC_ROUND
    mpin_limbs4 r = {{ t0, t1, t2, t3 }};
    return r;
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

/// x - y on 512 bits, and the borrow out (0 or 1).
static inline __attribute__((always_inline))
mpin_limbs8 mpin_sub512(mpin_limbs8 x, mpin_limbs8 y, uint64_t *borrowOut) {
    unsigned long long b = 0;
    mpin_limbs8 r;
    for (int i = 0; i < 8; i++) { r.l[i] = __builtin_subcll(x.l[i], y.l[i], b, &b); }
    *borrowOut = b;
    return r;
}

/// x·2^-256 mod m, reduced to [0, m), for a 512-bit x < m·2^256: the low half's reduction, plus
/// the high half, minus m when that is at least m (mask, no branch).
static inline __attribute__((always_inline))
mpin_limbs4 mpin_redc_adx(mpin_limbs8 x, mpin_limbs4 m, uint64_t inv) {
    mpin_limbs4 lo = {{ x.l[0], x.l[1], x.l[2], x.l[3] }}, hi = {{ x.l[4], x.l[5], x.l[6], x.l[7] }};
    return mpin_reduce_below_2m(mpin_add256(mpin_redc_low_adx(lo, m, inv), hi), m);   // sum < 2m
}

/// An element of F_p² as two Montgomery residues (re, im).
typedef struct { mpin_limbs4 re, im; } mpin_fp2;

/// (a0 + a1·i)(b0 + b1·i) in F_p[i]/(i² + 1) (Karatsuba with lazy reduction, as MPinCrypto's
/// Montgomery.mulFp2): three 512-bit products, two reductions. re = a0b0 - a1b1 (+ m·2^256 when
/// negative, by mask), im = (a0 + a1)(b0 + b1) - a0b0 - a1b1. Requires m < 2^254 and BMI2, ADX.
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_mul_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 b0, mpin_limbs4 b1,
                          mpin_limbs4 m, uint64_t inv) {
    mpin_limbs8 t0 = mpin_mul_wide_adx(a0, b0);
    mpin_limbs8 t1 = mpin_mul_wide_adx(a1, b1);
    mpin_limbs8 t2 = mpin_mul_wide_adx(mpin_add256(a0, a1), mpin_add256(b0, b1));
    uint64_t borrow, unused;
    mpin_limbs8 re = mpin_sub512(t0, t1, &borrow);
    uint64_t mask = 0 - borrow;
    unsigned long long c = 0;
    re.l[4] = __builtin_addcll(re.l[4], m.l[0] & mask, 0, &c);
    re.l[5] = __builtin_addcll(re.l[5], m.l[1] & mask, c, &c);
    re.l[6] = __builtin_addcll(re.l[6], m.l[2] & mask, c, &c);
    re.l[7] = __builtin_addcll(re.l[7], m.l[3] & mask, c, &c);
    mpin_limbs8 im = mpin_sub512(mpin_sub512(t2, t0, &unused), t1, &unused);
    mpin_fp2 r = { mpin_redc_adx(re, m, inv), mpin_redc_adx(im, m, inv) };
    return r;
}

/// (a0 + a1·i)² = (a0 + a1)(a0 - a1) + 2·a0·a1·i, with a0 - a1 taken as a0 + (m - a1) in (0, 2m)
/// so that no product is negative: two 512-bit products below 4m² < m·2^256, two reductions.
/// Requires a0, a1 < m < 2^254 and BMI2, ADX.
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_sqr_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 m, uint64_t inv) {
    unsigned long long b = 0;
    mpin_limbs4 negA1;
    negA1.l[0] = __builtin_subcll(m.l[0], a1.l[0], 0, &b);
    negA1.l[1] = __builtin_subcll(m.l[1], a1.l[1], b, &b);
    negA1.l[2] = __builtin_subcll(m.l[2], a1.l[2], b, &b);
    negA1.l[3] = __builtin_subcll(m.l[3], a1.l[3], b, &b);
    mpin_limbs8 re = mpin_mul_wide_adx(mpin_add256(a0, a1), mpin_add256(a0, negA1));
    mpin_limbs8 im = mpin_mul_wide_adx(mpin_add256(a0, a0), a1);
    mpin_fp2 r = { mpin_redc_adx(re, m, inv), mpin_redc_adx(im, m, inv) };
    return r;
}
/// x + y on 512 bits, wrapping (two's complement: the F_p⁴ kernels add signed sums).
static inline __attribute__((always_inline))
mpin_limbs8 mpin_add512(mpin_limbs8 x, mpin_limbs8 y) {
    unsigned long long c = 0;
    mpin_limbs8 r;
    for (int i = 0; i < 8; i++) { r.l[i] = __builtin_addcll(x.l[i], y.l[i], c, &c); }
    return r;
}

/// x - y on 512 bits, wrapping.
static inline __attribute__((always_inline))
mpin_limbs8 mpin_sub512w(mpin_limbs8 x, mpin_limbs8 y) {
    uint64_t unused;
    return mpin_sub512(x, y, &unused);
}

/// x·2^-256 mod m for a signed 512-bit x with |x| < 7m² (< m·2^256 since m < 2^254): m·2^256 is
/// added when x is negative (sign mask), then ``mpin_redc_adx``.
static inline __attribute__((always_inline))
mpin_limbs4 mpin_redc_signed_adx(mpin_limbs8 x, mpin_limbs4 m, uint64_t inv) {
    uint64_t mask = (uint64_t)((int64_t)x.l[7] >> 63);
    unsigned long long c = 0;
    x.l[4] = __builtin_addcll(x.l[4], m.l[0] & mask, 0, &c);
    x.l[5] = __builtin_addcll(x.l[5], m.l[1] & mask, c, &c);
    x.l[6] = __builtin_addcll(x.l[6], m.l[2] & mask, c, &c);
    x.l[7] = __builtin_addcll(x.l[7], m.l[3] & mask, c, &c);
    return mpin_redc_adx(x, m, inv);
}

/// An unreduced F_p² value: two signed 512-bit integers (re, im).
typedef struct { mpin_limbs8 re, im; } mpin_fp2_wide;

/// (a0 + a1·i)(b0 + b1·i) before reduction, for coefficients below m: re = a0b0 - a1b1 in
/// (-m², m²), im = (a0 + a1)(b0 + b1) - a0b0 - a1b1 = a0b1 + a1b0 in [0, 2m²).
static inline __attribute__((always_inline))
mpin_fp2_wide mpin_fp2_mul_wide_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 b0, mpin_limbs4 b1) {
    mpin_limbs8 t0 = mpin_mul_wide_adx(a0, b0);
    mpin_limbs8 t1 = mpin_mul_wide_adx(a1, b1);
    mpin_limbs8 t2 = mpin_mul_wide_adx(mpin_add256(a0, a1), mpin_add256(b0, b1));
    mpin_fp2_wide r = { mpin_sub512w(t0, t1), mpin_sub512w(mpin_sub512w(t2, t0), t1) };
    return r;
}

/// (a0 + a1·i)² before reduction, for coefficients below m: re = (a0 + a1)(a0 - a1) with both
/// factors reduced, in [0, m²); im = 2a0·a1 with 2a0 reduced, in [0, m²).
static inline __attribute__((always_inline))
mpin_fp2_wide mpin_fp2_sqr_wide_adx(mpin_limbs4 a0, mpin_limbs4 a1, mpin_limbs4 m) {
    mpin_fp2_wide r = { mpin_mul_wide_adx(mpin_add_mod(a0, a1, m), mpin_sub_mod(a0, a1, m)),
                        mpin_mul_wide_adx(mpin_add_mod(a0, a0, m), a1) };
    return r;
}

/// An element of F_p⁴ = F_p²[s]/(s² - ξ), ξ = 1 + i, as (a, b) = a + b·s.
typedef struct { mpin_fp2 a, b; } mpin_fp4;

/// The F_p⁴ combination shared by the product and the square, with one reduction per coefficient
/// (four instead of six): from t0 = x_a·y_a, t1 = x_b·y_b and t2 = (x_a + x_b)(y_a + y_b), unreduced,
/// a = t0 + ξ·t1 = (t0.re + t1.re - t1.im) + (t0.im + t1.re + t1.im)i and b = t2 - t0 - t1. With
/// the ranges of the callers every sum lies in (-4m², 5m²), inside ``mpin_redc_signed_adx``'s.
static inline __attribute__((always_inline))
mpin_fp4 mpin_fp4_combine_adx(mpin_fp2_wide t0, mpin_fp2_wide t1, mpin_fp2_wide t2, mpin_limbs4 m, uint64_t inv) {
    mpin_limbs8 are = mpin_sub512w(mpin_add512(t0.re, t1.re), t1.im);
    mpin_limbs8 aim = mpin_add512(mpin_add512(t0.im, t1.re), t1.im);
    mpin_limbs8 bre = mpin_sub512w(mpin_sub512w(t2.re, t0.re), t1.re);
    mpin_limbs8 bim = mpin_sub512w(mpin_sub512w(t2.im, t0.im), t1.im);
    mpin_fp4 r = { { mpin_redc_signed_adx(are, m, inv), mpin_redc_signed_adx(aim, m, inv) },
                   { mpin_redc_signed_adx(bre, m, inv), mpin_redc_signed_adx(bim, m, inv) } };
    return r;
}

/// x·y in F_p⁴ (Karatsuba over F_p², lazy reduction): nine 512-bit products, four reductions.
/// Coefficients below m < 2^254; requires BMI2 and ADX.
static inline __attribute__((always_inline))
mpin_fp4 mpin_fp4_mul_adx(mpin_fp4 x, mpin_fp4 y, mpin_limbs4 m, uint64_t inv) {
    mpin_fp2_wide t0 = mpin_fp2_mul_wide_adx(x.a.re, x.a.im, y.a.re, y.a.im);
    mpin_fp2_wide t1 = mpin_fp2_mul_wide_adx(x.b.re, x.b.im, y.b.re, y.b.im);
    mpin_fp2_wide t2 = mpin_fp2_mul_wide_adx(mpin_add_mod(x.a.re, x.b.re, m), mpin_add_mod(x.a.im, x.b.im, m),
                                             mpin_add_mod(y.a.re, y.b.re, m), mpin_add_mod(y.a.im, y.b.im, m));
    return mpin_fp4_combine_adx(t0, t1, t2, m, inv);
}

/// x² in F_p⁴: a² + ξb² and (a + b)² - a² - b², six 512-bit products, four reductions.
static inline __attribute__((always_inline))
mpin_fp4 mpin_fp4_sqr_adx(mpin_fp4 x, mpin_limbs4 m, uint64_t inv) {
    mpin_fp2_wide t0 = mpin_fp2_sqr_wide_adx(x.a.re, x.a.im, m);
    mpin_fp2_wide t1 = mpin_fp2_sqr_wide_adx(x.b.re, x.b.im, m);
    mpin_fp2_wide t2 = mpin_fp2_sqr_wide_adx(mpin_add_mod(x.a.re, x.b.re, m), mpin_add_mod(x.a.im, x.b.im, m), m);
    return mpin_fp4_combine_adx(t0, t1, t2, m, inv);
}
/// x ± y and 2x in F_p², coefficient by coefficient (reduced, no branch).
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_add(mpin_fp2 x, mpin_fp2 y, mpin_limbs4 m) {
    mpin_fp2 r = { mpin_add_mod(x.re, y.re, m), mpin_add_mod(x.im, y.im, m) };
    return r;
}
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_sub(mpin_fp2 x, mpin_fp2 y, mpin_limbs4 m) {
    mpin_fp2 r = { mpin_sub_mod(x.re, y.re, m), mpin_sub_mod(x.im, y.im, m) };
    return r;
}

/// 3x - 2y = x + 2(x - y) and 3x + 2y = x + 2(x + y) in F_p².
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_3x_minus_2y(mpin_fp2 x, mpin_fp2 y, mpin_limbs4 m) {
    mpin_fp2 t = mpin_fp2_sub(x, y, m);
    return mpin_fp2_add(x, mpin_fp2_add(t, t, m), m);
}
static inline __attribute__((always_inline))
mpin_fp2 mpin_fp2_3x_plus_2y(mpin_fp2 x, mpin_fp2 y, mpin_limbs4 m) {
    mpin_fp2 t = mpin_fp2_add(x, y, m);
    return mpin_fp2_add(x, mpin_fp2_add(t, t, m), m);
}

/// An element of F_p¹² = F_p⁴[w]/(w³ - s) as a + b·w + c·w².
typedef struct { mpin_fp4 a, b, c; } mpin_fp12;

/// Granger–Scott squaring of a unitary element (MPinCrypto's Fp12.unitarySquared, AMCL's
/// FP12_usqr): a' = 3a² - 2·conj(a), b' = 3s·c² + 2·conj(b), c' = 3b² - 2·conj(c), with conj(x + ys)
/// = x - ys and s·(x + ys) = ξy + xs. Three F_p⁴ squarings (``mpin_fp4_sqr_adx``) and the linear
/// combinations here, every coefficient reduced, so the result is the portable path's bit for bit.
static inline __attribute__((always_inline))
mpin_fp12 mpin_fp12_cyclotomic_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv) {
    mpin_fp4 a2 = mpin_fp4_sqr_adx(x.a, m, inv);
    mpin_fp4 b2 = mpin_fp4_sqr_adx(x.b, m, inv);
    mpin_fp4 c2 = mpin_fp4_sqr_adx(x.c, m, inv);
    mpin_fp2 xiC2b = { mpin_sub_mod(c2.b.re, c2.b.im, m), mpin_add_mod(c2.b.re, c2.b.im, m) };
    mpin_fp12 r;
    r.a.a = mpin_fp2_3x_minus_2y(a2.a, x.a.a, m);
    r.a.b = mpin_fp2_3x_plus_2y(a2.b, x.a.b, m);
    r.b.a = mpin_fp2_3x_plus_2y(xiC2b, x.b.a, m);
    r.b.b = mpin_fp2_3x_minus_2y(c2.a, x.b.b, m);
    r.c.a = mpin_fp2_3x_minus_2y(b2.a, x.c.a, m);
    r.c.b = mpin_fp2_3x_plus_2y(b2.b, x.c.b, m);
    return r;
}

/// x·y in F_p¹² (Karatsuba over the cubic extension, six F_p⁴ products), as MPinCrypto's Fp12 `*`
/// (Fp12Kernel.c). Requires BMI2 and ADX.
mpin_fp12 mpin_fp12_mul_adx(mpin_fp12 x, mpin_fp12 y, mpin_limbs4 m, uint64_t inv);

/// x² in F_p¹² (Chung–Hasan: three F_p⁴ squarings, two products), as Fp12.squared (Fp12Kernel.c).
mpin_fp12 mpin_fp12_sqr_adx(mpin_fp12 x, mpin_limbs4 m, uint64_t inv);

/// x·(l0 + l1·w + l3·w³), the sparse product by a Miller-loop line, as Fp12.multipliedByLine
/// (Fp12Kernel.c): three F_p⁴ products and four F_p² products.
mpin_fp12 mpin_fp12_mul_line_adx(mpin_fp12 x, mpin_fp2 l0, mpin_fp2 l1, mpin_fp2 l3, mpin_limbs4 m, uint64_t inv);

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
