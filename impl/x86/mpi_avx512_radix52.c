/* mpi kernel "avx512": the radix-2^52 conversions and the masked table read
 * that its single-modulus domain (mpi_avx512.c) and its 8-lane domain
 * (mpi_avx512_lanes.c) share (declared in mpi_avx512.h). */
#include <immintrin.h>
#include "impl/x86/mpi_avx512.h"

/* Lane `lane` of d = x (n limbs, radix 2^64) in digits of 52 bits: digit k
   at word off + k * lanes + lane, off = c->aux[1] words of zero padding at
   each end; (words - 2 off) / lanes digits (the single domain's top
   digits zero). */
void hwc_ifma_to52(uint64_t *d, const hwc_limb *x, size_t lane, const hwc_mpi_mont *c) {
    const size_t n = c->n, stride = c->lanes, digits = (c->words - 2 * c->aux[1]) / stride;
    d += c->aux[1];
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
    const size_t stride = c->lanes, digits = (c->words - 2 * c->aux[1]) / stride;
    const uint64_t *p = d + c->aux[1] + lane;
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
   (8 lanes). Blocks of up to 16 vectors held in registers; for each entry
   one compare gives the lanes it owns as a mask vector, every vector of
   the entry is loaded and ORed in under it (the loads never depend on
   idx). The zero padding of c->aux[1] words at each end is left alone. */
void hwc_ifma_select(uint64_t *out, const uint64_t *table, size_t entries, const size_t *idx,
                     const hwc_mpi_mont *c) {
    enum { B = 16 };
    const __m512i vidx = c->lanes == 1 ? _mm512_set1_epi64((long long)idx[0])
                                       : _mm512_loadu_si512(idx);
    const size_t words = c->words, end = words - c->aux[1]; /* the zero padding stays */
    for (size_t v0 = c->aux[1]; v0 < end; v0 += 8 * B) {
        const size_t nb = (end - v0) / 8 < B ? (end - v0) / 8 : B;
        __m512i r[B];
        for (size_t b = 0; b < B; b++) r[b] = _mm512_setzero_si512();
        for (size_t e = 0; e < entries; e++) {
            const __mmask8 k = _mm512_cmpeq_epu64_mask(_mm512_set1_epi64((long long)e), vidx);
            const __m512i sel = _mm512_maskz_set1_epi64(k, -1);
            const uint64_t *x = table + e * words + v0;
            for (size_t b = 0; b < B; b++)
                if (b < nb) /* r | (x & sel) */
                    r[b] = _mm512_ternarylogic_epi64(r[b], _mm512_loadu_si512(x + 8 * b), sel, 0xF8);
        }
        for (size_t b = 0; b < B; b++)
            if (b < nb) _mm512_storeu_si512(out + v0 + 8 * b, r[b]);
    }
}
