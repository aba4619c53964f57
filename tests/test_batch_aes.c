/* Many AES messages at once (include/hwcrypt/batch.h), on every usable aes
 * kernel: hwc_cmac_many and hwc_aes_cbc_encrypt_many equal n single calls
 * byte for byte for n in 0, 1, 2, 3, 7, 8, 9, 16, 17, 64, 67 and lengths
 * that are all 0, all short, all long or mixed (lanes end together or
 * apart), all three key sizes; in place per element; outputs stay inside
 * their bytes; a bad element in the middle fails the whole call with
 * nothing written. hwc_aes_xts_*_sectors equal per-unit hwc_aes_xts_* with
 * the little-endian sector number as tweak (sector sizes 16, 512, 528,
 * 4096, runs longer than one tweak batch, the last sector 2^64 - 1), and
 * every error path. Known answers: RFC 4493 section 4, SP 800-38A F.2.1,
 * IEEE 1619-2007 annex B vectors 2 and 3. Built a second time as
 * test_batch_aes_fallback, on keys bound to ECB-only tables
 * (tests/aes_suite_keys.h): no lane step, the single-message paths. */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#include "hwcrypt/batch.h"
#ifndef HWC_TEST_AES_FALLBACK
#include "core/aes_internal.h"   /* hwc_aes_setkey_with: every table of a kernel */
#endif

#define MAXN 67
#define POOL (300 * 1024)

static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 16, 17, 64, 67};
static const size_t key_lens[] = {16, 24, 32};

typedef struct {
    uint64_t seed;
    uint8_t *pool;
} batch_arg;

/* Length of message i for pattern pat (blocks: multiples of 16 only):
   0 all empty, 1 short, 2 long and equal, 3 mixed, 4 two and three blocks
   by turns (CBC: every other lane is left with one block after a step, and
   67 messages send more of those blocks than core/'s finals buffer holds),
   5 random long (batches of 3 and 5 go through core/'s longest-first
   order). */
static size_t pick_len(hwc_rng *r, int pat, size_t i, int blocks) {
    size_t v;
    switch (pat) {
    case 0: v = 0; break;
    case 1: v = hwc_rng_below(r, 65); break;
    case 2: v = 1024 + 16 * (i == 0); break;
    case 3: v = hwc_rng_below(r, 3) == 0 ? hwc_rng_below(r, 33) : hwc_rng_below(r, 2500); break;
    case 4: v = 32 + 16 * (i % 2); break;
    default: v = 1000 + hwc_rng_below(r, 4000); break;
    }
    return blocks ? v & ~(size_t)15 : v;
}

static void fail_seed(const batch_arg *a) {
    cr_log_error("seed 0x%llx (HWC_TEST_SEED)", (unsigned long long)a->seed);
}

/* ---- CMAC ---------------------------------------------------------------------- */
static void cmac_batch(const char *kernel, const batch_arg *a, hwc_rng *r, size_t n, int pat, size_t kl) {
    const uint8_t *msg[MAXN];
    size_t len[MAXN];
    uint8_t key[32];
    hwc_rng_fill(r, key, sizeof key);
    for (size_t i = 0; i < n; i++) {
        len[i] = pick_len(r, pat, i, 0);
        msg[i] = a->pool + hwc_rng_below(r, POOL - len[i] + 1);
        if (len[i] == 0 && hwc_rng_below(r, 2)) msg[i] = NULL;
    }
    hwc_guarded g;
    hwc_guarded_alloc(&g, 16 * n, (n * 5) & 63);
    int rc = hwc_cmac_many(key, kl, n, n ? msg : NULL, n ? len : NULL, n ? g.p : NULL);
    if (rc != HWC_OK || !hwc_guarded_intact(&g)) fail_seed(a);
    cr_assert_eq(rc, HWC_OK, "[%s] cmac_many n %zu", kernel, n);
    cr_assert(hwc_guarded_intact(&g), "[%s] cmac_many wrote outside its tags (n %zu)", kernel, n);
    for (size_t i = 0; i < n; i++) {
        uint8_t want[16];
        cr_assert_eq(hwc_cmac(key, kl, msg[i], len[i], want), HWC_OK);
        if (memcmp(g.p + 16 * i, want, 16)) fail_seed(a);
        cr_assert(!memcmp(g.p + 16 * i, want, 16),
                  "[%s] CMAC-AES-%zu many n %zu pattern %d: message %zu (len %zu) differs from hwc_cmac",
                  kernel, 8 * kl, n, pat, i, len[i]);
    }
    hwc_guarded_free(&g);
}

/* ---- CBC encryption --------------------------------------------------------------- */
/* n messages from the pool into one guarded output area (message i at
   off[i]), against hwc_aes_cbc_encrypt on copies; in place when inplace. */
static void cbc_batch(const char *kernel, const batch_arg *a, hwc_rng *r, size_t n, int pat, size_t kl,
                      int inplace) {
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN];
    size_t len[MAXN], off[MAXN], total = 0;
    uint8_t key[32], ivs[16 * MAXN], want_ivs[16 * MAXN];
    hwc_rng_fill(r, key, sizeof key);
    hwc_rng_fill(r, ivs, sizeof ivs);
    memcpy(want_ivs, ivs, sizeof ivs);
    hwc_aes_key k;
    cr_assert_eq(SUITE_SETKEY(&k, key, kl), HWC_OK);
    for (size_t i = 0; i < n; i++) {
        len[i] = pick_len(r, pat, i, 1);
        off[i] = total;
        total += len[i] + 16 * hwc_rng_below(r, 2);   /* gaps between some outputs */
    }
    hwc_guarded g;
    hwc_guarded_alloc(&g, total, (n * 3) & 63);
    memset(g.p, 0x5C, total);
    uint8_t *want = malloc(total + 1);
    for (size_t i = 0; i < n; i++) {
        out[i] = g.p + off[i];
        if (inplace) {
            hwc_rng_fill(r, out[i], len[i]);
            in[i] = out[i];
        } else {
            in[i] = a->pool + hwc_rng_below(r, POOL - len[i] + 1);
        }
        if (len[i] == 0 && hwc_rng_below(r, 2)) out[i] = NULL, in[i] = NULL;
        memcpy(want + off[i], in[i] ? in[i] : g.p, len[i]);
        cr_assert_eq(hwc_aes_cbc_encrypt(&k, want_ivs + 16 * i, want + off[i], want + off[i], len[i]), HWC_OK);
    }
    int rc = hwc_aes_cbc_encrypt_many(&k, n, n ? ivs : NULL, n ? out : NULL, n ? in : NULL, n ? len : NULL);
    if (rc != HWC_OK || !hwc_guarded_intact(&g)) fail_seed(a);
    cr_assert_eq(rc, HWC_OK, "[%s] cbc_encrypt_many n %zu", kernel, n);
    cr_assert(hwc_guarded_intact(&g), "[%s] cbc_encrypt_many wrote outside its outputs (n %zu)", kernel, n);
    for (size_t i = 0; i < n; i++) {
        int same = (!len[i] || !memcmp(out[i], want + off[i], len[i])) &&
                   !memcmp(ivs + 16 * i, want_ivs + 16 * i, 16);
        if (!same) fail_seed(a);
        cr_assert(same, "[%s] CBC-AES-%zu many n %zu pattern %d%s: message %zu (len %zu) differs from "
                        "hwc_aes_cbc_encrypt (output or IV)",
                  kernel, 8 * kl, n, pat, inplace ? " in place" : "", i, len[i]);
        /* the gap after an output is untouched */
        size_t end = off[i] + len[i], gap = (i + 1 < n ? off[i + 1] : total) - end;
        cr_assert(hwc_all_bytes(g.p + end, gap, 0x5C), "[%s] cbc_encrypt_many wrote past message %zu", kernel, i);
    }
    free(want);
    hwc_guarded_free(&g);
    hwc_aes_key_wipe(&k);
}

static void check_many(const char *kernel, void *argp) {
    batch_arg *a = argp;
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0x424154434Bull);
    const int patterns = hwc_test_quick() ? 5 : 6;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int pat = 0; pat < patterns; pat++)
            for (size_t kk = 0; kk < 3; kk++) {
                if (kk != 0 && pat != 3) continue;   /* other key sizes: the mixed pattern */
                cmac_batch(kernel, a, &r, counts[c], pat, key_lens[kk]);
                cbc_batch(kernel, a, &r, counts[c], pat, key_lens[kk], 0);
                cbc_batch(kernel, a, &r, counts[c], pat, key_lens[kk], 1);
            }
}

/* fn on every usable aes kernel with a pool of seeded pseudo-random bytes */
static void on_each_kernel(hwc_kernel_fn fn) {
    batch_arg a = {hwc_test_seed(), malloc(POOL)};
    cr_assert(a.pool != NULL);
    hwc_rng r;
    hwc_rng_init(&r, a.seed);
    hwc_rng_fill(&r, a.pool, POOL);
    hwc_test_each_kernel("aes", fn, &a);
    free(a.pool);
}

Test(batch_aes, many_equal_single_calls) {
    on_each_kernel(check_many);
}

/* Messages one page apart (every lane's block in the same L1 set: the x86
   kernels then stage whole lines) and 1 KiB apart (8 zmm lanes per set: the
   threshold of the 8-way L1 table), in place and out of place into another
   page-aligned area; CMAC and CBC against the single calls. CBC runs on
   every table of the kernel (impl/x86/aes_x86_lanes.h, out_limit), whichever
   dispatch picks here. */
static void check_page_aligned(const char *kernel, void *argp) {
    const batch_arg *a = argp;
    enum { N = 67, PAGE = 4096 };
    static const size_t lens[] = {4096, 1024, 160, 4096 - 16, 1024 - 16};
    uint8_t *src = aligned_alloc(PAGE, (size_t)N * PAGE), *dst = aligned_alloc(PAGE, (size_t)N * PAGE);
    uint8_t *want = malloc((size_t)N * PAGE), key[16], ivs[16 * N], want_ivs[16 * N], tags[16 * N];
    cr_assert(src && dst && want);
    memcpy(key, a->pool, 16);
    hwc_aes_key k;
    cr_assert_eq(SUITE_SETKEY(&k, key, 16), HWC_OK);
#ifdef HWC_TEST_AES_FALLBACK
    const int ntables = 1;   /* the key's ECB-only table */
#else
    const void *tables[2];
    const int ntables = hwc_test_kernel_tables("aes", kernel, tables);
#endif
    for (size_t l = 0; l < 2 * (sizeof lens / sizeof lens[0]); l++)
        for (int inplace = 0; inplace < 2; inplace++)
            for (int tab = 0; tab < ntables; tab++) {
                const size_t stride = l % 2 ? 1024 : PAGE, mlen = lens[l / 2];
                if (mlen > stride) continue;
#ifndef HWC_TEST_AES_FALLBACK
                cr_assert_eq(hwc_aes_setkey_with(&k, key, 16, tables[tab]), HWC_OK);
#endif
                const uint8_t *in[N];
                uint8_t *out[N];
                size_t len[N];
                memcpy(src, a->pool, (size_t)N * PAGE);
                memcpy(ivs, a->pool + 7, sizeof ivs);
                memcpy(want_ivs, ivs, sizeof ivs);
                for (size_t i = 0; i < N; i++) {
                    len[i] = mlen;
                    in[i] = src + i * stride;
                    out[i] = (inplace ? src : dst) + i * stride;
                    memcpy(want + i * PAGE, in[i], len[i]);
                    cr_assert_eq(
                        hwc_aes_cbc_encrypt(&k, want_ivs + 16 * i, want + i * PAGE, want + i * PAGE, len[i]), HWC_OK);
                }
                cr_assert_eq(hwc_cmac_many(key, 16, N, in, len, tags), HWC_OK);   /* raw key: the active table */
                for (size_t i = 0; i < N && tab == 0; i++) {
                    uint8_t t[16];
                    cr_assert_eq(hwc_cmac(key, 16, in[i], len[i], t), HWC_OK);
                    cr_assert(!memcmp(t, tags + 16 * i, 16), "[%s] page-aligned cmac_many: message %zu (len %zu)",
                              kernel, i, len[i]);
                }
                cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, N, ivs, out, in, len), HWC_OK);
                for (size_t i = 0; i < N; i++)
                    cr_assert(!memcmp(out[i], want + i * PAGE, len[i]) &&
                                  !memcmp(ivs + 16 * i, want_ivs + 16 * i, 16),
                              "[%s table %d] cbc_encrypt_many%s, stride %zu: message %zu (len %zu)", kernel, tab,
                              inplace ? " in place" : "", stride, i, len[i]);
            }
    hwc_aes_key_wipe(&k);
    free(src);
    free(dst);
    free(want);
}

Test(batch_aes, page_aligned_messages) {
    on_each_kernel(check_page_aligned);
}

/* ---- known answers ------------------------------------------------------------------ */
static void check_known(const char *kernel, void *arg) {
    (void)arg;
    /* RFC 4493 section 4 (= SP 800-38B D.1): AES-128 key, examples 1-4 as
       four messages of one call (lengths 0, 16, 40, 64). */
    uint8_t key[16], m[64], want[64], tags[64];
    hwc_hex("2b7e151628aed2a6abf7158809cf4f3c", key, sizeof key);
    hwc_hex("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
            "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710", m, sizeof m);
    hwc_hex("bb1d6929e95937287fa37d129b756746 070a16b46b4d4144f79bdd9dd04a287c"
            "dfa66747de9ae63030ca32611497c827 51f0bebf7e3b9d92fc49741779363cfe", want, sizeof want);
    const uint8_t *msg[4] = {NULL, m, m, m};
    const size_t len[4] = {0, 16, 40, 64};
    cr_assert_eq(hwc_cmac_many(key, 16, 4, msg, len, tags), HWC_OK);
    cr_assert(!memcmp(tags, want, 64), "[%s] RFC 4493 CMAC examples via cmac_many", kernel);

    /* SP 800-38A F.2.1 CBC-AES128.Encrypt, twice in one call (and once split
       2 + 2 blocks through the IV update). */
    uint8_t ivs[48], c[64], out[3][64];
    hwc_hex("7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
            "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7", c, sizeof c);
    for (int i = 0; i < 2; i++) hwc_hex("000102030405060708090a0b0c0d0e0f", ivs + 16 * i, 16);
    hwc_aes_key k;
    cr_assert_eq(SUITE_SETKEY(&k, key, 16), HWC_OK);
    uint8_t *o[2] = {out[0], out[1]};
    const uint8_t *in[2] = {m, m};
    const size_t l2[2] = {64, 64};
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 2, ivs, o, in, l2), HWC_OK);
    cr_assert(!memcmp(out[0], c, 64) && !memcmp(out[1], c, 64), "[%s] SP 800-38A F.2.1 via cbc_encrypt_many",
              kernel);
    cr_assert(!memcmp(ivs, c + 48, 16) && !memcmp(ivs + 16, c + 48, 16), "[%s] IVs left at the last block",
              kernel);
    hwc_hex("000102030405060708090a0b0c0d0e0f", ivs, 16);
    uint8_t *o1[1] = {out[2]};
    const uint8_t *i1[1] = {m}, *i2[1] = {m + 32};
    const size_t half[1] = {32};
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 1, ivs, o1, i1, half), HWC_OK);
    o1[0] = out[2] + 32;
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 1, ivs, o1, i2, half), HWC_OK);
    cr_assert(!memcmp(out[2], c, 64), "[%s] SP 800-38A F.2.1 in two calls", kernel);
    hwc_aes_key_wipe(&k);

    /* IEEE 1619-2007 annex B, XTS-AES-128 vectors 2 and 3: data unit
       sequence number 0x3333333333, 32 bytes of 0x44. */
    static const char *const xkeys[2] = {
        "11111111111111111111111111111111 22222222222222222222222222222222",
        "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 22222222222222222222222222222222"};
    static const char *const xctx[2] = {
        "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0",
        "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"};
    for (int v = 0; v < 2; v++) {
        uint8_t xk_bytes[32], p[32], x[32], e[32];
        hwc_aes_xts_key xk;
        hwc_hex(xkeys[v], xk_bytes, sizeof xk_bytes);
        hwc_hex(xctx[v], e, sizeof e);
        memset(p, 0x44, sizeof p);
        cr_assert_eq(SUITE_XTS_SETKEY(&xk, xk_bytes, 32), HWC_OK);
        cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, 0x3333333333ull, 32, x, p, 32), HWC_OK);
        cr_assert(!memcmp(x, e, 32), "[%s] IEEE 1619 vector %d via xts_encrypt_sectors", kernel, v + 2);
        cr_assert_eq(hwc_aes_xts_decrypt_sectors(&xk, 0x3333333333ull, 32, x, x, 32), HWC_OK);
        cr_assert(!memcmp(x, p, 32), "[%s] IEEE 1619 vector %d via xts_decrypt_sectors", kernel, v + 2);
    }
}

Test(batch_aes, known_answers) {
    hwc_test_each_kernel("aes", check_known, NULL);
}

/* ---- XTS sectors -------------------------------------------------------------------- */
static void le_tweak(uint8_t t[16], uint64_t s) {
    memset(t, 0, 16);
    for (int i = 0; i < 8; i++) t[i] = (uint8_t)(s >> (8 * i));
}

static void check_sectors(const char *kernel, void *argp) {
    batch_arg *a = argp;
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0x534543544full);
    static const size_t sizes[] = {16, 512, 528, 4096};
    /* runs below and at core/'s XTS_UNITS_MIN (7, 8: single-unit slots, the
       units slot), a run of 64 and short tails after it (65, 130) */
    static const size_t unit_counts[] = {1, 3, 7, 8, 65, 130};
    for (size_t kl = 32; kl <= 64; kl += 32)
        for (size_t s = 0; s < 4; s++)
            for (size_t u = 0; u < sizeof unit_counts / sizeof unit_counts[0]; u++) {
                const size_t ss = sizes[s], units = unit_counts[u], len = ss * units;
                if (len > POOL) continue;
                uint8_t key[64];
                hwc_rng_fill(&r, key, sizeof key);
                hwc_aes_xts_key xk;
                cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, kl), HWC_OK);
                /* start anywhere, or so that the last unit is sector 2^64 - 1 */
                const uint64_t first = u & 1 ? UINT64_MAX - (units - 1) : hwc_rng_next(&r) >> 8;
                const uint8_t *p = a->pool + hwc_rng_below(&r, POOL - len + 1);
                hwc_guarded g;
                hwc_guarded_alloc(&g, len, s * 11);
                uint8_t *want = malloc(len);
                for (int dec = 0; dec < 2; dec++) {
                    for (size_t i = 0; i < units; i++) {
                        uint8_t t[16];
                        le_tweak(t, first + i);
                        int rc = dec ? hwc_aes_xts_decrypt(&xk, t, want + ss * i, p + ss * i, ss)
                                     : hwc_aes_xts_encrypt(&xk, t, want + ss * i, p + ss * i, ss);
                        cr_assert_eq(rc, HWC_OK);
                    }
                    for (int inplace = 0; inplace < 2; inplace++) {
                        const uint8_t *src = p;
                        if (inplace) {
                            memcpy(g.p, p, len);
                            src = g.p;
                        }
                        int rc = dec ? hwc_aes_xts_decrypt_sectors(&xk, first, ss, g.p, src, len)
                                     : hwc_aes_xts_encrypt_sectors(&xk, first, ss, g.p, src, len);
                        int same = rc == HWC_OK && !memcmp(g.p, want, len) && hwc_guarded_intact(&g);
                        if (!same) fail_seed(a);
                        cr_assert(same, "[%s] XTS-AES-%zu %s sectors: %zu units of %zu bytes from sector "
                                        "0x%llx%s differ from per-unit calls",
                                  kernel, 4 * kl, dec ? "decrypt" : "encrypt", units, ss,
                                  (unsigned long long)first, inplace ? " (in place)" : "");
                    }
                }
                free(want);
                hwc_guarded_free(&g);
            }
}

Test(batch_aes, sectors_equal_per_unit_calls) {
    on_each_kernel(check_sectors);
}

/* ---- errors: nothing written ---------------------------------------------------------- */
Test(batch_aes, errors_write_nothing) {
    uint8_t key[32] = {1, 2, 3}, data[8][64], tags[8 * 16], ivs[8 * 16];
    memset(data, 0x11, sizeof data);
    const uint8_t *msg[8];
    uint8_t *out[8];
    size_t len[8];
    for (int i = 0; i < 8; i++) msg[i] = data[i], out[i] = data[i], len[i] = 16 * (size_t)(i % 4);

    /* n == 0: arrays may be NULL */
    cr_assert_eq(hwc_cmac_many(key, 16, 0, NULL, NULL, NULL), HWC_OK);
    hwc_aes_key k;
    cr_assert_eq(SUITE_SETKEY(&k, key, 16), HWC_OK);
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 0, NULL, NULL, NULL, NULL), HWC_OK);

    /* CMAC: a NULL message of non-zero length in the middle, bad key length,
       NULL arrays */
    memset(tags, HWC_POISON, sizeof tags);
    msg[5] = NULL;
    cr_assert_eq(hwc_cmac_many(key, 16, 8, msg, len, tags), HWC_ERR_NULL_POINTER);
    msg[5] = data[5];
    cr_assert_eq(hwc_cmac_many(key, 20, 8, msg, len, tags), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_cmac_many(NULL, 16, 8, msg, len, tags), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_many(key, 16, 8, NULL, len, tags), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_many(key, 16, 8, msg, NULL, tags), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_many(key, 16, 8, msg, len, NULL), HWC_ERR_NULL_POINTER);
    cr_assert(hwc_all_bytes(tags, sizeof tags, HWC_POISON), "cmac_many wrote tags on error");

    /* CBC: bad length in the middle, NULL output in the middle, NULL arrays,
       key never set */
    memset(ivs, HWC_POISON, sizeof ivs);
    len[5] = 40;
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 8, ivs, out, msg, len), HWC_ERR_DATA_LENGTH);
    len[5] = 16;
    out[3] = NULL;
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 8, ivs, out, msg, len), HWC_ERR_NULL_POINTER);
    out[3] = data[3];
    cr_assert_eq(hwc_aes_cbc_encrypt_many(NULL, 8, ivs, out, msg, len), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 8, NULL, out, msg, len), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&k, 8, ivs, NULL, msg, len), HWC_ERR_NULL_POINTER);
    hwc_aes_key unset;
    memset(&unset, 0, sizeof unset);
    cr_assert_eq(hwc_aes_cbc_encrypt_many(&unset, 8, ivs, out, msg, len), HWC_ERR_BAD_ARGUMENT);
    cr_assert(hwc_all_bytes(ivs, sizeof ivs, HWC_POISON), "cbc_encrypt_many wrote IVs on error");
    cr_assert(hwc_all_bytes(data, sizeof data, 0x11), "cbc_encrypt_many wrote data on error");

    /* XTS sectors: sector_size first (even with len 0), then len, pointers,
       key, the 2^64 wrap */
    uint8_t xkey[32], buf[2048];
    for (int i = 0; i < 32; i++) xkey[i] = (uint8_t)i;
    hwc_aes_xts_key xk;
    cr_assert_eq(SUITE_XTS_SETKEY(&xk, xkey, 32), HWC_OK);
    memset(buf, HWC_POISON, sizeof buf);
    static const size_t bad_sizes[] = {0, 8, 17, 520 + 4, ((size_t)1 << 24) + 16};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, 0, bad_sizes[i], buf, buf, 0), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(hwc_aes_xts_decrypt_sectors(&xk, 0, bad_sizes[i], buf, buf, 1024), HWC_ERR_DATA_LENGTH);
    }
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(NULL, 0, 0, NULL, NULL, 0), HWC_ERR_DATA_LENGTH);
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, 0, 512, buf, buf, 1000), HWC_ERR_DATA_LENGTH);
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, 0, 512, buf, buf, 0), HWC_OK);
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, 0, 512, NULL, buf, 1024), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_xts_decrypt_sectors(&xk, 0, 512, buf, NULL, 1024), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(NULL, 0, 512, buf, buf, 1024), HWC_ERR_NULL_POINTER);
    hwc_aes_xts_key xunset;
    memset(&xunset, 0, sizeof xunset);
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xunset, 0, 512, buf, buf, 1024), HWC_ERR_BAD_ARGUMENT);
    /* 4 sectors from 2^64 - 3 end at 2^64: one too many */
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, UINT64_MAX - 2, 512, buf, buf, 2048), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_aes_xts_decrypt_sectors(&xk, UINT64_MAX, 16, buf, buf, 32), HWC_ERR_BAD_ARGUMENT);
    cr_assert(hwc_all_bytes(buf, sizeof buf, HWC_POISON), "xts sectors wrote data on error");
    /* the last sector may be 2^64 - 1 */
    cr_assert_eq(hwc_aes_xts_encrypt_sectors(&xk, UINT64_MAX - 3, 512, buf, buf, 2048), HWC_OK);
    hwc_aes_key_wipe(&k);
}
