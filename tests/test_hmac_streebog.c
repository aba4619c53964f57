/* Streaming HMAC-Streebog (hwc_hmac_streebog_init/update/final) and
 * PBKDF2-HMAC-Streebog-512 over the kernels' lanes: for every usable kernel,
 * the RFC 7836 and R 50.1.111-2016 known answers, random update splits
 * against the one-shot call and libgcrypt, PBKDF2 for out_len 1..300 against
 * libgcrypt and the RFC 8018 loop over the public HMAC, output aliasing its
 * inputs (out == salt, out == password), and every error path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#ifdef HWC_TEST_HAVE_GCRYPT
#include <gcrypt.h>
#define HAVE_GCRYPT 1
#else
#define HAVE_GCRYPT 0
#endif

/* libgcrypt's HMAC and PBKDF2 where installed; 0 when absent or refused. */
static int peer_hmac(unsigned bits, const uint8_t *k, size_t kl, const uint8_t *m, size_t ml, uint8_t *out) {
#ifdef HWC_TEST_HAVE_GCRYPT
    gcry_md_hd_t h;
    if (!gcry_check_version(NULL)) return 0;
    if (gcry_md_open(&h, bits == 256 ? GCRY_MD_STRIBOG256 : GCRY_MD_STRIBOG512, GCRY_MD_FLAG_HMAC)) return 0;
    if (gcry_md_setkey(h, kl ? k : (const uint8_t *)"", kl)) {
        gcry_md_close(h);
        return 0;
    }
    gcry_md_write(h, m, ml);
    memcpy(out, gcry_md_read(h, 0), bits / 8);
    gcry_md_close(h);
    return 1;
#else
    (void)bits, (void)k, (void)kl, (void)m, (void)ml, (void)out;
    return 0;
#endif
}

static int peer_pbkdf2(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, unsigned long c, uint8_t *out,
                       size_t ol) {
#ifdef HWC_TEST_HAVE_GCRYPT
    if (!gcry_check_version(NULL)) return 0;
    return gcry_kdf_derive(pl ? p : (const uint8_t *)"", pl, GCRY_KDF_PBKDF2, GCRY_MD_STRIBOG512,
                           sl ? s : (const uint8_t *)"", sl, c, ol, out) == 0;
#else
    (void)p, (void)pl, (void)s, (void)sl, (void)c, (void)out, (void)ol;
    return 0;
#endif
}

static void say_peer(const char *what) {
    fprintf(stderr, "[hmac-streebog] %s: %s\n", what,
            HAVE_GCRYPT ? "cross-checked against libgcrypt" : "libgcrypt cross-check SKIPPED (not found at build)");
}

/* ---- known answers ----------------------------------------------------------- */

/* RFC 7836 section 4.1.1 (= R 50.1.113-2016 examples): K = 00..1f,
   T = 0126bdb87800af214341456563780100. */
static const char *const kat_key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char *const kat_msg = "0126bdb87800af214341456563780100";
static const char *const kat256 = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
static const char *const kat512 =
    "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
    "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6";

/* R 50.1.111-2016 section 4 test examples (= RFC 9337 appendix A), the two
   with dkLen > 64 and few iterations enough to run per kernel:
   P = "passwordPASSWORDpassword", S = "saltSALTsaltSALTsaltSALTsaltSALTsalt",
   c = 4096, dkLen = 100. */
static const char *const kat_dk100 =
    "b2d8f1245fc4d29274802057e4b54e0a0753aa22fc53760b301cf008679e58fe"
    "4bee9addcae99ba2b0b20f431a9c5e50f395c89387d0945aedeca6eb4015dfc2"
    "bd2421ee9bb71183ba882ceebfef259f33f9e27dc6178cb89dc37428cf9cc52a"
    "2baa2d3a";

static void check_kats(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[32], msg[16], want[64], got[64];
    hwc_hex(kat_key, key, sizeof key);
    hwc_hex(kat_msg, msg, sizeof msg);
    for (unsigned bits = 256; bits <= 512; bits += 256) {
        hwc_hmac_streebog_ctx c;
        hwc_hex(bits == 256 ? kat256 : kat512, want, 64);
        cr_assert_eq(hwc_hmac_streebog_init(&c, bits, key, sizeof key), HWC_OK);
        for (size_t i = 0; i < sizeof msg; i += 5)
            cr_assert_eq(hwc_hmac_streebog_update(&c, msg + i, sizeof msg - i < 5 ? sizeof msg - i : 5), HWC_OK);
        cr_assert_eq(hwc_hmac_streebog_final(&c, got), HWC_OK);
        cr_assert(!memcmp(got, want, bits / 8), "[%s] RFC 7836 HMAC-%u streamed: %s", kernel, bits,
                  hwc_tohex(got, bits / 8));
    }
    uint8_t dk[100], out[100];
    hwc_hex(kat_dk100, dk, sizeof dk);
    cr_assert_eq(hwc_pbkdf2_streebog512((const uint8_t *)"passwordPASSWORDpassword", 24,
                                        (const uint8_t *)"saltSALTsaltSALTsaltSALTsaltSALTsalt", 36, 4096, out,
                                        sizeof out),
                 HWC_OK);
    cr_assert(!memcmp(out, dk, sizeof dk), "[%s] R 50.1.111-2016 dkLen 100: %s", kernel, hwc_tohex(out, 100));
}

Test(hmac_streebog, known_answers) { hwc_test_each_kernel("streebog", check_kats, NULL); }

/* ---- streaming against one-shot and libgcrypt ------------------------------- */

typedef struct {
    uint64_t seed;
} seed_arg;

static void check_stream(const char *kernel, void *argp) {
    seed_arg *a = argp;
    static const size_t key_lens[] = {0, 1, 32, 63, 64, 65, 200};
    static const size_t msg_lens[] = {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4097};
    uint8_t key[200], msg[4097];
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0x53545245ull);
    hwc_rng_fill(&r, key, sizeof key);
    hwc_rng_fill(&r, msg, sizeof msg);
    for (size_t ki = 0; ki < sizeof key_lens / sizeof *key_lens; ki++)
        for (size_t mi = 0; mi < sizeof msg_lens / sizeof *msg_lens; mi++)
            for (unsigned bits = 256; bits <= 512; bits += 256) {
                size_t kl = key_lens[ki], ml = msg_lens[mi], dl = bits / 8;
                uint8_t one[64], peer[64];
                cr_assert_eq(hwc_hmac_streebog(bits, kl ? key : NULL, kl, msg, ml, one), HWC_OK);
                if (peer_hmac(bits, key, kl, msg, ml, peer))
                    cr_assert(!memcmp(one, peer, dl), "[%s] HMAC-%u key %zu msg %zu != libgcrypt (seed 0x%llx)",
                              kernel, bits, kl, ml, (unsigned long long)a->seed);
                for (int split = 0; split < 3; split++) {
                    hwc_hmac_streebog_ctx c, copy;
                    cr_assert_eq(hwc_hmac_streebog_init(&c, bits, kl ? key : NULL, kl), HWC_OK);
                    size_t pos = 0, half = ml / 2;
                    int copied = 0;
                    while (pos < ml) {
                        size_t t = hwc_rng_below(&r, 3) == 0 ? hwc_rng_below(&r, 3) : hwc_rng_below(&r, 200);
                        if (t > ml - pos) t = ml - pos;
                        cr_assert_eq(hwc_hmac_streebog_update(&c, msg + pos, t), HWC_OK);
                        pos += t;
                        if (!copied && pos >= half) copy = c, copied = pos;   /* a context is plain data */
                    }
                    hwc_guarded g;
                    hwc_guarded_alloc(&g, dl, (size_t)split);
                    cr_assert_eq(hwc_hmac_streebog_final(&c, g.p), HWC_OK);
                    cr_assert(!memcmp(g.p, one, dl), "[%s] HMAC-%u key %zu msg %zu split %d != one-shot (seed 0x%llx)",
                              kernel, bits, kl, ml, split, (unsigned long long)a->seed);
                    cr_assert(hwc_guarded_intact(&g), "[%s] final wrote past %zu bytes", kernel, dl);
                    hwc_guarded_free(&g);
                    cr_assert(hwc_all_bytes(&c, sizeof c, 0), "[%s] final did not wipe the context", kernel);
                    if (copied) {
                        uint8_t m2[64];
                        cr_assert_eq(hwc_hmac_streebog_update(&copy, msg + copied, ml - (size_t)copied), HWC_OK);
                        cr_assert_eq(hwc_hmac_streebog_final(&copy, m2), HWC_OK);
                        cr_assert(!memcmp(m2, one, dl), "[%s] copied context differs", kernel);
                    }
                }
            }
    /* init on a live context starts a new message (and may change the size) */
    hwc_hmac_streebog_ctx c;
    uint8_t want[64], got[64];
    cr_assert_eq(hwc_hmac_streebog_init(&c, 512, key, 10), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog_update(&c, msg, 100), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog_init(&c, 256, key + 1, 70), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog_update(&c, msg + 3, 90), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog_final(&c, got), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog(256, key + 1, 70, msg + 3, 90, want), HWC_OK);
    cr_assert(!memcmp(got, want, 32), "[%s] re-init did not start a new message", kernel);
}

Test(hmac_streebog, streaming_equals_one_shot_and_libgcrypt) {
    seed_arg a = {hwc_test_seed()};
    hwc_test_each_kernel("streebog", check_stream, &a);
    say_peer("streaming HMAC");
}

/* ---- PBKDF2 in lanes --------------------------------------------------------- */

/* RFC 8018 section 5.2 over the public one-shot HMAC. */
static void pbkdf2_ref(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, uint32_t c, uint8_t *out,
                       size_t ol) {
    uint8_t buf[64 + 4], u[64], t[64];
    cr_assert(sl <= 64);
    for (uint32_t i = 1; ol; i++) {
        if (sl) memcpy(buf, s, sl);
        buf[sl] = (uint8_t)(i >> 24), buf[sl + 1] = (uint8_t)(i >> 16);
        buf[sl + 2] = (uint8_t)(i >> 8), buf[sl + 3] = (uint8_t)i;
        cr_assert_eq(hwc_hmac_streebog(512, p, pl, buf, sl + 4, u), HWC_OK);
        memcpy(t, u, 64);
        for (uint32_t j = 1; j < c; j++) {
            cr_assert_eq(hwc_hmac_streebog(512, p, pl, u, 64, u), HWC_OK);
            for (int b = 0; b < 64; b++) t[b] ^= u[b];
        }
        size_t n = ol < 64 ? ol : 64;
        memcpy(out, t, n);
        out += n;
        ol -= n;
    }
}

static void check_pbkdf2(const char *kernel, void *argp) {
    seed_arg *a = argp;
    uint8_t pw[80], salt[40], want[300], peer[300];
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0x50424B44ull);
    hwc_rng_fill(&r, pw, sizeof pw);
    hwc_rng_fill(&r, salt, sizeof salt);
    /* The longest output once per (password, salt, c); every shorter
       out_len must be its prefix and match libgcrypt. */
    static const size_t pls[] = {8, 80}, sls[] = {16, 40};
    static const uint32_t cs[] = {1, 3};
    int peer_cases = 0;
    for (size_t k = 0; k < 2; k++) {
        size_t pl = pls[k], sl = sls[k];
        uint32_t c = cs[k];
        pbkdf2_ref(pw, pl, salt, sl, c, want, sizeof want);
        for (size_t ol = 1; ol <= 300; ol++) {
            hwc_guarded g;
            hwc_guarded_alloc(&g, ol, ol & 63);
            cr_assert_eq(hwc_pbkdf2_streebog512(pw, pl, salt, sl, c, g.p, ol), HWC_OK);
            cr_assert(!memcmp(g.p, want, ol), "[%s] PBKDF2 out_len %zu c %u != RFC 8018 loop (seed 0x%llx)",
                      kernel, ol, c, (unsigned long long)a->seed);
            cr_assert(hwc_guarded_intact(&g), "[%s] PBKDF2 out_len %zu wrote outside", kernel, ol);
            if (peer_pbkdf2(pw, pl, salt, sl, c, peer, ol)) {
                cr_assert(!memcmp(g.p, peer, ol), "[%s] PBKDF2 out_len %zu c %u != libgcrypt (seed 0x%llx)",
                          kernel, ol, c, (unsigned long long)a->seed);
                peer_cases++;
            }
            hwc_guarded_free(&g);
        }
    }
    cr_assert(!HAVE_GCRYPT || peer_cases == 600, "libgcrypt compared only %d cases", peer_cases);
}

Test(hmac_streebog, pbkdf2_out_len_1_to_300) {
    seed_arg a = {hwc_test_seed()};
    hwc_test_each_kernel("streebog", check_pbkdf2, &a);
    say_peer("PBKDF2 out_len 1..300");
}

/* out may equal salt or password (API: out == in allowed): the result is
   the one of separate buffers for every out_len, also past the first
   64-byte block (the salt was once re-read after block 1 overwrote it). */
static void check_alias(const char *kernel, void *argp) {
    seed_arg *a = argp;
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0xA11Aull);
    static const size_t lens[] = {1, 64, 65, 100, 128, 129, 192, 255, 300};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t ol = lens[i];
        uint8_t pw[300], salt[300], want[300], buf[300];
        hwc_rng_fill(&r, pw, sizeof pw);
        hwc_rng_fill(&r, salt, sizeof salt);
        size_t sl = ol, pl = ol;   /* the aliased input as long as the output */
        cr_assert_eq(hwc_pbkdf2_streebog512(pw, 20, salt, sl, 2, want, ol), HWC_OK);
        memcpy(buf, salt, sl);
        cr_assert_eq(hwc_pbkdf2_streebog512(pw, 20, buf, sl, 2, buf, ol), HWC_OK);
        cr_assert(!memcmp(buf, want, ol), "[%s] PBKDF2 out == salt, out_len %zu: wrong key", kernel, ol);
        cr_assert_eq(hwc_pbkdf2_streebog512(pw, pl, salt, 16, 2, want, ol), HWC_OK);
        memcpy(buf, pw, pl);
        cr_assert_eq(hwc_pbkdf2_streebog512(buf, pl, salt, 16, 2, buf, ol), HWC_OK);
        cr_assert(!memcmp(buf, want, ol), "[%s] PBKDF2 out == password, out_len %zu: wrong key", kernel, ol);
        /* HMAC: mac == key, mac == message */
        uint8_t mac[64];
        cr_assert_eq(hwc_hmac_streebog(512, pw, 64, salt, ol, mac), HWC_OK);
        memcpy(buf, salt, ol);
        cr_assert_eq(hwc_hmac_streebog(512, pw, 64, buf, ol, buf), HWC_OK);
        cr_assert(!memcmp(buf, mac, 64), "[%s] HMAC mac == msg, len %zu", kernel, ol);
        memcpy(buf, pw, 64);
        cr_assert_eq(hwc_hmac_streebog(512, buf, 64, salt, ol, buf), HWC_OK);
        cr_assert(!memcmp(buf, mac, 64), "[%s] HMAC mac == key", kernel);
    }
}

Test(hmac_streebog, outputs_may_alias_inputs) {
    seed_arg a = {hwc_test_seed()};
    hwc_test_each_kernel("streebog", check_alias, &a);
}

/* ---- error paths ------------------------------------------------------------- */

#define FILL 0x5A

Test(hmac_streebog, errors_change_nothing) {
    hwc_hmac_streebog_ctx c, snap;
    uint8_t k[8] = {1}, d[64];
    static const unsigned bad_bits[] = {0, 1, 128, 255, 384, 513, 1024};
    /* init */
    cr_assert_eq(hwc_hmac_streebog_init(NULL, 512, k, 8), HWC_ERR_NULL_POINTER);
    memset(&c, FILL, sizeof c);
    cr_assert_eq(hwc_hmac_streebog_init(&c, 512, NULL, 8), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_bits / sizeof *bad_bits; i++)
        cr_assert_eq(hwc_hmac_streebog_init(&c, bad_bits[i], k, 8), HWC_ERR_BAD_ARGUMENT, "bits %u", bad_bits[i]);
    cr_assert(hwc_all_bytes(&c, sizeof c, FILL), "failed init wrote the context");
    cr_assert_eq(hwc_hmac_streebog_init(&c, 512, NULL, 0), HWC_OK);   /* empty key */

    /* update / final arguments on a live context */
    cr_assert_eq(hwc_hmac_streebog_update(&c, k, 3), HWC_OK);
    snap = c;
    memset(d, FILL, sizeof d);
    cr_assert_eq(hwc_hmac_streebog_update(NULL, k, 3), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_hmac_streebog_update(&c, NULL, 1), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_hmac_streebog_update(&c, NULL, 0), HWC_OK);
    cr_assert_eq(hwc_hmac_streebog_final(NULL, d), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_hmac_streebog_final(&c, NULL), HWC_ERR_NULL_POINTER);
    cr_assert(!memcmp(&c, &snap, sizeof c), "a refused call changed the context");
    cr_assert(hwc_all_bytes(d, sizeof d, FILL));
    cr_assert_eq(hwc_hmac_streebog_final(&c, d), HWC_OK);
    uint8_t want[64];
    cr_assert_eq(hwc_hmac_streebog(512, NULL, 0, k, 3, want), HWC_OK);
    cr_assert(!memcmp(d, want, 64));

    /* finished, zeroed, garbage: BAD_ARGUMENT, nothing written */
    for (int kind = 0; kind < 3; kind++) {
        if (kind == 1) memset(&c, 0, sizeof c);
        if (kind == 2) memset(&c, FILL, sizeof c);
        snap = c;
        memset(d, FILL, sizeof d);
        cr_assert_eq(hwc_hmac_streebog_update(&c, k, 3), HWC_ERR_BAD_ARGUMENT, "kind %d", kind);
        cr_assert_eq(hwc_hmac_streebog_final(&c, d), HWC_ERR_BAD_ARGUMENT, "kind %d", kind);
        cr_assert(hwc_all_bytes(d, sizeof d, FILL), "kind %d: final wrote a MAC", kind);
        cr_assert(!memcmp(&c, &snap, sizeof c), "kind %d: the context changed", kind);
    }
    /* a live 256-bit context writes 32 bytes only */
    cr_assert_eq(hwc_hmac_streebog_init(&c, 256, k, 8), HWC_OK);
    memset(d, FILL, sizeof d);
    cr_assert_eq(hwc_hmac_streebog_final(&c, d), HWC_OK);
    cr_assert(hwc_all_bytes(d + 32, 32, FILL));
}
