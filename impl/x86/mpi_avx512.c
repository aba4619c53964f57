/* mpi kernel "avx512": modular exponentiation in radix 2^52 with AVX-512 IFMA
 * (VPMADD52LUQ/VPMADD52HUQ), for moduli of 8..64 limbs (512..4096 bits).
 *
 * Technique (published): Gueron, Krasnov, "Accelerating Big Integer
 * Arithmetic Using Intel IFMA Extensions" (ARITH 2016); squares use the same
 * product (the squaring savings of Drucker, Gueron, "Fast modular squaring
 * with AVX512IFMA", 2018, are left for later). Numbers are held as 52-bit
 * digits in 64-bit lanes; almost Montgomery multiplication (AMM, word by
 * word) with R = 2^(52*nd) > 4m keeps every value < 2m, so no subtraction is
 * needed between multiplications. The low halves of a*b[i] and m*y land in
 * lane j, the accumulator moves down one lane, then the high halves land in
 * lane j. Lane 0 is tracked exactly in a scalar register (full 104-bit
 * products), so y never waits for a vector reduction. Digits are normalised
 * once per multiplication by a carry-lookahead on compare masks.
 *
 * The exponentiation ladder is core/mpi.c's: this file supplies the
 * radix-2^52 domain (conversion in and out, the product, the square and a
 * masked table read with compare masks) through the table's domain slot.
 * No branch and no memory index depends on base or exponent values.
 * muladd and montmul (used by core/ for the sizes not covered here) are the
 * adx kernel's. zmm (8 lanes) chosen over ymm by measurement on this
 * Xeon (cycles per multiplication, same algorithm with 4-lane vectors):
 * 1024-bit 433 vs 522, 2048-bit 1022 vs 1389, 4096-bit 2814 vs 10765
 * (ymm runs out of registers). */
#include <immintrin.h>
#include <string.h>
#include "internal/wipe.h"
#include "internal/kernel.h"
#include "hwcrypt/status.h"
#include "impl/x86/mpi_adx.h"
#include "impl/x86/mpi_avx512.h"

#define MAX_NV 10                /* 80 lanes: 4096-bit moduli (79 digits) */

/* Loops over the vectors of a number are unrolled fully, so the arrays of
   __m512i live in registers. */
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 10")
#endif

/* Normalise digits to 52 bits and store: one round of shifted carries
   leaves every lane below 2^52 + 2^12, then a carry-lookahead over lane
   masks: g = lanes that generate a carry, p = lanes that propagate one
   (== 2^52-1); lanes receiving a carry = ((g << 1) + p) ^ p. */
static inline __attribute__((always_inline)) void normalise_store(uint64_t *r, __m512i *acc,
                                                                  const int nv) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i mask = _mm512_set1_epi64((long long)MASK52);
    __m512i c[MAX_NV];
    UNROLL
    for (int v = 0; v < nv; v++) {
        c[v] = _mm512_srli_epi64(acc[v], 52);
        acc[v] = _mm512_and_si512(acc[v], mask);
    }
    acc[0] = _mm512_add_epi64(acc[0], _mm512_alignr_epi64(c[0], zero, 7));
    UNROLL
    for (int v = 1; v < nv; v++) acc[v] = _mm512_add_epi64(acc[v], _mm512_alignr_epi64(c[v], c[v - 1], 7));
    unsigned __int128 g = 0, p = 0;
    UNROLL
    for (int v = 0; v < nv; v++) {
        g |= (unsigned __int128)_mm512_cmpgt_epu64_mask(acc[v], mask) << (8 * v);
        p |= (unsigned __int128)_mm512_cmpeq_epu64_mask(acc[v], mask) << (8 * v);
    }
    const unsigned __int128 cin = ((g << 1) + p) ^ p; /* lanes receiving a carry */
    const __m512i one = _mm512_set1_epi64(1);
    UNROLL
    for (int v = 0; v < nv; v++) {
        const __mmask8 k = (__mmask8)(cin >> (8 * v));
        acc[v] = _mm512_and_si512(_mm512_mask_add_epi64(acc[v], k, acc[v], one), mask);
        _mm512_storeu_si512(r + 8 * v, acc[v]);
    }
}

/* r = a*b*2^(-52*nd) mod m, almost: result < 2m for a, b < 2m, normalised
   digits; nv vectors of 8 lanes, lanes >= nd of a, b, m are zero. r may
   alias a or b. */
/* The scalar digit of one Montgomery step in radix 2^52: y = (acc0 +
   a0*bi) * k0 mod 2^52, and *carry = (acc0 + a0*bi + m0*y) >> 52, computed in
   52-bit halves (its low 52 bits are zero by the choice of y; the rest
   carries into the next lane). Branch-free. */
static inline __attribute__((always_inline)) uint64_t digit52(uint64_t acc0, uint64_t a0, uint64_t bi,
                                                               uint64_t m0, uint64_t k0,
                                                               uint64_t *carry) {
    unsigned long long h;
    const uint64_t lab = _mulx_u64(a0, bi, &h);
    const uint64_t u = acc0 + (lab & MASK52);
    const uint64_t hab = (h << 12) | (lab >> 52);
    const uint64_t y = (u * k0) & MASK52;
    const uint64_t lmy = _mulx_u64(m0, y, &h);
    *carry = ((u + (lmy & MASK52)) >> 52) + ((h << 12) | (lmy >> 52)) + hab;
    return y;
}

static inline __attribute__((always_inline)) void amm_body(uint64_t *r, const uint64_t *a,
                                                           const uint64_t *b, const uint64_t *m,
                                                           uint64_t k0, int nd, const int nv) {
    __m512i acc[MAX_NV], av[MAX_NV], mv[MAX_NV];
    const __m512i zero = _mm512_setzero_si512();
    UNROLL
    for (int v = 0; v < nv; v++) {
        acc[v] = zero;
        av[v] = _mm512_loadu_si512(a + 8 * v);
        mv[v] = _mm512_loadu_si512(m + 8 * v);
    }
    const uint64_t a0 = a[0], m0 = m[0];
    uint64_t acc0 = 0;
    for (int i = 0; i < nd; i++) {
        const uint64_t bi = b[i];
        const __m512i vb = _mm512_set1_epi64((long long)bi);
        uint64_t carry;
        const uint64_t y = digit52(acc0, a0, bi, m0, k0, &carry);
        const __m512i vy = _mm512_set1_epi64((long long)y);
        UNROLL
        for (int v = 0; v < nv; v++) {
            acc[v] = _mm512_madd52lo_epu64(acc[v], av[v], vb);
            acc[v] = _mm512_madd52lo_epu64(acc[v], mv[v], vy);
        }
        UNROLL
        for (int v = 0; v < nv - 1; v++) acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 1);
        acc[nv - 1] = _mm512_alignr_epi64(zero, acc[nv - 1], 1);
        acc0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(acc[0])) + carry;
        UNROLL
        for (int v = 0; v < nv; v++) {
            acc[v] = _mm512_madd52hi_epu64(acc[v], av[v], vb);
            acc[v] = _mm512_madd52hi_epu64(acc[v], mv[v], vy);
        }
    }
    acc[0] = _mm512_mask_set1_epi64(acc[0], 1, (long long)acc0);
    normalise_store(r, acc, nv);
}

/* The same product with a shorter dependency chain, for sizes where the
   loop is latency-bound: the a*b[i] and m*y halves accumulate in separate
   vectors (x, z), and the scalar lane-0 value of the next step is formed
   without waiting for the m*y vector work of this step: lane 1 of z is read
   before the low halves are added and lo52(m[1]*y) is added in scalar. */
static inline __attribute__((always_inline)) void amm_split_body(uint64_t *r, const uint64_t *a,
                                                                 const uint64_t *b, const uint64_t *m,
                                                                 uint64_t k0, int nd, const int nv) {
    __m512i x[MAX_NV], z[MAX_NV], av[MAX_NV], mv[MAX_NV];
    const __m512i zero = _mm512_setzero_si512();
    UNROLL
    for (int v = 0; v < nv; v++) {
        x[v] = zero;
        z[v] = zero;
        av[v] = _mm512_loadu_si512(a + 8 * v);
        mv[v] = _mm512_loadu_si512(m + 8 * v);
    }
    const uint64_t a0 = a[0], m0 = m[0], m1 = m[1];
    uint64_t acc0 = 0;
    for (int i = 0; i < nd; i++) {
        const uint64_t bi = b[i];
        const __m512i vb = _mm512_set1_epi64((long long)bi);
        const uint64_t z1 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(z[0]), 1);
        uint64_t carry;
        const uint64_t y = digit52(acc0, a0, bi, m0, k0, &carry);
        const __m512i vy = _mm512_set1_epi64((long long)y);
        carry += z1 + ((m1 * y) & MASK52);
        UNROLL
        for (int v = 0; v < nv; v++) {
            x[v] = _mm512_madd52lo_epu64(x[v], av[v], vb);
            z[v] = _mm512_madd52lo_epu64(z[v], mv[v], vy);
        }
        UNROLL
        for (int v = 0; v < nv - 1; v++) {
            x[v] = _mm512_alignr_epi64(x[v + 1], x[v], 1);
            z[v] = _mm512_alignr_epi64(z[v + 1], z[v], 1);
        }
        x[nv - 1] = _mm512_alignr_epi64(zero, x[nv - 1], 1);
        z[nv - 1] = _mm512_alignr_epi64(zero, z[nv - 1], 1);
        acc0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x[0])) + carry;
        UNROLL
        for (int v = 0; v < nv; v++) {
            x[v] = _mm512_madd52hi_epu64(x[v], av[v], vb);
            z[v] = _mm512_madd52hi_epu64(z[v], mv[v], vy);
        }
    }
    UNROLL
    for (int v = 0; v < nv; v++) x[v] = _mm512_add_epi64(x[v], z[v]);
    x[0] = _mm512_mask_set1_epi64(x[0], 1, (long long)acc0);
    normalise_store(r, x, nv);
}

/* One product per vector count, in the domain's signature: k0 = -m^-1 mod
   2^52 is the low 52 bits of core/'s -m^-1 mod 2^64; c->aux digits.
   Measured (cycles per AMM, this CPU): the split form is faster up to 5
   vectors (2048-bit: 1030 vs 1150), where the loop is latency-bound; above,
   port 0/5 throughput binds and the single accumulator (fewer VALIGNQ)
   wins (4096-bit: 2900 vs 3500). */
#define AMM_FN(N, BODY)                                                                       \
    static void amm_##N(uint64_t *r, const uint64_t *a, const uint64_t *b,                    \
                        const hwc_mpi_mont *c) {                                              \
        BODY(r, a, b, c->md, c->minv[0] & MASK52, (int)c->aux, N);                              \
    }                                                                                         \
    static void sqr_##N(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {              \
        BODY(r, a, a, c->md, c->minv[0] & MASK52, (int)c->aux, N);                              \
    }
AMM_FN(2, amm_split_body)
AMM_FN(3, amm_split_body)
AMM_FN(4, amm_split_body)
AMM_FN(5, amm_split_body)
AMM_FN(6, amm_body)
AMM_FN(7, amm_body)
AMM_FN(8, amm_body)
AMM_FN(9, amm_body)
AMM_FN(10, amm_body)
typedef void amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c);
typedef void sqr_fn(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c);
static amm_fn *const amm_for_nv[MAX_NV + 1] = {NULL,  NULL,  amm_2, amm_3, amm_4, amm_5,
                                               amm_6, amm_7, amm_8, amm_9, amm_10};
static sqr_fn *const sqr_for_nv[MAX_NV + 1] = {NULL,  NULL,  sqr_2, sqr_3, sqr_4, sqr_5,
                                               sqr_6, sqr_7, sqr_8, sqr_9, sqr_10};

/* Lane `lane` of d = x (n limbs, radix 2^64) in digits of 52 bits: digit k
   at word k * lanes + lane; words / lanes digits (the single domain's
   padding digits zero). */
void hwc_ifma_to52(uint64_t *d, const hwc_limb *x, size_t lane, const hwc_mpi_mont *c) {
    const size_t n = c->n, stride = c->lanes, digits = c->words / stride;
    for (size_t k = 0; k < digits; k++) {
        size_t bit = 52 * k, i = bit / 64, sh = bit % 64;
        uint64_t v = 0;
        if (i < n) {
            v = x[i] >> sh;
            if (sh > 12 && i + 1 < n) v |= x[i + 1] << (64 - sh);
        }
        d[k * stride + lane] = v & MASK52;
    }
}

/* x (n limbs of radix 2^64) = lane `lane` of d (normalised 52-bit digits). */
void hwc_ifma_from52(hwc_limb *x, const uint64_t *d, size_t lane, const hwc_mpi_mont *c) {
    const size_t stride = c->lanes, digits = c->words / stride;
    const uint64_t *p = d + lane;
    for (size_t i = 0; i < c->n; i++) {
        size_t bit = 64 * i, k = bit / 52, sh = bit % 52;
        uint64_t v = k < digits ? p[k * stride] >> sh : 0;
        if (k + 1 < digits) v |= p[(k + 1) * stride] << (52 - sh);
        if (sh > 40 && k + 2 < digits) v |= p[(k + 2) * stride] << (104 - sh);
        x[i] = v;
    }
}

/* out = table[idx] reading every entry, constant time in idx: one index
   for all words (one lane), or lane l of every vector from table[idx[l]]
   (8 lanes). */
void hwc_ifma_select(uint64_t *out, const uint64_t *table, size_t entries, const size_t *idx,
                     const hwc_mpi_mont *c) {
    const __m512i vidx = c->lanes == 1 ? _mm512_set1_epi64((long long)idx[0])
                                       : _mm512_loadu_si512(idx);
    const size_t words = c->words;
    for (size_t v = 0; v < words; v += 8) {
        __m512i r = _mm512_setzero_si512();
        for (size_t e = 0; e < entries; e++) {
            const __mmask8 k = _mm512_cmpeq_epu64_mask(_mm512_set1_epi64((long long)e), vidx);
            const __m512i sel = _mm512_maskz_set1_epi64(k, -1);
            const __m512i x = _mm512_loadu_si512(table + e * words + v);
            r = _mm512_ternarylogic_epi64(r, x, sel, 0xF8); /* r | (x & sel) */
        }
        _mm512_storeu_si512(out + v, r);
    }
}

/* Moduli of 8..64 limbs: R = 2^(52 nd) > 4m, i.e. 52 nd >= 64n + 2; nd
   digits in nv vectors of 8 lanes (lanes >= nd zero). */
static int domain52(hwc_mpi_mont *c) {
    if (c->lanes == 8) return hwc_ifma_domain_lanes(c);
    if (c->n < 8 || c->n > 64) return 1;
    const size_t nd = (64 * c->n + 2 + 51) / 52, nv = (nd + 7) / 8;
    c->words = 8 * nv;
    c->rbits = 52 * nd;
    c->aux = nd;
    c->to = hwc_ifma_to52;
    c->from = hwc_ifma_from52;
    c->mul = amm_for_nv[nv];
    c->sqr = sqr_for_nv[nv];
    c->select = hwc_ifma_select;
    return 0;
}

const hwc_mpi_impl hwc_mpi_avx512 = {
    .muladd = hwc_mpi_adx_muladd,
    .montmul = hwc_mpi_adx_montmul,
    .domain = domain52,
    .lanes = 8,
};
