/* AES (FIPS-197) in ECB/CBC/CTR (SP 800-38A) and XTS (IEEE 1619-2007):
 * known answers typed from the standards, every usable kernel against the
 * generic kernel (and OpenSSL where installed) on pseudo-random inputs,
 * chained calls, in place, misaligned guarded buffers, CTR counter wrap, and
 * every error path with outputs left untouched. Built a second time as
 * test_aes_fallback: the same checks on ECB-only kernel tables
 * (aes_suite_keys.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#ifdef HWC_TEST_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define SEED_FMT "seed %#llx"
#define SEED ((unsigned long long)hwc_test_seed())

/* ---- helpers ----------------------------------------------------------------- */

static void setkey_ok(hwc_aes_key *k, const uint8_t *key, size_t len) {
    cr_assert_eq(SUITE_SETKEY(k, key, len), HWC_OK, "setkey %zu", len);
}

/* kk bound to `kernel` (the selected one), kg bound to generic. */
static void setkey_pair(const char *kernel, const uint8_t *key, size_t len, hwc_aes_key *kk,
                        hwc_aes_key *kg) {
    setkey_ok(kk, key, len);
    cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
    setkey_ok(kg, key, len);
    cr_assert_eq(hwc_kernel_select("aes", kernel), HWC_OK);
}

static void xts_setkey_pair(const char *kernel, const uint8_t *key, size_t len, hwc_aes_xts_key *kk,
                            hwc_aes_xts_key *kg) {
    cr_assert_eq(SUITE_XTS_SETKEY(kk, key, len), HWC_OK);
    cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
    cr_assert_eq(hwc_aes_xts_setkey(kg, key, len), HWC_OK);
    cr_assert_eq(hwc_kernel_select("aes", kernel), HWC_OK);
}

/* 0x00..0xff repeated: the IEEE 1619 Annex B 512-byte plaintext. */
static void pattern(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)i;
}

/* Big-endian 128-bit increment, byte by byte (the slow reference). */
static void ctr_inc_ref(uint8_t c[16]) {
    for (int i = 15; i >= 0; i--)
        if (++c[i] != 0) break;
}

/* ---- known answers ----------------------------------------------------------- */

/* FIPS-197 Appendix C.1, C.2, C.3 (example vectors). */
static const struct {
    const char *key, *ct;
} fips197[] = {
    {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "8ea2b7ca516745bfeafc49904b496089"},
};

/* SP 800-38A Appendix F: the plaintext of every example (F.1-F.5). */
static const char *sp38a_pt =
    "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";
static const char *sp38a_iv = "000102030405060708090a0b0c0d0e0f";          /* F.2 */
static const char *sp38a_ctr = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";         /* F.5 */
static const char *sp38a_ctr_after = "f0f1f2f3f4f5f6f7f8f9fafbfcfdff03";   /* + 4 blocks */

static const struct {
    const char *key, *ecb, *cbc, *ctr;
} sp38a[] = {
    /* F.1.1/F.1.2 ECB-AES128, F.2.1/F.2.2 CBC-AES128, F.5.1/F.5.2 CTR-AES128 */
    {"2b7e151628aed2a6abf7158809cf4f3c",
     "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf"
     "43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4",
     "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
     "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7",
     "874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff"
     "5ae4df3edbd5d35e5b4f09020db03eab 1e031dda2fbe03d1792170a0f3009cee"},
    /* F.1.3/F.1.4, F.2.3/F.2.4, F.5.3/F.5.4 (AES-192) */
    {"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
     "bd334f1d6e45f25ff712a214571fa5cc 974104846d0ad3ad7734ecb3ecee4eef"
     "ef7afd2270e2e60adce0ba2face6444e 9a4b41ba738d6c72fb16691603c18e0e",
     "4f021db243bc633d7178183a9fa071e8 b4d9ada9ad7dedf4e5e738763f69145a"
     "571b242012fb7ae07fa9baac3df102e0 08b0e27988598881d920a9e64f5615cd",
     "1abc932417521ca24f2b0459fe7e6e0b 090339ec0aa6faefd5ccc2c6f4ce8e94"
     "1e36b26bd1ebc670d1bd1d665620abf7 4f78a7f6d29809585a97daec58c6b050"},
    /* F.1.5/F.1.6, F.2.5/F.2.6, F.5.5/F.5.6 (AES-256) */
    {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     "f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870"
     "b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7",
     "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d"
     "39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b",
     "601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5"
     "2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6"},
};

/* IEEE 1619-2007 Annex B.1 (XTS-AES-128/256) and B.2 (ciphertext stealing).
   key = Key1 || Key2; tweak = the data unit sequence number, 16 bytes little
   endian; pt NULL = the 512-byte 00..ff 00..ff pattern. */
static const struct {
    const char *name, *key, *tweak, *pt, *ct;
} ieee1619[] = {
    {"vector 1", "00000000000000000000000000000000 00000000000000000000000000000000",
     "00000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"},
    {"vector 2", "11111111111111111111111111111111 22222222222222222222222222222222",
     "33333333330000000000000000000000",
     "4444444444444444444444444444444444444444444444444444444444444444",
     "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"},
    {"vector 3", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 22222222222222222222222222222222",
     "33333333330000000000000000000000",
     "4444444444444444444444444444444444444444444444444444444444444444",
     "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"},
    {"vector 4", "27182818284590452353602874713526 31415926535897932384626433832795",
     "00000000000000000000000000000000", NULL,
     "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c"
     "c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412"
     "328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
     "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265"
     "5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8"
     "a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
     "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c"
     "5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e"
     "94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
     "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3"
     "e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344"
     "b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
     "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752"
     "afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e"
     "bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
     "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568"},
    {"vector 10 (XTS-AES-256)",
     "2718281828459045235360287471352662497757247093699959574966967627"
     "3141592653589793238462643383279502884197169399375105820974944592",
     "ff000000000000000000000000000000", NULL,
     "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
     "5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
     "5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
     "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
     "2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
     "b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
     "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
     "583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
     "84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
     "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
     "9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
     "a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
     "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
     "645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
     "1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
     "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151"},
    {"vector 15 (17 bytes)", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f10",
     "6c1625db4671522d3d7599601de7ca09ed"},
    {"vector 16 (18 bytes)", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f1011",
     "d069444b7a7e0cab09e24447d24deb1fedbf"},
    {"vector 17 (19 bytes)", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f101112",
     "e5df1351c0544ba1350b3363cd8ef4beedbf9d"},
    {"vector 18 (20 bytes)", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0 bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f10111213",
     "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"},
};

static void kat_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_aes_key k;
    uint8_t key[64], pt[512], ct[512], out[512], exp[512], iv[16], iv_exp[16];

    /* FIPS-197 Appendix C */
    for (size_t t = 0; t < 3; t++) {
        size_t kl = hwc_hex(fips197[t].key, key, sizeof key);
        hwc_hex("00112233445566778899aabbccddeeff", pt, 16);
        hwc_hex(fips197[t].ct, exp, 16);
        setkey_ok(&k, key, kl);
        cr_assert_eq(hwc_aes_ecb_encrypt(&k, out, pt, 16), HWC_OK);
        cr_assert_arr_eq(out, exp, 16, "[%s] FIPS-197 C.%zu encrypt: %s", kernel, t + 1, hwc_tohex(out, 16));
        cr_assert_eq(hwc_aes_ecb_decrypt(&k, out, out, 16), HWC_OK);
        cr_assert_arr_eq(out, pt, 16, "[%s] FIPS-197 C.%zu decrypt", kernel, t + 1);
    }

    /* SP 800-38A F.1 (ECB), F.2 (CBC), F.5 (CTR), encrypt and decrypt */
    size_t n = hwc_hex(sp38a_pt, pt, sizeof pt);
    for (size_t t = 0; t < 3; t++) {
        size_t kl = hwc_hex(sp38a[t].key, key, sizeof key);
        setkey_ok(&k, key, kl);
        hwc_hex(sp38a[t].ecb, exp, sizeof exp);
        cr_assert_eq(hwc_aes_ecb_encrypt(&k, out, pt, n), HWC_OK);
        cr_assert_arr_eq(out, exp, n, "[%s] SP 800-38A F.1 ECB-AES%zu encrypt", kernel, kl * 8);
        cr_assert_eq(hwc_aes_ecb_decrypt(&k, out, exp, n), HWC_OK);
        cr_assert_arr_eq(out, pt, n, "[%s] F.1 ECB-AES%zu decrypt", kernel, kl * 8);

        hwc_hex(sp38a[t].cbc, exp, sizeof exp);
        hwc_hex(sp38a_iv, iv, 16);
        cr_assert_eq(hwc_aes_cbc_encrypt(&k, iv, out, pt, n), HWC_OK);
        cr_assert_arr_eq(out, exp, n, "[%s] F.2 CBC-AES%zu encrypt", kernel, kl * 8);
        cr_assert_arr_eq(iv, exp + n - 16, 16, "[%s] CBC iv = last ciphertext block", kernel);
        hwc_hex(sp38a_iv, iv, 16);
        cr_assert_eq(hwc_aes_cbc_decrypt(&k, iv, out, exp, n), HWC_OK);
        cr_assert_arr_eq(out, pt, n, "[%s] F.2 CBC-AES%zu decrypt", kernel, kl * 8);
        cr_assert_arr_eq(iv, exp + n - 16, 16, "[%s] CBC decrypt iv", kernel);

        hwc_hex(sp38a[t].ctr, exp, sizeof exp);
        hwc_hex(sp38a_ctr_after, iv_exp, 16);
        hwc_hex(sp38a_ctr, iv, 16);
        cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, out, pt, n), HWC_OK);
        cr_assert_arr_eq(out, exp, n, "[%s] F.5 CTR-AES%zu encrypt", kernel, kl * 8);
        cr_assert_arr_eq(iv, iv_exp, 16, "[%s] CTR counter advanced by 4", kernel);
        hwc_hex(sp38a_ctr, iv, 16);
        cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, out, exp, n), HWC_OK);
        cr_assert_arr_eq(out, pt, n, "[%s] F.5 CTR-AES%zu decrypt", kernel, kl * 8);
        /* A partial last block uses the first bytes of the next keystream block. */
        hwc_hex(sp38a_ctr, iv, 16);
        cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, out, pt, 37), HWC_OK);
        cr_assert_arr_eq(out, exp, 37, "[%s] F.5 CTR-AES%zu, 37 bytes", kernel, kl * 8);
        hwc_hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdff02", iv_exp, 16);
        cr_assert_arr_eq(iv, iv_exp, 16, "[%s] CTR counter advanced by ceil(37/16)", kernel);
    }

    /* IEEE 1619-2007 Annex B */
    for (size_t t = 0; t < sizeof ieee1619 / sizeof ieee1619[0]; t++) {
        hwc_aes_xts_key xk;
        uint8_t tw[16];
        size_t kl = hwc_hex(ieee1619[t].key, key, sizeof key);
        hwc_hex(ieee1619[t].tweak, tw, 16);
        size_t len;
        if (ieee1619[t].pt) {
            len = hwc_hex(ieee1619[t].pt, pt, sizeof pt);
        } else {
            len = 512;
            pattern(pt, len);
        }
        cr_assert_eq(hwc_hex(ieee1619[t].ct, exp, sizeof exp), len);
        if (memcmp(key, key + kl / 2, kl / 2) == 0) {
            /* Vector 1 has Key1 == Key2, which xts_setkey refuses (see the
               error test); build the key from its halves to run it. */
            cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, kl), HWC_ERR_BAD_ARGUMENT);
            setkey_ok(&xk.data, key, kl / 2);
            setkey_ok(&xk.tweak, key + kl / 2, kl / 2);
        } else {
            cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, kl), HWC_OK, "%s", ieee1619[t].name);
        }
        cr_assert_eq(hwc_aes_xts_encrypt(&xk, tw, out, pt, len), HWC_OK);
        cr_assert_arr_eq(out, exp, len, "[%s] IEEE 1619 %s encrypt: %s", kernel, ieee1619[t].name,
                         hwc_tohex(out, len));
        cr_assert_eq(hwc_aes_xts_decrypt(&xk, tw, out, exp, len), HWC_OK);
        cr_assert_arr_eq(out, pt, len, "[%s] IEEE 1619 %s decrypt", kernel, ieee1619[t].name);
        memcpy(ct, pt, len);   /* in place */
        cr_assert_eq(hwc_aes_xts_encrypt(&xk, tw, ct, ct, len), HWC_OK);
        cr_assert_arr_eq(ct, exp, len, "[%s] %s in place", kernel, ieee1619[t].name);
        cr_assert_eq(hwc_aes_xts_decrypt(&xk, tw, ct, ct, len), HWC_OK);
        cr_assert_arr_eq(ct, pt, len, "[%s] %s decrypt in place", kernel, ieee1619[t].name);
    }
}

Test(aes, known_answers) {
    hwc_test_each_kernel("aes", kat_check, NULL);
}

/* ---- every kernel against generic (and itself) on pseudo-random inputs ------- */

#define BIG_LEN (65536 + 48 + 7)   /* not a multiple of 8 blocks; + 7 for CTR/XTS */

typedef struct {
    uint8_t *in, *a, *b, *c;
} bufs;

static void agree_check(const char *kernel, void *arg) {
    bufs *B = arg;
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0xAE5);
    int quick = hwc_test_quick();
    static const size_t kls[3] = {16, 24, 32};
    for (int ki = 0; ki < 3; ki++) {
        size_t kl = kls[ki];
        uint8_t key[64];
        hwc_aes_key kk, kg;
        hwc_aes_xts_key xk, xg;
        hwc_rng_fill(&r, key, sizeof key);
        setkey_pair(kernel, key, kl, &kk, &kg);
        xts_setkey_pair(kernel, key, 2 * kl == 48 ? 64 : 2 * kl, &xk, &xg);   /* XTS: 32, 64 */

        size_t lens[1100], nl = 0;
        for (size_t l = 0; l <= 1024; l += quick ? 7 : 1) lens[nl++] = l;
        /* 3 and 5 whole zmm batches (512 B) plus a tail: odd batch counts
           end the wide XTS loops on their second tweak set */
        lens[nl++] = 1536 + 7;
        lens[nl++] = 2560 + 16;
        /* zmm XTS steps the tweaks among the rounds from 128 to 511 blocks
           (impl/x86/aes_x86_xts.h, HWC_XTS_HELD_MANY): both ends */
        lens[nl++] = 2048;
        lens[nl++] = 8192 - 1;
        /* zmm XTS from 512 blocks overlaps batches: exactly 16 batches,
           17 with a 16-byte tail, 18 with a partial block */
        lens[nl++] = 8192;
        lens[nl++] = 8192 + 512 + 16;
        lens[nl++] = 8192 + 1024 + 5;
        lens[nl++] = BIG_LEN;
        for (size_t li = 0; li < nl; li++) {
            size_t len = lens[li], len16 = len & ~(size_t)15;
            uint8_t iv0[16], ivk[16], ivg[16];
            hwc_rng_fill(&r, B->in, len);
            hwc_rng_fill(&r, iv0, 16);

            /* ECB / CBC on whole blocks */
            if (len16 == len || li % 16 == 0) {
                cr_assert_eq(hwc_aes_ecb_encrypt(&kk, B->a, B->in, len16), HWC_OK);
                cr_assert_eq(hwc_aes_ecb_encrypt(&kg, B->b, B->in, len16), HWC_OK);
                cr_assert_arr_eq(B->a, B->b, len16, "[%s] ECB-%zu enc len %zu " SEED_FMT, kernel, kl * 8,
                                 len16, SEED);
                cr_assert_eq(hwc_aes_ecb_decrypt(&kk, B->c, B->a, len16), HWC_OK);
                cr_assert_arr_eq(B->c, B->in, len16, "[%s] ECB-%zu dec(enc) len %zu " SEED_FMT, kernel,
                                 kl * 8, len16, SEED);
                memcpy(ivk, iv0, 16);
                memcpy(ivg, iv0, 16);
                cr_assert_eq(hwc_aes_cbc_encrypt(&kk, ivk, B->a, B->in, len16), HWC_OK);
                cr_assert_eq(hwc_aes_cbc_encrypt(&kg, ivg, B->b, B->in, len16), HWC_OK);
                cr_assert_arr_eq(B->a, B->b, len16, "[%s] CBC-%zu enc len %zu " SEED_FMT, kernel, kl * 8,
                                 len16, SEED);
                cr_assert_arr_eq(ivk, ivg, 16, "[%s] CBC iv out len %zu " SEED_FMT, kernel, len16, SEED);
                memcpy(ivk, iv0, 16);
                memcpy(ivg, iv0, 16);
                cr_assert_eq(hwc_aes_cbc_decrypt(&kk, ivk, B->c, B->a, len16), HWC_OK);
                cr_assert_eq(hwc_aes_cbc_decrypt(&kg, ivg, B->b, B->a, len16), HWC_OK);
                cr_assert_arr_eq(B->c, B->in, len16, "[%s] CBC-%zu dec(enc) len %zu " SEED_FMT, kernel,
                                 kl * 8, len16, SEED);
                cr_assert_arr_eq(B->b, B->in, len16, "[generic] CBC dec len %zu " SEED_FMT, len16, SEED);
                cr_assert_arr_eq(ivk, ivg, 16, "[%s] CBC dec iv " SEED_FMT, kernel, SEED);
            }

            /* CTR, every length, random counter (sometimes near a carry) */
            if (li % 5 == 0) memset(iv0 + 8 + (li % 3), 0xff, 8 - (li % 3));
            memcpy(ivk, iv0, 16);
            memcpy(ivg, iv0, 16);
            cr_assert_eq(hwc_aes_ctr_crypt(&kk, ivk, B->a, B->in, len), HWC_OK);
            cr_assert_eq(hwc_aes_ctr_crypt(&kg, ivg, B->b, B->in, len), HWC_OK);
            cr_assert_arr_eq(B->a, B->b, len, "[%s] CTR-%zu len %zu " SEED_FMT, kernel, kl * 8, len, SEED);
            cr_assert_arr_eq(ivk, ivg, 16, "[%s] CTR counter len %zu " SEED_FMT, kernel, len, SEED);
            memcpy(ivk, iv0, 16);
            cr_assert_eq(hwc_aes_ctr_crypt(&kk, ivk, B->c, B->a, len), HWC_OK);
            cr_assert_arr_eq(B->c, B->in, len, "[%s] CTR-%zu twice len %zu " SEED_FMT, kernel, kl * 8, len,
                             SEED);

            /* XTS, 16 <= len */
            if (len >= 16) {
                cr_assert_eq(hwc_aes_xts_encrypt(&xk, iv0, B->a, B->in, len), HWC_OK);
                cr_assert_eq(hwc_aes_xts_encrypt(&xg, iv0, B->b, B->in, len), HWC_OK);
                cr_assert_arr_eq(B->a, B->b, len, "[%s] XTS-%zu enc len %zu " SEED_FMT, kernel, kl * 8, len,
                                 SEED);
                cr_assert_eq(hwc_aes_xts_decrypt(&xk, iv0, B->c, B->a, len), HWC_OK);
                cr_assert_arr_eq(B->c, B->in, len, "[%s] XTS-%zu dec(enc) len %zu " SEED_FMT, kernel,
                                 kl * 8, len, SEED);
                cr_assert_eq(hwc_aes_xts_decrypt(&xg, iv0, B->b, B->a, len), HWC_OK);
                cr_assert_arr_eq(B->b, B->in, len, "[generic] XTS dec len %zu " SEED_FMT, len, SEED);
            }
        }
    }
}

Test(aes, kernels_agree_with_generic) {
    bufs B;
    B.in = malloc(BIG_LEN);
    B.a = malloc(BIG_LEN);
    B.b = malloc(BIG_LEN);
    B.c = malloc(BIG_LEN);
    cr_assert(B.in && B.a && B.b && B.c);
    hwc_test_each_kernel("aes", agree_check, &B);
    free(B.in);
    free(B.a);
    free(B.b);
    free(B.c);
}

/* ---- chained calls, in place, misaligned guarded buffers, counter wrap -------- */

static void chain_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0xC4A1);
    enum { LEN = 2048 + 16 * 5 };
    static uint8_t in[LEN + 7], one[LEN + 7], part[LEN + 7], tmp[LEN + 7];
    uint8_t key[64], iv0[16], iv1[16], iv2[16];
    for (int rep = 0; rep < 12; rep++) {
        size_t kl = 16 + 8 * (size_t)(rep % 3);
        hwc_aes_key k;
        hwc_rng_fill(&r, key, sizeof key);
        setkey_ok(&k, key, kl);
        hwc_rng_fill(&r, in, sizeof in);
        hwc_rng_fill(&r, iv0, 16);

        /* CBC encrypt / decrypt and CTR in random whole-block pieces == one call */
        for (int mode = 0; mode < 3; mode++) {
            size_t total = mode == 2 ? LEN + 7 : LEN;   /* CTR: the last piece may be partial */
            memcpy(iv1, iv0, 16);
            memcpy(iv2, iv0, 16);
            int rc = mode == 0 ? hwc_aes_cbc_encrypt(&k, iv1, one, in, total)
                   : mode == 1 ? hwc_aes_cbc_decrypt(&k, iv1, one, in, total)
                               : hwc_aes_ctr_crypt(&k, iv1, one, in, total);
            cr_assert_eq(rc, HWC_OK);
            size_t off = 0;
            while (off < total) {
                size_t left = total - off, n = 16 * hwc_rng_below(&r, 40);
                if (n > left) n = left;
                if (mode == 2 && n == (left & ~(size_t)15) && hwc_rng_below(&r, 2)) n = left;
                rc = mode == 0 ? hwc_aes_cbc_encrypt(&k, iv2, part + off, in + off, n)
                   : mode == 1 ? hwc_aes_cbc_decrypt(&k, iv2, part + off, in + off, n)
                               : hwc_aes_ctr_crypt(&k, iv2, part + off, in + off, n);
                cr_assert_eq(rc, HWC_OK);
                off += n;
            }
            cr_assert_arr_eq(part, one, total, "[%s] mode %d pieces != one call " SEED_FMT, kernel, mode,
                             SEED);
            cr_assert_arr_eq(iv1, iv2, 16, "[%s] mode %d chaining value " SEED_FMT, kernel, mode, SEED);

            /* in place == out of place */
            memcpy(tmp, in, total);
            memcpy(iv2, iv0, 16);
            rc = mode == 0 ? hwc_aes_cbc_encrypt(&k, iv2, tmp, tmp, total)
               : mode == 1 ? hwc_aes_cbc_decrypt(&k, iv2, tmp, tmp, total)
                           : hwc_aes_ctr_crypt(&k, iv2, tmp, tmp, total);
            cr_assert_eq(rc, HWC_OK);
            cr_assert_arr_eq(tmp, one, total, "[%s] mode %d in place " SEED_FMT, kernel, mode, SEED);
        }
        /* ECB in place */
        cr_assert_eq(hwc_aes_ecb_encrypt(&k, one, in, LEN), HWC_OK);
        memcpy(tmp, in, LEN);
        cr_assert_eq(hwc_aes_ecb_encrypt(&k, tmp, tmp, LEN), HWC_OK);
        cr_assert_arr_eq(tmp, one, LEN, "[%s] ECB in place " SEED_FMT, kernel, SEED);
        cr_assert_eq(hwc_aes_ecb_decrypt(&k, tmp, tmp, LEN), HWC_OK);
        cr_assert_arr_eq(tmp, in, LEN, "[%s] ECB decrypt in place " SEED_FMT, kernel, SEED);
    }

    /* Misaligned, guarded buffers: poison around in, out and iv intact. */
    hwc_aes_key k;
    hwc_aes_xts_key xk;
    hwc_rng_fill(&r, key, sizeof key);
    setkey_ok(&k, key, 32);
    cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, 64), HWC_OK);
    for (size_t mis = 1; mis < 16; mis++) {
        size_t len = 16 * (1 + hwc_rng_below(&r, 40)) + (mis & 1 ? mis : 0);
        size_t len16 = len & ~(size_t)15;
        hwc_guarded gi, go, gv;
        hwc_guarded_alloc(&gi, len, mis);
        hwc_guarded_alloc(&go, len, 16 - mis);
        hwc_guarded_alloc(&gv, 16, mis);
        hwc_rng_fill(&r, gi.p, len);
        hwc_rng_fill(&r, iv0, 16);
        for (int mode = 0; mode < 7; mode++) {
            memcpy(gv.p, iv0, 16);
            memcpy(iv1, iv0, 16);
            int rc = 0, rc2 = 0;
            size_t n = mode <= 2 ? len16 : len;
            switch (mode) {
            case 0:
                rc = hwc_aes_ecb_encrypt(&k, go.p, gi.p, n);
                rc2 = hwc_aes_ecb_encrypt(&k, one, gi.p, n);
                break;
            case 1:
                rc = hwc_aes_cbc_encrypt(&k, gv.p, go.p, gi.p, n);
                rc2 = hwc_aes_cbc_encrypt(&k, iv1, one, gi.p, n);
                break;
            case 2:
                rc = hwc_aes_cbc_decrypt(&k, gv.p, go.p, gi.p, n);
                rc2 = hwc_aes_cbc_decrypt(&k, iv1, one, gi.p, n);
                break;
            case 3:
                rc = hwc_aes_ctr_crypt(&k, gv.p, go.p, gi.p, n);
                rc2 = hwc_aes_ctr_crypt(&k, iv1, one, gi.p, n);
                break;
            case 4:
                rc = hwc_aes_xts_encrypt(&xk, gv.p, go.p, gi.p, n);
                rc2 = hwc_aes_xts_encrypt(&xk, iv1, one, gi.p, n);
                break;
            case 5:
                rc = hwc_aes_xts_decrypt(&xk, gv.p, go.p, gi.p, n);
                rc2 = hwc_aes_xts_decrypt(&xk, iv1, one, gi.p, n);
                break;
            case 6:   /* in place on the misaligned buffer */
                memcpy(tmp, gi.p, n);
                rc = hwc_aes_ctr_crypt(&k, gv.p, gi.p, gi.p, n);
                rc2 = hwc_aes_ctr_crypt(&k, iv1, one, tmp, n);
                break;
            }
            cr_assert_eq(rc, HWC_OK);
            cr_assert_eq(rc2, HWC_OK);
            const uint8_t *got = mode == 6 ? gi.p : go.p;
            cr_assert_arr_eq(got, one, n, "[%s] misaligned %zu mode %d len %zu " SEED_FMT, kernel, mis, mode,
                             n, SEED);
            cr_assert_arr_eq(gv.p, iv1, 16, "[%s] misaligned iv mode %d", kernel, mode);
            cr_assert(hwc_guarded_intact(&gi) && hwc_guarded_intact(&go) && hwc_guarded_intact(&gv),
                      "[%s] poison bytes overwritten: misalign %zu mode %d len %zu " SEED_FMT, kernel, mis,
                      mode, n, SEED);
            if (mode == 6) memcpy(gi.p, tmp, n);
        }
        hwc_guarded_free(&gi);
        hwc_guarded_free(&go);
        hwc_guarded_free(&gv);
    }

    /* CTR counter wrap across 2^64 (low half) and 2^128, against a slow
       reference: keystream block = ECB(counter), counter += 1 byte-wise. */
    static const char *starts[] = {"0123456789abcdef fffffffffffffffa", "ffffffffffffffff fffffffffffffff9",
                                   "ffffffffffffffff ffffffffffffffff", "00000000000000ff ffffffffffffffff"};
    for (size_t s = 0; s < 4; s++) {
        for (size_t len = 1; len <= 16 * 64 + 9; len += 37) {
            uint8_t ctr[16], ref[16], ks[16];
            hwc_hex(starts[s], ctr, 16);
            memcpy(ref, ctr, 16);
            hwc_rng_fill(&r, in, len);
            cr_assert_eq(hwc_aes_ctr_crypt(&k, ctr, one, in, len), HWC_OK);
            for (size_t off = 0; off < len; off += 16) {
                cr_assert_eq(hwc_aes_ecb_encrypt(&k, ks, ref, 16), HWC_OK);
                for (size_t i = 0; i < 16 && off + i < len; i++) tmp[off + i] = in[off + i] ^ ks[i];
                ctr_inc_ref(ref);
            }
            cr_assert_arr_eq(one, tmp, len, "[%s] CTR from %s, len %zu", kernel, starts[s], len);
            cr_assert_arr_eq(ctr, ref, 16, "[%s] CTR counter from %s, len %zu: %s", kernel, starts[s], len,
                             hwc_tohex(ctr, 16));
        }
    }
}

Test(aes, chaining_inplace_misaligned_wrap) {
    hwc_test_each_kernel("aes", chain_check, NULL);
}

/* ---- OpenSSL cross-check ------------------------------------------------------ */

#ifdef HWC_TEST_HAVE_OPENSSL
static const EVP_CIPHER *ossl_cipher(const char *mode, size_t kl) {
    char name[32];
    snprintf(name, sizeof name, "AES-%zu-%s", kl * 8, mode);
    const EVP_CIPHER *c = EVP_get_cipherbyname(name);
    cr_assert(c != NULL, "OpenSSL has no %s", name);
    return c;
}

static void ossl_crypt(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, uint8_t *out,
                       const uint8_t *in, size_t len) {
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int o1 = 0, o2 = 0;
    cr_assert(x != NULL);
    cr_assert_eq(EVP_CipherInit_ex(x, c, NULL, key, iv, enc), 1);
    EVP_CIPHER_CTX_set_padding(x, 0);
    cr_assert_eq(EVP_CipherUpdate(x, out, &o1, in, (int)len), 1);
    cr_assert_eq(EVP_CipherFinal_ex(x, out + o1, &o2), 1);
    cr_assert_eq((size_t)(o1 + o2), len);
    EVP_CIPHER_CTX_free(x);
}

static void openssl_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x055L);
    static uint8_t in[4096 + 16], a[4096 + 16], b[4096 + 16];
    static const size_t lens[] = {16, 17, 31, 32, 48, 100, 128, 129, 255, 256, 1000, 4096, 4096 + 15};
    for (size_t kl = 16; kl <= 32; kl += 8) {
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t len = lens[li], len16 = len & ~(size_t)15;
            uint8_t key[64], iv[16], iv2[16];
            hwc_aes_key k;
            hwc_rng_fill(&r, key, sizeof key);
            hwc_rng_fill(&r, iv, 16);
            hwc_rng_fill(&r, in, len);
            setkey_ok(&k, key, kl);

            cr_assert_eq(hwc_aes_ecb_encrypt(&k, a, in, len16), HWC_OK);
            ossl_crypt(ossl_cipher("ECB", kl), 1, key, NULL, b, in, len16);
            cr_assert_arr_eq(a, b, len16, "[%s] ECB-%zu vs OpenSSL len %zu " SEED_FMT, kernel, kl * 8, len16,
                             SEED);
            memcpy(iv2, iv, 16);
            cr_assert_eq(hwc_aes_cbc_encrypt(&k, iv2, a, in, len16), HWC_OK);
            ossl_crypt(ossl_cipher("CBC", kl), 1, key, iv, b, in, len16);
            cr_assert_arr_eq(a, b, len16, "[%s] CBC-%zu vs OpenSSL len %zu " SEED_FMT, kernel, kl * 8, len16,
                             SEED);
            memcpy(iv2, iv, 16);
            cr_assert_eq(hwc_aes_cbc_decrypt(&k, iv2, a, in, len16), HWC_OK);
            ossl_crypt(ossl_cipher("CBC", kl), 0, key, iv, b, in, len16);
            cr_assert_arr_eq(a, b, len16, "[%s] CBC-%zu decrypt vs OpenSSL " SEED_FMT, kernel, kl * 8, SEED);
            memcpy(iv2, iv, 16);
            cr_assert_eq(hwc_aes_ctr_crypt(&k, iv2, a, in, len), HWC_OK);
            ossl_crypt(ossl_cipher("CTR", kl), 1, key, iv, b, in, len);
            cr_assert_arr_eq(a, b, len, "[%s] CTR-%zu vs OpenSSL len %zu " SEED_FMT, kernel, kl * 8, len,
                             SEED);
            if (kl != 24) {   /* XTS-AES-128 and XTS-AES-256 */
                hwc_aes_xts_key xk;
                cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, 2 * kl), HWC_OK);
                cr_assert_eq(hwc_aes_xts_encrypt(&xk, iv, a, in, len), HWC_OK);
                ossl_crypt(ossl_cipher("XTS", kl), 1, key, iv, b, in, len);
                cr_assert_arr_eq(a, b, len, "[%s] XTS-%zu vs OpenSSL len %zu " SEED_FMT, kernel, kl * 8, len,
                                 SEED);
                cr_assert_eq(hwc_aes_xts_decrypt(&xk, iv, a, in, len), HWC_OK);
                ossl_crypt(ossl_cipher("XTS", kl), 0, key, iv, b, in, len);
                cr_assert_arr_eq(a, b, len, "[%s] XTS-%zu decrypt vs OpenSSL len %zu " SEED_FMT, kernel,
                                 kl * 8, len, SEED);
            }
        }
    }
}
#endif

Test(aes, agrees_with_openssl) {
#ifdef HWC_TEST_HAVE_OPENSSL
    hwc_test_each_kernel("aes", openssl_check, NULL);
#else
    fprintf(stderr, "[aes] OpenSSL cross-check skipped: built without OpenSSL\n");
    cr_log_warn("OpenSSL cross-check skipped: built without OpenSSL");
#endif
}

/* ---- error paths: status codes, nothing written ------------------------------- */

#define FILL 0x5A

#define untouched(p, n) hwc_all_bytes((p), (n), FILL)

static void errors_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[64], in[64], out[64], iv[16];
    hwc_aes_key k, unset, kw;
    hwc_aes_xts_key xk, xunset;
    for (int i = 0; i < 64; i++) key[i] = (uint8_t)(i * 7 + 1);
    memset(in, 0x11, sizeof in);
    setkey_ok(&k, key, 16);
    memset(&unset, 0, sizeof unset);
    memset(&xunset, 0, sizeof xunset);
    cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, 32), HWC_OK);

    /* setkey */
    static const size_t bad_kl[] = {0, 1, 15, 17, 23, 25, 31, 33, 64};
    memset(&kw, FILL, sizeof kw);
    cr_assert_eq(hwc_aes_setkey(NULL, key, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_setkey(&kw, NULL, 16), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_kl / sizeof bad_kl[0]; i++)
        cr_assert_eq(hwc_aes_setkey(&kw, key, bad_kl[i]), HWC_ERR_KEY_LENGTH, "[%s] key_len %zu", kernel,
                     bad_kl[i]);
    cr_assert_eq(hwc_aes_setkey(&kw, NULL, 0), HWC_ERR_KEY_LENGTH, "NULL key of length 0");
    cr_assert(untouched(&kw, sizeof kw), "[%s] setkey wrote on error", kernel);

    /* ECB */
    for (int dec = 0; dec < 2; dec++) {
        int (*f)(const hwc_aes_key *, uint8_t *, const uint8_t *, size_t) =
            dec ? hwc_aes_ecb_decrypt : hwc_aes_ecb_encrypt;
        memset(out, FILL, sizeof out);
        cr_assert_eq(f(NULL, out, in, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, NULL, in, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, out, NULL, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, out, in, 15), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&k, out, in, 17), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&k, out, in, 1), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&unset, out, in, 16), HWC_ERR_BAD_ARGUMENT);
        cr_assert(untouched(out, sizeof out), "[%s] ECB %d wrote on error", kernel, dec);
        cr_assert_eq(f(&k, NULL, NULL, 0), HWC_OK, "len 0 allows NULL");
        cr_assert_eq(f(&k, out, in, 0), HWC_OK);
        cr_assert(untouched(out, sizeof out), "[%s] ECB len 0 wrote", kernel);
    }

    /* CBC */
    for (int dec = 0; dec < 2; dec++) {
        int (*f)(const hwc_aes_key *, uint8_t *, uint8_t *, const uint8_t *, size_t) =
            dec ? hwc_aes_cbc_decrypt : hwc_aes_cbc_encrypt;
        memset(out, FILL, sizeof out);
        memset(iv, FILL, sizeof iv);
        cr_assert_eq(f(NULL, iv, out, in, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, NULL, out, in, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, iv, NULL, in, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, iv, out, NULL, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&k, iv, out, in, 15), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&k, iv, out, in, 33), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&unset, iv, out, in, 16), HWC_ERR_BAD_ARGUMENT);
        cr_assert_eq(f(&k, iv, NULL, NULL, 0), HWC_OK);
        cr_assert(untouched(out, sizeof out) && untouched(iv, 16), "[%s] CBC %d wrote on error", kernel, dec);
    }

    /* CTR */
    memset(out, FILL, sizeof out);
    memset(iv, FILL, sizeof iv);
    cr_assert_eq(hwc_aes_ctr_crypt(NULL, iv, out, in, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_ctr_crypt(&k, NULL, out, in, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, NULL, in, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, out, NULL, 5), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_ctr_crypt(&unset, iv, out, in, 5), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_aes_ctr_crypt(&k, iv, NULL, NULL, 0), HWC_OK);
    cr_assert(untouched(out, sizeof out) && untouched(iv, 16), "[%s] CTR wrote on error", kernel);

    /* XTS setkey */
    hwc_aes_xts_key xw;
    uint8_t same[64];
    memset(&xw, FILL, sizeof xw);
    static const size_t bad_xkl[] = {0, 16, 24, 31, 33, 48, 63, 65};
    cr_assert_eq(hwc_aes_xts_setkey(NULL, key, 32), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_xts_setkey(&xw, NULL, 32), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_xkl / sizeof bad_xkl[0]; i++)
        cr_assert_eq(hwc_aes_xts_setkey(&xw, key, bad_xkl[i]), HWC_ERR_KEY_LENGTH, "xts key_len %zu",
                     bad_xkl[i]);
    cr_assert_eq(hwc_aes_xts_setkey(&xw, NULL, 0), HWC_ERR_KEY_LENGTH, "NULL key of length 0");
    memcpy(same, key, 32);
    memcpy(same + 32, key, 32);
    cr_assert_eq(hwc_aes_xts_setkey(&xw, same, 64), HWC_ERR_BAD_ARGUMENT, "equal halves (256)");
    memcpy(same + 16, key, 16);
    cr_assert_eq(hwc_aes_xts_setkey(&xw, same, 32), HWC_ERR_BAD_ARGUMENT, "equal halves (128)");
    cr_assert(untouched(&xw, sizeof xw), "[%s] xts_setkey wrote on error", kernel);

    /* XTS encrypt/decrypt */
    size_t huge = ((size_t)1 << 24) + 1;
    uint8_t *hin = calloc(1, huge), *hout = malloc(huge);
    cr_assert(hin && hout);
    for (int dec = 0; dec < 2; dec++) {
        int (*f)(const hwc_aes_xts_key *, const uint8_t *, uint8_t *, const uint8_t *, size_t) =
            dec ? hwc_aes_xts_decrypt : hwc_aes_xts_encrypt;
        uint8_t tw[16] = {1};
        memset(out, FILL, sizeof out);
        cr_assert_eq(f(NULL, tw, out, in, 32), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&xk, NULL, out, in, 32), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&xk, tw, NULL, in, 32), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&xk, tw, out, NULL, 32), HWC_ERR_NULL_POINTER);
        cr_assert_eq(f(&xk, tw, out, in, 0), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&xk, tw, out, in, 15), HWC_ERR_DATA_LENGTH);
        /* NULL is allowed with length 0: the length is what is wrong */
        cr_assert_eq(f(&xk, tw, NULL, NULL, 0), HWC_ERR_DATA_LENGTH, "[%s] XTS %d NULL, len 0", kernel, dec);
        cr_assert_eq(f(&xk, tw, out, NULL, 0), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&xk, tw, NULL, in, 0), HWC_ERR_DATA_LENGTH);
        cr_assert_eq(f(&xunset, tw, out, in, 32), HWC_ERR_BAD_ARGUMENT);
        cr_assert(untouched(out, sizeof out), "[%s] XTS %d wrote on error", kernel, dec);
        memset(hout, FILL, 64);
        cr_assert_eq(f(&xk, tw, hout, hin, huge), HWC_ERR_DATA_LENGTH, "len 2^24 + 1");
        cr_assert(untouched(hout, 64));
        if (!hwc_test_quick()) {   /* the largest data unit is accepted (16 MiB) */
            cr_assert_eq(f(&xk, tw, hout, hin, huge - 1), HWC_OK, "len 2^24");
            cr_assert_eq((dec ? hwc_aes_xts_encrypt : hwc_aes_xts_decrypt)(&xk, tw, hout, hout, huge - 1),
                         HWC_OK);
            cr_assert(hout[0] == 0 && memcmp(hout, hout + 1, huge - 2) == 0, "[%s] 2^24 round trip", kernel);
        }
    }
    free(hin);
    free(hout);

    /* wipe: the key is gone and can no longer be used; NULL is nothing to wipe */
    hwc_aes_key_wipe(NULL);
    hwc_aes_key_wipe(&k);
    for (size_t i = 0; i < sizeof k.sched; i++) cr_assert_eq(k.sched[i], 0);
    cr_assert_eq(k.rounds, 0);
    memset(out, FILL, sizeof out);
    cr_assert_eq(hwc_aes_ecb_encrypt(&k, out, in, 16), HWC_ERR_BAD_ARGUMENT);
    cr_assert(untouched(out, sizeof out));
}

Test(aes, errors_leave_outputs_untouched) {
    hwc_test_each_kernel("aes", errors_check, NULL);
}

/* A key keeps the kernel it was made with after the active kernel changes. */
Test(aes, key_keeps_its_kernel) {
    const char *names[32];
    size_t n = hwc_test_usable_kernels("aes", names, 32);
    uint8_t key[16] = {0}, pt[16] = {0}, ct[16], exp[16];
    hwc_aes_key keys[32];
    hwc_hex("66e94bd4ef8a2c3b884cfa59ca342b2e", exp, 16);   /* AES-128, zero key, zero block */
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(hwc_kernel_select("aes", names[i]), HWC_OK);
        setkey_ok(&keys[i], key, 16);
    }
    cr_assert_eq(hwc_kernel_select("aes", NULL), HWC_OK);
    for (size_t i = 0; i < n; i++) {
        memset(ct, 0, 16);
        cr_assert_eq(hwc_aes_ecb_encrypt(&keys[i], ct, pt, 16), HWC_OK);
        cr_assert_arr_eq(ct, exp, 16, "key made with %s", names[i]);
    }
}

/* A GCM key (built inside the library and copied out) holds no stale
   memory: setkey gives the same bytes whatever the structure or the stack
   held before. */
static void setkey_fresh_check(const char *kernel, void *arg) {
    (void)arg;
    static const uint8_t key[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
                                    0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
                                    0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};
    for (size_t kl = 16; kl <= 32; kl += 8) {
        static hwc_aes_gcm_key ga, gb;
        uint8_t junk[4096];   /* stale stack below this frame: 0xa5 */
        memset(junk, 0xa5, sizeof junk);
        __asm__ __volatile__("" : : "r"(junk) : "memory");
        memset(&ga, 0x00, sizeof ga);
        memset(&gb, 0xa5, sizeof gb);
        cr_assert_eq(hwc_aes_gcm_setkey(&ga, key, kl), HWC_OK);
        cr_assert_eq(hwc_aes_gcm_setkey(&gb, key, kl), HWC_OK);
        cr_expect(memcmp(ga.aes.sched, gb.aes.sched, sizeof ga.aes.sched) == 0 &&
                      memcmp(ga.htab, gb.htab, sizeof ga.htab) == 0,
                  "[%s] AES-%zu GCM: key keeps stale bytes", kernel, 8 * kl);
    }
}

Test(aes, gcm_setkey_leaves_no_stale_bytes) {
    hwc_test_each_kernel("aes", setkey_fresh_check, NULL);
}
