/* mpi core: argument checks and schoolbook/Karatsuba multiplication,
 * written once for every kernel on the kernel's muladd (the exponentiation
 * is core/mpi_modexp.c). Reference: docs/API.md, include/hwcrypt/mpi.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal/wipe.h"
#include "core/mpi_internal.h"

/* ---- small helpers ---------------------------------------------------------- */

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
/* The first call runs dispatch init out of line, so that the usual call
   keeps nothing across a call: two tail calls, no saved registers. */
static __attribute__((noinline, cold)) hwc_limb muladd_first(hwc_limb *d, const hwc_limb *s, size_t n,
                                                            hwc_limb b) {
    return hwc_active_mpi()->muladd(d, s, n, b);
}

hwc_limb hwc_mpi_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    /* three predicted branches, not the conditions combined first (fewer
       instructions; the empty asm keeps the compiler from merging them) */
    if (__builtin_expect(n == 0, 0)) return 0;
    __asm__("" : "+r"(d));
    if (__builtin_expect(d == NULL, 0)) return 0;
    __asm__("" : "+r"(s));
    if (__builtin_expect(s == NULL, 0)) return 0;
    const hwc_mpi_impl *t = hwc_active_peek(HWC_FAM_MPI);
    return t ? t->muladd(d, s, n, b) : muladd_first(d, s, n, b);
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
    if (hwc_mpi_overlaps(r, an + bn, a, an) || hwc_mpi_overlaps(r, an + bn, b, bn)) return HWC_ERR_BAD_ARGUMENT;
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
