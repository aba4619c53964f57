/* hwc_mpi_modexp_many on every usable mpi kernel: each lane equals the
 * single hwc_mpi_modexp call on the same kernel and, when the build found
 * GMP, mpz_powm_sec (exponent 0: 1); lane counts 0..9 and 16 (full groups
 * of the avx512 lanes, short groups run in the lanes, short groups run lane
 * after lane), moduli of 1..64 limbs (and 65, 80: past the lanes), random
 * exponents with zero lanes, a modulus and an exponent shared by several
 * lanes. Every error path, with nothing written. Pseudo-random inputs, the
 * seed printed on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "mpi_gmp.h"

#define MAXL 16       /* lanes per call */
#define MAXS 80       /* limbs per modulus (the avx512 lanes stop at 64) */
#define MAXE 8        /* limbs per exponent in the random runs */

typedef struct {
    hwc_limb m[MAXL][MAXS], b[MAXL][MAXS], e[MAXL][MAXE], r[MAXL][MAXS], want[MAXL][MAXS];
    hwc_limb *rp[MAXL];
    const hwc_limb *bp[MAXL], *ep[MAXL], *mp[MAXL];
} lanes;

/* m odd, > 1, sometimes with zero top limbs; e random, all-zero in some
   lanes; lanes 2 and 3 share lane 1's modulus and exponent arrays; b < the
   lane's m. */
static void fill(lanes *x, hwc_rng *g, size_t cnt, size_t size, size_t en) {
    for (size_t i = 0; i < cnt; i++) {
        hwc_rng_fill(g, x->m[i], size * sizeof(hwc_limb));
        hwc_rng_fill(g, x->b[i], size * sizeof(hwc_limb));
        hwc_rng_fill(g, x->e[i], en * sizeof(hwc_limb));
        if (size > 1 && hwc_rng_below(g, 4) == 0) x->m[i][size - 1] = 0;
        x->m[i][0] |= 1;
        if (size == 1 && x->m[i][0] == 1) x->m[i][0] = 3;
        if (hwc_rng_below(g, 5) == 0) memset(x->e[i], 0, en * sizeof(hwc_limb));
        memset(x->r[i], 0xA5, sizeof x->r[i]);
        const int shared = i == 2 || i == 3;
        x->mp[i] = shared ? x->m[1] : x->m[i];
        x->ep[i] = shared ? x->e[1] : x->e[i];
        x->rp[i] = x->r[i];
        x->bp[i] = x->b[i];
        const hwc_limb *m = x->mp[i];
        size_t top = size - 1;
        while (m[top] == 0) top--;
        x->b[i][top] = hwc_rng_next(g) % m[top];
        for (size_t j = top + 1; j < size; j++) x->b[i][j] = 0;
    }
}


/* One call of cnt lanes against single calls (and GMP). */
static void check(const char *kernel, lanes *x, size_t cnt, size_t size, size_t en, uint64_t seed) {
    for (size_t i = 0; i < cnt; i++)
        cr_assert_eq(hwc_mpi_modexp(x->want[i], x->bp[i], x->ep[i], en, x->mp[i], size), HWC_OK);
    int st = hwc_mpi_modexp_many(cnt, x->rp, x->bp, x->ep, en, x->mp, size);
    cr_assert_eq(st, HWC_OK, "%s: many(%zu x %zu limbs) status %d", kernel, cnt, size, st);
    for (size_t i = 0; i < cnt; i++) {
        cr_assert(memcmp(x->r[i], x->want[i], size * sizeof(hwc_limb)) == 0,
                  "%s: lane %zu of %zu (%zu limbs, exp %zu limbs) differs from the single call "
                  "(seed 0x%llx)\n got  %s\n want %s",
                  kernel, i, cnt, size, en, (unsigned long long)seed,
                  hwc_tohex(x->r[i], size * 8), hwc_tohex(x->want[i], size * 8));
        cr_assert(hwc_all_bytes(x->r[i] + size, (MAXS - size) * sizeof(hwc_limb), 0xA5),
                  "%s: lane %zu written past its %zu limbs", kernel, i, size);
#ifdef HWC_TEST_HAVE_GMP
        hwc_limb g[MAXS];
        gmp_powm_limbs(g, x->bp[i], x->ep[i], en, x->mp[i], size, 1);
        cr_assert(memcmp(x->r[i], g, size * sizeof(hwc_limb)) == 0,
                  "%s: lane %zu of %zu (%zu limbs) differs from mpz_powm_sec (seed 0x%llx)", kernel,
                  i, cnt, size, (unsigned long long)seed);
#endif
    }
}

static void kern_many(const char *kernel, void *arg) {
    (void)arg;
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
    const size_t nc = sizeof counts / sizeof counts[0];
    lanes *x = malloc(sizeof *x);
    cr_assert(x != NULL);
    const uint64_t seed = hwc_test_seed();
    hwc_rng g;
    hwc_rng_init(&g, seed);
    const int q = hwc_test_quick();
    /* every size with one lane count (cycling), short exponents */
    for (size_t size = 1; size <= 64; size += q ? 9 : 1) {
        const size_t cnt = counts[size % nc], en = 1 + hwc_rng_below(&g, 2);
        fill(x, &g, cnt, size, en);
        check(kernel, x, cnt, size, en, seed);
    }
    /* every lane count at a few sizes, longer exponents; past 64 limbs the
       lanes are not used */
    static const size_t sizes[] = {1, 7, 8, 32, 33, 64, 65, 80};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t c = 0; c < nc; c += q ? 4 : 1) {
            const size_t en = sizes[s] <= 8 ? MAXE : 1 + hwc_rng_below(&g, 3);
            fill(x, &g, counts[c], sizes[s], en);
            check(kernel, x, counts[c], sizes[s], en, seed);
        }
    free(x);
}

Test(mpi_many, equals_single_and_gmp) {
    hwc_test_each_kernel("mpi", kern_many, NULL);
#ifndef HWC_TEST_HAVE_GMP
    fprintf(stderr, "[mpi_many] GMP cross-check skipped (built without GMP)\n");
#endif
}

/* A full-size 2048-bit exponent in 9 lanes (one group of 8 and one lane
   after it on avx512) against single calls. */
static void kern_many_2048(const char *kernel, void *arg) {
    (void)arg;
    lanes *x = malloc(sizeof *x);
    cr_assert(x != NULL);
    static hwc_limb e[9][32];
    const uint64_t seed = hwc_test_seed();
    hwc_rng g;
    hwc_rng_init(&g, seed ^ 2048);
    fill(x, &g, 9, 32, 1);
    hwc_rng_fill(&g, e, sizeof e);
    for (size_t i = 0; i < 9; i++) x->ep[i] = e[i];
    check(kernel, x, 9, 32, 32, seed);
    free(x);
}

Test(mpi_many, full_exponent_2048) { hwc_test_each_kernel("mpi", kern_many_2048, NULL); }

/* ---- error paths: nothing written ------------------------------------------------- */

#define ALL_UNTOUCHED(x, cnt)                                                                \
    do {                                                                                     \
        for (size_t i_ = 0; i_ < (cnt); i_++)                                                \
            cr_assert(hwc_all_bytes((x)->r[i_], sizeof (x)->r[i_], 0xA5),                    \
                      "error path wrote lane %zu", i_);                                      \
    } while (0)

#define MANY(x, cnt, en, size) hwc_mpi_modexp_many(cnt, (x)->rp, (x)->bp, (x)->ep, en, (x)->mp, size)

Test(mpi_many, errors) {
    lanes *x = malloc(sizeof *x);
    cr_assert(x != NULL);
    hwc_rng g;
    hwc_rng_init(&g, hwc_test_seed());
    const size_t cnt = 9, size = 4;
    fill(x, &g, cnt, size, 1);
    /* n == 0: OK, arrays may be NULL */
    cr_assert_eq(hwc_mpi_modexp_many(0, NULL, NULL, NULL, 1, NULL, size), HWC_OK);
    /* NULL arrays */
    cr_assert_eq(hwc_mpi_modexp_many(cnt, NULL, x->bp, x->ep, 1, x->mp, size), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_mpi_modexp_many(cnt, x->rp, NULL, x->ep, 1, x->mp, size), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_mpi_modexp_many(cnt, x->rp, x->bp, NULL, 1, x->mp, size), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_mpi_modexp_many(cnt, x->rp, x->bp, x->ep, 1, NULL, size), HWC_ERR_NULL_POINTER);
    ALL_UNTOUCHED(x, cnt);
    /* sizes */
    cr_assert_eq(MANY(x, cnt, 0, size), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(MANY(x, cnt, HWC_MPI_MAX_EXP_LIMBS + 1, size), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(MANY(x, cnt, (size_t)1 << 58, size), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(MANY(x, cnt, 1, 0), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(MANY(x, cnt, 1, HWC_MPI_MAX_LIMBS + 1), HWC_ERR_BAD_ARGUMENT);
    ALL_UNTOUCHED(x, cnt);
    /* one bad lane in the middle: NULL pointer, even modulus, modulus 1,
       base == m, r overlapping its own base */
    const size_t mid = 5;
    x->rp[mid] = NULL;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_NULL_POINTER);
    x->rp[mid] = x->r[mid];
    x->bp[mid] = NULL;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_NULL_POINTER);
    x->bp[mid] = x->b[mid];
    x->m[mid][0] ^= 1;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    static const hwc_limb m_one[4] = {1, 0, 0, 0};
    x->mp[mid] = m_one;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->m[mid][0] ^= 1;
    x->mp[mid] = x->m[mid];
    x->bp[mid] = x->m[mid];
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->bp[mid] = x->r[mid];
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->bp[mid] = x->b[mid];
    ALL_UNTOUCHED(x, cnt);
    /* across lanes: two outputs overlapping; an output overlapping another
       lane's base, exponent or modulus */
    x->rp[mid] = x->r[2] + 1;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->rp[mid] = (hwc_limb *)x->b[0];
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->rp[mid] = x->e[1];
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->rp[mid] = (hwc_limb *)x->m[8] + 3;
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_ERR_BAD_ARGUMENT);
    x->rp[mid] = x->r[mid];
    ALL_UNTOUCHED(x, cnt);
    /* the valid neighbour of those calls works: adjacent outputs, shared
       modulus and exponent */
    cr_assert_eq(MANY(x, cnt, 1, size), HWC_OK);
    for (size_t i = 0; i < cnt; i++) {
        hwc_limb want[4];
        cr_assert_eq(hwc_mpi_modexp(want, x->bp[i], x->ep[i], 1, x->mp[i], size), HWC_OK);
        cr_assert(memcmp(want, x->r[i], sizeof want) == 0, "lane %zu", i);
    }
    free(x);
}
