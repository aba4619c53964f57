/* No key material left on the dead stack: the stack below the test is zeroed,
 * one public call runs (every mode of every usable aes kernel, CMAC, GCM,
 * HMAC-Streebog and PBKDF2 on every streebog kernel), then the stack it used
 * is searched for any 16-byte piece of the secrets: the kernel's key schedule
 * (every 16-byte chunk of it), the CMAC subkeys, the GCM hash-key table and
 * the GCM call's E_K(J0), the XTS tweaks of the call, and the HMAC
 * inner and outer pad states. Any copy fails the test.
 *
 * A kernel that declares a slot group clean (clean_frames, internal/kernel.h)
 * gets no stack scrub after those calls: for it the scan checks the kernel's
 * own frames; for the other groups it checks the scrub. The test prints
 * which groups of each kernel ran unscrubbed. Built with HWC_TEST_AES_FALLBACK
 * (test_stack_scan_fallback) the keys are bound to ECB-only copies of each
 * table (tests/ecb_only_keys.c: no group declared clean), so every mode runs
 * core/'s ECB-built paths followed by the scrub.
 *
 * Sanitizer builds change every frame (and ASan keeps frames elsewhere):
 * the test reports itself skipped there; scripts/test-all.sh runs it in the
 * gcc and clang Release builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#include "internal/kernel.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define SCAN_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SCAN_UNDER_SANITIZER 1
#endif
#ifndef SCAN_UNDER_SANITIZER
#define SCAN_UNDER_SANITIZER 0
#endif
#define SKIP_UNDER_SANITIZER() \
    do { \
        if (SCAN_UNDER_SANITIZER) cr_skip_test("sanitizer build: the scan is not available here (frames differ); it runs in the Release builds"); \
    } while (0)

#define NOINLINE __attribute__((noinline, noclone))
#if defined(__clang__)
#undef NOINLINE
#define NOINLINE __attribute__((noinline))
#endif

enum { SCAN = 64 * 1024, PAD = 2048, MAX_NEEDLES = 2048 };

/* ---- the secrets to look for ------------------------------------------------- */
static uint8_t needles[MAX_NEEDLES][16];
static size_t n_needles;

static void add_needles(const void *p, size_t len) {
    const uint8_t *b = p;
    for (size_t i = 0; i + 16 <= len; i += 16) {
        if (hwc_all_bytes(b + i, 16, 0) || hwc_all_bytes(b + i, 16, 0xff)) continue;
        cr_assert(n_needles < MAX_NEEDLES);
        memcpy(needles[n_needles++], b + i, 16);
    }
}

/* ---- stack handling ------------------------------------------------------------ */
static uint8_t *volatile g_top;   /* the public call's frames lie below this */

NOINLINE static void clear_stack(void) {
    uint8_t buf[SCAN + PAD];
    memset(buf, 0, sizeof buf);
    __asm__ __volatile__("" : : "r"(buf) : "memory");
}

typedef void (*call_fn)(void *arg);

/* pad keeps the later scan()'s own frame above the region the call used */
NOINLINE static void call_below(call_fn fn, void *arg) {
    volatile uint8_t pad[PAD];
    pad[0] = 0;
    g_top = (uint8_t *)pad;
    fn(arg);
    __asm__ __volatile__("" : : "r"(pad) : "memory");
}

/* Copies of any needle in [g_top - SCAN, g_top); *depth = bytes used below g_top. */
NOINLINE static size_t scan(size_t *depth) {
    const uint8_t *lo = g_top - SCAN, *p;
    size_t hits = 0;
    *depth = 0;
    for (p = lo; p < g_top; p++)
        if (*p) {
            *depth = (size_t)(g_top - p);
            break;
        }
    for (p = lo; p + 16 <= g_top; p++) {
        if (*p == 0) continue;
        for (size_t i = 0; i < n_needles; i++)
            if (p[0] == needles[i][0] && memcmp(p, needles[i], 16) == 0) {
                if (getenv("HWC_STACK_SCAN_VERBOSE"))
                    fprintf(stderr, "copy of secret %zu (%02x%02x%02x%02x...) at %td below the caller\n", i,
                            needles[i][0], needles[i][1], needles[i][2], needles[i][3], g_top - p);
                hits++;
                break;
            }
    }
    return hits;
}

/* Runs fn once on a zeroed stack; fails with the count of copies found. */
static void expect_clean(const char *kernel, const char *what, call_fn fn, void *arg) {
    size_t depth;
    clear_stack();
    call_below(fn, arg);
    size_t hits = scan(&depth);
    if (getenv("HWC_STACK_SCAN_VERBOSE")) fprintf(stderr, "depth %zu [%s] %s\n", depth, kernel, what);
    cr_expect_eq(hits, 0, "[%s] %s: %zu copies of key material on the dead stack (%zu bytes used)",
                 kernel, what, hits, depth);
    cr_assert(depth > 0 && depth < SCAN, "[%s] %s: stack use %zu not measured", kernel, what, depth);
}

/* ---- AES: every mode, lengths that reach every loop (batches and tails) ------- */
static const uint8_t key64[64] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
    0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45, 0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26,
    0x62, 0x49, 0x77, 0x57, 0x24, 0x70, 0x93, 0x69, 0x99, 0x59, 0x57, 0x49, 0x66, 0x96, 0x76, 0x27};

typedef struct {
    int mode;
    size_t key_len, len;
    hwc_aes_key k;
    hwc_aes_xts_key xk;
    hwc_aes_gcm_key gk;
    uint8_t in[16400], out[16400], tag[16];
} aes_job;

enum { SETKEY, ECB_E, ECB_D, CBC_E, CBC_D, CTR, XTS_SETKEY, XTS_E, XTS_D, CMAC, CMAC_STREAM,
       GCM_SETKEY, GCM_E, GCM_D, GCM_E0, GCM_D0, GCM_STREAM, CMAC_MANY, CBC_MANY, XTS_SECTORS, MODES };
static const char *const mode_names[MODES] = {"setkey", "ecb-enc", "ecb-dec", "cbc-enc", "cbc-dec", "ctr",
                                              "xts-setkey", "xts-enc", "xts-dec", "cmac", "cmac-stream",
                                              "gcm-setkey", "gcm-enc", "gcm-dec", "gcm-enc-no-aad",
                                              "gcm-dec-no-aad", "gcm-stream",
                                              "cmac-many", "cbc-enc-many", "xts-sectors"};

/* The unit of the XTS_SECTORS call of len bytes: 16-byte units, one of 528
   bytes (33 blocks, not whole zmm batches: the per-unit path), 16 units of
   512 bytes (zmm: wide_keys path) or 4 of 4 KiB. */
static size_t sector_unit(size_t len) {
    return len >= 16384 ? 4096 : len >= 8192 ? 512 : len >= 1024 ? 528 : 16;
}

/* 33 messages: all 32 zmm lanes busy, the last one alone. The CBC step of the zmm
   kernel (impl/x86/aes_x86_lanes.h) then takes each of its paths: calls of 8 KiB and
   more, 1 KiB each with outputs 4 KiB apart (the vectors staggered); 1039 bytes, 256
   bytes each in place 4 KiB apart (lines staged); else 1 KiB each with outputs 1040
   bytes apart (run as they are). The last two with the AES-128 keys held in registers. */
static void many_wide(const aes_job *j) {
    static uint8_t outs_wide[33 * 4096], ivs_wide[33 * 16], tags_wide[33 * 16];
    const uint8_t *ins[33];
    uint8_t *outs[33];
    size_t lens[33];
    const int staged = j->len == 1039 && j->mode == CBC_MANY;
    const size_t apart = j->len >= 8192 || staged ? 4096 : 1040;
    for (int i = 0; i < 33; i++) {
        outs[i] = outs_wide + apart * i;
        ins[i] = staged ? outs[i] : j->in + 16 * i;
        lens[i] = staged ? 256 : 1024;
    }
    if (j->mode == CMAC_MANY) hwc_cmac_many(key64, j->key_len, 33, ins, lens, tags_wide);
    else hwc_aes_cbc_encrypt_many(&j->k, 33, ivs_wide, outs, ins, lens);
}

static void aes_call(void *arg) {
    aes_job *j = arg;
    uint8_t iv[17] = {1}, tag[16];   /* GCM_STREAM takes all 17 bytes */
    switch (j->mode) {
    case SETKEY: SUITE_SETKEY(&j->k, key64, j->key_len); break;
    case ECB_E: hwc_aes_ecb_encrypt(&j->k, j->out, j->in, j->len & ~(size_t)15); break;
    case ECB_D: hwc_aes_ecb_decrypt(&j->k, j->out, j->in, j->len & ~(size_t)15); break;
    case CBC_E: hwc_aes_cbc_encrypt(&j->k, iv, j->out, j->in, j->len & ~(size_t)15); break;
    case CBC_D: hwc_aes_cbc_decrypt(&j->k, iv, j->out, j->in, j->len & ~(size_t)15); break;
    case CTR: hwc_aes_ctr_crypt(&j->k, iv, j->out, j->in, j->len); break;
    case XTS_SETKEY: SUITE_XTS_SETKEY(&j->xk, key64, 2 * j->key_len); break;
    case XTS_E: hwc_aes_xts_encrypt(&j->xk, iv, j->out, j->in, j->len); break;
    case XTS_D: hwc_aes_xts_decrypt(&j->xk, iv, j->out, j->in, j->len); break;
    case CMAC: hwc_cmac(key64, j->key_len, j->in, j->len, tag); break;
    case GCM_SETKEY: SUITE_GCM_SETKEY(&j->gk, key64, j->key_len); break;
    case GCM_E: hwc_aes_gcm_encrypt(&j->gk, iv, 12, j->in, 20, j->out, j->in, j->len, j->tag, 16); break;
    case GCM_D: hwc_aes_gcm_decrypt(&j->gk, iv, 12, j->in, 20, j->out, j->out, j->len, j->tag, 16); break;
    /* without AAD: no GHASH call before the kernel's gcm_oneshot, so its
       frames lie elsewhere on the stack */
    case GCM_E0: hwc_aes_gcm_encrypt(&j->gk, iv, 12, NULL, 0, j->out, j->in, j->len, j->tag, 16); break;
    case GCM_D0: hwc_aes_gcm_decrypt(&j->gk, iv, 12, NULL, 0, j->out, j->out, j->len, j->tag, 16); break;
    case GCM_STREAM: {   /* two updates, a 17-byte IV; the context is not on the stack */
        static hwc_aes_gcm_ctx c;
        hwc_aes_gcm_init(&c, &j->gk, iv, 17);
        hwc_aes_gcm_aad(&c, j->in, 5);
        hwc_aes_gcm_encrypt_update(&c, j->out, j->in, j->len / 2);
        hwc_aes_gcm_encrypt_update(&c, j->out + j->len / 2, j->in + j->len / 2, j->len - j->len / 2);
        hwc_aes_gcm_encrypt_final(&c, tag, 16);
        break;
    }
    case CMAC_MANY:
    case CBC_MANY: {   /* 3, 7 or 12 messages in lanes (on zmm: steps of 1, 2 and 4
                          vectors, chain_step_few); from 1 KiB, 33 (many_wide) */
        if (j->len >= 1024) {
            many_wide(j);
            break;
        }
        const size_t n = j->len == 100 ? 7 : j->len == 255 ? 12 : 3;
        const uint8_t *ins[12];
        uint8_t *outs[12];
        size_t lens[12], cbc_lens[12];
        for (size_t i = 0; i < n; i++) {   /* CBC: message 0 empty, the others one block each */
            ins[i] = j->in + 16 * i;
            outs[i] = j->out + 16 * i;
            lens[i] = i == 0 ? j->len & ~(size_t)15 : i + 1 < n ? 16 : 0;
            cbc_lens[i] = i ? 16 : 0;
        }
        static uint8_t ivs[16 * 12], tags[16 * 12];
        if (j->mode == CMAC_MANY) hwc_cmac_many(key64, j->key_len, n, ins, lens, tags);
        else hwc_aes_cbc_encrypt_many(&j->k, n, ivs, outs, ins, cbc_lens);
        break;
    }
    case XTS_SECTORS: {
        const size_t unit = sector_unit(j->len);
        hwc_aes_xts_encrypt_sectors(&j->xk, 7, unit, j->out, j->in, j->len / unit * unit);
        break;
    }
    default: {   /* the context is not on the stack: only the calls' frames are */
        static hwc_cmac_ctx c;
        SUITE_CMAC_INIT(&c, key64, j->key_len);
        hwc_cmac_update(&c, j->in, j->len / 2);
        hwc_cmac_update(&c, j->in + j->len / 2, j->len - j->len / 2);
        hwc_cmac_final(&c, tag);
        hwc_cmac_wipe(&c);
    }
    }
}

/* FIPS-197 round keys (from a key bound to aesni, whose schedule is the
   standard one, when usable) plus the schedule of the kernel under test. */
static void aes_needles(const hwc_aes_key *k, size_t key_len) {
    n_needles = 0;
    add_needles(key64, key_len);
    add_needles(k->sched, sizeof k->sched);
    hwc_cmac_ctx c;
    cr_assert_eq(hwc_cmac_init(&c, key64, key_len), HWC_OK);
    add_needles(c.k1, 16);
    add_needles(c.k2, 16);
    hwc_cmac_wipe(&c);
}

static void xor16(uint8_t *r, const uint8_t *a, const uint8_t *b) {
    for (int i = 0; i < 16; i++) r[i] = a[i] ^ b[i];
}

/* The folded forms the zmm XTS loops keep (impl/x86/aes_x86_xts.h,
   xts_set_batch): k_0 ^ k_nr and, per direction, k x^64 ^ k for the last
   round's key k (w[nr] encrypting, w[0] decrypting). The FIPS-197 round
   keys w[0..nr] open the x86 kernels' schedules; for other layouts these
   are values no call makes. */
static uint8_t folded_last[2][16];   /* w[nr], w[0]: XORed into tweaks below */

static void folded_key_needles(const hwc_aes_key *k, unsigned nr) {
    uint8_t f[16];
    xor16(f, k->sched, k->sched + 16 * nr);
    add_needles(f, 16);
    memcpy(folded_last[0], k->sched + 16 * nr, 16);
    memcpy(folded_last[1], k->sched, 16);
    for (int d = 0; d < 2; d++) {
        memcpy(f, folded_last[d], 16);
        for (int b = 0; b < 64; b++) hwc_gf128_dbl_le(f, f);
        xor16(f, f, folded_last[d]);
        add_needles(f, 16);
    }
    hwc_wipe(f, sizeof f);
}

/* mont(a, b) = a b x^-128 mod x^128 + x^127 + x^126 + x^121 + 1, bit by
   bit, on 128-bit little-endian integers (impl/x86/aes_gcm_x86.h's GHASH
   representation). */
static void gh_mont_ref(uint64_t r[2], const uint8_t a8[16], const uint8_t b8[16]) {
    uint64_t a[2], b[2], t[5] = {0};
    memcpy(a, a8, 16);
    memcpy(b, b8, 16);
    for (int i = 0; i < 128; i++)   /* t = a b, carry-less */
        if ((b[i / 64] >> (i % 64)) & 1)
            for (int w = 0; w < 2; w++) {
                t[w + i / 64] ^= a[w] << (i % 64);
                if (i % 64) t[w + i / 64 + 1] ^= a[w] >> (64 - i % 64);
            }
    for (int i = 0; i < 128; i++) {   /* t x^-128: add the modulus when odd, halve */
        if (t[0] & 1) {
            t[0] ^= 1;
            t[1] ^= 0xC200000000000000ull;   /* x^127 + x^126 + x^121 */
            t[2] ^= 1;                       /* x^128 */
        }
        for (int w = 0; w < 4; w++) t[w] = (t[w] >> 1) | (t[w + 1] << 63);
    }
    r[0] = t[0];
    r[1] = t[1];
}

/* P_33 = mont(P_32, P_1) and its Karatsuba halves, which the zmm GCM
   kernel's one-shot calls read from its table (gh_fold,
   impl/x86/aes_gcm_x86.h; its table: entry e at 16e is P_(32-e)): no copy
   of them may stay in a frame. For other layouts a value no call makes. */
static void gcm_p33_needles(const unsigned char *htab) {
    uint64_t p[2], k[2];
    gh_mont_ref(p, htab, htab + 16 * 31);
    k[0] = k[1] = p[0] ^ p[1];
    add_needles(p, 16);
    add_needles(k, 16);
}

/* XTS tweaks (IEEE 1619-2007 5.3.2): T = E_K2(i), then T x^j for the
   `blocks` blocks of the unit, i given as 16 little-endian bytes; for the
   first 64, also T ^ w[nr] and T ^ w[0] (folded_last). */
static void tweak_needles(const hwc_aes_key *k2, const uint8_t i[16], size_t blocks) {
    uint8_t t[16], u[16];
    cr_assert_eq(hwc_aes_ecb_encrypt(k2, t, i, 16), HWC_OK);
    for (size_t j = 0; j < blocks; j++) {
        add_needles(t, 16);
        for (int d = 0; d < 2 && j < 64; d++) {
            xor16(u, t, folded_last[d]);
            add_needles(u, 16);
        }
        hwc_gf128_dbl_le(t, t);
    }
    hwc_wipe(t, sizeof t);
    hwc_wipe(u, sizeof u);
}

/* The tweaks of aes_call's XTS modes for j (the unit's blocks plus one: the
   stolen block's tweak). */
static void xts_needles(const aes_job *j) {
    uint8_t i[16] = {1};
    if (j->mode == XTS_E || j->mode == XTS_D) {
        tweak_needles(&j->xk.tweak, i, j->len / 16 + 1);
        return;
    }
    const size_t unit = sector_unit(j->len);
    for (size_t u = 0; u < j->len / unit; u++) {
        i[0] = (uint8_t)(7 + u);
        tweak_needles(&j->xk.tweak, i, unit / 16);
    }
}

/* E_K(J0) of aes_call's GCM calls. It masks the tag: with it, one known
   message's GHASH value gives away the hash key. The one-shot calls' IV
   {1, 0, ...} of 12 bytes gives J0 = IV || 0^31 || 1 (SP 800-38D 7.1 step
   2). The streaming call's 17-byte IV is hashed into J0; its E_K(J0) is the
   tag of the empty message with no AAD, whose GHASH value is 0 (section
   6.4 on the single zero length block). */
static void gcm_needles(const aes_job *j) {
    uint8_t j0[16] = {1}, e[16];
    if (j->mode == GCM_STREAM) {
        const uint8_t iv[17] = {1};
        cr_assert_eq(hwc_aes_gcm_encrypt(&j->gk, iv, 17, NULL, 0, NULL, NULL, 0, e, 16), HWC_OK);
    } else {
        j0[15] = 1;
        cr_assert_eq(hwc_aes_ecb_encrypt(&j->k, e, j0, 16), HWC_OK);
    }
    add_needles(e, 16);
}

/* "setkey modes lanes gcm hash xts": the groups a kernel keeps clean. */
static void print_clean(const char *family, const char *kernel, unsigned clean) {
    static const char *const names[] = {"setkey", "modes", "lanes", "gcm", "hash", "xts"};
    char list[64] = "";
    for (int b = 0; b < 6; b++)
        if (clean & (1u << b)) snprintf(list + strlen(list), sizeof list - strlen(list), " %s", names[b]);
    cr_log_info("[%s] %s: unscrubbed (clean frames):%s", family, kernel, clean ? list : " none");
}

static void aes_kernel(const char *kernel, void *arg) {
    (void)arg;
    /* 4111: zmm XTS steps among the rounds (256 blocks and a partial one);
       8208: zmm XTS wide_keys path (513 blocks); 16400: 4 KiB sectors */
    static const size_t lens[] = {16, 17, 31, 64, 100, 255, 512, 1024, 1039, 4111, 8208, 16400};
    static aes_job j;   /* not on the stack: only the call's frames are */
    for (size_t kl = 16; kl <= 32; kl += 8) {
        memset(&j, 0, sizeof j);
        j.key_len = kl;
        cr_assert_eq(SUITE_SETKEY(&j.k, key64, kl), HWC_OK);
        aes_needles(&j.k, kl);
        if (kl == 16) print_clean("aes", kernel, ((const hwc_aes_impl *)j.k.impl)->clean_frames);
        cr_assert_eq(SUITE_GCM_SETKEY(&j.gk, key64, kl), HWC_OK);   /* hash key and its powers */
        add_needles(j.gk.aes.sched, sizeof j.gk.aes.sched);
        add_needles(j.gk.htab, sizeof j.gk.htab);
        gcm_p33_needles(j.gk.htab);
        if (kl != 24) {
            cr_assert_eq(SUITE_XTS_SETKEY(&j.xk, key64, 2 * kl), HWC_OK);
            add_needles(j.xk.data.sched, sizeof j.xk.data.sched);
            add_needles(j.xk.tweak.sched, sizeof j.xk.tweak.sched);
            folded_key_needles(&j.xk.data, kl == 16 ? 10 : 14);
        }
        const size_t n_keys = n_needles;
        for (int m = 0; m < MODES; m++) {
            if (kl == 24 && (m == XTS_SETKEY || m == XTS_E || m == XTS_D || m == XTS_SECTORS)) continue;
            for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
                j.mode = m;
                j.len = lens[l];
                n_needles = n_keys;
                if (m == XTS_E || m == XTS_D || m == XTS_SECTORS) xts_needles(&j);
                if (m == GCM_E || m == GCM_D || m == GCM_E0 || m == GCM_D0 || m == GCM_STREAM) gcm_needles(&j);
                char what[64];
                snprintf(what, sizeof what, "AES-%zu %s %zu bytes", 8 * kl, mode_names[m], lens[l]);
                expect_clean(kernel, what, aes_call, &j);
                if (m == SETKEY || m == XTS_SETKEY || m == GCM_SETKEY) break;
            }
        }
    }
}

Test(stack_scan, aes_every_kernel_and_mode) {
    SKIP_UNDER_SANITIZER();
    hwc_test_each_kernel("aes", aes_kernel, NULL);
}

/* ---- HMAC-Streebog and PBKDF2: the pad states after K0 ^ ipad / opad ---------- */
enum { HMAC_ONESHOT, HMAC_STREAM, PBKDF2 };
typedef struct { int kind; unsigned bits; size_t key_len, len; uint8_t msg[300]; } hmac_job;

static void hmac_call(void *arg) {
    hmac_job *j = arg;
    uint8_t out[128];
    static hwc_hmac_streebog_ctx c;   /* not on the stack: only the calls' frames are */
    switch (j->kind) {
    case PBKDF2: hwc_pbkdf2_streebog512(key64, j->key_len, j->msg, 16, 2, out, sizeof out); break;
    case HMAC_ONESHOT: hwc_hmac_streebog(j->bits, key64, j->key_len, j->msg, j->len, out); break;
    default:
        hwc_hmac_streebog_init(&c, j->bits, key64, j->key_len);
        hwc_hmac_streebog_update(&c, j->msg, j->len / 3);
        hwc_hmac_streebog_update(&c, j->msg + j->len / 3, j->len - j->len / 3);
        hwc_hmac_streebog_final(&c, out);
    }
}

/* RFC 2104: the chaining values after the one block K0 ^ ipad and K0 ^ opad
   (keys of at most 64 bytes, zero-padded). */
static void hmac_needles(unsigned bits, size_t key_len) {
    uint8_t pad[64];
    for (int which = 0; which < 2; which++) {
        memset(pad, 0, sizeof pad);
        memcpy(pad, key64, key_len);
        for (int i = 0; i < 64; i++) pad[i] ^= which ? 0x5c : 0x36;
        hwc_streebog_ctx c;
        cr_assert_eq(hwc_streebog_init(&c, bits), HWC_OK);
        cr_assert_eq(hwc_streebog_update(&c, pad, 64), HWC_OK);
        cr_assert_eq(hwc_streebog_update(&c, pad, 1), HWC_OK);   /* the 64-byte block is compressed */
        add_needles(c.h, sizeof c.h);
    }
}

static void hmac_kernel(const char *kernel, void *arg) {
    (void)arg;
    print_clean("streebog", kernel, hwc_active_streebog()->clean_frames);
    static hmac_job j;
    static const size_t lens[] = {0, 1, 64, 65, 300};
    for (unsigned bits = 256; bits <= 512; bits += 256)
        for (size_t kl = 16; kl <= 64; kl += 48) {
            n_needles = 0;
            add_needles(key64, kl);
            hmac_needles(bits, kl);
            for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
                for (int kind = HMAC_ONESHOT; kind <= HMAC_STREAM; kind++) {
                    j = (hmac_job){kind, bits, kl, lens[l], {0}};
                    char what[64];
                    snprintf(what, sizeof what, "HMAC-Streebog-%u%s key %zu msg %zu", bits,
                             kind == HMAC_STREAM ? " streamed" : "", kl, lens[l]);
                    expect_clean(kernel, what, hmac_call, &j);
                }
            if (bits == 512) {
                j = (hmac_job){PBKDF2, 512, kl, 0, {0}};
                expect_clean(kernel, "PBKDF2-HMAC-Streebog-512", hmac_call, &j);
            }
        }
}

Test(stack_scan, hmac_streebog_every_kernel) {
    SKIP_UNDER_SANITIZER();
    hwc_test_each_kernel("streebog", hmac_kernel, NULL);
}

/* ---- the scan can fail: a callee that leaves a copy of a round key --------------- */
static hwc_aes_key planted_key;

NOINLINE static void leave_a_copy(void *arg) {
    (void)arg;
    volatile uint8_t frame[64];
    for (size_t i = 0; i < 16; i++) frame[16 + i] = planted_key.sched[16 + i];   /* round key 1 */
    __asm__ __volatile__("" : : "r"(frame) : "memory");
}

NOINLINE static void leave_nothing(void *arg) {
    (void)arg;
    volatile uint8_t frame[64];
    for (size_t i = 0; i < 16; i++) frame[16 + i] = planted_key.sched[16 + i];
    for (size_t i = 0; i < 16; i++) frame[16 + i] = 0;
    __asm__ __volatile__("" : : "r"(frame) : "memory");
}

Test(stack_scan, finds_a_planted_copy) {
    SKIP_UNDER_SANITIZER();
    cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
    cr_assert_eq(hwc_aes_setkey(&planted_key, key64, 16), HWC_OK);
    n_needles = 0;
    add_needles(planted_key.sched, sizeof planted_key.sched);
    size_t depth;
    clear_stack();
    call_below(leave_a_copy, NULL);
    cr_expect_geq(scan(&depth), 1, "a copy left in a callee's frame was not found");
    clear_stack();
    call_below(leave_nothing, NULL);
    cr_expect_eq(scan(&depth), 0, "a wiped frame was reported");
}
