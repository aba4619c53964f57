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
 * Exponentiation: fixed window (size chosen from the exponent length), table
 * entries selected by reading every entry and blending with compare masks.
 * No branch and no memory index depends on base or exponent values.
 * Conversion to and from radix 2^52 happens once per exponentiation.
 * muladd and montmul (used by core/ for the sizes not covered here) are the
 * adx kernel's. zmm (8 lanes) chosen over ymm by measurement on this
 * Xeon (cycles per multiplication, same algorithm with 4-lane vectors):
 * 1024-bit 433 vs 522, 2048-bit 1022 vs 1389, 4096-bit 2814 vs 10765
 * (ymm runs out of registers). */
#include <immintrin.h>
#include <string.h>
#include "internal/wipe.h"
#include "internal/ct.h"
#include "internal/kernel.h"
#include "hwcrypt/status.h"
#include "impl/x86/mpi_adx.h"

#define MASK52 0xFFFFFFFFFFFFFull
#define MAX_NV 10                /* 80 lanes: 4096-bit moduli (79 digits) */
#define MAX_LANES (MAX_NV * 8)
#define MAX_WIN 6

/* Loops over the vectors of a number are unrolled fully, so the arrays of
   __m512i live in registers. */
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 10")
#endif

typedef void amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                    uint64_t k0, int nd);

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

/* One function per vector count. Measured (cycles per AMM, this CPU): the
   split form is faster up to 5 vectors (2048-bit: 1030 vs 1150), where the
   loop is latency-bound; above, port 0/5 throughput binds and the single
   accumulator (fewer VALIGNQ) wins (4096-bit: 2900 vs 3500). */
#define AMM_SPLIT(N)                                                                          \
    static void amm_##N(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, \
                        uint64_t k0, int nd) {                                                \
        amm_split_body(r, a, b, m, k0, nd, N);                                                \
    }
#define AMM_PLAIN(N)                                                                          \
    static void amm_##N(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, \
                        uint64_t k0, int nd) {                                                \
        amm_body(r, a, b, m, k0, nd, N);                                                      \
    }
AMM_SPLIT(2)
AMM_SPLIT(3)
AMM_SPLIT(4)
AMM_SPLIT(5)
AMM_PLAIN(6)
AMM_PLAIN(7)
AMM_PLAIN(8)
AMM_PLAIN(9)
AMM_PLAIN(10)
static amm_fn *const amm_for_nv[MAX_NV + 1] = {NULL,  NULL,  amm_2, amm_3, amm_4, amm_5,
                                               amm_6, amm_7, amm_8, amm_9, amm_10};

/* x (n limbs, radix 2^64) into lanes digits of 52 bits. */
static void to52(uint64_t *d, size_t lanes, const hwc_limb *x, size_t n) {
    for (size_t k = 0; k < lanes; k++) {
        size_t bit = 52 * k, i = bit / 64, sh = bit % 64;
        uint64_t v = 0;
        if (i < n) {
            v = x[i] >> sh;
            if (sh > 12 && i + 1 < n) v |= x[i + 1] << (64 - sh);
        }
        d[k] = v & MASK52;
    }
}

/* normalised 52-bit digits (lanes of them) into n limbs of radix 2^64 */
static void from52(hwc_limb *x, size_t n, const uint64_t *d, size_t lanes) {
    for (size_t i = 0; i < n; i++) {
        size_t bit = 64 * i, k = bit / 52, sh = bit % 52;
        uint64_t v = k < lanes ? d[k] >> sh : 0;
        if (k + 1 < lanes) v |= d[k + 1] << (52 - sh);
        if (sh > 40 && k + 2 < lanes) v |= d[k + 2] << (104 - sh);
        x[i] = v;
    }
}

/* -m^-1 mod 2^64 by Newton iteration (m odd). */
static uint64_t neg_inv64(uint64_t m0) {
    uint64_t x = m0; /* correct to 3 bits */
    for (int i = 0; i < 5; i++) x *= 2 - m0 * x;
    return (uint64_t)0 - x;
}

static inline uint64_t opaque(uint64_t x) {
    HWC_CT_OPAQUE(x);
    return x;
}

/* x = 2^bits mod m (radix 2^64, n limbs) by doubling from 2^(bitlen(m)-1);
   m is public, the loop is branch-free anyway. bits >= bitlen(m). */
static void pow2_mod(hwc_limb *x, size_t bits, const hwc_limb *m, size_t n) {
    hwc_limb t[64];
    size_t top_bit = 64 * n - 1;
    for (size_t i = n; i-- > 0 && m[i] == 0;) top_bit -= 64;
    while (!((m[top_bit / 64] >> (top_bit % 64)) & 1)) top_bit--;
    memset(x, 0, n * sizeof *x);
    x[top_bit / 64] = (hwc_limb)1 << (top_bit % 64); /* < m */
    for (size_t s = top_bit; s < bits; s++) {
        hwc_limb top = 0;
        for (size_t j = 0; j < n; j++) {
            hwc_limb v = x[j];
            x[j] = (v << 1) | top;
            top = v >> 63;
        }
        unsigned char bw = 0;
        for (size_t j = 0; j < n; j++) {
            unsigned long long d;
            bw = _subborrow_u64(bw, x[j], m[j], &d);
            t[j] = d;
        }
        /* 2x >= m when the doubling carried out or the subtraction did not borrow */
        hwc_limb take = opaque((hwc_limb)0 - (hwc_limb)(top | (hwc_limb)(bw ^ 1)));
        for (size_t j = 0; j < n; j++) x[j] = (t[j] & take) | (x[j] & ~take);
    }
}

/* rr = R^2 mod m (almost: < 2m), R = 2^s, s = 52*nd: with s = c*2^j,
   x = 2^(s+c) mod m by doubling, then j AMM squarings: 2^(s+c) -> 2^(s+2c)
   -> ... -> 2^(2s). */
static void rr_mod(uint64_t *rr, hwc_limb *x, const uint64_t *m52, size_t lanes, amm_fn *amm,
                   uint64_t k0, int nd, const hwc_limb *m, size_t n) {
    const size_t s = 52 * (size_t)nd;
    unsigned j = 0;
    while (j < 8 && !((s >> j) & 1)) j++;
    pow2_mod(x, s + (s >> j), m, n);
    to52(rr, lanes, x, n);
    for (unsigned i = 0; i < j; i++) amm(rr, rr, rr, m52, k0, nd);
}

/* out = table[idx] reading every entry (constant time in idx). */
static void ct_select(uint64_t *out, const uint64_t *table, size_t entries, int nv, uint64_t idx) {
    const __m512i vidx = _mm512_set1_epi64((long long)idx);
    for (int v = 0; v < nv; v++) {
        __m512i r = _mm512_setzero_si512();
        for (size_t e = 0; e < entries; e++) {
            const __mmask8 k = _mm512_cmpeq_epu64_mask(_mm512_set1_epi64((long long)e), vidx);
            const __m512i sel = _mm512_maskz_set1_epi64(k, -1);
            const __m512i x = _mm512_loadu_si512(table + e * MAX_LANES + 8 * v);
            r = _mm512_ternarylogic_epi64(r, x, sel, 0xF8); /* r | (x & sel) */
        }
        _mm512_storeu_si512(out + 8 * v, r);
    }
}

/* bits [pos, pos+w) of exp (positions public) */
static uint64_t exp_bits(const hwc_limb *exp, size_t exp_n, size_t pos, unsigned w) {
    size_t i = pos / 64, sh = pos % 64;
    uint64_t v = exp[i] >> sh;
    if (sh + w > 64 && i + 1 < exp_n) v |= exp[i + 1] << (64 - sh);
    return v & (((uint64_t)1 << w) - 1);
}

typedef struct {
    _Alignas(64) uint64_t table[1 << MAX_WIN][MAX_LANES];
    _Alignas(64) uint64_t m[MAX_LANES];
    _Alignas(64) uint64_t acc[MAX_LANES];
    _Alignas(64) uint64_t tmp[MAX_LANES];
    _Alignas(64) uint64_t rr[MAX_LANES];
    _Alignas(64) uint64_t one[MAX_LANES];
    hwc_limb x[64];
} ifma_state;

static int modexp_ifma(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                       const hwc_limb *mod, size_t n) {
    if (n < 8 || n > 64) return 1;
    /* R = 2^(52*nd) > 4m: 52*nd >= 64n + 2 */
    const int nd = (int)((64 * n + 2 + 51) / 52);
    const int nv = (nd + 7) / 8;
    const size_t lanes = (size_t)nv * 8;
    amm_fn *const amm = amm_for_nv[nv];
    ifma_state st;
    const uint64_t k0 = neg_inv64(mod[0]) & MASK52;

    /* window size: minimise table cost 2^w - 2 plus bits/w multiplications */
    const size_t bits = 64 * exp_n;
    unsigned w = 1;
    for (unsigned c = 2; c <= MAX_WIN; c++)
        if ((double)((1u << c) - 2) + (double)bits / c < (double)((1u << w) - 2) + (double)bits / w) w = c;
    const size_t entries = (size_t)1 << w;

    to52(st.m, lanes, mod, n);
    memset(st.one, 0, sizeof st.one);
    st.one[0] = 1;
    rr_mod(st.rr, st.x, st.m, lanes, amm, k0, nd, mod, n); /* R^2 mod m */
    to52(st.tmp, lanes, base, n);

    amm(st.table[0], st.one, st.rr, st.m, k0, nd);      /* R mod m: Montgomery 1 */
    amm(st.table[1], st.tmp, st.rr, st.m, k0, nd);      /* base * R */
    for (size_t e = 2; e < entries; e++) amm(st.table[e], st.table[e - 1], st.table[1], st.m, k0, nd);

    /* windows from the top; the top window holds the remaining bits */
    const size_t nw = (bits + w - 1) / w;
    size_t pos = (nw - 1) * w;
    ct_select(st.acc, &st.table[0][0], entries, nv, exp_bits(exp, exp_n, pos, (unsigned)(bits - pos)));
    while (pos > 0) {
        pos -= w;
        for (unsigned s = 0; s < w; s++) amm(st.acc, st.acc, st.acc, st.m, k0, nd);
        ct_select(st.tmp, &st.table[0][0], entries, nv, exp_bits(exp, exp_n, pos, w));
        amm(st.acc, st.acc, st.tmp, st.m, k0, nd);
    }
    amm(st.acc, st.acc, st.one, st.m, k0, nd); /* out of Montgomery form: <= m */
    from52(st.x, n, st.acc, lanes);

    /* r = x - m unless that borrows (x < m) */
    unsigned char bw = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned long long d;
        bw = _subborrow_u64(bw, st.x[j], mod[j], &d);
        r[j] = d;
    }
    const hwc_limb keep = opaque((hwc_limb)0 - bw);
    for (size_t j = 0; j < n; j++) r[j] = (r[j] & ~keep) | (st.x[j] & keep);
    hwc_wipe_inline(&st, sizeof st);
    return 0;
}

const hwc_mpi_impl hwc_mpi_avx512 = {
    .muladd = hwc_mpi_adx_muladd,
    .montmul = hwc_mpi_adx_montmul,
    .modexp = modexp_ifma,
};
