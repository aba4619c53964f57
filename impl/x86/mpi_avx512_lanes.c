/* mpi kernel "avx512", 8 lanes: Montgomery arithmetic of 8 independent
 * moduli at once, one per 64-bit lane of a zmm register ("lane-sliced":
 * vector k holds digit k of the 8 numbers), radix 2^52 with AVX-512 IFMA.
 * Every lane runs the word-by-word almost Montgomery multiplication of the
 * single path (Gueron, Krasnov, "Accelerating Big Integer Arithmetic Using
 * Intel IFMA Extensions", ARITH 2016): R = 2^(52 nd) > 4m keeps values
 * < 2m. Each lane's digit y_i comes from its own accumulator digit, so
 * there is no cross-lane shift and no scalar chain: row i adds a*b_i and
 * m*y_i into a window of accumulator vectors (digit i + j in vector i + j,
 * unnormalised, 64-bit lanes hold 4 nd terms of 52 bits), which slides one
 * vector per row; the result is normalised once at the end. Used for
 * hwc_mpi_modexp_many through core/mpi_modexp.c's ladder. No branch or
 * address depends on the values. */
#include <immintrin.h>
#include "impl/x86/mpi_avx512.h"

#define MAX_ND 79 /* 64 limbs: 52 * 79 >= 64 * 64 + 2 */

/* r = a*b/R mod m in every lane (almost: < 2m for inputs < 2m); nd digits
   per lane; t: 2 nd + 1 vectors of scratch. */
static inline __attribute__((always_inline)) void amm8(uint64_t *r, const uint64_t *a,
                                                       const uint64_t *b, const hwc_mpi_mont *c) {
    const size_t nd = c->aux;
    const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64((long long)MASK52);
    const __m512i k0 = _mm512_and_si512(_mm512_loadu_si512(c->minv), mask);
    const uint64_t *m = c->md;
    __m512i *t = (__m512i *)c->scratch;
    for (size_t j = 0; j <= nd; j++) t[j] = zero;
    const __m512i a0 = _mm512_loadu_si512(a), m0 = _mm512_loadu_si512(m);
    for (size_t i = 0; i < nd; i++) {
        __m512i *w = t + i;
        const __m512i bi = _mm512_loadu_si512(b + 8 * i);
        __m512i x0 = _mm512_madd52lo_epu64(w[0], a0, bi);
        const __m512i y = _mm512_madd52lo_epu64(zero, x0, k0);
        x0 = _mm512_madd52lo_epu64(x0, m0, y);              /* low 52 bits now zero */
        __m512i ap = a0, mp = m0, carry = _mm512_srli_epi64(x0, 52);
        for (size_t j = 1; j < nd; j++) {
            const __m512i aj = _mm512_loadu_si512(a + 8 * j), mj = _mm512_loadu_si512(m + 8 * j);
            __m512i lo = _mm512_madd52lo_epu64(w[j], aj, bi);
            __m512i hi = _mm512_madd52hi_epu64(carry, ap, bi);
            lo = _mm512_madd52lo_epu64(lo, mj, y);
            hi = _mm512_madd52hi_epu64(hi, mp, y);
            w[j] = _mm512_add_epi64(lo, hi);
            carry = zero;
            ap = aj;
            mp = mj;
        }
        w[nd] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, ap, bi), mp, y);
    }
    __m512i cy = zero;
    for (size_t j = 0; j < nd; j++) {
        const __m512i v = _mm512_add_epi64(t[nd + j], cy);
        _mm512_storeu_si512(r + 8 * j, _mm512_and_si512(v, mask));
        cy = _mm512_srli_epi64(v, 52);
    }
}

static void mul8(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    amm8(r, a, b, c);
}

static void sqr8(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) { amm8(r, a, a, c); }

int hwc_ifma_domain_lanes(hwc_mpi_mont *c) {
    if (c->n < 1 || c->n > 64) return 1;
    const size_t nd = (64 * c->n + 2 + 51) / 52;
    c->words = 8 * nd;
    c->rbits = 52 * nd;
    c->aux = nd;
    c->scratch_words = 8 * (2 * nd + 1);
    c->to = hwc_ifma_to52;
    c->from = hwc_ifma_from52;
    c->mul = mul8;
    c->sqr = sqr8;
    c->select = hwc_ifma_select;
    return 0;
}
