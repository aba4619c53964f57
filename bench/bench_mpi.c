/* mpi bench: muladd (cycles/limb at 8, 32, 64 limbs) for every usable mpi
 * kernel next to GMP mpn_addmul_1; modexp (full-size exponent, 1024..4096-bit
 * modulus; --quick: 2048 only) next to OpenSSL BN_mod_exp_mont_consttime,
 * GMP mpz_powm_sec and, with --full, mbedTLS mbedtls_mpi_exp_mod;
 * modexp-many (8 independent 2048-bit modexps, cycles for the 8) for
 * every kernel in lanes and one call each, next to OpenSSL and GMP. All
 * cases of one size are timed interleaved by hwc_bench_group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"
#ifdef HWC_BENCH_HAVE_GMP
#include <gmp.h>
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/opensslv.h>
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
#include <mbedtls/bignum.h>
#include <mbedtls/version.h>
#endif

#define MAXK 8
#define MAX_LIMBS 64

/* xorshift64: fixed inputs, the same in every run */
static uint64_t g_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}

/* ---- muladd ------------------------------------------------------------------ */
typedef struct {
    hwc_limb d[MAX_LIMBS], s[MAX_LIMBS];
    size_t n;
} muladd_arg;

/* The sum of the carries leaves through a copy: taking the address of the
   running sum would keep it in memory, a load and a store per call inside
   the timed loop (for both libraries). */
static void sink_sum(muladd_arg *a, hwc_limb c) {
    hwc_bench_sink(a->d, sizeof a->d);
    hwc_bench_sink(&c, sizeof c);
}

static void run_muladd(void *p, size_t iters) {
    muladd_arg *a = p;
    hwc_limb c = 0;
    /* the multiplier does not depend on the previous carry: calls overlap
       as they do in a product or a Montgomery row */
    for (size_t i = 0; i < iters; i++) c += hwc_mpi_muladd(a->d, a->s, a->n, a->s[i & 7]);
    sink_sum(a, c);
}

#ifdef HWC_BENCH_HAVE_GMP
static void run_gmp_addmul(void *p, size_t iters) {
    muladd_arg *a = p;
    mp_limb_t c = 0;
    for (size_t i = 0; i < iters; i++)
        c += mpn_addmul_1((mp_ptr)a->d, (mp_srcptr)a->s, (mp_size_t)a->n, (mp_limb_t)a->s[i & 7]);
    sink_sum(a, c);
}
#endif

/* The usable mpi kernels, best first. */
static size_t usable_kernels(hwc_kernel_info *ki) {
    hwc_kernel_info all[MAXK];
    size_t total = hwc_kernels("mpi", all, MAXK), k = 0;
    if (total > MAXK) total = MAXK;
    for (size_t i = 0; i < total; i++)
        if (all[i].usable) ki[k++] = all[i];
    return k;
}

static void bench_muladd(const hwc_bench_opts *o, const hwc_kernel_info *ki, size_t nk) {
    static const size_t sizes[] = {8, 32, 64};
    static muladd_arg args[MAXK + 1];
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        hwc_bench_case cases[MAXK + 1];
        size_t nc = 0;
        for (size_t k = 0; k <= nk; k++) {
            args[k].n = sizes[z];
            for (size_t i = 0; i < MAX_LIMBS; i++) {
                args[k].d[i] = next_rand();
                args[k].s[i] = next_rand();
            }
        }
        for (size_t k = 0; k < nk; k++)
            cases[nc++] = (hwc_bench_case){ki[k].name, 0, ki[k].name, run_muladd, &args[k]};
#ifdef HWC_BENCH_HAVE_GMP
        cases[nc++] = (hwc_bench_case){"gmp " HWC_BENCH_GMP_VERSION " mpn_addmul_1", 1, NULL,
                                       run_gmp_addmul, &args[nk]};
#endif
        char label[32];
        snprintf(label, sizeof label, "%zu limbs", sizes[z]);
        hwc_bench_group(o, "mpi", "muladd", label, (double)sizes[z], HWC_UNIT_LIMBS, cases, nc);
    }
}

/* ---- modexp ------------------------------------------------------------------ */
typedef struct {
    hwc_limb m[MAX_LIMBS], b[MAX_LIMBS], e[MAX_LIMBS], r[MAX_LIMBS];
    size_t n;
#ifdef HWC_BENCH_HAVE_GMP
    mpz_t zm, zb, ze, zr;
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
    BIGNUM *om, *ob, *oe, *orr;
    BN_CTX *octx;
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
    mbedtls_mpi tm, tb, te, tr;
#endif
} modexp_arg;

/* One hwc_mpi_modexp (exponent and modulus of n limbs); exits on failure. */
static void modexp_once(hwc_limb *r, const hwc_limb *b, const hwc_limb *e, const hwc_limb *m, size_t n) {
    if (hwc_mpi_modexp(r, b, e, n, m, n) != HWC_OK) {
        fprintf(stderr, "hwcrypt bench: hwc_mpi_modexp failed\n");
        exit(1);
    }
}

static void run_modexp(void *p, size_t iters) {
    modexp_arg *a = p;
    for (size_t i = 0; i < iters; i++) modexp_once(a->r, a->b, a->e, a->m, a->n);
    hwc_bench_sink(a->r, sizeof a->r);
}

#ifdef HWC_BENCH_HAVE_GMP
static void run_gmp_powm(void *p, size_t iters) {
    modexp_arg *a = p;
    for (size_t i = 0; i < iters; i++) mpz_powm_sec(a->zr, a->zb, a->ze, a->zm);
}
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
static void run_openssl(void *p, size_t iters) {
    modexp_arg *a = p;
    for (size_t i = 0; i < iters; i++) BN_mod_exp_mont_consttime(a->orr, a->ob, a->oe, a->om, a->octx, NULL);
}
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
static void run_mbedtls(void *p, size_t iters) {
    modexp_arg *a = p;
    for (size_t i = 0; i < iters; i++) mbedtls_mpi_exp_mod(&a->tr, &a->tb, &a->te, &a->tm, NULL);
}
#endif

/* little-endian bytes of n limbs (for the peers' import functions) */
static void limbs_le(unsigned char *out, const hwc_limb *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) out[8 * i + (size_t)j] = (unsigned char)(x[i] >> (8 * j));
}

static void bench_modexp(const hwc_bench_opts *o, const hwc_kernel_info *ki, size_t nk) {
    static const size_t all_bits[] = {1024, 2048, 3072, 4096};
    static modexp_arg a;
    unsigned char buf[8 * MAX_LIMBS];
    for (size_t z = 0; z < sizeof all_bits / sizeof all_bits[0]; z++) {
        if (o->quick && all_bits[z] != 2048) continue;
        const size_t n = all_bits[z] / 64;
        a.n = n;
        /* odd full-size modulus, base < m (top limb cleared), full-size exponent */
        for (size_t i = 0; i < n; i++) {
            a.m[i] = next_rand();
            a.b[i] = next_rand();
            a.e[i] = next_rand();
        }
        a.m[0] |= 1;
        a.m[n - 1] |= (hwc_limb)1 << 63;
        a.b[n - 1] >>= 1;
        a.e[n - 1] |= (hwc_limb)1 << 63;

        hwc_bench_case cases[MAXK + 3];
        size_t nc = 0;
        for (size_t k = 0; k < nk; k++)
            cases[nc++] = (hwc_bench_case){ki[k].name, 0, ki[k].name, run_modexp, &a};
#ifdef HWC_BENCH_HAVE_OPENSSL
        a.octx = BN_CTX_new();
        limbs_le(buf, a.m, n);
        a.om = BN_lebin2bn(buf, (int)(8 * n), NULL);
        limbs_le(buf, a.b, n);
        a.ob = BN_lebin2bn(buf, (int)(8 * n), NULL);
        limbs_le(buf, a.e, n);
        a.oe = BN_lebin2bn(buf, (int)(8 * n), NULL);
        a.orr = BN_new();
        cases[nc++] = (hwc_bench_case){"openssl " HWC_BENCH_OPENSSL_VERSION, 1, NULL, run_openssl, &a};
#endif
#ifdef HWC_BENCH_HAVE_GMP
        mpz_inits(a.zm, a.zb, a.ze, a.zr, NULL);
        mpz_import(a.zm, n, -1, sizeof(hwc_limb), 0, 0, a.m);
        mpz_import(a.zb, n, -1, sizeof(hwc_limb), 0, 0, a.b);
        mpz_import(a.ze, n, -1, sizeof(hwc_limb), 0, 0, a.e);
        cases[nc++] = (hwc_bench_case){"gmp " HWC_BENCH_GMP_VERSION " powm_sec", 1, NULL, run_gmp_powm, &a};
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        if (!o->quick) {
            mbedtls_mpi_init(&a.tm);
            mbedtls_mpi_init(&a.tb);
            mbedtls_mpi_init(&a.te);
            mbedtls_mpi_init(&a.tr);
            limbs_le(buf, a.m, n);
            mbedtls_mpi_read_binary_le(&a.tm, buf, 8 * n);
            limbs_le(buf, a.b, n);
            mbedtls_mpi_read_binary_le(&a.tb, buf, 8 * n);
            limbs_le(buf, a.e, n);
            mbedtls_mpi_read_binary_le(&a.te, buf, 8 * n);
            cases[nc++] = (hwc_bench_case){"mbedtls " MBEDTLS_VERSION_STRING, 1, NULL, run_mbedtls, &a};
        }
#endif
        (void)buf;
        (void)limbs_le;
        char label[32];
        snprintf(label, sizeof label, "%zu-bit", all_bits[z]);
        hwc_bench_group(o, "mpi", "modexp", label, 1.0, HWC_UNIT_OPS, cases, nc);

#ifdef HWC_BENCH_HAVE_OPENSSL
        BN_free(a.om);
        BN_free(a.ob);
        BN_free(a.oe);
        BN_free(a.orr);
        BN_CTX_free(a.octx);
#endif
#ifdef HWC_BENCH_HAVE_GMP
        mpz_clears(a.zm, a.zb, a.ze, a.zr, NULL);
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        if (!o->quick) {
            mbedtls_mpi_free(&a.tm);
            mbedtls_mpi_free(&a.tb);
            mbedtls_mpi_free(&a.te);
            mbedtls_mpi_free(&a.tr);
        }
#endif
    }
}

/* ---- modexp-many: 8 independent 2048-bit modexps ------------------------------ */
#define LANES 8
#define MANY_LIMBS 32

typedef struct {
    hwc_limb m[LANES][MANY_LIMBS], b[LANES][MANY_LIMBS], e[LANES][MANY_LIMBS], r[LANES][MANY_LIMBS];
    hwc_limb *rp[LANES];
    const hwc_limb *mp[LANES], *bp[LANES], *ep[LANES];
#ifdef HWC_BENCH_HAVE_GMP
    mpz_t zm[LANES], zb[LANES], ze[LANES], zr;
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
    BIGNUM *om[LANES], *ob[LANES], *oe[LANES], *orr;
    BN_CTX *octx;
#endif
} many_arg;

/* One iteration = the 8 operations: one call of 8 lanes ... */
static void run_many(void *p, size_t iters) {
    many_arg *a = p;
    for (size_t i = 0; i < iters; i++) {
        if (hwc_mpi_modexp_many(LANES, a->rp, a->bp, a->ep, MANY_LIMBS, a->mp, MANY_LIMBS) != HWC_OK) {
            fprintf(stderr, "hwcrypt bench: hwc_mpi_modexp_many failed\n");
            exit(1);
        }
    }
    hwc_bench_sink(a->r, sizeof a->r);
}

/* ... or 8 hwc_mpi_modexp calls */
static void run_many_single(void *p, size_t iters) {
    many_arg *a = p;
    for (size_t i = 0; i < iters * LANES; i++)
        modexp_once(a->r[i % LANES], a->b[i % LANES], a->e[i % LANES], a->m[i % LANES], MANY_LIMBS);
    hwc_bench_sink(a->r, sizeof a->r);
}

#ifdef HWC_BENCH_HAVE_GMP
static void run_many_gmp(void *p, size_t iters) {
    many_arg *a = p;
    for (size_t i = 0; i < iters * LANES; i++)
        mpz_powm_sec(a->zr, a->zb[i % LANES], a->ze[i % LANES], a->zm[i % LANES]);
}
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
static void run_many_openssl(void *p, size_t iters) {
    many_arg *a = p;
    for (size_t i = 0; i < iters * LANES; i++)
        BN_mod_exp_mont_consttime(a->orr, a->ob[i % LANES], a->oe[i % LANES], a->om[i % LANES], a->octx, NULL);
}
#endif

/* The 8 operations (one row = cycles for all 8; per operation: / 8): every
   kernel's hwc_mpi_modexp_many in one call of 8 lanes and its
   hwc_mpi_modexp one call each, next to the peers, on the same 8 odd
   full-size moduli, bases and exponents. (One call of 8 per iteration: the
   harness's batches are a few operations long, too short to count lanes
   one by one.) */
static void bench_modexp_many(const hwc_bench_opts *o, const hwc_kernel_info *ki, size_t nk) {
    static many_arg a;
    static char names[2 * MAXK][40];
    for (size_t l = 0; l < LANES; l++) {
        for (size_t i = 0; i < MANY_LIMBS; i++) {
            a.m[l][i] = next_rand();
            a.b[l][i] = next_rand();
            a.e[l][i] = next_rand();
        }
        a.m[l][0] |= 1;
        a.m[l][MANY_LIMBS - 1] |= (hwc_limb)1 << 63;
        a.b[l][MANY_LIMBS - 1] >>= 1;
        a.e[l][MANY_LIMBS - 1] |= (hwc_limb)1 << 63;
        a.rp[l] = a.r[l];
        a.mp[l] = a.m[l];
        a.bp[l] = a.b[l];
        a.ep[l] = a.e[l];
    }
    hwc_bench_case cases[2 * MAXK + 2];
    size_t nc = 0;
    for (size_t k = 0; k < nk; k++) {
        snprintf(names[2 * k], sizeof names[0], "%s many", ki[k].name);
        snprintf(names[2 * k + 1], sizeof names[0], "%s single", ki[k].name);
        cases[nc++] = (hwc_bench_case){names[2 * k], 0, ki[k].name, run_many, &a};
        cases[nc++] = (hwc_bench_case){names[2 * k + 1], 0, ki[k].name, run_many_single, &a};
    }
#ifdef HWC_BENCH_HAVE_OPENSSL
    unsigned char buf[8 * MANY_LIMBS];
    a.octx = BN_CTX_new();
    a.orr = BN_new();
    for (size_t l = 0; l < LANES; l++) {
        limbs_le(buf, a.m[l], MANY_LIMBS);
        a.om[l] = BN_lebin2bn(buf, 8 * MANY_LIMBS, NULL);
        limbs_le(buf, a.b[l], MANY_LIMBS);
        a.ob[l] = BN_lebin2bn(buf, 8 * MANY_LIMBS, NULL);
        limbs_le(buf, a.e[l], MANY_LIMBS);
        a.oe[l] = BN_lebin2bn(buf, 8 * MANY_LIMBS, NULL);
    }
    cases[nc++] = (hwc_bench_case){"openssl " HWC_BENCH_OPENSSL_VERSION, 1, NULL, run_many_openssl, &a};
#endif
#ifdef HWC_BENCH_HAVE_GMP
    mpz_init(a.zr);
    for (size_t l = 0; l < LANES; l++) {
        mpz_inits(a.zm[l], a.zb[l], a.ze[l], NULL);
        mpz_import(a.zm[l], MANY_LIMBS, -1, sizeof(hwc_limb), 0, 0, a.m[l]);
        mpz_import(a.zb[l], MANY_LIMBS, -1, sizeof(hwc_limb), 0, 0, a.b[l]);
        mpz_import(a.ze[l], MANY_LIMBS, -1, sizeof(hwc_limb), 0, 0, a.e[l]);
    }
    cases[nc++] = (hwc_bench_case){"gmp " HWC_BENCH_GMP_VERSION " powm_sec", 1, NULL, run_many_gmp, &a};
#endif
    hwc_bench_group(o, "mpi", "modexp-many", "8x2048", 1.0, HWC_UNIT_OPS, cases, nc);
#ifdef HWC_BENCH_HAVE_OPENSSL
    for (size_t l = 0; l < LANES; l++) {
        BN_free(a.om[l]);
        BN_free(a.ob[l]);
        BN_free(a.oe[l]);
    }
    BN_free(a.orr);
    BN_CTX_free(a.octx);
#endif
#ifdef HWC_BENCH_HAVE_GMP
    for (size_t l = 0; l < LANES; l++) mpz_clears(a.zm[l], a.zb[l], a.ze[l], NULL);
    mpz_clear(a.zr);
#endif
}

void hwc_bench_mpi(const hwc_bench_opts *o) {
    hwc_kernel_info ki[MAXK];
    size_t nk = usable_kernels(ki);
    bench_muladd(o, ki, nk);
    bench_modexp(o, ki, nk);
    bench_modexp_many(o, ki, nk);
}
