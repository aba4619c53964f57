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

#define LO(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define HI(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define K 8   /* columns per block, held in registers */
#define PAD K /* zero digit vectors before and after every number */

/* Row i of a product into the block of columns P..P+K-1 (d = P - i): lo
   parts into lo[k] += lo(x_(d+k) v), hi parts into hi[k] += hi(x_(d+k-1) v)
   (two sets: the chains per register stay short). Grouped by window digit
   w_q = x_(d-1+q), q = 0..K: its hi part goes to column q, its lo part to
   column q-1. The digits used are q >= from (entering the chain at case
   `from`: windows starting below digit 0, and the cross products of a
   square, which skip digits not above i) or, with from = 0, q <= upto
   (windows ending past the top digit, entered at case `upto` going down);
   a window clipped at both ends reads the zero padding past the top. */
#define ROW_Q(q)                                                                 \
    case q:                                                                      \
        w = _mm512_loadu_si512(xp + 8 * (q));                                    \
        if ((q) > 0) lo[(q) > 0 ? (q) - 1 : 0] = LO(lo[(q) > 0 ? (q) - 1 : 0], w, v); \
        if ((q) < K) hi[(q) < K ? (q) : 0] = HI(hi[(q) < K ? (q) : 0], w, v);    \
        __attribute__((fallthrough));
static inline __attribute__((always_inline)) void row(__m512i lo[K], __m512i hi[K], const uint64_t *x,
                                                      __m512i v, long d, unsigned from, unsigned upto) {
    const uint64_t *xp = x + 8 * (d - 1);
    __asm__("" : "+r"(xp)); /* a fresh window every row: no registers carried across rows */
    __m512i w;
    if (from == 0 && upto < K) {
        switch (upto) {
            ROW_Q(7) ROW_Q(6) ROW_Q(5) ROW_Q(4) ROW_Q(3) ROW_Q(2) ROW_Q(1) ROW_Q(0)
        default:
            break;
        }
        return;
    }
    switch (from) {
        ROW_Q(0) ROW_Q(1) ROW_Q(2) ROW_Q(3) ROW_Q(4) ROW_Q(5) ROW_Q(6) ROW_Q(7) ROW_Q(8)
    default:
        break;
    }
}

/* Rows i in [i0, i1) of x * v_i (x: nd digits) into the block at P.
   `upper`: only the products x_j v_i with j > i (v = x), i.e. window digits
   q >= 2i + 2 - P. */
static inline __attribute__((always_inline)) void rows(__m512i lo[K], __m512i hi[K], const uint64_t *x,
                                                       const uint64_t *v, long P, long i0, long i1,
                                                       long nd, int upper) {
    const long full = upper ? (P / 2 < i1 ? P / 2 : i1) : (P < i1 ? P : i1); /* from = 0 below */
    long top = P + K - nd; /* rows below it: window past the top digit */
    if (top > full) top = full;
    long i = i0;
    for (; i < top; i++) row(lo, hi, x, _mm512_loadu_si512(v + 8 * i), P - i, 0, (unsigned)(nd - P + i));
    for (; i < full; i++) row(lo, hi, x, _mm512_loadu_si512(v + 8 * i), P - i, 0, K);
    for (; i < i1; i++)
        row(lo, hi, x, _mm512_loadu_si512(v + 8 * i), P - i,
            (unsigned)(upper ? 2 * i + 2 - P : i + 1 - P), K);
}

/* Column p (k in the block) once all its terms but those of y_(p-1) (S) and
   the carry (cin) are in acc[k]: below nd, y_p = col k0 mod 2^52 (bits
   above 52 of y unused), summed so the terms of y_(p-1) come last; col +
   lo(m_0 y_p) == 0 mod 2^52, so its carry is col >> 52, plus 1 unless
   col's low bits are 0; y_p's terms go into the block's later columns
   (and into S for column p+1). From nd on, the result digit p - nd. */
#define COLUMN(k)                                                                            \
    do {                                                                                     \
        const long p = P + (k);                                                              \
        const __m512i col = _mm512_add_epi64(_mm512_add_epi64(acc[k], cin), S);              \
        if (p < nd) {                                                                        \
            const __m512i yp = LO(LO(LO(zero, acc[k], k0), cin, k0), S, k0);                \
            cin = _mm512_mask_add_epi64(_mm512_srli_epi64(col, 52), _mm512_test_epi64_mask(col, mask), \
                                        _mm512_srli_epi64(col, 52), one);                    \
            _mm512_storeu_si512(y + 8 * p, yp);                                              \
            S = _mm512_add_epi64(LO(zero, _mm512_loadu_si512(m + 8), yp), HI(zero, _mm512_loadu_si512(m), yp)); \
            for (int q = (k) + 2; q < K; q++) {                                              \
                acc[q] = LO(acc[q], _mm512_loadu_si512(m + 8 * (q - (k))), yp);              \
                acc[q] = HI(acc[q], _mm512_loadu_si512(m + 8 * (q - (k) - 1)), yp);          \
            }                                                                                \
        } else {                                                                             \
            if (p < 2 * nd) _mm512_storeu_si512(out + 8 * (p - nd), _mm512_and_si512(col, mask)); \
            cin = _mm512_srli_epi64(col, 52);                                                \
            S = zero;                                                                        \
        }                                                                                    \
    } while (0)

/* r = (x * v) / R mod m, per lane: finely integrated product scanning
   (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
   algorithms", IEEE Micro 16(3), 1996) over blocks of K columns in
   registers: a block holds its product terms (rows of x * v_i, i < end(P);
   `upper`: a square's cross products, then `finish`), takes the terms of
   the y_i already known, then its columns one by one (COLUMN); the carry
   runs from column to column. The product rows of the next block are
   issued between the columns, so they fill the wait of the y chain. Block
   P reads x, v digits >= P - nd only and writes r digits < P + K - nd, so
   r may alias x or v. */
#define MONT_BLOCKS(X, V, upper, end, finish)                                               \
    do {                                                                                     \
        const long nd = (long)c->aux[0];                                                     \
        const __m512i mask = _mm512_set1_epi64((long long)MASK52);                           \
        const __m512i k0 = _mm512_and_si512(_mm512_loadu_si512(c->minv), mask);              \
        const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);             \
        const uint64_t *m = c->md + c->aux[1];                                               \
        uint64_t *y = c->scratch, *out = r + c->aux[1];                                      \
        __m512i carry = zero, acc[K], hi[K], nxt[K];                                         \
        for (int k = 0; k < K; k++) acc[k] = zero;                                           \
        rows(acc, acc, X, V, 0, 0, end(0), nd, upper);                                       \
        finish(acc, 0);                                                                      \
        for (long P = 0; P < 2 * nd; P += K) {                                               \
            for (int k = 0; k < K; k++) hi[k] = zero;                                        \
            rows(acc, hi, m, y, P, P - nd > 0 ? P - nd : 0, P < nd ? P : nd, nd, 0);          \
            acc[0] = _mm512_add_epi64(acc[0], carry);                                        \
            for (int k = 0; k < K; k++) acc[k] = _mm512_add_epi64(acc[k], hi[k]);            \
            const long Pn = P + K, n0 = Pn - nd > 0 ? Pn - nd : 0;                           \
            const long n1 = Pn < 2 * nd ? end(Pn) : n0, half = n0 + (n1 - n0) / 2;           \
            for (int k = 0; k < K; k++) nxt[k] = zero;                                       \
            __m512i cin = zero, S = zero; /* into column p: carry, terms of y_(p-1) */      \
            COLUMN(0); COLUMN(1); COLUMN(2); COLUMN(3);                                       \
            rows(nxt, nxt, X, V, Pn, n0, half, nd, upper);                                   \
            COLUMN(4); COLUMN(5); COLUMN(6); COLUMN(7);                                       \
            rows(nxt, nxt, X, V, Pn, half, n1, nd, upper);                                   \
            finish(nxt, Pn);                                                                 \
            carry = cin; /* the terms of y_(P+K-1) reach column P+K with the next block's rows */ \
            for (int k = 0; k < K; k++) acc[k] = nxt[k];                                     \
        }                                                                                    \
    } while (0)

#define MUL_END(P) ((P) + K < nd ? (P) + K : nd)
#define MUL_FINISH(t, P) ((void)(t), (void)(P))

/* r = a*b/R mod m in every lane (almost: < 2m for inputs < 2m). */
static void mul8(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    const uint64_t *x = a + c->aux[1], *v = b + c->aux[1];
    MONT_BLOCKS(x, v, 0, MUL_END, MUL_FINISH);
}

/* The cross products a_i a_j (i < j) once, doubled, then the squares a_i^2
   (Handbook of Applied Cryptography, 14.16, by columns). */
#define SQR_END(P) (((P) + K) / 2 < nd ? ((P) + K) / 2 : nd)
#define SQR_FINISH(t, P)                                                                     \
    for (int k = 0; k < K; k++) {                                                            \
        const __m512i at = _mm512_loadu_si512(x + 8 * (((P) + k) / 2)); /* zero past nd */ \
        t[k] = _mm512_add_epi64(t[k], t[k]);                                                 \
        t[k] = (k & 1) ? HI(t[k], at, at) : LO(t[k], at, at);                                \
    }

/* r = a^2/R mod m in every lane. */
static void sqr8(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    const uint64_t *x = a + c->aux[1];
    MONT_BLOCKS(x, x, 1, SQR_END, SQR_FINISH);
}

int hwc_ifma_domain_lanes(hwc_mpi_mont *c) {
    if (c->n < 1 || c->n > 64) return 1;
    const size_t nd = (64 * c->n + 2 + 51) / 52;
    c->words = 8 * (nd + 2 * PAD);
    c->rbits = 52 * nd;
    c->aux[0] = nd;
    c->aux[1] = 8 * PAD;
    c->scratch_words = 8 * nd;
    c->to = hwc_ifma_to52;
    c->from = hwc_ifma_from52;
    c->mul = mul8;
    c->sqr = sqr8;
    c->select = hwc_ifma_select;
    return 0;
}
