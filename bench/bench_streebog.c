/* Streebog bench: every usable streebog kernel interleaved with libgcrypt and
 * nettle (OpenSSL 3.0 has no Streebog without the GOST engine).
 * Rows: Streebog-512/-256 hashes per message size, hwc_streebog_many over 2
 * and 4 messages of 64 KiB (bytes of all messages per time; the peers hash
 * them one after another), HMAC-Streebog-512 of 64 bytes one-shot and of
 * 64 KiB streamed in 4 KiB updates, PBKDF2-HMAC-Streebog-512 with 1000
 * iterations for 64 and 192 bytes (derivations/s). --veracrypt: one profile
 * only, PBKDF2 of 192 bytes with 500 000 iterations, seconds to derive. */
#include <stdio.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"
#ifdef HWC_BENCH_HAVE_GCRYPT
#include <gcrypt.h>
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
#include <nettle/hmac.h>
#include <nettle/pbkdf2.h>
#include <nettle/streebog.h>
#endif

#define MAX_KERNELS 8
#define PBKDF2_ITERS 1000
#define VERACRYPT_ITERS 500000
#define STREAM_CHUNK 4096

typedef struct {
    unsigned bits;        /* 256 or 512 */
    const uint8_t *msg;
    size_t len;           /* per message; PBKDF2: bytes derived */
    size_t count;         /* messages (many rows) */
    uint32_t iters;       /* PBKDF2 iterations */
    uint8_t out[4 * 64];
} sb_arg;

static uint8_t g_buf[1 << 20];
static const uint8_t g_pw[] = "correct horse battery staple";
static const uint8_t g_salt[16] = {0x73, 0x61, 0x6c, 0x74, 0x2d, 0x66, 0x6f, 0x72,
                                   0x2d, 0x62, 0x65, 0x6e, 0x63, 0x68, 0x00, 0x01};

/* ---- ours (the kernel is selected by the harness before each batch) ---- */
static void run_hash(void *p, size_t iters) {
    sb_arg *a = p;
    for (size_t i = 0; i < iters; i++) hwc_streebog(a->bits, a->msg, a->len, a->out);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void run_hmac(void *p, size_t iters) {
    sb_arg *a = p;
    for (size_t i = 0; i < iters; i++)
        hwc_hmac_streebog(512, g_pw, sizeof g_pw - 1, a->msg, a->len, a->out);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void run_pbkdf2(void *p, size_t iters) {
    sb_arg *a = p;
    for (size_t i = 0; i < iters; i++)
        hwc_pbkdf2_streebog512(g_pw, sizeof g_pw - 1, g_salt, sizeof g_salt, a->iters, a->out, a->len);
    hwc_bench_sink(a->out, sizeof a->out);
}

/* count messages of len bytes, one after another in g_buf */
static void many_ptrs(const sb_arg *a, const void *msg[4], size_t len[4]) {
    for (size_t j = 0; j < a->count; j++) {
        msg[j] = a->msg + j * a->len;
        len[j] = a->len;
    }
}

static void run_many(void *p, size_t iters) {
    sb_arg *a = p;
    const void *msg[4];
    size_t len[4];
    many_ptrs(a, msg, len);
    for (size_t i = 0; i < iters; i++) hwc_streebog_many(a->bits, a->count, msg, len, a->out);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void run_hmac_stream(void *p, size_t iters) {
    sb_arg *a = p;
    hwc_hmac_streebog_ctx c;
    for (size_t i = 0; i < iters; i++) {
        hwc_hmac_streebog_init(&c, 512, g_pw, sizeof g_pw - 1);
        for (size_t o = 0; o < a->len; o += STREAM_CHUNK) hwc_hmac_streebog_update(&c, a->msg + o, STREAM_CHUNK);
        hwc_hmac_streebog_final(&c, a->out);
    }
    hwc_bench_sink(a->out, sizeof a->out);
}

/* ---- libgcrypt ---- */
#ifdef HWC_BENCH_HAVE_GCRYPT
static const char gc_name[] = "libgcrypt " HWC_BENCH_GCRYPT_VERSION;

static void gc_init(void) {
    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        gcry_check_version(NULL);
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
}

static void gc_hash(void *p, size_t iters) {
    sb_arg *a = p;
    int algo = a->bits == 512 ? GCRY_MD_STRIBOG512 : GCRY_MD_STRIBOG256;
    for (size_t i = 0; i < iters; i++) gcry_md_hash_buffer(algo, a->out, a->msg, a->len);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void gc_many(void *p, size_t iters) {
    sb_arg *a = p;
    for (size_t i = 0; i < iters; i++)
        for (size_t j = 0; j < a->count; j++)
            gcry_md_hash_buffer(GCRY_MD_STRIBOG512, a->out + 64 * j, a->msg + j * a->len, a->len);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void gc_hmac_stream(void *p, size_t iters) {
    sb_arg *a = p;
    gcry_mac_hd_t h;
    if (gcry_mac_open(&h, GCRY_MAC_HMAC_STRIBOG512, 0, NULL)) return;
    for (size_t i = 0; i < iters; i++) {
        size_t n = 64;
        gcry_mac_reset(h);
        gcry_mac_setkey(h, g_pw, sizeof g_pw - 1);
        for (size_t o = 0; o < a->len; o += STREAM_CHUNK) gcry_mac_write(h, a->msg + o, STREAM_CHUNK);
        gcry_mac_read(h, a->out, &n);
    }
    gcry_mac_close(h);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void gc_hmac(void *p, size_t iters) {
    sb_arg *a = p;
    gcry_mac_hd_t h;
    if (gcry_mac_open(&h, GCRY_MAC_HMAC_STRIBOG512, 0, NULL)) return;
    for (size_t i = 0; i < iters; i++) {
        size_t n = 64;
        gcry_mac_reset(h);
        gcry_mac_setkey(h, g_pw, sizeof g_pw - 1);
        gcry_mac_write(h, a->msg, a->len);
        gcry_mac_read(h, a->out, &n);
    }
    gcry_mac_close(h);
    hwc_bench_sink(a->out, sizeof a->out);
}

static void gc_pbkdf2(void *p, size_t iters) {
    sb_arg *a = p;
    for (size_t i = 0; i < iters; i++)
        gcry_kdf_derive(g_pw, sizeof g_pw - 1, GCRY_KDF_PBKDF2, GCRY_MD_STRIBOG512, g_salt,
                        sizeof g_salt, a->iters, a->len, a->out);
    hwc_bench_sink(a->out, sizeof a->out);
}
#endif

/* ---- nettle ---- */
#ifdef HWC_BENCH_HAVE_NETTLE
static const char ne_name[] = "nettle " HWC_BENCH_NETTLE_VERSION;

static void ne_hash(void *p, size_t iters) {
    sb_arg *a = p;
    struct streebog512_ctx c;
    for (size_t i = 0; i < iters; i++) {
        if (a->bits == 512) {
            streebog512_init(&c);
            streebog512_update(&c, a->len, a->msg);
            streebog512_digest(&c, STREEBOG512_DIGEST_SIZE, a->out);
        } else {
            streebog256_init(&c);
            streebog256_update(&c, a->len, a->msg);
            streebog256_digest(&c, STREEBOG256_DIGEST_SIZE, a->out);
        }
    }
    hwc_bench_sink(a->out, sizeof a->out);
}

static void ne_many(void *p, size_t iters) {
    sb_arg *a = p;
    struct streebog512_ctx c;
    for (size_t i = 0; i < iters; i++)
        for (size_t j = 0; j < a->count; j++) {
            streebog512_init(&c);
            streebog512_update(&c, a->len, a->msg + j * a->len);
            streebog512_digest(&c, STREEBOG512_DIGEST_SIZE, a->out + 64 * j);
        }
    hwc_bench_sink(a->out, sizeof a->out);
}

static void ne_hmac_stream(void *p, size_t iters) {
    sb_arg *a = p;
    struct hmac_streebog512_ctx c;
    for (size_t i = 0; i < iters; i++) {
        hmac_streebog512_set_key(&c, sizeof g_pw - 1, g_pw);
        for (size_t o = 0; o < a->len; o += STREAM_CHUNK) hmac_streebog512_update(&c, STREAM_CHUNK, a->msg + o);
        hmac_streebog512_digest(&c, STREEBOG512_DIGEST_SIZE, a->out);
    }
    hwc_bench_sink(a->out, sizeof a->out);
}

static void ne_hmac(void *p, size_t iters) {
    sb_arg *a = p;
    struct hmac_streebog512_ctx c;
    for (size_t i = 0; i < iters; i++) {
        hmac_streebog512_set_key(&c, sizeof g_pw - 1, g_pw);
        hmac_streebog512_update(&c, a->len, a->msg);
        hmac_streebog512_digest(&c, STREEBOG512_DIGEST_SIZE, a->out);
    }
    hwc_bench_sink(a->out, sizeof a->out);
}

/* nettle 3.8 has no pbkdf2_hmac_streebog512; its generic PBKDF2 macro with
   hmac_streebog512 is what a nettle user would write. */
static void ne_pbkdf2(void *p, size_t iters) {
    sb_arg *a = p;
    struct hmac_streebog512_ctx c;
    for (size_t i = 0; i < iters; i++) {
        hmac_streebog512_set_key(&c, sizeof g_pw - 1, g_pw);
        PBKDF2(&c, hmac_streebog512_update, hmac_streebog512_digest, STREEBOG512_DIGEST_SIZE,
               a->iters, sizeof g_salt, g_salt, a->len, a->out);
    }
    hwc_bench_sink(a->out, sizeof a->out);
}
#endif

typedef void (*run_fn)(void *, size_t);

/* One group: every usable kernel running `ours`, then the peers. */
static void group(const hwc_bench_opts *o, const char *op, const char *label, double units,
                  hwc_bench_unit unit, sb_arg *arg, run_fn ours, run_fn gc, run_fn ne) {
    hwc_kernel_info info[MAX_KERNELS];
    hwc_bench_case cases[MAX_KERNELS + 2];
    size_t nk = hwc_kernels("streebog", info, MAX_KERNELS), n = 0;
    if (nk > MAX_KERNELS) nk = MAX_KERNELS;
    for (size_t i = 0; i < nk; i++) {
        if (!info[i].usable) continue;
        cases[n++] = (hwc_bench_case){info[i].name, 0, info[i].name, ours, arg};
    }
#ifdef HWC_BENCH_HAVE_GCRYPT
    if (gc) cases[n++] = (hwc_bench_case){gc_name, 1, NULL, gc, arg};
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
    if (ne) cases[n++] = (hwc_bench_case){ne_name, 1, NULL, ne, arg};
#endif
    (void)gc;
    (void)ne;
    hwc_bench_group(o, "streebog", op, label, units, unit, cases, n);
}

#ifdef HWC_BENCH_HAVE_GCRYPT
#define GC(f) f
#else
#define GC(f) NULL
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
#define NE(f) f
#else
#define NE(f) NULL
#endif

/* The VeraCrypt header-key derivation (PBKDF2-HMAC-Streebog-512, 192 bytes,
   500 000 iterations): seconds of CPU time per derivation, median of the
   rounds (at most 3 with --quick), every usable kernel and the peers in
   turn; with --json the harness's rows. */
static void veracrypt_profile(const hwc_bench_opts *o) {
    sb_arg a = {.bits = 512, .len = 192, .iters = VERACRYPT_ITERS};
    if (o->json) {   /* the harness's rows: ns_per_op is the time to derive */
        group(o, "pbkdf2-sb512", "192B-500000it", 1.0, HWC_UNIT_OPS, &a, run_pbkdf2, GC(gc_pbkdf2),
              NE(ne_pbkdf2));
        return;
    }
    hwc_kernel_info info[MAX_KERNELS];
    size_t nk = hwc_kernels("streebog", info, MAX_KERNELS);
    const char *name[MAX_KERNELS + 2];
    run_fn fn[MAX_KERNELS + 2];
    double t[MAX_KERNELS + 2][16];
    size_t n = 0, rounds = o->rounds < 16 ? (size_t)o->rounds : 16;
    if (rounds > 3 && o->quick) rounds = 3;
    if (nk > MAX_KERNELS) nk = MAX_KERNELS;
    for (size_t i = 0; i < nk; i++)
        if (info[i].usable) name[n] = info[i].name, fn[n++] = run_pbkdf2;
#ifdef HWC_BENCH_HAVE_GCRYPT
    name[n] = gc_name, fn[n++] = gc_pbkdf2;
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
    name[n] = ne_name, fn[n++] = ne_pbkdf2;
#endif
    for (size_t r = 0; r < rounds; r++)
        for (size_t c = 0; c < n; c++) {
            if (fn[c] == run_pbkdf2) hwc_kernel_select("streebog", name[c]);
            double t0 = hwc_bench_now();
            fn[c](&a, 1);
            t[c][r] = hwc_bench_now() - t0;
        }
    hwc_kernel_select("streebog", NULL);
    printf("pbkdf2-sb512 --veracrypt: 192 bytes, %d iterations, seconds per derivation "
           "(median of %zu)\n", VERACRYPT_ITERS, rounds);
    for (size_t c = 0; c < n; c++) {
        for (size_t i = 1; i < rounds; i++)   /* insertion sort, then the median */
            for (size_t j = i; j && t[c][j - 1] > t[c][j]; j--) {
                double x = t[c][j];
                t[c][j] = t[c][j - 1];
                t[c][j - 1] = x;
            }
        printf("  %-24s %8.3f s\n", name[c], t[c][rounds / 2]);
    }
}

void hwc_bench_streebog(const hwc_bench_opts *o) {
    static const size_t quick_sizes[] = {64, 1024, 65536};
    static const size_t full_sizes[] = {16, 64, 1024, 16384, 65536, 1 << 20};
    const size_t *sizes = o->quick ? quick_sizes : full_sizes;
    size_t nsizes = o->quick ? sizeof quick_sizes / sizeof *quick_sizes
                             : sizeof full_sizes / sizeof *full_sizes;
    for (size_t i = 0; i < sizeof g_buf; i++) g_buf[i] = (uint8_t)(i * 131u + 7u);
#ifdef HWC_BENCH_HAVE_GCRYPT
    gc_init();
    /* Same answers as the peer, or the figures mean nothing. */
    sb_arg x = {.bits = 512, .msg = g_buf, .len = 1000, .iters = PBKDF2_ITERS}, y = x;
    run_hash(&x, 1);
    gc_hash(&y, 1);
    if (memcmp(x.out, y.out, 64)) fprintf(stderr, "streebog bench: Streebog-512 differs from libgcrypt\n");
    x.len = y.len = 192;
    run_pbkdf2(&x, 1);
    gc_pbkdf2(&y, 1);
    if (memcmp(x.out, y.out, 192)) fprintf(stderr, "streebog bench: PBKDF2 differs from libgcrypt\n");
    x.len = y.len = 65536;
    x.count = y.count = 4;
    run_many(&x, 1);
    gc_many(&y, 1);
    if (memcmp(x.out, y.out, 256)) fprintf(stderr, "streebog bench: streebog_many differs from libgcrypt\n");
#endif
    if (o->veracrypt) {
        veracrypt_profile(o);
        return;
    }
    /* Warm up (~50 ms) so the first group does not pay for the clock ramp. */
    sb_arg w = {.bits = 512, .msg = g_buf, .len = sizeof g_buf};
    for (double t0 = hwc_bench_now(); hwc_bench_now() - t0 < 0.05;) run_hash(&w, 1);
    static const unsigned bits[2] = {512, 256};
    for (int b = 0; b < 2; b++) {
        char op[24];
        snprintf(op, sizeof op, "streebog-%u", bits[b]);
        for (size_t s = 0; s < nsizes; s++) {
            char label[32];
            size_t len = sizes[s];
            if (len >= (1u << 20)) snprintf(label, sizeof label, "%zuMiB", len >> 20);
            else if (len >= 1024) snprintf(label, sizeof label, "%zuKiB", len >> 10);
            else snprintf(label, sizeof label, "%zuB", len);
            sb_arg a = {.bits = bits[b], .msg = g_buf, .len = len};
            group(o, op, label, (double)len, HWC_UNIT_BYTES, &a, run_hash, GC(gc_hash),
                  NE(ne_hash));
        }
    }
    for (size_t count = 2; count <= 4; count += 2) {
        char label[32];
        snprintf(label, sizeof label, "%zux64KiB", count);
        sb_arg m = {.bits = 512, .msg = g_buf, .len = 65536, .count = count};
        group(o, "streebog-many", label, 65536.0 * (double)count, HWC_UNIT_BYTES, &m, run_many,
              GC(gc_many), NE(ne_many));
    }
    sb_arg h = {.bits = 512, .msg = g_buf, .len = 64};
    group(o, "hmac-streebog512", "64B", 64.0, HWC_UNIT_BYTES, &h, run_hmac, GC(gc_hmac),
          NE(ne_hmac));
    sb_arg hs = {.bits = 512, .msg = g_buf, .len = 65536};
    group(o, "hmac-sb512-stream", "64KiB/4KiB", 65536.0, HWC_UNIT_BYTES, &hs, run_hmac_stream,
          GC(gc_hmac_stream), NE(ne_hmac_stream));
    for (size_t out = 64; out <= 192; out += 128) {
        char label[32];
        snprintf(label, sizeof label, "%zuB-1000it", out);
        sb_arg k = {.bits = 512, .len = out, .iters = PBKDF2_ITERS};
        group(o, "pbkdf2-sb512", label, 1.0, HWC_UNIT_OPS, &k, run_pbkdf2, GC(gc_pbkdf2),
              NE(ne_pbkdf2));
    }
}
