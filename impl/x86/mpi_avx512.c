/* mpi kernel "avx512": modular exponentiation in radix 2^52 with AVX-512 IFMA
 * (VPMADD52LUQ/VPMADD52HUQ), for moduli of 8..64 limbs (512..4096 bits); the
 * 8-lane domain for many moduli at once (1..64 limbs) is mpi_avx512_lanes.c.
 *
 * Technique (published): Gueron, Krasnov, "Accelerating Big Integer
 * Arithmetic Using Intel IFMA Extensions" (ARITH 2016); squares use the same
 * product (the squaring savings of Drucker, Gueron, "Fast modular squaring
 * with AVX512IFMA", 2018, are left for later). Numbers are held as 52-bit
 * digits in 64-bit lanes; almost Montgomery multiplication (AMM, word by
 * word) with R = 2^(52*nd) > 4m keeps every value < 2m, so no subtraction is
 * needed between multiplications. The low halves of a*b[i] and m*y land in
 * lane j, the accumulator moves down one lane, then the high halves land in
 * lane j. The lowest lanes are tracked exactly in scalar registers (full
 * 104-bit products), so y never waits for a vector reduction. Digits are
 * normalised once per multiplication by a carry-lookahead on compare masks.
 *
 * The exponentiation ladder is core/mpi_modexp.c's: this file supplies the
 * radix-2^52 domain (conversion in and out, the product, the square and a
 * masked table read with compare masks) through the table's domain slot.
 * No branch and no memory index depends on base or exponent values.
 * muladd, montmul and montsqr (used by core/ for the sizes not covered
 * here) are the adx kernel's. zmm (8 lanes) rather than ymm: measured faster at every
 * size (docs/bench.md; ymm runs out of registers at 4096 bits). */
#include <immintrin.h>
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

/* The high 52 bits of the 104-bit product of two 52-bit digits x, y, from
   xs = x << 12: the high word of xs * y is (x y) >> 52, one MULX with no
   shifts after it (the scalar chain of amm_body runs through it). */
static inline __attribute__((always_inline)) uint64_t hi52(uint64_t xs, uint64_t y) {
    unsigned long long h;
    (void)_mulx_u64(xs, y, &h);
    return h;
}

/* r = a*b*2^(-52*nd) mod m, almost: result < 2m for a, b < 2m, normalised
   digits; nv vectors of 8 lanes, lanes >= nd of a, b, m are zero. r may
   alias a or b. Row i: acc <- (acc + lo(a b_i) + lo(m y_i)) moved down one
   lane, + hi(a b_i) + hi(m y_i); written as acc moved down (one VALIGNQ
   per vector) plus the products of pre-shifted operands a_s, m_s (a_s lane
   j = a_(j+1), shifted once per product), formed from zero off the
   accumulator's chain and added with VPADDQ. Columns i to i+2 are kept
   exactly in scalar (c0: column i with every carry, c1: column i+1 without
   row i, c2: column i+2 without rows i and i+1): row i advances them from
   products of digits 0..3 and the vector's column i+3, read before row i
   touches it, so the scalar chain that makes y never waits for the
   vector's rows (the loop through the vector spans four rows). Above 5
   vectors only columns i and i+1 (c2 read from the vector): the rows'
   vector work is the bound there. On the chain itself: y, the high half
   of m0 y (one MULX, hi52), two additions, the product by k0. */
static inline __attribute__((always_inline)) void amm_body(uint64_t *r, const uint64_t *a,
                                                           const uint64_t *b, const uint64_t *m,
                                                           uint64_t k0, int nd, uint64_t (*sa)[MAX_NV * 8],
                                                           const int nv) {
    /* three scalar columns up to 5 vectors (2048 bits), two above (the
       vector work per row bounds those sizes; measured) */
    const int deep = nv <= 5;
    __m512i acc[MAX_NV], av[MAX_NV], mv[MAX_NV], as[MAX_NV], ms[MAX_NV];
    const __m512i zero = _mm512_setzero_si512();
    UNROLL
    for (int v = 0; v < nv; v++) {
        acc[v] = zero;
        av[v] = _mm512_loadu_si512(a + 8 * v);
        mv[v] = _mm512_loadu_si512(m + 8 * v);
    }
    UNROLL
    for (int v = 0; v < nv; v++) {
        as[v] = _mm512_alignr_epi64(v + 1 < nv ? av[v + 1 < nv ? v + 1 : v] : zero, av[v], 1);
        ms[v] = _mm512_alignr_epi64(v + 1 < nv ? mv[v + 1 < nv ? v + 1 : v] : zero, mv[v], 1);
    }
    /* the scalar side's products with a (y does not enter them), for every
       row at once in the vector unit: sa[0][i] = lo(a0 b_i), sa[1][i] =
       hi(a0 b_i) + lo(a1 b_i), sa[2][i] = hi(a1 b_i) + lo(a2 b_i), sa[3][i]
       = hi(a2 b_i) + lo(a3 b_i) (in the caller's scratch, which core/
       wipes) */
    {
        const __m512i a0v = _mm512_set1_epi64((long long)a[0]), a1v = _mm512_set1_epi64((long long)a[1]),
                      a2v = _mm512_set1_epi64((long long)a[2]), a3v = _mm512_set1_epi64((long long)a[3]);
        UNROLL
        for (int v = 0; v < nv; v++) {
            const __m512i bv = _mm512_loadu_si512(b + 8 * v);
            _mm512_store_si512(sa[0] + 8 * v, _mm512_madd52lo_epu64(zero, bv, a0v));
            _mm512_store_si512(sa[1] + 8 * v,
                               _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, bv, a0v), bv, a1v));
            _mm512_store_si512(sa[2] + 8 * v,
                               _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, bv, a1v), bv, a2v));
            if (deep)
                _mm512_store_si512(sa[3] + 8 * v,
                                   _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, bv, a2v), bv, a3v));
        }
    }
    const uint64_t m0s = m[0] << 12, m1 = m[1], m1s = m[1] << 12, m2 = m[2], m2s = m[2] << 12,
                   m3 = m[3];
    uint64_t c0 = 0, c1 = 0, c2 = 0, t = sa[0][0];
    for (int i = 0; i < nd; i++) {
        const uint64_t bi = b[i];
        const __m128i lanes23 = _mm512_extracti32x4_epi32(acc[0], 1);
        const uint64_t cv = (uint64_t)(deep ? _mm_extract_epi64(lanes23, 1) : _mm_cvtsi128_si64(lanes23));
        const uint64_t y = (t * k0) & MASK52;
        /* t + lo(m0 y) == 0 mod 2^52: it carries t >> 52 into column i+1,
           plus 1 unless t's low 52 bits are zero (no wait for m0 y) */
        const uint64_t carry = (t >> 52) + ((t & MASK52) != 0);
        const uint64_t hm0 = hi52(m0s, y), hm1 = hi52(m1s, y), hm2 = hi52(m2s, y);
        const uint64_t lm1 = (m1 * y) & MASK52, lm2 = (m2 * y) & MASK52, lm3 = (m3 * y) & MASK52;
        /* column i+1 complete (c0), and the next row's t (past the last
           row t is not used: sa[0][nd] is inside the scratch) */
        c0 = c1 + sa[1][i] + carry + lm1 + hm0;
        t = c0 + sa[0][i + 1];
        if (deep) {
            c1 = c2 + sa[2][i] + lm2 + hm1;
            c2 = cv + sa[3][i] + lm3 + hm2;
        } else {
            c1 = cv + sa[2][i] + lm2 + hm1;
        }
        const __m512i vb = _mm512_set1_epi64((long long)bi), vy = _mm512_set1_epi64((long long)y);
        UNROLL
        for (int v = 0; v < nv; v++) {
            const __m512i pa = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, as[v], vb), av[v], vb);
            const __m512i pm = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, ms[v], vy), mv[v], vy);
            const __m512i sh = _mm512_alignr_epi64(v + 1 < nv ? acc[v + 1 < nv ? v + 1 : v] : zero, acc[v], 1);
            acc[v] = _mm512_add_epi64(sh, _mm512_add_epi64(pa, pm));
        }
    }
    acc[0] = _mm512_mask_set1_epi64(acc[0], 1, (long long)c0);
    acc[0] = _mm512_mask_set1_epi64(acc[0], 2, (long long)c1);
    if (deep) acc[0] = _mm512_mask_set1_epi64(acc[0], 4, (long long)c2);
    normalise_store(r, acc, nv);
}

/* One product per vector count, in the domain's signature: k0 = -m^-1 mod
   2^52 is the low 52 bits of core/'s -m^-1 mod 2^64; c->aux[0] digits;
   c->scratch (64-byte aligned) holds the scalar side's products. */
#define SCRATCH(c) ((uint64_t(*)[MAX_NV * 8])(void *)(c)->scratch)
#define AMM_FN(N)                                                                             \
    static void amm_##N(uint64_t *r, const uint64_t *a, const uint64_t *b,                    \
                        const hwc_mpi_mont *c) {                                              \
        amm_body(r, a, b, c->md, c->minv[0] & MASK52, (int)c->aux[0], SCRATCH(c), N);        \
    }                                                                                         \
    static void sqr_##N(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {              \
        amm_body(r, a, a, c->md, c->minv[0] & MASK52, (int)c->aux[0], SCRATCH(c), N);        \
    }
AMM_FN(2)
AMM_FN(3)
AMM_FN(4)
AMM_FN(5)
AMM_FN(6)
AMM_FN(7)
AMM_FN(8)
AMM_FN(9)
AMM_FN(10)
typedef void amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c);
typedef void sqr_fn(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c);
static amm_fn *const amm_for_nv[MAX_NV + 1] = {NULL,  NULL,  amm_2, amm_3, amm_4, amm_5,
                                               amm_6, amm_7, amm_8, amm_9, amm_10};
static sqr_fn *const sqr_for_nv[MAX_NV + 1] = {NULL,  NULL,  sqr_2, sqr_3, sqr_4, sqr_5,
                                               sqr_6, sqr_7, sqr_8, sqr_9, sqr_10};

/* Moduli of 8..64 limbs: R = 2^(52 nd) > 4m, i.e. 52 nd >= 64n + 2; nd
   digits in nv vectors of 8 lanes (lanes >= nd zero). */
static int domain52(hwc_mpi_mont *c) {
    if (c->lanes == 8) return hwc_ifma_domain_lanes(c);
    if (c->n < 8 || c->n > 64) return 1;
    const size_t nd = (64 * c->n + 2 + 51) / 52, nv = (nd + 7) / 8;
    c->words = 8 * nv;
    c->rbits = 52 * nd;
    c->aux[0] = nd;
    c->scratch_words = 4 * 8 * MAX_NV;
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
    .montsqr = hwc_mpi_adx_montsqr,
    .domain = domain52,
    .lanes = 8,
};
