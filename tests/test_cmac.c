/* AES-CMAC (SP 800-38B, RFC 4493) and the GF(2^128) doublings: known
 * answers typed from the standards, every usable kernel against generic
 * (and OpenSSL where installed) on pseudo-random messages and update
 * splits, misaligned guarded buffers, and every error path. Built a second
 * time as test_cmac_fallback: the same checks on ECB-only kernel tables
 * (aes_suite_keys.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#include "internal/bytes.h"
#ifdef HWC_TEST_HAVE_OPENSSL
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#endif

#define SEED_FMT "seed %#llx"
#define SEED ((unsigned long long)hwc_test_seed())

/* SP 800-38A F plaintext, the message of RFC 4493 section 4 and SP 800-38B D. */
static const char *msg64 =
    "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";

static const struct {
    const char *src, *key, *tag[4];   /* tags for message lengths 0, 16, 40, 64 */
} kats[] = {
    {"RFC 4493 section 4 (= SP 800-38B D.1, CMAC-AES128)", "2b7e151628aed2a6abf7158809cf4f3c",
     {"bb1d6929e95937287fa37d129b756746", "070a16b46b4d4144f79bdd9dd04a287c",
      "dfa66747de9ae63030ca32611497c827", "51f0bebf7e3b9d92fc49741779363cfe"}},
    {"SP 800-38B D.2 (CMAC-AES192)", "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
     {"d17ddf46adaacde531cac483de7a9367", "9e99a7bf31e710900662f65e617c5184",
      "8a1de5be2eb31aad089a82e6ee908b0e", "a1d5df0eed790f794d77589659f39a11"}},
    {"SP 800-38B D.3 (CMAC-AES256)", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     {"028962f61b7bf89efc6b551f4667d983", "28a7023f452e8f82bd4bf28d8c37c35c",
      "aaf3d8f1de5640c232f5b169b9c911e6", "e1992190549f6ed5696a2c056c315410"}},
};
static const size_t kat_lens[4] = {0, 16, 40, 64};

static void kat_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t msg[64], key[32], exp[16], tag[16];
    cr_assert_eq(hwc_hex(msg64, msg, sizeof msg), 64);

    /* RFC 4493 section 4, subkey generation: L = AES-128(K, 0), K1, K2. */
    uint8_t l[16], zero[16] = {0}, k1[16], k2[16], e1[16], e2[16], el[16];
    hwc_aes_key ak;
    hwc_hex("2b7e151628aed2a6abf7158809cf4f3c", key, 16);
    hwc_hex("7df76b0c1ab899b33e42f047b91b546f", el, 16);
    hwc_hex("fbeed618357133667c85e08f7236a8de", e1, 16);
    hwc_hex("f7ddac306ae266ccf90bc11ee46d513b", e2, 16);
    cr_assert_eq(SUITE_SETKEY(&ak, key, 16), HWC_OK);
    cr_assert_eq(hwc_aes_ecb_encrypt(&ak, l, zero, 16), HWC_OK);
    cr_assert_arr_eq(l, el, 16, "[%s] RFC 4493 L", kernel);
    hwc_gf128_dbl_be(k1, l);
    cr_assert_arr_eq(k1, e1, 16, "RFC 4493 K1 = dbl(L): %s", hwc_tohex(k1, 16));
    hwc_gf128_dbl_be(k2, k1);
    cr_assert_arr_eq(k2, e2, 16, "RFC 4493 K2 = dbl(K1): %s", hwc_tohex(k2, 16));
    memcpy(k2, k1, 16);
    hwc_gf128_dbl_be(k2, k2);   /* in place */
    cr_assert_arr_eq(k2, e2, 16, "dbl_be in place");
    hwc_cmac_ctx c;
    cr_assert_eq(SUITE_CMAC_INIT(&c, key, 16), HWC_OK);
    cr_assert_arr_eq(c.k1, e1, 16, "[%s] context K1", kernel);
    cr_assert_arr_eq(c.k2, e2, 16, "[%s] context K2", kernel);

    for (size_t t = 0; t < 3; t++) {
        size_t kl = hwc_hex(kats[t].key, key, sizeof key);
        cr_assert_eq(SUITE_CMAC_INIT(&c, key, kl), HWC_OK);
        for (int m = 0; m < 4; m++) {
            size_t len = kat_lens[m];
            hwc_hex(kats[t].tag[m], exp, 16);
            memset(tag, 0, 16);
            cr_assert_eq(hwc_cmac(key, kl, len ? msg : NULL, len, tag), HWC_OK);
            cr_assert_arr_eq(tag, exp, 16, "[%s] %s, Mlen %zu: %s", kernel, kats[t].src, len * 8,
                             hwc_tohex(tag, 16));
            /* streamed in bytes, then the context is reused for the next one */
            for (size_t i = 0; i < len; i++) cr_assert_eq(hwc_cmac_update(&c, msg + i, 1), HWC_OK);
            cr_assert_eq(hwc_cmac_final(&c, tag), HWC_OK);
            cr_assert_arr_eq(tag, exp, 16, "[%s] %s streamed, Mlen %zu", kernel, kats[t].src, len * 8);
            cr_assert_eq(hwc_cmac_verify(key, kl, msg, len, exp, 16), HWC_OK);
            cr_assert_eq(hwc_cmac_verify(key, kl, msg, len, exp, 4), HWC_OK, "truncated tag");
        }
    }
    hwc_cmac_wipe(&c);
}

Test(cmac, known_answers) {
    hwc_test_each_kernel("aes", kat_check, NULL);
}

/* Slow bit-by-bit reference doublings. */
static void dbl_be_ref(uint8_t out[16], const uint8_t in[16]) {
    int msb = in[0] >> 7;
    for (int i = 0; i < 16; i++) out[i] = (uint8_t)(in[i] << 1 | (i < 15 ? in[i + 1] >> 7 : 0));
    if (msb) out[15] ^= 0x87;
}
static void dbl_le_ref(uint8_t out[16], const uint8_t in[16]) {
    int msb = in[15] >> 7;
    for (int i = 15; i >= 0; i--) out[i] = (uint8_t)(in[i] << 1 | (i > 0 ? in[i - 1] >> 7 : 0));
    if (msb) out[0] ^= 0x87;
}

Test(cmac, gf128_doubling) {
    uint8_t a[16], b[16], x[16];
    /* IEEE 1619-2007 5.2: byte 0 least significant; alpha * (bit 127) = x^7+x^2+x+1. */
    memset(a, 0, 16);
    a[15] = 0x80;
    hwc_gf128_dbl_le(b, a);
    hwc_hex("87000000000000000000000000000000", x, 16);
    cr_assert_arr_eq(b, x, 16, "dbl_le(x^127)");
    memset(a, 0, 16);
    a[7] = 0x80;
    hwc_gf128_dbl_le(b, a);
    hwc_hex("00000000000000000100000000000000", x, 16);
    cr_assert_arr_eq(b, x, 16, "dbl_le carries from byte 7 to byte 8");
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x6F128);
    for (int i = 0; i < 2000; i++) {
        hwc_rng_fill(&r, a, 16);
        if (i & 1) a[i & 2 ? 0 : 15] |= 0x80;
        dbl_be_ref(x, a);
        hwc_gf128_dbl_be(b, a);
        cr_assert_arr_eq(b, x, 16, "dbl_be(%s) " SEED_FMT, hwc_tohex(a, 16), SEED);
        hwc_gf128_dbl_be(a, a);
        cr_assert_arr_eq(a, x, 16, "dbl_be in place");
        dbl_le_ref(x, a);
        hwc_gf128_dbl_le(b, a);
        cr_assert_arr_eq(b, x, 16, "dbl_le(%s) " SEED_FMT, hwc_tohex(a, 16), SEED);
        hwc_gf128_dbl_le(a, a);
        cr_assert_arr_eq(a, x, 16, "dbl_le in place");
    }
}

/* internal/bytes.h hwc_block_at (CMAC's buffered block, GCM's AAD tails):
   every length and offset, the source at every alignment mod 8 between
   poison bytes, so a read outside p[0 .. n) shows in the block. */
Test(cmac, block_at_every_length_and_offset) {
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0xB10C);
    for (size_t n = 0; n <= 16; n++) {
        for (size_t pos = 0; pos + n <= 16; pos++) {
            hwc_guarded g;
            hwc_guarded_alloc(&g, n, pos + n);
            hwc_rng_fill(&r, g.p, n);
            uint8_t want[16] = {0}, got[16];
            memcpy(want + pos, g.p, n);
            const hwc_u64x2 v = hwc_block_at(g.p, n, pos);
            memcpy(got, &v, 16);
            cr_assert_arr_eq(got, want, 16, "n %zu pos %zu: %s " SEED_FMT, n, pos, hwc_tohex(got, 16), SEED);
            hwc_guarded_free(&g);
        }
    }
}

/* ---- kernels against generic, splits, misaligned, OpenSSL -------------------- */

#ifdef HWC_TEST_HAVE_OPENSSL
static void ossl_cmac(const uint8_t *key, size_t kl, const uint8_t *msg, size_t len, uint8_t tag[16]) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    cr_assert(mac != NULL);
    EVP_MAC_CTX *x = EVP_MAC_CTX_new(mac);
    char cipher[16];
    snprintf(cipher, sizeof cipher, "AES-%zu-CBC", kl * 8);
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
                            OSSL_PARAM_construct_end()};
    size_t outl = 0;
    cr_assert_eq(EVP_MAC_init(x, key, kl, params), 1);
    cr_assert_eq(EVP_MAC_update(x, msg, len), 1);
    cr_assert_eq(EVP_MAC_final(x, tag, &outl, 16), 1);
    cr_assert_eq(outl, 16);
    EVP_MAC_CTX_free(x);
    EVP_MAC_free(mac);
}
#endif

#define MAXLEN (65536 + 33)

static void agree_check(const char *kernel, void *arg) {
    uint8_t *msg = arg;
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0xC3AC);
    int quick = hwc_test_quick();
    for (size_t kl = 16; kl <= 32; kl += 8) {
        uint8_t key[32], t1[16], t2[16], t3[16];
        hwc_cmac_ctx ck, cg;
        hwc_rng_fill(&r, key, sizeof key);
        cr_assert_eq(SUITE_CMAC_INIT(&ck, key, kl), HWC_OK);
        cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
        cr_assert_eq(hwc_cmac_init(&cg, key, kl), HWC_OK);
        cr_assert_eq(hwc_kernel_select("aes", kernel), HWC_OK);
        for (size_t len = 0; len <= 1024 + 1; len += quick ? 5 : 1) {
            if (len == 1025) len = MAXLEN;
            hwc_rng_fill(&r, msg, len);
            cr_assert_eq(hwc_cmac_update(&ck, msg, len), HWC_OK);
            cr_assert_eq(hwc_cmac_final(&ck, t1), HWC_OK);
            cr_assert_eq(hwc_cmac_update(&cg, msg, len), HWC_OK);
            cr_assert_eq(hwc_cmac_final(&cg, t2), HWC_OK);
            cr_assert_arr_eq(t1, t2, 16, "[%s] CMAC-AES%zu len %zu vs generic " SEED_FMT, kernel, kl * 8,
                             len, SEED);
            cr_assert_eq(hwc_cmac(key, kl, msg, len, t3), HWC_OK);
            cr_assert_arr_eq(t3, t1, 16, "[%s] one-shot != context, len %zu " SEED_FMT, kernel, len, SEED);
            /* random update splits (including empty updates) == one call */
            size_t off = 0;
            while (off < len) {
                size_t n = hwc_rng_below(&r, 3) == 0 ? hwc_rng_below(&r, 17) : hwc_rng_below(&r, 200);
                if (n > len - off) n = len - off;
                cr_assert_eq(hwc_cmac_update(&ck, msg + off, n), HWC_OK);
                off += n;
            }
            cr_assert_eq(hwc_cmac_final(&ck, t3), HWC_OK);
            cr_assert_arr_eq(t3, t1, 16, "[%s] split updates, len %zu " SEED_FMT, kernel, len, SEED);
            /* verify: full and truncated tags, and a flipped bit fails */
            size_t tl = 4 + len % 13;
            cr_assert_eq(hwc_cmac_verify(key, kl, msg, len, t1, tl), HWC_OK);
            t3[len % tl] ^= (uint8_t)(1u << (len % 8));
            cr_assert_eq(hwc_cmac_verify(key, kl, msg, len, t3, tl), HWC_ERR_AUTH_FAILED,
                         "[%s] flipped tag bit, len %zu", kernel, len);
            if (len) {
                msg[len / 2] ^= 0x40;
                cr_assert_eq(hwc_cmac_verify(key, kl, msg, len, t1, 16), HWC_ERR_AUTH_FAILED,
                             "[%s] changed message, len %zu", kernel, len);
            }
#ifdef HWC_TEST_HAVE_OPENSSL
            if (len % 7 == 0 || len == MAXLEN) {
                if (len) msg[len / 2] ^= 0x40;
                ossl_cmac(key, kl, msg, len, t3);
                cr_assert_arr_eq(t3, t1, 16, "[%s] CMAC-AES%zu vs OpenSSL, len %zu " SEED_FMT, kernel, kl * 8,
                                 len, SEED);
            }
#endif
        }
        hwc_cmac_wipe(&ck);
        hwc_cmac_wipe(&cg);
    }

    /* misaligned guarded message and tag buffers */
    uint8_t key[32], t1[16];
    hwc_rng_fill(&r, key, sizeof key);
    for (size_t mis = 1; mis < 16; mis++) {
        size_t len = 17 * mis + 3;
        hwc_guarded gm, gt;
        hwc_guarded_alloc(&gm, len, mis);
        hwc_guarded_alloc(&gt, 16, 16 - mis);
        hwc_rng_fill(&r, gm.p, len);
        memcpy(msg, gm.p, len);
        cr_assert_eq(hwc_cmac(key, 32, gm.p, len, gt.p), HWC_OK);
        cr_assert_eq(hwc_cmac(key, 32, msg, len, t1), HWC_OK);
        cr_assert_arr_eq(gt.p, t1, 16, "[%s] misaligned %zu", kernel, mis);
        cr_assert_eq(hwc_cmac_verify(key, 32, gm.p, len, gt.p, 16), HWC_OK);
        cr_assert(hwc_guarded_intact(&gm) && hwc_guarded_intact(&gt), "[%s] poison overwritten, misalign %zu",
                  kernel, mis);
        hwc_guarded_free(&gm);
        hwc_guarded_free(&gt);
    }
}

Test(cmac, kernels_agree_splits_openssl) {
    uint8_t *msg = malloc(MAXLEN);
    cr_assert(msg);
    hwc_test_each_kernel("aes", agree_check, msg);
    free(msg);
#ifndef HWC_TEST_HAVE_OPENSSL
    fprintf(stderr, "[cmac] OpenSSL cross-check skipped: built without OpenSSL\n");
    cr_log_warn("OpenSSL cross-check skipped: built without OpenSSL");
#endif
}

/* ---- error paths --------------------------------------------------------------- */

#define FILL 0x5A

#define untouched(p, n) hwc_all_bytes((p), (n), FILL)

static void errors_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[32], msg[40], tag[16], good[16];
    hwc_cmac_ctx c, unset, w;
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(3 * i + 5);
    memset(msg, 0x77, sizeof msg);
    memset(&unset, 0, sizeof unset);
    static const size_t bad_kl[] = {0, 1, 15, 17, 23, 25, 31, 33, 64};

    /* init */
    memset(&w, FILL, sizeof w);
    cr_assert_eq(hwc_cmac_init(NULL, key, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_init(&w, NULL, 16), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_kl / sizeof bad_kl[0]; i++)
        cr_assert_eq(hwc_cmac_init(&w, key, bad_kl[i]), HWC_ERR_KEY_LENGTH, "[%s] key_len %zu", kernel,
                     bad_kl[i]);
    cr_assert_eq(hwc_cmac_init(&w, NULL, 0), HWC_ERR_KEY_LENGTH, "NULL key of length 0");
    cr_assert(untouched(&w, sizeof w), "[%s] init wrote on error", kernel);

    /* update / final */
    cr_assert_eq(SUITE_CMAC_INIT(&c, key, 16), HWC_OK);
    cr_assert_eq(hwc_cmac_update(&c, msg, 20), HWC_OK);
    hwc_cmac_ctx before;
    memcpy(&before, &c, sizeof c);
    cr_assert_eq(hwc_cmac_update(NULL, msg, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_update(&c, NULL, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_update(&unset, msg, 5), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_cmac_update(&c, NULL, 0), HWC_OK, "len 0 allows NULL");
    cr_assert(memcmp(&before, &c, sizeof c) == 0, "[%s] update changed the context on error", kernel);
    memset(tag, FILL, sizeof tag);
    cr_assert_eq(hwc_cmac_final(NULL, tag), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_final(&c, NULL), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_final(&unset, tag), HWC_ERR_BAD_ARGUMENT);
    cr_assert(untouched(tag, 16), "[%s] final wrote on error", kernel);
    cr_assert(memcmp(&before, &c, sizeof c) == 0, "[%s] final changed the context on error", kernel);
    cr_assert_eq(hwc_cmac_final(&c, tag), HWC_OK);
    cr_assert_eq(hwc_cmac(key, 16, msg, 20, good), HWC_OK);
    cr_assert_arr_eq(tag, good, 16, "[%s] context survives rejected calls", kernel);
    hwc_cmac_wipe(&c);
    cr_assert_eq(hwc_cmac_update(&c, msg, 5), HWC_ERR_BAD_ARGUMENT, "wiped context");
    hwc_cmac_wipe(NULL);   /* nothing to wipe, no crash (as hwc_wipe) */

    /* one-shot */
    memset(tag, FILL, sizeof tag);
    cr_assert_eq(hwc_cmac(NULL, 16, msg, 20, tag), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac(key, 16, NULL, 20, tag), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac(key, 16, msg, 20, NULL), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_kl / sizeof bad_kl[0]; i++)
        cr_assert_eq(hwc_cmac(key, bad_kl[i], msg, 20, tag), HWC_ERR_KEY_LENGTH);
    /* a NULL pointer with length 0 gets the length error */
    cr_assert_eq(hwc_cmac(NULL, 0, msg, 20, tag), HWC_ERR_KEY_LENGTH, "NULL key of length 0");
    cr_assert(untouched(tag, 16), "[%s] hwc_cmac wrote on error", kernel);
    cr_assert_eq(hwc_cmac(key, 16, NULL, 0, tag), HWC_OK, "empty message, NULL msg");

    /* verify */
    cr_assert_eq(hwc_cmac(key, 24, msg, 40, good), HWC_OK);
    cr_assert_eq(hwc_cmac_verify(NULL, 24, msg, 40, good, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_verify(key, 24, NULL, 40, good, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, NULL, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_cmac_verify(key, 17, msg, 40, good, 16), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, 3), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, 17), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, 0), HWC_ERR_BAD_ARGUMENT);
    /* a NULL pointer with length 0 gets the length error */
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, NULL, 0), HWC_ERR_BAD_ARGUMENT, "NULL tag, tag_len 0");
    cr_assert_eq(hwc_cmac_verify(NULL, 0, msg, 40, good, 16), HWC_ERR_KEY_LENGTH, "NULL key, key_len 0");
    cr_assert_eq(hwc_cmac_verify(key, 24, NULL, 0, NULL, 0), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, 16), HWC_OK);
    for (size_t i = 0; i < 16; i++) {
        good[i] ^= 0x01;
        cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, 16), HWC_ERR_AUTH_FAILED, "byte %zu", i);
        cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, i < 4 ? 4 : i + 1), HWC_ERR_AUTH_FAILED);
        if (i >= 4) cr_assert_eq(hwc_cmac_verify(key, 24, msg, 40, good, i), HWC_OK, "prefix %zu", i);
        good[i] ^= 0x01;
    }
    cr_assert_eq(hwc_cmac_verify(key, 24, msg, 39, good, 16), HWC_ERR_AUTH_FAILED, "other message");
}

Test(cmac, errors_leave_outputs_untouched) {
    hwc_test_each_kernel("aes", errors_check, NULL);
}
