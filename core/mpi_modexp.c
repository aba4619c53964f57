/* mpi core: constant-time fixed-window Montgomery exponentiation, written
 * once for every kernel, one modulus or many: hwc_mpi_modexp and
 * hwc_mpi_modexp_many check their arguments here and run one ladder, in a
 * kernel's own number representation when it has one (its "domain",
 * internal/kernel.h; a lane-sliced domain carries one modulus per lane),
 * else in radix 2^64 on the kernel's montmul (and its montsqr for the
 * squarings, when it has one) or on ones built from its muladd
 * (core/mpi_mont.c). Montgomery, "Modular multiplication without
 * trial division", Math. Comp. 44 (1985); fixed-window exponentiation:
 * Menezes et al., Handbook of Applied Cryptography, algorithm 14.82 with a
 * table read that touches every entry. Contract: include/hwcrypt/mpi.h,
 * include/hwcrypt/batch.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal/wipe.h"
#include "internal/ct.h"   /* HWC_DECLASSIFY: base < m is the one verdict modexp reveals */
#include "core/mpi_internal.h"

/* -m^-1 mod 2^64 for odd m0: x = m0 is an inverse mod 2^3 (m0^2 == 1 mod 8);
   each Newton step x = x(2 - m0 x) doubles the correct bits: 3->6->...->96. */
static hwc_limb mont_minv(hwc_limb m0) {
    hwc_limb x = m0;
    for (int i = 0; i < 5; i++) x *= 2 - m0 * x;
    return 0 - x;
}

/* x = 2x mod m for x < m (m public; masked subtraction anyway). tmp: n limbs. */
static void mod_double(hwc_limb *x, const hwc_limb *m, size_t n, hwc_limb *tmp) {
    hwc_limb top = x[n - 1] >> 63;
    for (size_t i = n - 1; i > 0; i--) x[i] = x[i] << 1 | x[i - 1] >> 63;
    x[0] <<= 1;
    hwc_mpi_final_sub(x, x, top, m, n, tmp);
}

/* Exponent bits [pos, pos+w) (pos public; bits past the end read as 0). */
static size_t exp_window(const hwc_limb *e, size_t en, size_t pos, unsigned w) {
    size_t li = pos / 64;
    unsigned sh = pos % 64;
    hwc_limb v = e[li] >> sh;
    if (sh + w > 64 && li + 1 < en) v |= e[li + 1] << (64 - sh);
    return (size_t)(v & (((hwc_limb)1 << w) - 1));
}

/* out = table[idx[0]] reading every entry (idx secret; one lane): mask_i =
   all-ones only where i == idx, computed without comparison. Column by
   column (8 words at a time) across all entries, accumulated in registers:
   every table word is read once and out is written once. */
static void table_select(uint64_t *out, const uint64_t *table, size_t entries, const size_t *idx,
                         const hwc_mpi_mont *c) {
    const size_t n = c->words;
    hwc_limb mask[64];   /* entries <= 2^6 */
    for (size_t i = 0; i < entries; i++) {
        hwc_limb d = (hwc_limb)(i ^ idx[0]);
        mask[i] = hwc_ct_barrier(((d | (0 - d)) >> 63) - 1); /* d == 0 -> ~0, else 0 */
    }
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        hwc_limb a[8] = {0};
        const hwc_limb *e = table + j;
        for (size_t i = 0; i < entries; i++, e += n) {
            const hwc_limb m = mask[i];
            for (int q = 0; q < 8; q++) a[q] |= e[q] & m;
        }
        for (int q = 0; q < 8; q++) out[j + q] = a[q];
    }
    for (; j < n; j++) {
        hwc_limb a = 0;
        for (size_t i = 0; i < entries; i++) a |= table[i * n + j] & mask[i];
        out[j] = a;
    }
    hwc_wipe_inline(mask, entries * sizeof(hwc_limb));
}

/* Window width for a `bits`-bit exponent (bits = 64 exp_n, public: leading
   zero bits are processed like any others). Cost model in units of one
   n-limb Montgomery product: bits squarings + bits/w products + 2^w table
   products + bits/w lookups of 2^w entries (each ~ n/(4 n^2) of a product,
   measured). The best w in 1..6. */
static unsigned window_bits(size_t bits, size_t n) {
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= 6; w++) {
        double nw = (double)((bits + w - 1) / w);
        double cost = (double)bits + nw + (double)(1u << w) + nw * (double)(1u << w) / (4.0 * (double)n);
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* ---- the radix-2^64 domain (one lane), R = 2^(64n) ------------------------- */

static void native_copy(uint64_t *d, const hwc_limb *x, size_t lane, const hwc_mpi_mont *c) {
    (void)lane;
    memcpy(d, x, c->n * sizeof(hwc_limb));
}
static void native_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    c->impl->montmul(r, a, b, c->m[0], c->n, c->minv[0], c->scratch);
}
static void native_sqr(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    c->impl->montmul(r, a, a, c->m[0], c->n, c->minv[0], c->scratch);
}
static void kernel_sqr(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    c->impl->montsqr(r, a, c->m[0], c->n, c->minv[0], c->scratch);
}
static void muladd_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    hwc_mpi_montmul_muladd(c->impl->muladd, r, a, b, c->m[0], c->n, c->minv[0], c->scratch);
}
static void muladd_sqr(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    hwc_mpi_montsqr_muladd(c->impl->muladd, r, a, c->m[0], c->n, c->minv[0], c->scratch);
}

/* c for `lanes` moduli m[] of n limbs on impl: the kernel's domain when it
   covers them, else (one lane only) radix 2^64. Nonzero: not covered. */
static int mont_setup(hwc_mpi_mont *c, const hwc_mpi_impl *impl, const hwc_limb *const *m,
                      size_t lanes, size_t n) {
    memset(c, 0, sizeof *c);
    c->lanes = lanes;
    c->n = n;
    c->impl = impl;
    for (size_t l = 0; l < lanes; l++) {
        c->m[l] = m[l];
        c->minv[l] = mont_minv(m[l][0]);
    }
    if (impl->domain && (lanes == 1 || lanes == impl->lanes) && impl->domain(c) == 0) return 0;
    if (lanes != 1) return 1;
    c->words = n;
    c->rbits = 64 * n;
    c->to = native_copy;
    c->from = native_copy;
    c->mul = impl->montmul ? native_mul : muladd_mul;
    c->sqr = !impl->montmul ? muladd_sqr : impl->montsqr ? kernel_sqr : native_sqr;
    return 0;
}

/* ---- the ladder -------------------------------------------------------------- */

/* Words of the ladder's block: table (2^w entries) | acc | tmp | md | rr |
   one (domain values) | scratch (2n+2, or what the domain needs) | x (n).
   Domain values and scratch start 64-byte aligned when words is a
   multiple of 8. */
static size_t ladder_words(const hwc_mpi_mont *c, unsigned w) {
    const size_t scratch = c->scratch_words > 2 * c->n + 2 ? c->scratch_words : 2 * c->n + 2;
    return (((size_t)1 << w) + 5) * c->words + c->n + scratch;
}

/* rr = R^2 mod m in every lane, R = 2^rbits, all from public m: per lane,
   x = 2^(rbits + k) mod m by doubling from 2^(L-1) < m (L = bit length of
   m), k the odd part of rbits = k 2^s; then s squarings in Montgomery form,
   each mapping R 2^e to R 2^(2e): R 2^k -> ... -> R 2^(k 2^s) = R^2.
   x, tmp: n limbs. */
static void mont_rr(const hwc_mpi_mont *c, uint64_t *rr, hwc_limb *x, hwc_limb *tmp) {
    const size_t n = c->n;
    size_t k = c->rbits;
    unsigned s = 0;
    while ((k & 1) == 0) {
        k >>= 1;
        s++;
    }
    for (size_t l = 0; l < c->lanes; l++) {
        const hwc_limb *m = c->m[l];
        size_t top = n - 1;
        while (m[top] == 0) top--;                      /* m > 1: some limb nonzero */
        const size_t L = 64 * top + (64 - (unsigned)__builtin_clzll(m[top]));
        memset(x, 0, n * sizeof(hwc_limb));
        x[(L - 1) / 64] = (hwc_limb)1 << ((L - 1) % 64);
        for (size_t i = L - 1; i < c->rbits + k; i++) mod_double(x, m, n, tmp);
        c->to(rr, x, l, c);
    }
    for (unsigned i = 0; i < s; i++) c->sqr(rr, rr, c);
}

/* r[l] = base[l]^exp[l] mod m[l] for every lane of c, in blk
   (ladder_words(c, w) words). Table T[i] = base^i R (2^w entries), then
   left to right, fixed window: the top window (possibly narrower) is a
   lookup, every other window is w squarings, a masked lookup and a
   product, whatever the exponents' values. */
static void ladder(hwc_mpi_mont *c, hwc_limb *const r[], const hwc_limb *const base[],
                   const hwc_limb *const exp[], size_t exp_n, unsigned w, uint64_t *blk) {
    const size_t W = c->words, n = c->n, lanes = c->lanes, entries = (size_t)1 << w;
    memset(blk, 0, ladder_words(c, w) * sizeof(uint64_t)); /* domain values start at zero */
    uint64_t *table = blk, *acc = table + entries * W, *tmp = acc + W, *md = tmp + W, *rr = md + W,
             *one = rr + W;
    c->scratch = one + W;
    hwc_limb *x = c->scratch + (c->scratch_words > 2 * n + 2 ? c->scratch_words : 2 * n + 2);
    for (size_t l = 0; l < lanes; l++) c->to(md, c->m[l], l, c);
    c->md = md;
    mont_rr(c, rr, x, c->scratch);
    memset(x, 0, n * sizeof(hwc_limb));
    x[0] = 1;
    for (size_t l = 0; l < lanes; l++) c->to(one, x, l, c);

    c->mul(table, one, rr, c);                          /* T[0] = R mod m */
    for (size_t l = 0; l < lanes; l++) c->to(tmp, base[l], l, c);
    c->mul(table + W, tmp, rr, c);                      /* T[1] = base R */
    for (size_t i = 2; i < entries; i++) c->mul(table + i * W, table + (i - 1) * W, table + W, c);

    void (*const select)(uint64_t *, const uint64_t *, size_t, const size_t *, const hwc_mpi_mont *) =
        c->select ? c->select : table_select;
    const size_t nwin = (64 * exp_n + w - 1) / w;
    size_t idx[HWC_MPI_MAX_LANES];
    for (size_t l = 0; l < lanes; l++) idx[l] = exp_window(exp[l], exp_n, (nwin - 1) * w, w);
    select(acc, table, entries, idx, c);
    for (size_t win = nwin - 1; win-- > 0;) {
        for (unsigned i = 0; i < w; i++) c->sqr(acc, acc, c);
        for (size_t l = 0; l < lanes; l++) idx[l] = exp_window(exp[l], exp_n, win * w, w);
        select(tmp, table, entries, idx, c);
        c->mul(acc, acc, tmp, c);
    }

    /* out of Montgomery form: acc * 1 / R <= m, then fully reduced */
    c->mul(acc, acc, one, c);
    for (size_t l = 0; l < lanes; l++) {
        c->from(x, acc, l, c);
        hwc_mpi_final_sub(r[l], x, 0, c->m[l], n, c->scratch);
    }
    hwc_wipe_inline(idx, sizeof idx);
}

/* A 64-byte aligned block of `words` words (NULL when out of memory). */
static uint64_t *block_alloc(size_t words, size_t *bytes) {
    *bytes = (words * sizeof(uint64_t) + 63) & ~(size_t)63;
    return aligned_alloc(64, *bytes);
}

static void block_free(uint64_t *blk, size_t bytes) {
    hwc_wipe_inline(blk, bytes);
    free(blk);
}

int hwc_mpi_modexp_mont(const hwc_mpi_impl *impl, hwc_limb *r, const hwc_limb *base,
                        const hwc_limb *exp, size_t exp_n, const hwc_limb *mod, size_t n) {
    hwc_mpi_mont c;
    mont_setup(&c, impl, &mod, 1, n);
    const unsigned w = window_bits(64 * exp_n, n);
    size_t bytes;
    uint64_t *blk = block_alloc(ladder_words(&c, w), &bytes);
    if (blk == NULL) return HWC_ERR_NO_MEMORY;
    ladder(&c, &r, &base, &exp, exp_n, w, blk);
    block_free(blk, bytes);
    return HWC_OK;
}

/* Lanes one group at a time: full groups of the kernel's lane count; a
   short last group runs in the lanes too (idle lanes repeat its first
   lane, their results go to a dummy) when it holds more than half a group,
   else lane after lane. */
int hwc_mpi_modexp_many_with(const hwc_mpi_impl *impl, size_t cnt, hwc_limb *const r[],
                             const hwc_limb *const base[], const hwc_limb *const exp[],
                             size_t exp_n, const hwc_limb *const mod[], size_t n) {
    const unsigned w = window_bits(64 * exp_n, n);
    hwc_mpi_mont one, group;
    mont_setup(&one, impl, mod, 1, n);
    size_t words = ladder_words(&one, w);
    const hwc_limb *probe[HWC_MPI_MAX_LANES];
    const size_t L = impl->lanes;
    int lanes_ok = 0;
    if (L > 1 && L <= HWC_MPI_MAX_LANES) {
        for (size_t l = 0; l < L; l++) probe[l] = mod[0];
        lanes_ok = mont_setup(&group, impl, probe, L, n) == 0;
        if (lanes_ok && ladder_words(&group, w) > words) words = ladder_words(&group, w);
    }
    size_t bytes;
    uint64_t *blk = block_alloc(words + n, &bytes);
    if (blk == NULL) return HWC_ERR_NO_MEMORY;
    hwc_limb *dummy = blk + words;
    size_t i = 0;
    while (lanes_ok && i < cnt && cnt - i > L / 2) {
        hwc_limb *gr[HWC_MPI_MAX_LANES];
        const hwc_limb *gb[HWC_MPI_MAX_LANES], *ge[HWC_MPI_MAX_LANES], *gm[HWC_MPI_MAX_LANES];
        for (size_t l = 0; l < L; l++) {
            const size_t j = i + l < cnt ? i + l : i;
            gr[l] = i + l < cnt ? r[j] : dummy;
            gb[l] = base[j];
            ge[l] = exp[j];
            gm[l] = mod[j];
        }
        mont_setup(&group, impl, gm, L, n);
        ladder(&group, gr, gb, ge, exp_n, w, blk);
        i += L < cnt - i ? L : cnt - i;
    }
    for (; i < cnt; i++) {
        mont_setup(&one, impl, &mod[i], 1, n);
        ladder(&one, &r[i], &base[i], &exp[i], exp_n, w, blk);
    }
    block_free(blk, bytes);
    return HWC_OK;
}

/* ---- argument checks and the public calls ------------------------------------ */

/* The checks of one modexp, in the documented order. */
static int modexp_check(const hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                        const hwc_limb *mod, size_t n) {
    if (r == NULL || base == NULL || exp == NULL || mod == NULL) return HWC_ERR_NULL_POINTER;
    if (n == 0 || n > HWC_MPI_MAX_LIMBS || exp_n == 0 || exp_n > HWC_MPI_MAX_EXP_LIMBS)
        return HWC_ERR_BAD_ARGUMENT;
    if (hwc_mpi_overlaps(r, n, base, n) || hwc_mpi_overlaps(r, n, exp, exp_n) ||
        hwc_mpi_overlaps(r, n, mod, n))
        return HWC_ERR_BAD_ARGUMENT;
    /* m odd and > 1 (public) */
    if ((mod[0] & 1) == 0) return HWC_ERR_BAD_ARGUMENT;
    hwc_limb high = mod[0] ^ 1;
    for (size_t i = 1; i < n; i++) high |= mod[i];
    if (high == 0) return HWC_ERR_BAD_ARGUMENT;
    /* base < m: borrow of base - m over all limbs, no early exit */
    hwc_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb x = base[i], y = mod[i];
        hwc_limb s = x - y;
        borrow = (x < y) | (s < borrow);
    }
    HWC_DECLASSIFY(&borrow, sizeof borrow);
    return borrow == 0 ? HWC_ERR_BAD_ARGUMENT : HWC_OK;
}

/* Errors (checked in this order; r untouched on every error):
   NULL r/base/exp/mod -> HWC_ERR_NULL_POINTER; n == 0, n > 256, exp_n == 0
   or exp_n > HWC_MPI_MAX_EXP_LIMBS (256) -> HWC_ERR_BAD_ARGUMENT; r
   overlapping base, exp or mod -> HWC_ERR_BAD_ARGUMENT; m even, or m == 1
   -> HWC_ERR_BAD_ARGUMENT; base >= m -> HWC_ERR_BAD_ARGUMENT (compared in
   constant time, only the verdict is used); table allocation failure ->
   HWC_ERR_NO_MEMORY. */
int hwc_mpi_modexp(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                   const hwc_limb *mod, size_t n) {
    int st = modexp_check(r, base, exp, exp_n, mod, n);
    if (st != HWC_OK) return st;
    return hwc_mpi_modexp_mont(hwc_active_mpi(), r, base, exp, exp_n, mod, n);
}

/* A byte range of one argument; out: an output. */
typedef struct {
    uintptr_t lo, hi;
    int out;
} span;

static int span_order(const void *a, const void *b) {
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* HWC_OK when no output overlaps another lane's output or any lane's input
   (inputs may share memory: one modulus or exponent for many lanes). One
   sweep over the ranges sorted by start: a range overlaps an earlier one
   iff it starts below the furthest end seen so far. */
static int outputs_apart(size_t cnt, hwc_limb *const r[], const hwc_limb *const base[],
                         const hwc_limb *const exp[], size_t exp_n, const hwc_limb *const mod[],
                         size_t n) {
    span *s = malloc(4 * cnt * sizeof *s);
    if (s == NULL) return HWC_ERR_NO_MEMORY;
    const size_t nb = n * sizeof(hwc_limb), eb = exp_n * sizeof(hwc_limb);
    for (size_t i = 0; i < cnt; i++) {
        s[4 * i] = (span){(uintptr_t)r[i], (uintptr_t)r[i] + nb, 1};
        s[4 * i + 1] = (span){(uintptr_t)base[i], (uintptr_t)base[i] + nb, 0};
        s[4 * i + 2] = (span){(uintptr_t)exp[i], (uintptr_t)exp[i] + eb, 0};
        s[4 * i + 3] = (span){(uintptr_t)mod[i], (uintptr_t)mod[i] + nb, 0};
    }
    qsort(s, 4 * cnt, sizeof *s, span_order);
    uintptr_t end_any = 0, end_out = 0;
    int st = HWC_OK;
    for (size_t i = 0; i < 4 * cnt && st == HWC_OK; i++) {
        if (s[i].lo < end_out || (s[i].out && s[i].lo < end_any)) st = HWC_ERR_BAD_ARGUMENT;
        if (s[i].hi > end_any) end_any = s[i].hi;
        if (s[i].out && s[i].hi > end_out) end_out = s[i].hi;
    }
    free(s);
    return st;
}

/* Errors: n == 0 -> HWC_OK (the arrays may be NULL); a NULL array ->
   HWC_ERR_NULL_POINTER; then every lane in order with hwc_mpi_modexp's
   checks (the first failing lane's error); then an output overlapping
   another lane's output or any input -> HWC_ERR_BAD_ARGUMENT; memory ->
   HWC_ERR_NO_MEMORY. Nothing is written on any error. */
int hwc_mpi_modexp_many(size_t cnt, hwc_limb *const r[], const hwc_limb *const base[],
                        const hwc_limb *const exp[], size_t exp_n, const hwc_limb *const mod[],
                        size_t size) {
    if (cnt == 0) return HWC_OK;
    if (r == NULL || base == NULL || exp == NULL || mod == NULL) return HWC_ERR_NULL_POINTER;
    for (size_t i = 0; i < cnt; i++) {
        int st = modexp_check(r[i], base[i], exp[i], exp_n, mod[i], size);
        if (st != HWC_OK) return st;
    }
    int st = outputs_apart(cnt, r, base, exp, exp_n, mod, size);
    if (st != HWC_OK) return st;
    return hwc_mpi_modexp_many_with(hwc_active_mpi(), cnt, r, base, exp, exp_n, mod, size);
}
