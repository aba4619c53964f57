/* hwc_streebog_many (include/hwcrypt/batch.h): for every usable streebog
 * kernel, the digests of many messages in lanes equal the single calls of
 * the same kernel, for n in 0..9, 16, 17 and lengths that end in every
 * phase of the lanes (0, 63, 64, 65, random, long), misaligned, in place;
 * outputs stay inside their bytes; every error path writes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hwcrypt/batch.h"

#define POOL (256 * 1024)
#define MAXN 17

typedef struct {
    uint64_t seed;
    uint8_t *pool;   /* POOL pseudo-random bytes */
} many_arg;

/* A length for message i of pattern pat: 0, 63, 64, 65 and random ones,
   all equal (lanes end together), or long ones of different lengths. */
static size_t pick_len(hwc_rng *r, int pat, size_t i) {
    static const size_t edge[] = {0, 63, 64, 65};
    switch (pat) {
    case 0: return edge[i % 4];
    case 1: return hwc_rng_below(r, 300);
    case 2: return 1000;
    case 3: return hwc_rng_below(r, 4) == 0 ? edge[hwc_rng_below(r, 4)] : hwc_rng_below(r, 3000);
    default: return 20000 + hwc_rng_below(r, 40000);
    }
}

/* n messages of pattern pat from the pool, digests between poison bytes,
   each equal to hwc_streebog of its message (same kernel). */
static void check_batch(const char *kernel, many_arg *a, hwc_rng *r, size_t n, int pat, unsigned bits) {
    const void *msg[MAXN];
    size_t len[MAXN], dl = bits / 8;
    for (size_t i = 0; i < n; i++) {
        len[i] = pick_len(r, pat, i);
        msg[i] = a->pool + hwc_rng_below(r, POOL - len[i] + 1);
        if (len[i] == 0 && hwc_rng_below(r, 2)) msg[i] = NULL;   /* NULL with length 0 is allowed */
    }
    hwc_guarded g;
    hwc_guarded_alloc(&g, n * dl, (n * 7) & 63);
    cr_assert_eq(hwc_streebog_many(bits, n, n ? msg : NULL, n ? len : NULL, n ? g.p : NULL), HWC_OK);
    cr_assert(hwc_guarded_intact(&g), "[%s] many wrote outside its digests (n %zu, seed 0x%llx)", kernel, n,
              (unsigned long long)a->seed);
    for (size_t i = 0; i < n; i++) {
        uint8_t want[64];
        cr_assert_eq(hwc_streebog(bits, msg[i], len[i], want), HWC_OK);
        cr_assert(!memcmp(g.p + i * dl, want, dl),
                  "[%s] Streebog-%u many n %zu pattern %d: message %zu (len %zu) differs from the single call "
                  "(seed 0x%llx)",
                  kernel, bits, n, pat, i, len[i], (unsigned long long)a->seed);
    }
    hwc_guarded_free(&g);
}

static void check_many(const char *kernel, void *argp) {
    many_arg *a = argp;
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17};
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0x4D414E59ull);
    int patterns = hwc_test_quick() ? 4 : 5;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int pat = 0; pat < patterns; pat++)
            for (unsigned bits = 256; bits <= 512; bits += 256) check_batch(kernel, a, &r, counts[c], pat, bits);

    /* In place: message i stored where digest i goes (at most one digest long). */
    for (unsigned bits = 256; bits <= 512; bits += 256) {
        size_t dl = bits / 8, n = 6;
        uint8_t buf[6 * 64], want[6][64];
        const void *msg[6];
        size_t len[6] = {0, 1, dl - 1, dl, 5, dl};
        hwc_rng_fill(&r, buf, sizeof buf);
        for (size_t i = 0; i < n; i++) {
            msg[i] = buf + i * dl;
            cr_assert_eq(hwc_streebog(bits, msg[i], len[i], want[i]), HWC_OK);
        }
        cr_assert_eq(hwc_streebog_many(bits, n, msg, len, buf), HWC_OK);
        for (size_t i = 0; i < n; i++)
            cr_assert(!memcmp(buf + i * dl, want[i], dl), "[%s] in place: message %zu (seed 0x%llx)", kernel, i,
                      (unsigned long long)a->seed);
    }
}

Test(streebog_many, lanes_equal_single_calls) {
    many_arg a = {hwc_test_seed(), malloc(POOL)};
    cr_assert(a.pool);
    hwc_rng r;
    hwc_rng_init(&r, a.seed);
    hwc_rng_fill(&r, a.pool, POOL);
    hwc_test_each_kernel("streebog", check_many, &a);
    free(a.pool);
}

/* The result does not depend on how a message is split among calls or on
   which lane it lands in: a message hashed alone, first, last, or among 16
   others of other lengths gives one digest. */
Test(streebog_many, lane_position_does_not_matter) {
    uint8_t *pool = malloc(POOL), want[64], d[17 * 64];
    cr_assert(pool);
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x50u);
    hwc_rng_fill(&r, pool, POOL);
    const void *msg[17];
    size_t len[17];
    for (size_t i = 0; i < 17; i++) {
        len[i] = hwc_rng_below(&r, 5000);
        msg[i] = pool + 7000 * i;
    }
    len[8] = 4099;
    cr_assert_eq(hwc_streebog(512, msg[8], len[8], want), HWC_OK);
    for (size_t pos = 0; pos < 17; pos++) {
        const void *m2[17];
        size_t l2[17];
        memcpy(m2, msg, sizeof m2);
        memcpy(l2, len, sizeof l2);
        m2[pos] = msg[8], l2[pos] = len[8];
        m2[8] = msg[pos], l2[8] = len[pos];
        cr_assert_eq(hwc_streebog_many(512, 17, m2, l2, d), HWC_OK);
        cr_assert(!memcmp(d + 64 * pos, want, 64), "message in slot %zu differs (seed 0x%llx)", pos,
                  (unsigned long long)hwc_test_seed());
    }
    free(pool);
}

#define FILL 0x5A

Test(streebog_many, errors_write_nothing) {
    uint8_t d[4 * 64], in[100] = {1, 2, 3};
    const void *msg[4] = {in, in, in, NULL};
    size_t len[4] = {100, 64, 3, 5};
    memset(d, FILL, sizeof d);
    /* one bad message among good ones: nothing at all is written */
    cr_assert_eq(hwc_streebog_many(512, 4, msg, len, d), HWC_ERR_NULL_POINTER);
    cr_assert(hwc_all_bytes(d, sizeof d, FILL), "digests written although message 3 is NULL");
    cr_assert_eq(hwc_streebog_many(512, 4, NULL, len, d), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_streebog_many(512, 4, msg, NULL, d), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_streebog_many(512, 3, msg, len, NULL), HWC_ERR_NULL_POINTER);
    static const unsigned bad_bits[] = {0, 1, 128, 255, 384, 513, 1024};
    for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++)
        cr_assert_eq(hwc_streebog_many(bad_bits[i], 3, msg, len, d), HWC_ERR_BAD_ARGUMENT, "bits %u",
                     bad_bits[i]);
    cr_assert(hwc_all_bytes(d, sizeof d, FILL));
    /* n == 0: HWC_OK, the arrays may be NULL, nothing written */
    cr_assert_eq(hwc_streebog_many(512, 0, NULL, NULL, NULL), HWC_OK);
    cr_assert_eq(hwc_streebog_many(256, 0, msg, len, d), HWC_OK);
    cr_assert(hwc_all_bytes(d, sizeof d, FILL));
    /* NULL with length 0 is an empty message */
    len[3] = 0;
    cr_assert_eq(hwc_streebog_many(256, 4, msg, len, d), HWC_OK);
    uint8_t want[32];
    cr_assert_eq(hwc_streebog(256, "", 0, want), HWC_OK);
    cr_assert(!memcmp(d + 96, want, 32));
    cr_assert(hwc_all_bytes(d + 128, sizeof d - 128, FILL), "Streebog-256 many wrote past 4 * 32 bytes");
}
