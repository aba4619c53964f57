/* mpi core: argument checks, schoolbook/Karatsuba multiplication and
 * constant-time fixed-window Montgomery exponentiation, written once for
 * every kernel (kernels only supply muladd, optionally montmul, or the
 * arithmetic of their own number representation: internal/kernel.h). Contract: shared/API.md, include/hwcrypt/mpi.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal/wipe.h"
#include "core/mpi_internal.h"

#include "internal/ct.h"   /* HWC_DECLASSIFY: base < m is the one verdict modexp reveals */

/* ---- small helpers ---------------------------------------------------------- */

/* Do limb ranges [x, x+xn) and [y, y+yn) share any byte? */
static int overlaps(const hwc_limb *x, size_t xn, const hwc_limb *y, size_t yn) {
    uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
    return xa < ya + yn * sizeof(hwc_limb) && ya < xa + xn * sizeof(hwc_limb);
}

/* r[0..n) = a + b, returns the carry (0/1). r may equal a or b. */
static hwc_limb add_n(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, size_t n) {
    hwc_limb c = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb s = a[i] + c;
        hwc_limb c1 = s < c;
        s += b[i];
        c = c1 | (s < b[i]);
        r[i] = s;
    }
    return c;
}

/* Swap the operands so that *a is the longer one (sizes are public). */
static void longer_first(const hwc_limb **a, size_t *an, const hwc_limb **b, size_t *bn) {
    if (*an >= *bn) return;
    const hwc_limb *t = *a;
    size_t tn = *an;
    *a = *b;
    *an = *bn;
    *b = t;
    *bn = tn;
}

/* t[0..len) -= c, borrow carried through all of t. */
static hwc_limb sub_1(hwc_limb *t, size_t len, hwc_limb c) {
    for (size_t i = 0; i < len; i++) {
        hwc_limb v = t[i];
        t[i] = v - c;
        c = v < c;
    }
    return c;
}

/* ---- muladd ------------------------------------------------------------------ */

/* The API returns a limb, not a status: n == 0, or a NULL d or s, returns 0
   and touches nothing. */
hwc_limb hwc_mpi_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    if (n == 0 || d == NULL || s == NULL) return 0;
    return hwc_active_mpi()->muladd(d, s, n, b);
}

/* ---- multiplication ------------------------------------------------------------ */

/* r[0..an+bn) = a*b by rows of the longer operand (fewer, longer muladd
   calls). r must not overlap a or b. */
static void mul_school(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, size_t an,
                       const hwc_limb *b, size_t bn) {
    longer_first(&a, &an, &b, &bn);
    memset(r, 0, an * sizeof(hwc_limb));
    for (size_t j = 0; j < bn; j++) r[an + j] = muladd(r + j, a, an, b[j]);
}

/* Scratch limbs needed by kara(k) (mirrors its recursion). */
static size_t kara_scratch(size_t k) {
    if (k < HWC_MPI_KARATSUBA_THRESHOLD) return 0;
    size_t hh = k - k / 2;
    return 4 * hh + 2 + kara_scratch(hh);
}

/* r[0..2k) = a*b, both k limbs: Karatsuba, "Multiplication of multidigit
   numbers on automata", Soviet Physics Doklady 7 (1963); additive form
   a*b = a0b0 + ((a0+a1)(b0+b1) - a0b0 - a1b1) X + a1b1 X^2, X = 2^(64h).
   The carries of a0+a1, b0+b1 are folded in with masks (no branch). */
static void kara(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, const hwc_limb *b,
                 size_t k, hwc_limb *scr) {
    if (k < HWC_MPI_KARATSUBA_THRESHOLD) {
        mul_school(muladd, r, a, k, b, k);
        return;
    }
    size_t h = k / 2, hh = k - h;      /* low halves h limbs, high halves hh >= h */
    hwc_limb *s = scr, *t = s + hh, *p = t + hh, *next = p + 2 * hh + 2;
    /* s = a0 + a1, t = b0 + b1 (hh limbs + carries cs, ct) */
    memcpy(s, a + h, hh * sizeof(hwc_limb));
    hwc_limb cs = add_n(s, s, a, h);
    cs = hwc_mpi_add_1(s + h, hh - h, cs);
    memcpy(t, b + h, hh * sizeof(hwc_limb));
    hwc_limb ct = add_n(t, t, b, h);
    ct = hwc_mpi_add_1(t + h, hh - h, ct);
    kara(muladd, r, a, b, h, next);                 /* r[0..2h)  = a0*b0 */
    kara(muladd, r + 2 * h, a + h, b + h, hh, next); /* r[2h..2k) = a1*b1 */
    kara(muladd, p, s, t, hh, next);                /* p = s'*t' (2hh limbs) */
    /* (s' + cs Y)(t' + ct Y) = s't' + (cs t' + ct s') Y + cs ct Y^2, Y = 2^(64hh) */
    hwc_limb top = cs & ct, ms = hwc_ct_barrier(0 - cs), mt = hwc_ct_barrier(0 - ct);
    hwc_limb c = 0;
    for (size_t i = 0; i < hh; i++) { /* p[hh..2hh) += (t & ms) + (s & mt) */
        hwc_limb x = p[hh + i] + c;
        c = x < c;
        hwc_limb y = t[i] & ms;
        x += y;
        c += x < y;
        y = s[i] & mt;
        x += y;
        c += x < y;
        p[hh + i] = x;
    }
    p[2 * hh] = top + c;
    p[2 * hh + 1] = 0;
    /* p -= a0b0 + a1b1 (the difference a0b1 + a1b0 is >= 0, < 2^(64(k+1))) */
    hwc_limb bw = hwc_mpi_sub_n(p, p, r, 2 * h);
    sub_1(p + 2 * h, 2 * hh + 2 - 2 * h, bw);
    bw = hwc_mpi_sub_n(p, p, r + 2 * h, 2 * hh);
    sub_1(p + 2 * hh, 2, bw);
    /* r[h..2k) += p[0..k+1): the true product fits 2k limbs, so no carry out */
    c = add_n(r + h, r + h, p, k + 1);
    hwc_mpi_add_1(r + h + k + 1, k - h - 1, c);
}

/* Scratch limbs needed by mul_any(an, bn), an >= bn (mirrors it). */
static size_t mul_any_scratch(size_t an, size_t bn) {
    if (bn < HWC_MPI_KARATSUBA_THRESHOLD) return 0;
    if (an == bn) return kara_scratch(bn);
    size_t rem = an % bn;
    size_t need = 2 * bn + kara_scratch(bn);
    if (rem) {
        size_t last = rem + bn + mul_any_scratch(bn, rem);
        if (last > need) need = last;
    }
    return need;
}

/* r[0..an+bn) = a*b, an >= bn. Unbalanced: a is cut into bn-limb chunks,
   each multiplied by b (Karatsuba) and added in at its offset. */
static void mul_any(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, size_t an,
                    const hwc_limb *b, size_t bn, hwc_limb *scr) {
    if (bn < HWC_MPI_KARATSUBA_THRESHOLD) {
        mul_school(muladd, r, a, an, b, bn);
        return;
    }
    if (an == bn) {
        kara(muladd, r, a, b, bn, scr);
        return;
    }
    memset(r, 0, (an + bn) * sizeof(hwc_limb));
    for (size_t off = 0; off < an; off += bn) {
        size_t len = an - off < bn ? an - off : bn;
        hwc_limb *tmp = scr, *next = scr + len + bn;
        if (len == bn)
            kara(muladd, tmp, a + off, b, bn, next);
        else
            mul_any(muladd, tmp, b, bn, a + off, len, next);
        hwc_limb c = add_n(r + off, r + off, tmp, len + bn);
        hwc_mpi_add_1(r + off + len + bn, an + bn - off - len - bn, c);
    }
}

/* Errors: NULL r/a/b -> HWC_ERR_NULL_POINTER; an or bn 0 or > 256, or r
   overlapping a or b -> HWC_ERR_BAD_ARGUMENT (a == b is fine: squaring);
   HWC_ERR_NO_MEMORY if the Karatsuba scratch cannot be allocated. r is
   untouched on every error. */
int hwc_mpi_mul(hwc_limb *r, const hwc_limb *a, size_t an, const hwc_limb *b, size_t bn) {
    if (r == NULL || a == NULL || b == NULL) return HWC_ERR_NULL_POINTER;
    if (an == 0 || bn == 0 || an > HWC_MPI_MAX_LIMBS || bn > HWC_MPI_MAX_LIMBS)
        return HWC_ERR_BAD_ARGUMENT;
    if (overlaps(r, an + bn, a, an) || overlaps(r, an + bn, b, bn)) return HWC_ERR_BAD_ARGUMENT;
    return hwc_mpi_mul_with(hwc_active_mpi()->muladd, r, a, an, b, bn);
}

int hwc_mpi_mul_with(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, size_t an,
                     const hwc_limb *b, size_t bn) {
    longer_first(&a, &an, &b, &bn);
    size_t need = mul_any_scratch(an, bn);
    if (need == 0) {
        mul_school(muladd, r, a, an, b, bn);
        return HWC_OK;
    }
    hwc_limb *scr = malloc(need * sizeof(hwc_limb));
    if (scr == NULL) return HWC_ERR_NO_MEMORY;
    mul_any(muladd, r, a, an, b, bn, scr);
    hwc_wipe_inline(scr, need * sizeof(hwc_limb));
    free(scr);
    return HWC_OK;
}

/* ---- modular exponentiation ------------------------------------------------------ */

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

/* out = table[idx] reading every entry (idx secret): mask_i = all-ones only
   where i == idx, computed without comparison. Column by column (8 words at
   a time) across all entries, accumulated in registers: every table word is
   read once and out is written once (half the memory traffic of ORing entry
   by entry into out). Entries are c->words words. */
static void table_select(uint64_t *out, const uint64_t *table, size_t entries, size_t idx,
                         const hwc_mpi_mont *c) {
    const size_t n = c->words;
    hwc_limb mask[64];   /* entries <= 2^6 */
    for (size_t i = 0; i < entries; i++) {
        hwc_limb d = (hwc_limb)(i ^ idx);
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

/* The radix-2^64 domain, R = 2^(64n): numbers as they are, products from
   the kernel's montmul or built here from its muladd (core/mpi_mont.c). */
static void native_copy(uint64_t *d, const hwc_limb *x, const hwc_mpi_mont *c) {
    memcpy(d, x, c->n * sizeof(hwc_limb));
}
static void native_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    c->impl->montmul(r, a, b, c->m, c->n, c->minv, c->scratch);
}
static void native_sqr(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    c->impl->montmul(r, a, a, c->m, c->n, c->minv, c->scratch);
}
static void muladd_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c) {
    hwc_mpi_montmul_muladd(c->impl->muladd, r, a, b, c->m, c->n, c->minv, c->scratch);
}
static void muladd_sqr(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c) {
    hwc_mpi_montsqr_muladd(c->impl->muladd, r, a, c->m, c->n, c->minv, c->scratch);
}

/* c for the modulus m (n limbs) on impl: the kernel's domain when it covers
   this size, else radix 2^64. */
static void mont_setup(hwc_mpi_mont *c, const hwc_mpi_impl *impl, const hwc_limb *m, size_t n) {
    *c = (hwc_mpi_mont){.m = m, .n = n, .minv = mont_minv(m[0]), .impl = impl};
    if (impl->domain && impl->domain(c) == 0) return;
    c->words = n;
    c->rbits = 64 * n;
    c->to = native_copy;
    c->from = native_copy;
    c->mul = impl->montmul ? native_mul : muladd_mul;
    c->sqr = impl->montmul ? native_sqr : muladd_sqr;
    c->select = NULL;
}

/* rr = R^2 mod m in the domain, R = 2^rbits, all from public m: x =
   2^(rbits + k) mod m by doubling from 2^(L-1) < m (L = bit length of m),
   k the odd part of rbits = k 2^s; then s squarings in Montgomery form,
   each mapping R 2^e to R 2^(2e): R 2^k -> ... -> R 2^(k 2^s) = R^2.
   x, tmp: n limbs. */
static void mont_rr(const hwc_mpi_mont *c, uint64_t *rr, hwc_limb *x, hwc_limb *tmp) {
    const size_t n = c->n;
    size_t top = n - 1;
    while (c->m[top] == 0) top--;                      /* m > 1: some limb nonzero */
    const size_t L = 64 * top + (64 - (unsigned)__builtin_clzll(c->m[top]));
    size_t k = c->rbits;
    unsigned s = 0;
    while ((k & 1) == 0) {
        k >>= 1;
        s++;
    }
    memset(x, 0, n * sizeof(hwc_limb));
    x[(L - 1) / 64] = (hwc_limb)1 << ((L - 1) % 64);
    for (size_t i = L - 1; i < c->rbits + k; i++) mod_double(x, c->m, n, tmp);
    c->to(rr, x, c);
    for (unsigned i = 0; i < s; i++) c->sqr(rr, rr, c);
}

/* Errors (checked in this order; r untouched on every error):
   NULL r/base/exp/mod -> HWC_ERR_NULL_POINTER; n == 0, n > 256, exp_n == 0
   or exp_n > 256 -> HWC_ERR_BAD_ARGUMENT; r overlapping base, exp or mod ->
   HWC_ERR_BAD_ARGUMENT; m even, or m == 1 -> HWC_ERR_BAD_ARGUMENT;
   base >= m -> HWC_ERR_BAD_ARGUMENT (compared in constant time, only the
   verdict is used); table allocation failure -> HWC_ERR_NO_MEMORY. */
int hwc_mpi_modexp(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                   const hwc_limb *mod, size_t n) {
    if (r == NULL || base == NULL || exp == NULL || mod == NULL) return HWC_ERR_NULL_POINTER;
    if (n == 0 || n > HWC_MPI_MAX_LIMBS || exp_n == 0 || exp_n > HWC_MPI_MAX_EXP_LIMBS)
        return HWC_ERR_BAD_ARGUMENT;
    if (overlaps(r, n, base, n) || overlaps(r, n, exp, exp_n) || overlaps(r, n, mod, n))
        return HWC_ERR_BAD_ARGUMENT;
    /* m odd and > 1 (public) */
    if ((mod[0] & 1) == 0) return HWC_ERR_BAD_ARGUMENT;
    hwc_limb high = mod[0] ^ 1;
    for (size_t i = 1; i < n; i++) high |= mod[i];
    if (high == 0) return HWC_ERR_BAD_ARGUMENT;
    /* base < m: borrow of base - m over all limbs, no early exit */
    {
        hwc_limb borrow = 0;
        for (size_t i = 0; i < n; i++) {
            hwc_limb x = base[i], y = mod[i];
            hwc_limb s = x - y;
            borrow = (x < y) | (s < borrow);
        }
        HWC_DECLASSIFY(&borrow, sizeof borrow);
        if (borrow == 0) return HWC_ERR_BAD_ARGUMENT;
    }
    return hwc_mpi_modexp_mont(hwc_active_mpi(), r, base, exp, exp_n, mod, n);
}

/* The ladder, once for every kernel and domain: table T[i] = base^i R
   (2^w entries), then left to right, fixed window: the top window
   (possibly narrower) is a lookup, every other window is w squarings, a
   masked lookup and a product, whatever the exponent's value. */
int hwc_mpi_modexp_mont(const hwc_mpi_impl *impl, hwc_limb *r, const hwc_limb *base,
                        const hwc_limb *exp, size_t exp_n, const hwc_limb *mod, size_t n) {
    hwc_mpi_mont c;
    mont_setup(&c, impl, mod, n);
    const size_t W = c.words, bits = 64 * exp_n;
    const unsigned w = window_bits(bits, n);
    const size_t entries = (size_t)1 << w;
    /* one block: table (2^w entries) | acc | tmp | md | rr | one | x (n) | scratch (2n+2) */
    const size_t total = (entries + 5) * W + 3 * n + 2;
    const size_t bytes = (total * sizeof(hwc_limb) + 63) & ~(size_t)63;
    hwc_limb *blk = aligned_alloc(64, bytes);
    if (blk == NULL) return HWC_ERR_NO_MEMORY;
    uint64_t *table = blk, *acc = table + entries * W, *tmp = acc + W, *md = tmp + W, *rr = md + W,
             *one = rr + W;
    hwc_limb *x = one + W;
    c.scratch = x + n;
    c.to(md, mod, &c);
    c.md = md;
    mont_rr(&c, rr, x, c.scratch);
    memset(x, 0, n * sizeof(hwc_limb));
    x[0] = 1;
    c.to(one, x, &c);

    c.mul(table, one, rr, &c);                          /* T[0] = R mod m */
    c.to(tmp, base, &c);
    c.mul(table + W, tmp, rr, &c);                      /* T[1] = base R */
    for (size_t i = 2; i < entries; i++) c.mul(table + i * W, table + (i - 1) * W, table + W, &c);

    void (*const select)(uint64_t *, const uint64_t *, size_t, size_t, const hwc_mpi_mont *) =
        c.select ? c.select : table_select;
    const size_t nwin = (bits + w - 1) / w;
    select(acc, table, entries, exp_window(exp, exp_n, (nwin - 1) * w, w), &c);
    for (size_t win = nwin - 1; win-- > 0;) {
        for (unsigned i = 0; i < w; i++) c.sqr(acc, acc, &c);
        select(tmp, table, entries, exp_window(exp, exp_n, win * w, w), &c);
        c.mul(acc, acc, tmp, &c);
    }

    /* out of Montgomery form: acc * 1 / R <= m, then fully reduced */
    c.mul(acc, acc, one, &c);
    c.from(x, acc, &c);
    hwc_mpi_final_sub(r, x, 0, mod, n, c.scratch);
    hwc_wipe_inline(blk, bytes);
    free(blk);
    return HWC_OK;
}
