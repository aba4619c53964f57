/* mpi tests: muladd, mul, modexp on every usable kernel against a slow
 * reference written here (schoolbook products, shift-subtract reduction,
 * bit-by-bit square-and-multiply) and, when the build found it, GMP
 * (mpn_addmul_1, mpn_mul, mpz_powm). Fermat checks with Mersenne primes
 * 2^p - 1, p in {61, 127, 521, 1279, 4253} (primes: OEIS A000043).
 * Heavy loops are lighter with HWC_TEST_QUICK or under qemu (QEMU_LD_PREFIX). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "internal/kernel.h"
#include "core/mpi_internal.h"
#include "mpi_gmp.h"

#define MAXN HWC_MPI_MAX_LIMBS
#define KT HWC_MPI_KARATSUBA_THRESHOLD

static int quick(void) { return getenv("HWC_TEST_QUICK") != NULL || getenv("QEMU_LD_PREFIX") != NULL; }

static void no_gmp_note(const char *what) {
#ifndef HWC_TEST_HAVE_GMP
    fprintf(stderr, "[mpi] GMP cross-check of %s skipped (built without GMP)\n", what);
#else
    (void)what;
#endif
}

/* ---- slow reference --------------------------------------------------------------- */

/* 64 x 64 -> 128 by 32-bit halves (independent of the kernels' code). */
static hwc_limb ref_mul64(hwc_limb a, hwc_limb b, hwc_limb *hi) {
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t lo = ll, h = hh, t;
    t = lh << 32; lo += t; h += (lo < t) + (lh >> 32);
    t = hl << 32; lo += t; h += (lo < t) + (hl >> 32);
    *hi = h;
    return lo;
}

/* x[i..len) += v with carry propagation */
static void ref_add_at(hwc_limb *x, size_t len, size_t i, hwc_limb v) {
    for (; i < len && v; i++) {
        x[i] += v;
        v = x[i] < v;
    }
}

static hwc_limb ref_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    hwc_limb c = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb hi, lo = ref_mul64(s[i], b, &hi);
        lo += c;
        hi += lo < c;
        lo += d[i];
        hi += lo < d[i];
        d[i] = lo;
        c = hi;
    }
    return c;
}

static void ref_mul(hwc_limb *r, const hwc_limb *a, size_t an, const hwc_limb *b, size_t bn) {
    memset(r, 0, (an + bn) * sizeof(hwc_limb));
    for (size_t i = 0; i < an; i++)
        for (size_t j = 0; j < bn; j++) {
            hwc_limb hi, lo = ref_mul64(a[i], b[j], &hi);
            ref_add_at(r, an + bn, i + j, lo);
            ref_add_at(r, an + bn, i + j + 1, hi);
        }
}

/* -1, 0, 1 comparing x[0..n) with y[0..n) */
static int ref_cmp(const hwc_limb *x, const hwc_limb *y, size_t n) {
    for (size_t i = n; i-- > 0;)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* out[0..n) = x[0..xn) mod m[0..n), shift-subtract one bit at a time. */
static void ref_mod(hwc_limb *out, const hwc_limb *x, size_t xn, const hwc_limb *m, size_t n) {
    hwc_limb rem[MAXN + 1], mm[MAXN + 1];
    memset(rem, 0, sizeof rem);
    memcpy(mm, m, n * sizeof(hwc_limb));
    mm[n] = 0;
    for (size_t bit = 64 * xn; bit-- > 0;) {
        for (size_t i = n; i > 0; i--) rem[i] = rem[i] << 1 | rem[i - 1] >> 63;
        rem[0] = rem[0] << 1 | ((x[bit / 64] >> (bit % 64)) & 1);
        if (ref_cmp(rem, mm, n + 1) >= 0) {
            hwc_limb bw = 0;
            for (size_t i = 0; i <= n; i++) {
                hwc_limb t = rem[i] - mm[i] - bw;
                bw = (rem[i] < mm[i]) || (rem[i] == mm[i] && bw);
                rem[i] = t;
            }
        }
    }
    memcpy(out, rem, n * sizeof(hwc_limb));
}

/* r = base^exp mod m, left-to-right binary (Knuth TAOCP 4.6.3). */
static void ref_modexp(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t en,
                       const hwc_limb *m, size_t n) {
    hwc_limb acc[MAXN], t[2 * MAXN];
    memset(acc, 0, n * sizeof(hwc_limb));
    acc[0] = 1;
    for (size_t bit = 64 * en; bit-- > 0;) {
        ref_mul(t, acc, n, acc, n);
        ref_mod(acc, t, 2 * n, m, n);
        if ((exp[bit / 64] >> (bit % 64)) & 1) {
            ref_mul(t, acc, n, base, n);
            ref_mod(acc, t, 2 * n, m, n);
        }
    }
    memcpy(r, acc, n * sizeof(hwc_limb));
}

#ifdef HWC_TEST_HAVE_GMP
static void gmp_modexp(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t en,
                       const hwc_limb *m, size_t n) {
    gmp_powm_limbs(r, base, exp, en, m, n, 0);
}
#endif

/* ---- random inputs ---------------------------------------------------------------- */

/* Limbs biased toward edge values (0, all-ones, 1, top bit) so carries run far. */
static hwc_limb rnd_limb(hwc_rng *g) {
    switch (hwc_rng_below(g, 8)) {
    case 0: return 0;
    case 1: return ~(hwc_limb)0;
    case 2: return 1;
    case 3: return (hwc_limb)1 << 63;
    default: return hwc_rng_next(g);
    }
}

static void rnd_limbs(hwc_rng *g, hwc_limb *x, size_t n, int edgy) {
    for (size_t i = 0; i < n; i++) x[i] = edgy ? rnd_limb(g) : hwc_rng_next(g);
}

/* Odd modulus > 1 with `zeros` zero top limbs (zeros < n). */
static void rnd_modulus(hwc_rng *g, hwc_limb *m, size_t n, size_t zeros) {
    m[0] = 0;
    rnd_limbs(g, m, n, 0);
    for (size_t i = n - zeros; i < n; i++) m[i] = 0;
    m[0] |= 1;
    if (n - zeros == 1 && m[0] == 1) m[0] = 3;
}

/* Random x < m (n limbs). */
static void rnd_below(hwc_rng *g, hwc_limb *x, const hwc_limb *m, size_t n) {
    hwc_limb t[2 * MAXN];
    rnd_limbs(g, t, 2 * n, 0);
    ref_mod(x, t, n + 1 < 2 * n ? n + 1 : 2 * n, m, n);
}

/* ---- muladd ------------------------------------------------------------------------- */

typedef hwc_limb (*muladd_fn)(hwc_limb *, const hwc_limb *, size_t, hwc_limb);

/* Every n in 1..256, random and edge limbs, b in {0, 1, 2^64-1, random}; d in
   a poisoned buffer. `fn` NULL = the public hwc_mpi_muladd. */
static void check_muladd(const char *who, muladd_fn fn, uint64_t seed) {
    hwc_rng g;
    hwc_rng_init(&g, seed);
    hwc_guarded gd;
    hwc_guarded_alloc(&gd, MAXN * sizeof(hwc_limb), 8 * hwc_rng_below(&g, 8));
    hwc_limb *d = (hwc_limb *)gd.p;
    hwc_limb s[MAXN], d0[MAXN], want[MAXN];
    for (size_t n = 1; n <= MAXN; n++) {
        for (int k = 0; k < 6; k++) {
            hwc_limb b;
            switch (k) {
            case 0: b = 0; break;
            case 1: b = ~(hwc_limb)0; break;
            case 2: b = 1; break;
            default: b = rnd_limb(&g); break;
            }
            int allones = (k == 1 || k == 5);
            for (size_t i = 0; i < n; i++) {
                s[i] = allones ? ~(hwc_limb)0 : rnd_limb(&g);
                d0[i] = allones ? ~(hwc_limb)0 : rnd_limb(&g);
            }
            memcpy(d, d0, n * sizeof(hwc_limb));
            memcpy(want, d0, n * sizeof(hwc_limb));
            hwc_limb cw = ref_muladd(want, s, n, b);
            hwc_limb c = fn ? fn(d, s, n, b) : hwc_mpi_muladd(d, s, n, b);
            cr_assert(c == cw && memcmp(d, want, n * sizeof(hwc_limb)) == 0,
                      "%s muladd n=%zu case %d: carry %016llx want %016llx (seed 0x%llx)", who, n, k,
                      (unsigned long long)c, (unsigned long long)cw, (unsigned long long)seed);
            cr_assert(hwc_guarded_intact(&gd), "%s muladd n=%zu wrote past d (seed 0x%llx)", who, n,
                      (unsigned long long)seed);
#ifdef HWC_TEST_HAVE_GMP
            memcpy(want, d0, n * sizeof(hwc_limb));
            cw = mpn_addmul_1((mp_limb_t *)want, (const mp_limb_t *)s, (mp_size_t)n, b);
            cr_assert(c == cw && memcmp(d, want, n * sizeof(hwc_limb)) == 0,
                      "%s muladd n=%zu case %d differs from GMP (seed 0x%llx)", who, n, k,
                      (unsigned long long)seed);
#endif
        }
    }
    hwc_guarded_free(&gd);
}

static void kern_muladd(const char *kernel, void *arg) {
    (void)arg;
    check_muladd(kernel, NULL, hwc_test_seed());
}

Test(mpi, muladd_every_size) {
    hwc_test_each_kernel("mpi", kern_muladd, NULL);
    no_gmp_note("muladd");
}

/* Both bodies of the generic kernel, whichever the table uses here. */
Test(mpi, muladd_generic_bodies) {
    check_muladd("generic half32", hwc_mpi_generic_muladd_half32, hwc_test_seed() ^ 1);
#ifdef HWC_MPI_HAVE_U128
    check_muladd("generic u128", hwc_mpi_generic_muladd_u128, hwc_test_seed() ^ 2);
#endif
}

Test(mpi, muladd_degenerate) {
    hwc_limb d[2] = {5, 6}, s[2] = {7, 8};
    cr_assert_eq(hwc_mpi_muladd(d, s, 0, 3), 0);
    cr_assert_eq(hwc_mpi_muladd(NULL, NULL, 0, 3), 0);
    cr_assert_eq(hwc_mpi_muladd(NULL, s, 2, 3), 0);
    cr_assert_eq(hwc_mpi_muladd(d, NULL, 2, 3), 0);
    cr_assert(d[0] == 5 && d[1] == 6 && s[0] == 7 && s[1] == 8, "muladd touched its buffers");
}

/* ---- mul ----------------------------------------------------------------------------- */

static const size_t mul_sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, KT - 1, KT, KT + 1,
                                   2 * KT - 1, 2 * KT, 2 * KT + 1, 65, 97, 127, 128, 129, 191,
                                   200, 255, 256};
static const size_t mul_sizes_quick[] = {1, 3, 8, KT - 1, KT, KT + 1, 2 * KT + 1, 100, 256};

static void check_mul_one(const char *who, muladd_fn muladd, hwc_rng *g, uint64_t seed, size_t an,
                          size_t bn, int square) {
    hwc_limb a[MAXN], b[MAXN], want[2 * MAXN];
    rnd_limbs(g, a, an, 1);
    if (square) {
        bn = an;
    } else {
        rnd_limbs(g, b, bn, 1);
    }
    const hwc_limb *bb = square ? a : b;
    if (hwc_rng_below(g, 8) == 0) { /* all-ones operands: the largest carries */
        memset(a, 0xff, an * sizeof(hwc_limb));
        if (!square) memset(b, 0xff, bn * sizeof(hwc_limb));
    }
    hwc_guarded gr;
    hwc_guarded_alloc(&gr, (an + bn) * sizeof(hwc_limb), 8 * hwc_rng_below(g, 8));
    hwc_limb *r = (hwc_limb *)gr.p;
    int st = muladd ? hwc_mpi_mul_with(muladd, r, a, an, bb, bn) : hwc_mpi_mul(r, a, an, bb, bn);
    cr_assert_eq(st, HWC_OK, "%s mul %zux%zu: status %d", who, an, bn, st);
    cr_assert(hwc_guarded_intact(&gr), "%s mul %zux%zu wrote past r (seed 0x%llx)", who, an, bn,
              (unsigned long long)seed);
    ref_mul(want, a, an, bb, bn);
    cr_assert(memcmp(r, want, (an + bn) * sizeof(hwc_limb)) == 0,
              "%s mul %zux%zu%s wrong (seed 0x%llx)", who, an, bn, square ? " (square)" : "",
              (unsigned long long)seed);
#ifdef HWC_TEST_HAVE_GMP
    if (an >= bn)
        mpn_mul((mp_limb_t *)want, (const mp_limb_t *)a, (mp_size_t)an, (const mp_limb_t *)bb,
                (mp_size_t)bn);
    else
        mpn_mul((mp_limb_t *)want, (const mp_limb_t *)bb, (mp_size_t)bn, (const mp_limb_t *)a,
                (mp_size_t)an);
    cr_assert(memcmp(r, want, (an + bn) * sizeof(hwc_limb)) == 0,
              "%s mul %zux%zu differs from GMP (seed 0x%llx)", who, an, bn, (unsigned long long)seed);
#endif
    hwc_guarded_free(&gr);
}

static void check_mul(const char *who, muladd_fn muladd, uint64_t seed) {
    hwc_rng g;
    hwc_rng_init(&g, seed);
    const size_t *sz = quick() ? mul_sizes_quick : mul_sizes;
    size_t ns = quick() ? sizeof mul_sizes_quick / sizeof *sz : sizeof mul_sizes / sizeof *sz;
    for (size_t i = 0; i < ns; i++) {
        for (size_t j = 0; j < ns; j++) check_mul_one(who, muladd, &g, seed, sz[i], sz[j], 0);
        check_mul_one(who, muladd, &g, seed, sz[i], sz[i], 1);
    }
    if (!quick()) /* every balanced size and a sweep of unbalanced ones */
        for (size_t n = 1; n <= MAXN; n++) {
            check_mul_one(who, muladd, &g, seed, n, n, n & 1);
            check_mul_one(who, muladd, &g, seed, n, 1 + hwc_rng_below(&g, MAXN), 0);
        }
}

static void kern_mul(const char *kernel, void *arg) {
    (void)arg;
    check_mul(kernel, NULL, hwc_test_seed());
}

Test(mpi, mul_grid) {
    hwc_test_each_kernel("mpi", kern_mul, NULL);
    /* the same products on the portable muladd body */
    check_mul("generic half32", hwc_mpi_generic_muladd_half32, hwc_test_seed() ^ 3);
    no_gmp_note("mul");
}

/* ---- modexp --------------------------------------------------------------------------- */

/* One modexp through the public call (in a poisoned r) checked against
   `want`; inputs must be unchanged afterwards. */
static void modexp_expect(const char *who, const hwc_limb *base, const hwc_limb *exp, size_t en,
                          const hwc_limb *m, size_t n, const hwc_limb *want, const char *what,
                          uint64_t seed) {
    hwc_limb b0[MAXN], m0[MAXN];
    memcpy(b0, base, n * sizeof(hwc_limb));
    memcpy(m0, m, n * sizeof(hwc_limb));
    hwc_guarded gr;
    hwc_guarded_alloc(&gr, n * sizeof(hwc_limb), 8 * (n % 8));
    hwc_limb *r = (hwc_limb *)gr.p;
    int st = hwc_mpi_modexp(r, base, exp, en, m, n);
    cr_assert_eq(st, HWC_OK, "%s modexp n=%zu en=%zu %s: status %d", who, n, en, what, st);
    cr_assert(hwc_guarded_intact(&gr), "%s modexp n=%zu wrote past r (seed 0x%llx)", who, n,
              (unsigned long long)seed);
    cr_assert(memcmp(r, want, n * sizeof(hwc_limb)) == 0,
              "%s modexp n=%zu en=%zu %s wrong (seed 0x%llx)\n got  %s\n want %s", who, n, en, what,
              (unsigned long long)seed, hwc_tohex(r, n * 8), hwc_tohex(want, n * 8));
    cr_assert(memcmp(base, b0, n * 8) == 0 && memcmp(m, m0, n * 8) == 0, "modexp changed an input");
    hwc_guarded_free(&gr);
}

/* Reference result: GMP when present, else the slow reference (small only). */
static int want_modexp(hwc_limb *w, const hwc_limb *base, const hwc_limb *exp, size_t en,
                       const hwc_limb *m, size_t n) {
#ifdef HWC_TEST_HAVE_GMP
    gmp_modexp(w, base, exp, en, m, n);
    return 1;
#else
    if (n * en > 16) return 0;
    ref_modexp(w, base, exp, en, m, n);
    return 1;
#endif
}

/* Random base/exponent for n limbs (with `zeros` zero top limbs of m),
   special exponents and bases. `heavy`: also the n-limb exponents (m-1,
   exp_n = n+2), which cost seconds at 256 limbs. */
static void check_modexp_size(const char *who, hwc_rng *g, uint64_t seed, size_t n, size_t en,
                              size_t zeros, int heavy) {
    hwc_limb m[MAXN], base[MAXN], want[MAXN], exp[2 * MAXN + 2];
    rnd_modulus(g, m, n, zeros);
    rnd_below(g, base, m, n);
    rnd_limbs(g, exp, en, 1);
    if (want_modexp(want, base, exp, en, m, n)) modexp_expect(who, base, exp, en, m, n, want, "random", seed);

    /* exponents 0, 1, 2, m-1 and bases 0, 1, m-1 */
    hwc_limb e[MAXN + 2];
    memset(e, 0, sizeof e);
    hwc_limb one[MAXN] = {1}, zero[MAXN] = {0};
    memset(one, 0, n * 8);
    one[0] = 1;
    modexp_expect(who, base, e, 1, m, n, one, "exp=0", seed);
    modexp_expect(who, base, e, heavy ? n + 2 : 3, m, n, one, "exp=0 long", seed);
    e[0] = 1;
    modexp_expect(who, base, e, heavy ? en : 1, m, n, base, "exp=1", seed);
    e[0] = 2;
    hwc_limb t[2 * MAXN];
    ref_mul(t, base, n, base, n);
    ref_mod(want, t, 2 * n, m, n);
    modexp_expect(who, base, e, 1, m, n, want, "exp=2", seed);
    memcpy(e, m, n * 8);
    e[0] -= 1;                                     /* m odd: no borrow */
    if (heavy && want_modexp(want, base, e, n, m, n))
        modexp_expect(who, base, e, n, m, n, want, "exp=m-1", seed);
    e[0] = 0;
    size_t es = en < 2 ? en : 2;                   /* 0^e = 0 (1 for e = 0), 1^e = 1 */
    hwc_limb ez = exp[0] | (es > 1 ? exp[1] : 0);
    modexp_expect(who, zero, exp, es, m, n, ez ? zero : one, "base=0", seed);
    modexp_expect(who, one, exp, es, m, n, one, "base=1", seed);
    hwc_limb mm1[MAXN];
    memcpy(mm1, m, n * 8);
    mm1[0] -= 1;                                   /* (m-1)^e = (-1)^e mod m */
    hwc_limb e1[1] = {hwc_rng_next(g)};
    modexp_expect(who, mm1, e1, 1, m, n, (e1[0] & 1) ? mm1 : one, "base=m-1", seed);
    memset(e, 0, sizeof e);                        /* exp_n > n: 1 in the top limb only */
    size_t el = heavy ? n + 2 : 3;
    e[el - 1] = (hwc_limb)1 << 3;
    if (want_modexp(want, base, e, el, m, n))
        modexp_expect(who, base, e, el, m, n, want, "exp_n>n", seed);
}

static void kern_modexp(const char *kernel, void *arg) {
    (void)arg;
    uint64_t seed = hwc_test_seed();
    hwc_rng g;
    hwc_rng_init(&g, seed);
    int q = quick();
    for (size_t n = 1; n <= 64; n += (q && n >= 8) ? 7 : 1) {
        int heavy = q ? n <= 16 : (n <= 24 || n % 8 == 0);
        check_modexp_size(kernel, &g, seed, n, q ? 2 : n, 0, heavy);
        if (n > 1)
            check_modexp_size(kernel, &g, seed, n, q ? 1 : (n + 1) / 2, 1 + hwc_rng_below(&g, n - 1), 0);
    }
    const size_t big[] = {128, 192, 256};
    for (size_t i = 0; i < 3; i++) {
        check_modexp_size(kernel, &g, seed, big[i], q ? 1 : (i == 0 ? big[i] : 4), 0, !q && i == 0);
        check_modexp_size(kernel, &g, seed, big[i], q ? 1 : 3, big[i] / 2, 0);
    }
}

Test(mpi, modexp_sizes) {
    hwc_test_each_kernel("mpi", kern_modexp, NULL);
    no_gmp_note("modexp (reference used for small sizes only; identities below cover the rest)");
}

/* Identity checks that need no big reference: b^(e1+e2) == b^e1 * b^e2 mod m
   (product reduced by the slow reference). Covers every size on builds
   without GMP. */
static void kern_modexp_identity(const char *kernel, void *arg) {
    (void)arg;
    uint64_t seed = hwc_test_seed() ^ 0x1d;
    hwc_rng g;
    hwc_rng_init(&g, seed);
    const size_t sizes[] = {1, 2, 5, 17, 33, 64, 128, 256};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        hwc_limb m[MAXN], b[MAXN], r1[MAXN], r2[MAXN], r12[MAXN], want[MAXN], t[2 * MAXN];
        hwc_limb e1[2], e2[2], e12[3];
        rnd_modulus(&g, m, n, n > 4 ? 1 : 0);
        rnd_below(&g, b, m, n);
        rnd_limbs(&g, e1, 2, 0);
        rnd_limbs(&g, e2, 2, 0);
        e1[1] >>= 1;
        e2[1] >>= 1;
        e12[0] = e1[0] + e2[0];
        e12[1] = e1[1] + e2[1] + (e12[0] < e1[0]);
        e12[2] = 0;
        cr_assert_eq(hwc_mpi_modexp(r1, b, e1, 2, m, n), HWC_OK);
        cr_assert_eq(hwc_mpi_modexp(r2, b, e2, 2, m, n), HWC_OK);
        cr_assert_eq(hwc_mpi_modexp(r12, b, e12, 3, m, n), HWC_OK);
        ref_mul(t, r1, n, r2, n);
        ref_mod(want, t, 2 * n, m, n);
        cr_assert(memcmp(r12, want, n * 8) == 0, "%s n=%zu: b^(e1+e2) != b^e1 b^e2 (seed 0x%llx)", kernel,
                  n, (unsigned long long)seed);
        cr_assert(ref_cmp(r1, m, n) < 0, "%s n=%zu result not reduced", kernel, n);
    }
    /* slow reference itself on small sizes, full exponents */
    for (size_t n = 1; n <= (quick() ? 2u : 4u); n++) {
        hwc_limb m[4], b[4], e[4], want[4];
        rnd_modulus(&g, m, n, 0);
        rnd_below(&g, b, m, n);
        rnd_limbs(&g, e, n, 0);
        ref_modexp(want, b, e, n, m, n);
        modexp_expect(kernel, b, e, n, m, n, want, "vs slow reference", seed);
    }
}

Test(mpi, modexp_identities) { hwc_test_each_kernel("mpi", kern_modexp_identity, NULL); }

/* Fermat: a^(p-1) == 1 mod p for prime p = 2^k - 1 (Mersenne primes). */
static void kern_fermat(const char *kernel, void *arg) {
    (void)arg;
    const unsigned ks[] = {61, 127, 521, 1279, 4253};
    hwc_rng g;
    hwc_rng_init(&g, hwc_test_seed() ^ 0xfe);
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        unsigned k = ks[i];
        if (quick() && k > 1279) continue;
        size_t n = (k + 63) / 64 + (i & 1);        /* odd entries: one zero top limb */
        hwc_limb p[MAXN], pm1[MAXN], a[MAXN], r[MAXN], one[MAXN];
        memset(p, 0, n * 8);
        for (unsigned b = 0; b < k; b++) p[b / 64] |= (hwc_limb)1 << (b % 64);
        memcpy(pm1, p, n * 8);
        pm1[0] -= 1;
        memset(one, 0, n * 8);
        one[0] = 1;
        for (int j = 0; j < 2; j++) {
            rnd_below(&g, a, p, n);
            if (j == 0) {
                memset(a, 0, n * 8);
                a[0] = 3;
            }
            cr_assert_eq(hwc_mpi_modexp(r, a, pm1, n, p, n), HWC_OK);
            cr_assert(memcmp(r, one, n * 8) == 0, "%s Fermat 2^%u-1: a^(p-1) = %s", kernel, k,
                      hwc_tohex(r, n * 8));
            /* a^p == a */
            cr_assert_eq(hwc_mpi_modexp(r, a, p, n, p, n), HWC_OK);
            cr_assert(memcmp(r, a, n * 8) == 0, "%s Fermat 2^%u-1: a^p != a", kernel, k);
        }
    }
}

Test(mpi, modexp_fermat) { hwc_test_each_kernel("mpi", kern_fermat, NULL); }

/* Montgomery product and square built from the portable muladd (and from
   the active kernel's muladd): r*R == a*b mod m, r < m. n up to 12 with
   (m-1)^2 at n = 3 (largest intermediate). */
static void check_mont(const char *who, muladd_fn muladd, uint64_t seed) {
    hwc_rng g;
    hwc_rng_init(&g, seed);
    for (size_t n = 1; n <= 12; n++) {
        hwc_limb m[12], a[12], b[12], r[12], scr[26], t[24], x[24], w1[12], w2[12];
        rnd_modulus(&g, m, n, n > 2 ? hwc_rng_below(&g, 2) : 0);
        rnd_below(&g, a, m, n);
        rnd_below(&g, b, m, n);
        if (n == 3) memcpy(a, m, 3 * 8), a[0] -= 1, memcpy(b, a, 3 * 8); /* (m-1)^2 */
        hwc_limb x0 = m[0], minv = x0;
        for (int i = 0; i < 6; i++) minv *= 2 - x0 * minv;
        minv = 0 - minv;
        hwc_mpi_montmul_muladd(muladd, r, a, b, m, n, minv, scr);
        cr_assert(ref_cmp(r, m, n) < 0, "%s montmul n=%zu not reduced", who, n);
        ref_mul(t, a, n, b, n);
        ref_mod(w1, t, 2 * n, m, n);
        memset(x, 0, n * 8);
        memcpy(x + n, r, n * 8);
        ref_mod(w2, x, 2 * n, m, n);
        cr_assert(memcmp(w1, w2, n * 8) == 0, "%s montmul n=%zu wrong (seed 0x%llx)", who, n,
                  (unsigned long long)seed);
        hwc_mpi_montmul_muladd(muladd, a, a, b, m, n, minv, scr); /* r aliasing a */
        cr_assert(memcmp(a, r, n * 8) == 0, "%s montmul n=%zu in place differs", who, n);
        /* square: equals the product a*a, in place too */
        hwc_limb sq[12];
        hwc_mpi_montmul_muladd(muladd, r, a, a, m, n, minv, scr);
        hwc_mpi_montsqr_muladd(muladd, sq, a, m, n, minv, scr);
        cr_assert(memcmp(sq, r, n * 8) == 0, "%s montsqr n=%zu != montmul(a, a) (seed 0x%llx)", who, n,
                  (unsigned long long)seed);
        hwc_mpi_montsqr_muladd(muladd, a, a, m, n, minv, scr);
        cr_assert(memcmp(a, r, n * 8) == 0, "%s montsqr n=%zu in place differs", who, n);
        ref_mul(t, r, n, r, n); /* and against the reference: sq^2 R^-1 */
        ref_mod(w1, t, 2 * n, m, n);
        hwc_mpi_montsqr_muladd(muladd, sq, r, m, n, minv, scr);
        memset(x, 0, n * 8);
        memcpy(x + n, sq, n * 8);
        ref_mod(w2, x, 2 * n, m, n);
        cr_assert(memcmp(w1, w2, n * 8) == 0 && ref_cmp(sq, m, n) < 0, "%s montsqr n=%zu wrong", who, n);
    }
}

/* The whole Montgomery exponentiation on the portable muladd, against the
   active kernel's hwc_mpi_modexp (pseudo-random, seed printed). */
Test(mpi, portable_path) {
    uint64_t seed = hwc_test_seed() ^ 0x32;
    check_mont("half32", hwc_mpi_generic_muladd_half32, seed);
    check_mont("active", hwc_active_mpi()->muladd, seed);
    hwc_mpi_impl half = {.muladd = hwc_mpi_generic_muladd_half32};
    hwc_rng g;
    hwc_rng_init(&g, seed);
    const size_t sizes[] = {1, 2, 3, 8, 16, 31, 32, 33};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        hwc_limb m[64], b[64], e[64], r1[64], r2[64];
        rnd_modulus(&g, m, n, 0);
        rnd_below(&g, b, m, n);
        rnd_limbs(&g, e, n, 1);
        cr_assert_eq(hwc_mpi_modexp_mont(&half, r1, b, e, n, m, n), HWC_OK);
        cr_assert_eq(hwc_mpi_modexp(r2, b, e, n, m, n), HWC_OK);
        cr_assert(memcmp(r1, r2, n * 8) == 0, "portable modexp n=%zu differs (seed 0x%llx)", n,
                  (unsigned long long)seed);
    }
}

/* A kernel's montsqr (internal/kernel.h) against its montmul(a, a) and the
   reference (r R == a^2 mod m, r < m), n = 1..64: four random a < m and the
   edge values 0, 1, m-1 per size; moduli with and without zero top limbs,
   and all-ones moduli (every carry runs the full length) at n % 4 == 0;
   in place (r == a) too; scratch (2n+2 limbs) guarded by poison. The
   product montmul(a, b) with b = m-1 against the reference as well. */
static void kern_montsqr(const char *kernel, void *arg) {
    (void)arg;
    const hwc_mpi_impl *impl = hwc_active_mpi();
    if (impl->montmul == NULL || impl->montsqr == NULL) {
        fprintf(stderr, "[mpi] montsqr: %s has %s (core/ squares with %s; checked by portable_path)\n",
                kernel, impl->montmul ? "no montsqr" : "no montmul",
                impl->montmul ? "montmul(a, a)" : "hwc_mpi_montsqr_muladd");
        return;
    }
    uint64_t seed = hwc_test_seed() ^ 0x5a;
    hwc_rng g;
    hwc_rng_init(&g, seed);
    const size_t top = quick() ? 20 : 64;
    for (size_t n = 1; n <= top; n++) {
        hwc_limb m[64], a[64], r1[64], r2[64], t[128], x[128], w1[64], w2[64];
        hwc_guarded gd;
        hwc_guarded_alloc(&gd, (2 * n + 2) * sizeof(hwc_limb), 8 * hwc_rng_below(&g, 8));
        hwc_limb *scr = (hwc_limb *)gd.p;
        rnd_modulus(&g, m, n, n > 1 && (n & 1) ? hwc_rng_below(&g, n) : 0);
        if (n % 4 == 0) memset(m, 0xff, n * 8);
        hwc_limb minv = m[0];
        for (int i = 0; i < 6; i++) minv *= 2 - m[0] * minv;
        minv = 0 - minv;
        for (int v = 0; v < 7; v++) {
            switch (v) {
            case 0: memset(a, 0, n * 8); break;
            case 1: memset(a, 0, n * 8), a[0] = 1; break;
            case 2: memcpy(a, m, n * 8), a[0] -= 1; break; /* m odd: no borrow */
            default: rnd_below(&g, a, m, n); break;
            }
            impl->montmul(r1, a, a, m, n, minv, scr);
            impl->montsqr(r2, a, m, n, minv, scr);
            cr_assert(memcmp(r1, r2, n * 8) == 0,
                      "%s montsqr n=%zu value %d != montmul(a, a) (seed 0x%llx)", kernel, n, v,
                      (unsigned long long)seed);
            ref_mul(t, a, n, a, n);
            ref_mod(w1, t, 2 * n, m, n);
            memset(x, 0, n * 8);
            memcpy(x + n, r2, n * 8);
            ref_mod(w2, x, 2 * n, m, n);
            cr_assert(memcmp(w1, w2, n * 8) == 0 && ref_cmp(r2, m, n) < 0,
                      "%s montsqr n=%zu value %d wrong (seed 0x%llx)", kernel, n, v,
                      (unsigned long long)seed);
            hwc_limb b[64];
            memcpy(b, m, n * 8), b[0] -= 1;
            impl->montmul(r1, a, b, m, n, minv, scr);
            ref_mul(t, a, n, b, n);
            ref_mod(w1, t, 2 * n, m, n);
            memcpy(x + n, r1, n * 8);
            ref_mod(w2, x, 2 * n, m, n);
            cr_assert(memcmp(w1, w2, n * 8) == 0 && ref_cmp(r1, m, n) < 0,
                      "%s montmul(a, m-1) n=%zu value %d wrong (seed 0x%llx)", kernel, n, v,
                      (unsigned long long)seed);
            impl->montsqr(a, a, m, n, minv, scr); /* in place */
            cr_assert(memcmp(a, r2, n * 8) == 0, "%s montsqr n=%zu value %d in place differs (seed 0x%llx)",
                      kernel, n, v, (unsigned long long)seed);
            cr_assert(hwc_guarded_intact(&gd), "%s montsqr n=%zu wrote past its scratch (seed 0x%llx)",
                      kernel, n, (unsigned long long)seed);
        }
        hwc_guarded_free(&gd);
    }
}

Test(mpi, montsqr_kernels) { hwc_test_each_kernel("mpi", kern_montsqr, NULL); }

/* Long operands up to HWC_MPI_MAX_LIMBS (many 8-row blocks and chunks in
   the adx kernel): a kernel's montsqr and montmul against the Montgomery
   product built from the portable muladd (core/mpi_mont.c, its own tests
   above), random a, b < m, all-ones moduli at n % 16 == 0. */
static void kern_mont_long(const char *kernel, void *arg) {
    (void)arg;
    const hwc_mpi_impl *impl = hwc_active_mpi();
    if (impl->montmul == NULL) {
        fprintf(stderr, "[mpi] long montmul: %s has no montmul (core/mpi_mont.c builds it)\n", kernel);
        return;
    }
    uint64_t seed = hwc_test_seed() ^ 0x10a9;
    hwc_rng g;
    hwc_rng_init(&g, seed);
    static const size_t sizes[] = {65, 72, 100, 128, 136, 200, 255, 256};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        const size_t n = sizes[z];
        static hwc_limb m[MAXN], a[MAXN], b[MAXN], r1[MAXN], r2[MAXN], scr[2 * MAXN + 2];
        rnd_modulus(&g, m, n, 0);
        if (n % 16 == 0) memset(m, 0xff, n * 8);
        rnd_below(&g, a, m, n);
        rnd_below(&g, b, m, n);
        hwc_limb minv = m[0];
        for (int i = 0; i < 6; i++) minv *= 2 - m[0] * minv;
        minv = 0 - minv;
        impl->montmul(r1, a, b, m, n, minv, scr);
        hwc_mpi_montmul_muladd(hwc_mpi_generic_muladd_half32, r2, a, b, m, n, minv, scr);
        cr_assert(memcmp(r1, r2, n * 8) == 0, "%s montmul n=%zu differs from the portable one (seed 0x%llx)",
                  kernel, n, (unsigned long long)seed);
        hwc_mpi_montmul_muladd(hwc_mpi_generic_muladd_half32, r2, a, a, m, n, minv, scr);
        if (impl->montsqr) {
            impl->montsqr(r1, a, m, n, minv, scr);
            cr_assert(memcmp(r1, r2, n * 8) == 0,
                      "%s montsqr n=%zu differs from the portable product (seed 0x%llx)", kernel, n,
                      (unsigned long long)seed);
        }
        impl->montmul(r1, a, a, m, n, minv, scr);
        cr_assert(memcmp(r1, r2, n * 8) == 0, "%s montmul(a, a) n=%zu differs (seed 0x%llx)", kernel, n,
                  (unsigned long long)seed);
    }
}

Test(mpi, mont_long_operands) { hwc_test_each_kernel("mpi", kern_mont_long, NULL); }

/* Every usable kernel gives the same muladd, mul and modexp results as the
   first one on the same pseudo-random inputs. */
Test(mpi, cross_kernel) {
    const char *names[16];
    size_t nk = hwc_test_usable_kernels("mpi", names, 16);
    cr_assert(nk >= 1);
    uint64_t seed = hwc_test_seed() ^ 0xc0;
    hwc_rng g;
    hwc_rng_init(&g, seed);
    int rounds = quick() ? 4 : 24;
    for (int it = 0; it < rounds; it++) {
        size_t n = 1 + hwc_rng_below(&g, it < rounds / 2 ? 40 : MAXN);
        size_t bn = 1 + hwc_rng_below(&g, MAXN);
        size_t en = 1 + hwc_rng_below(&g, it < rounds / 2 ? 2 * n : 2);
        static hwc_limb a[MAXN], b[MAXN], d[MAXN], m[MAXN], e[2 * MAXN + 2];
        static hwc_limb out[16][3 * MAXN + 1];
        rnd_limbs(&g, a, n, 1);
        rnd_limbs(&g, b, bn, 1);
        rnd_limbs(&g, d, n, 1);
        rnd_limbs(&g, e, en, 1);
        rnd_modulus(&g, m, n, hwc_rng_below(&g, n));
        rnd_below(&g, a, m, n);
        for (size_t k = 0; k < nk; k++) {
            cr_assert_eq(hwc_kernel_select("mpi", names[k]), HWC_OK);
            hwc_limb *o = out[k];
            memcpy(o, d, n * 8);
            o[n] = hwc_mpi_muladd(o, a, n, b[0]);
            cr_assert_eq(hwc_mpi_mul(o + n + 1, a, n, b, bn), HWC_OK);
            cr_assert_eq(hwc_mpi_modexp(o + 2 * n + 1 + bn, a, e, en, m, n), HWC_OK);
            if (k > 0)
                cr_assert(memcmp(o, out[0], (3 * n + 1 + bn) * 8) == 0,
                          "kernel %s differs from %s (n=%zu bn=%zu en=%zu round %d, seed 0x%llx)",
                          names[k], names[0], n, bn, en, it, (unsigned long long)seed);
        }
    }
    cr_assert_eq(hwc_kernel_select("mpi", NULL), HWC_OK);
    fprintf(stderr, "[mpi] cross-kernel: %zu kernel(s) compared\n", nk);
}

/* ---- error paths: every documented error, r untouched ------------------------------- */

/* n limbs still holding the 0xA5 fill */
#define untouched(r, n) hwc_all_bytes((r), (n) * sizeof(hwc_limb), 0xA5)

Test(mpi, mul_errors) {
    hwc_limb a[MAXN + 1] = {3, 4}, b[MAXN + 1] = {5, 6}, r[2 * MAXN + 4];
    memset(r, 0xA5, sizeof r);
#define MUL_ERR(st, rr, aa, an, bb, bn)                                                     \
    do {                                                                                    \
        cr_assert_eq(hwc_mpi_mul(rr, aa, an, bb, bn), st, "mul(%s)", #rr ", " #aa ", " #an ", " #bb ", " #bn); \
        cr_assert(untouched(r, 2 * MAXN + 4), "mul error path wrote r");                 \
    } while (0)
    MUL_ERR(HWC_ERR_NULL_POINTER, NULL, a, 2, b, 2);
    MUL_ERR(HWC_ERR_NULL_POINTER, r, NULL, 2, b, 2);
    MUL_ERR(HWC_ERR_NULL_POINTER, r, a, 2, NULL, 2);
    MUL_ERR(HWC_ERR_BAD_ARGUMENT, r, a, 0, b, 2);
    MUL_ERR(HWC_ERR_BAD_ARGUMENT, r, a, 2, b, 0);
    MUL_ERR(HWC_ERR_BAD_ARGUMENT, r, a, 257, b, 2);
    MUL_ERR(HWC_ERR_BAD_ARGUMENT, r, a, 2, b, 257);
    /* overlaps: r == a, r inside a, a inside r, r == b, r ending on b's first limb */
    hwc_limb big[4 * MAXN];
    memset(big, 0x11, sizeof big);
    cr_assert_eq(hwc_mpi_mul(big, big, 2, b, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_mul(big + 1, big, 2, b, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_mul(big, big + 3, 2, b, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_mul(big, a, 2, big, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_mul(big, a, 2, big + 3, 2), HWC_ERR_BAD_ARGUMENT);
    for (size_t i = 0; i < 4 * MAXN; i++) cr_assert_eq(big[i], 0x1111111111111111ull, "overlap error wrote");
    /* adjacent but not overlapping is fine */
    cr_assert_eq(hwc_mpi_mul(big, a, 2, big + 4, 2), HWC_OK);
#undef MUL_ERR
}

Test(mpi, modexp_errors) {
    hwc_limb r[MAXN + 2], m[MAXN + 2], base[MAXN + 2], e[4] = {5, 0, 0, 0};
    memset(m, 0, sizeof m);
    memset(base, 0, sizeof base);
    m[0] = 0xF1;
    m[1] = 7;
    base[0] = 2;
    memset(r, 0xA5, sizeof r);
#define EXP_ERR(st, rr, bb, ee, en, mm, nn)                                              \
    do {                                                                                  \
        cr_assert_eq(hwc_mpi_modexp(rr, bb, ee, en, mm, nn), st, "modexp(%s)",            \
                     #rr ", " #bb ", " #ee ", " #en ", " #mm ", " #nn);                    \
        cr_assert(untouched(r, MAXN + 2), "modexp error path wrote r");                   \
    } while (0)
    EXP_ERR(HWC_ERR_NULL_POINTER, NULL, base, e, 1, m, 2);
    EXP_ERR(HWC_ERR_NULL_POINTER, r, NULL, e, 1, m, 2);
    EXP_ERR(HWC_ERR_NULL_POINTER, r, base, NULL, 1, m, 2);
    EXP_ERR(HWC_ERR_NULL_POINTER, r, base, e, 1, NULL, 2);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m, 0);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m, 257);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 0, m, 2);
    hwc_limb m_even[2] = {0xF0, 7}, m_one[3] = {1, 0, 0}, m_zero[2] = {0, 0};
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m_even, 2);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m_one, 3);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m_one, 1);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, base, e, 1, m_zero, 2);
    hwc_limb b_eq[2] = {0xF1, 7}, b_gt[2] = {0, 8}, b_lt[2] = {0xF0, 7};
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, b_eq, e, 1, m, 2);
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, b_gt, e, 1, m, 2);
    hwc_limb b_hi[3] = {0, 0, 1}; /* base >= m only in a limb above m's top nonzero limb */
    EXP_ERR(HWC_ERR_BAD_ARGUMENT, r, b_hi, e, 1, m, 3);
    /* overlaps of r with base, exp, mod */
    hwc_limb big[16];
    memset(big, 0x22, sizeof big);
    big[0] = 3;
    big[1] = 0;
    cr_assert_eq(hwc_mpi_modexp(big, big, e, 1, m, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_modexp(big + 1, big, e, 1, m, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_modexp(big + 2, base, big, 3, m, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_mpi_modexp(big + 4, base, e, 1, big + 5, 2), HWC_ERR_BAD_ARGUMENT);
    cr_assert(big[0] == 3 && big[1] == 0 && big[2] == 0x2222222222222222ull &&
                  big[15] == 0x2222222222222222ull && big[5] == 0x2222222222222222ull,
              "overlap error path wrote");
    /* the valid neighbours of those calls work: */
    cr_assert_eq(hwc_mpi_modexp(r, b_lt, e, 1, m, 2), HWC_OK);
    hwc_limb want[2];
    ref_modexp(want, b_lt, e, 1, m, 2);
    cr_assert(memcmp(r, want, 16) == 0);
#undef EXP_ERR
}

/* exp_n past HWC_MPI_MAX_EXP_LIMBS is refused before exp is read, on every
   kernel (64 * exp_n used to wrap: 2^58 limbs crashed, 2^58 + 1 silently
   used 64 bits); the longest allowed exponent still gives the right value. */
static void kern_exp_bound(const char *kernel, void *arg) {
    (void)arg;
    static const size_t bad[] = {HWC_MPI_MAX_EXP_LIMBS + 1, (size_t)1 << 58, ((size_t)1 << 58) + 1,
                                 SIZE_MAX / 64 + 1, SIZE_MAX};
    hwc_limb m[2] = {0xF1, 7}, base[2] = {2, 0}, r[2], e[HWC_MPI_MAX_EXP_LIMBS], want[2];
    uint64_t seed = hwc_test_seed();
    hwc_rng g;
    hwc_rng_init(&g, seed);
    hwc_rng_fill(&g, e, sizeof e);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(r, 0xA5, sizeof r);
        cr_assert_eq(hwc_mpi_modexp(r, base, e, bad[i], m, 2), HWC_ERR_BAD_ARGUMENT,
                     "%s: exp_n = %zu accepted", kernel, bad[i]);
        cr_assert(untouched(r, 2), "%s: exp_n = %zu wrote r", kernel, bad[i]);
    }
    cr_assert_eq(hwc_mpi_modexp(r, base, e, HWC_MPI_MAX_EXP_LIMBS, m, 2), HWC_OK);
    ref_modexp(want, base, e, HWC_MPI_MAX_EXP_LIMBS, m, 2);
    cr_assert(memcmp(r, want, sizeof r) == 0, "%s: longest exponent wrong (seed 0x%llx)", kernel,
              (unsigned long long)seed);
}

Test(mpi, modexp_exp_n_bound) { hwc_test_each_kernel("mpi", kern_exp_bound, NULL); }
