/* mpi kernel "adx": x86-64 BMI2 MULX + ADX ADCX/ADOX.
 *
 * muladd: d += s*b with two independent carry chains per limb (Intel white
 * paper "New Instructions Supporting Large Integer Arithmetic on Intel
 * Architecture Processors", 2012): ADCX (CF) adds the previous high half to
 * the low half, ADOX (OF) adds d[i]. 8 limbs per iteration, a 1-limb loop for
 * n % 8 first; loop control uses LEA/JRCXZ, which leave CF and OF alone.
 *
 * montmul: Montgomery multiplication, coarsely integrated operand scanning
 * (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996) over a sliding window of the scratch buffer; squaring
 * (a == b) uses a separate product with the cross products computed once.
 * Constant time: no branch or index on the values; final subtraction by mask. */
#include <string.h>
#include <x86intrin.h>
#include "core/kernel.h"
#include "impl/adx/mpi_adx.h"

/* One MULX/ADCX/ADOX step of the 8-limb block: limb K, previous high half in
   register PH, this limb's high half into NH. */
#define ADX_STEP(K, PH, NH)                                  \
    "mulxq " #K "*8(%[s]), %[lo], %[" NH "]\n\t"            \
    "adcxq %[" PH "], %[lo]\n\t"                             \
    "adoxq " #K "*8(%[d]), %[lo]\n\t"                        \
    "movq %[lo], " #K "*8(%[d])\n\t"

static inline __attribute__((always_inline)) hwc_limb addmul(hwc_limb *d, const hwc_limb *s,
                                                             size_t n, hwc_limb b) {
    hwc_limb hi, lo, h1, h2;
    size_t rem = n & 7, blocks = n >> 3;
    __asm__ volatile(
        "xorl %k[hi], %k[hi]\n\t" /* hi = 0; clears CF and OF */
        "jrcxz 2f\n"
        "1:\n\t"                  /* n % 8 single limbs */
        "mulxq (%[s]), %[lo], %[h1]\n\t"
        "adcxq %[hi], %[lo]\n\t"
        "adoxq (%[d]), %[lo]\n\t"
        "movq %[lo], (%[d])\n\t"
        "movq %[h1], %[hi]\n\t"
        "leaq 8(%[s]), %[s]\n\t"
        "leaq 8(%[d]), %[d]\n\t"
        "leaq -1(%%rcx), %%rcx\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n"
        "2:\n\t"
        "movq %[blk], %%rcx\n\t"
        "jmp 5f\n"
        "3:\n\t" /* 8 limbs per iteration */
        ADX_STEP(0, "hi", "h1") ADX_STEP(1, "h1", "h2") ADX_STEP(2, "h2", "h1")
        ADX_STEP(3, "h1", "h2") ADX_STEP(4, "h2", "h1") ADX_STEP(5, "h1", "h2")
        ADX_STEP(6, "h2", "h1") ADX_STEP(7, "h1", "hi")
        "leaq 64(%[s]), %[s]\n\t"
        "leaq 64(%[d]), %[d]\n\t"
        "leaq -1(%%rcx), %%rcx\n"
        "5:\n\t"
        "jrcxz 4f\n\t"
        "jmp 3b\n"
        "4:\n\t" /* carry out = hi + CF + OF (cannot overflow) */
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[hi]\n\t"
        "adoxq %[lo], %[hi]\n\t"
        : [hi] "=&r"(hi), [lo] "=&r"(lo), [h1] "=&r"(h1), [h2] "=&r"(h2), [d] "+r"(d),
          [s] "+r"(s), "+c"(rem)
        : "d"(b), [blk] "r"(blocks)
        : "cc", "memory");
    return hi;
}

hwc_limb hwc_mpi_adx_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    return addmul(d, s, n, b);
}

/* Hide a value from the optimiser so mask arithmetic stays branch-free. */
static inline hwc_limb opaque(hwc_limb x) {
    __asm__("" : "+r"(x));
    return x;
}

/* t[0..2n) = a^2: cross products a[i]*a[j] (i < j) once, doubled, plus the
   diagonal a[i]^2 (Menezes et al., Handbook of Applied Cryptography, 14.16). */
static void sqr(hwc_limb *t, const hwc_limb *a, size_t n) {
    t[0] = 0;
    t[n] = 0;
    for (size_t i = 1; i < n; i++) t[i] = 0;
    for (size_t i = 0; i + 1 < n; i++) t[i + n] = addmul(t + 2 * i + 1, a + i + 1, n - i - 1, a[i]);
    t[2 * n - 1] = 0;
    /* double, then add the diagonal */
    hwc_limb top = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        hwc_limb x = t[i];
        t[i] = (x << 1) | top;
        top = x >> 63;
    }
    unsigned char c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 p = (unsigned __int128)a[i] * a[i];
        unsigned long long lo, hi;
        c = _addcarry_u64(c, t[2 * i], (hwc_limb)p, &lo);
        c = _addcarry_u64(c, t[2 * i + 1], (hwc_limb)(p >> 64), &hi);
        t[2 * i] = lo;
        t[2 * i + 1] = hi;
    }
}

/* r = t[n..2n] - m if that does not borrow, else t[n..2n); t[2n] is the top. */
static void final_sub(hwc_limb *r, const hwc_limb *t, const hwc_limb *m, size_t n) {
    unsigned char bw = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned long long x;
        bw = _subborrow_u64(bw, t[n + j], m[j], &x);
        r[j] = x;
    }
    unsigned long long top;
    bw = _subborrow_u64(bw, t[2 * n], 0, &top);
    hwc_limb keep = opaque((hwc_limb)0 - bw); /* all ones: t < m, keep t */
    for (size_t j = 0; j < n; j++) r[j] = (r[j] & ~keep) | (t[n + j] & keep);
}

void hwc_mpi_adx_montmul(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, const hwc_limb *m,
                         size_t n, hwc_limb minv, hwc_limb *t) {
    if (a == b && n >= 4) {
        /* square then reduce (separated operand scanning) */
        sqr(t, a, n);
        t[2 * n] = 0;
        hwc_limb hi = 0;
        for (size_t i = 0; i < n; i++) {
            hwc_limb c = addmul(t + i, m, n, t[i] * minv);
            unsigned __int128 s = (unsigned __int128)t[i + n] + c + hi;
            t[i + n] = (hwc_limb)s;
            hi = (hwc_limb)(s >> 64);
        }
        t[2 * n] = hi;
    } else {
        /* coarsely integrated: row i adds a*b[i] and q*m into t[i..i+n],
           t[i+n] holding the running top word */
        for (size_t i = 0; i <= n; i++) t[i] = 0;
        for (size_t i = 0; i < n; i++) {
            hwc_limb c1 = addmul(t + i, a, n, b[i]);
            hwc_limb c2 = addmul(t + i, m, n, t[i] * minv);
            unsigned __int128 s = (unsigned __int128)t[i + n] + c1 + c2;
            t[i + n] = (hwc_limb)s;
            t[i + n + 1] = (hwc_limb)(s >> 64);
        }
    }
    final_sub(r, t, m, n);
}

const hwc_mpi_impl hwc_mpi_adx = {
    .muladd = hwc_mpi_adx_muladd,
    .montmul = hwc_mpi_adx_montmul,
    .modexp = NULL,
};
