/* AES-GCM (NIST SP 800-38D): the test cases of the GCM specification typed in,
 * every usable kernel against OpenSSL EVP (where installed) and against the
 * generic kernel on pseudo-random inputs (every key size, IV lengths 1..128,
 * dense AAD and data lengths, every tag length, streaming with random splits
 * and empty calls, in place, misaligned guarded buffers), every failed-tag
 * case, and every argument and order error with outputs untouched.
 * Built again as test_gcm_fallback (HWC_TEST_AES_FALLBACK): the keys under
 * test are bound to an ECB-only copy of each kernel's table
 * (aes_suite_keys.h), so all of the above runs on core/gcm.c's path for
 * kernels without GCM slots; the check at the end makes sure they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#ifdef HWC_TEST_AES_FALLBACK
#include "core/aes_internal.h"
#include "core/gcm_internal.h"
#include "internal/ghash_portable.h"
#endif
#ifdef HWC_TEST_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define SEED_FMT "seed %#llx"
#define SEED ((unsigned long long)hwc_test_seed())
#define FILL 0x5A
#define GCM_MAX_DATA (((uint64_t)1 << 36) - 32)

static const size_t tag_lens[] = {4, 8, 12, 13, 14, 15, 16};
#define N_TAG_LENS (sizeof tag_lens / sizeof tag_lens[0])

/* ---- the GCM specification's test cases ------------------------------------- */
/* D. McGrew, J. Viega, "The Galois/Counter Mode of Operation (GCM)", revised
   May 31 2005, Appendix B "AES Test Vectors", Test Cases 1-18 (the document
   NIST SP 800-38D cites for GCM test vectors). Cases 3-6, 9-12, 15-18 share
   the plaintext P; 4-6, 10-12, 16-18 use its first 60 bytes and the AAD A. */
static const char *spec_p =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
static const char *spec_a = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
static const char *spec_iv60 =
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";
#define K128 "feffe9928665731c6d6a8f9467308308"
#define K192 K128 "feffe9928665731c"
#define K256 K128 K128
#define Z128 "00000000000000000000000000000000"

static const struct spec_case {
    int n;
    const char *key, *iv;   /* iv NULL: the 60-byte spec_iv60 */
    int p_len, with_aad;    /* p_len bytes of spec_p (or of zeros for cases 2, 8, 14) */
    const char *c, *t;
} spec_cases[] = {
    {1, Z128, "000000000000000000000000", 0, 0, "", "58e2fccefa7e3061367f1d57a4e7455a"},
    {2, Z128, "000000000000000000000000", -16, 0, "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    {3, K128, "cafebabefacedbaddecaf888", 64, 0,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    {4, K128, "cafebabefacedbaddecaf888", 60, 1,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {5, K128, "cafebabefacedbad", 60, 1,
     "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
     "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
     "3612d2e79e3b0785561be14aaca2fccb"},
    {6, K128, NULL, 60, 1,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    {7, Z128 "0000000000000000", "000000000000000000000000", 0, 0, "",
     "cd33b28ac773f74ba00ed1f312572435"},
    {8, Z128 "0000000000000000", "000000000000000000000000", -16, 0,
     "98e7247c07f0fe411c267e4384b0f600", "2ff58d80033927ab8ef4d4587514f0fb"},
    {9, K192, "cafebabefacedbaddecaf888", 64, 0,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
     "9924a7c8587336bfb118024db8674a14"},
    {10, K192, "cafebabefacedbaddecaf888", 60, 1,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
     "2519498e80f1478f37ba55bd6d27618c"},
    {11, K192, "cafebabefacedbad", 60, 1,
     "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
     "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
     "65dcc57fcf623a24094fcca40d3533f8"},
    {12, K192, NULL, 60, 1,
     "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
     "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
     "dcf566ff291c25bbb8568fc3d376a6d9"},
    {13, Z128 Z128, "000000000000000000000000", 0, 0, "", "530f8afbc74536b9a963b4f1c4cb738b"},
    {14, Z128 Z128, "000000000000000000000000", -16, 0, "cea7403d4d606b6e074ec5d3baf39d18",
     "d0d1c8a799996bf0265b98b5d48ab919"},
    {15, K256, "cafebabefacedbaddecaf888", 64, 0,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    {16, K256, "cafebabefacedbaddecaf888", 60, 1,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
    {17, K256, "cafebabefacedbad", 60, 1,
     "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
     "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
     "3a337dbf46a792c45e454913fe2ea8f2"},
    {18, K256, NULL, 60, 1,
     "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
     "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
     "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"},
};

/* Streams one message through a context: AAD and data one byte per call. */
static void stream_bytewise(const hwc_aes_gcm_key *k, int dec, const uint8_t *iv, size_t iv_len,
                            const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                            size_t len, uint8_t *tag) {
    hwc_aes_gcm_ctx c;
    cr_assert_eq(hwc_aes_gcm_init(&c, k, iv, iv_len), HWC_OK);
    for (size_t i = 0; i < aad_len; i++) cr_assert_eq(hwc_aes_gcm_aad(&c, aad + i, 1), HWC_OK);
    for (size_t i = 0; i < len; i++)
        cr_assert_eq((dec ? hwc_aes_gcm_decrypt_update : hwc_aes_gcm_encrypt_update)(&c, out + i, in + i, 1),
                     HWC_OK);
    if (dec) cr_assert_eq(hwc_aes_gcm_decrypt_final(&c, tag, 16), HWC_OK);
    else cr_assert_eq(hwc_aes_gcm_encrypt_final(&c, tag, 16), HWC_OK);
}

static void spec_check(const char *kernel, void *arg) {
    (void)arg;
    for (size_t t = 0; t < sizeof spec_cases / sizeof spec_cases[0]; t++) {
        const struct spec_case *s = &spec_cases[t];
        uint8_t key[32], iv[60], p[64] = {0}, a[20], c[64], tag[16], out[64], got[16];
        size_t kl = hwc_hex(s->key, key, sizeof key);
        size_t ivl = hwc_hex(s->iv ? s->iv : spec_iv60, iv, sizeof iv);
        size_t len = (size_t)(s->p_len < 0 ? -s->p_len : s->p_len);
        if (s->p_len > 0) hwc_hex(spec_p, p, sizeof p);
        size_t al = s->with_aad ? hwc_hex(spec_a, a, sizeof a) : 0;
        cr_assert_eq(hwc_hex(s->c, c, sizeof c), len, "case %d: C length", s->n);
        hwc_hex(s->t, tag, sizeof tag);
        hwc_aes_gcm_key k;
        cr_assert_eq(SUITE_GCM_SETKEY(&k, key, kl), HWC_OK);
        cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, ivl, a, al, out, p, len, got, 16), HWC_OK);
        cr_assert_arr_eq(out, c, len, "[%s] McGrew-Viega test case %d: C %s", kernel, s->n, hwc_tohex(out, len));
        cr_assert_arr_eq(got, tag, 16, "[%s] McGrew-Viega test case %d: T %s", kernel, s->n, hwc_tohex(got, 16));
        memcpy(out, c, len);   /* decrypt in place */
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, ivl, a, al, out, out, len, tag, 16), HWC_OK,
                     "[%s] case %d decrypt", kernel, s->n);
        cr_assert_arr_eq(out, p, len, "[%s] case %d: P", kernel, s->n);
        stream_bytewise(&k, 0, iv, ivl, a, al, out, p, len, got);
        cr_assert_arr_eq(out, c, len, "[%s] case %d streamed: C", kernel, s->n);
        cr_assert_arr_eq(got, tag, 16, "[%s] case %d streamed: T", kernel, s->n);
        stream_bytewise(&k, 1, iv, ivl, a, al, out, c, len, tag);
        cr_assert_arr_eq(out, p, len, "[%s] case %d streamed: P", kernel, s->n);
    }
}

Test(gcm, specification_test_cases) {
    hwc_test_each_kernel("aes", spec_check, NULL);
}

/* ---- references: OpenSSL EVP, and the generic kernel ------------------------ */

#ifdef HWC_TEST_HAVE_OPENSSL
static void openssl_encrypt(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl,
                            const uint8_t *aad, size_t al, uint8_t *out, const uint8_t *in,
                            size_t len, uint8_t tag[16]) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ciph = kl == 16 ? EVP_aes_128_gcm() : kl == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
    int o = 0, ok = c != NULL;
    ok = ok && EVP_EncryptInit_ex(c, ciph, NULL, NULL, NULL);
    ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL);
    ok = ok && EVP_EncryptInit_ex(c, NULL, NULL, key, iv);
    ok = ok && (al == 0 || EVP_EncryptUpdate(c, NULL, &o, aad, (int)al));
    ok = ok && (len == 0 || EVP_EncryptUpdate(c, out, &o, in, (int)len));
    ok = ok && EVP_EncryptFinal_ex(c, out + len, &o);
    ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag);
    EVP_CIPHER_CTX_free(c);
    cr_assert(ok, "OpenSSL AES-GCM failed");
}
#endif

/* Reference ciphertext and full tag: OpenSSL where built with it, and the
   generic kernel always (the two must agree). */
static void reference(const char *kernel, const uint8_t *key, size_t kl, const uint8_t *iv,
                      size_t ivl, const uint8_t *aad, size_t al, uint8_t *out, const uint8_t *in,
                      size_t len, uint8_t tag[16]) {
    hwc_aes_gcm_key kg;
    cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
    cr_assert_eq(hwc_aes_gcm_setkey(&kg, key, kl), HWC_OK);
    cr_assert_eq(hwc_kernel_select("aes", kernel), HWC_OK);
    cr_assert_eq(hwc_aes_gcm_encrypt(&kg, iv, ivl, aad, al, out, in, len, tag, 16), HWC_OK);
#ifdef HWC_TEST_HAVE_OPENSSL
    uint8_t *o2 = malloc(len + 16), t2[16];
    cr_assert(o2);
    openssl_encrypt(key, kl, iv, ivl, aad, al, o2, in, len, t2);
    cr_assert(memcmp(o2, out, len) == 0 && memcmp(t2, tag, 16) == 0,
              "generic differs from OpenSSL: key %zu, iv %zu, aad %zu, len %zu, " SEED_FMT, kl, ivl, al, len,
              SEED);
    free(o2);
#endif
}

/* ---- random differential tests --------------------------------------------- */

static const size_t iv_lens[] = {1, 8, 12, 13, 16, 60, 128};
#define N_IV_LENS (sizeof iv_lens / sizeof iv_lens[0])

/* Calls f on [0, len) in random pieces, empty ones included. */
typedef int (*piece_fn)(hwc_aes_gcm_ctx *, uint8_t *, const uint8_t *, size_t);
static void random_pieces(hwc_rng *r, hwc_aes_gcm_ctx *c, piece_fn f, uint8_t *out, const uint8_t *in,
                          size_t len, const char *what) {
    size_t done = 0;
    while (done < len) {
        size_t n = hwc_rng_below(r, 4) == 0 ? 0 : hwc_rng_below(r, len - done < 100 ? len - done + 1 : 100);
        if (hwc_rng_below(r, 8) == 0) n = len - done;
        /* out is NULL for AAD pieces, in may be for empty input (NULL + 0 is undefined) */
        cr_assert_eq(f(c, out ? out + done : NULL, in ? in + done : NULL, n), HWC_OK, "%s piece %zu at %zu, " SEED_FMT,
                     what, n, done, SEED);
        done += n;
    }
}

static int aad_piece(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t n) {
    (void)out;
    return hwc_aes_gcm_aad(c, in, n);
}

/* One message through the kernel under test: one-shot (guarded, misaligned),
   in place, streamed in random pieces; all against the reference. */
static void message_check(const char *kernel, hwc_rng *r, const uint8_t *key, size_t kl, const uint8_t *iv,
                          size_t ivl, size_t al, size_t len) {
    uint8_t ref_tag[16], tag[16];
    size_t mis = hwc_rng_below(r, 64), tl = tag_lens[hwc_rng_below(r, N_TAG_LENS)];
    hwc_guarded ga, gp, gc, go, gt;
    hwc_guarded_alloc(&ga, al, mis);
    hwc_guarded_alloc(&gp, len, (mis + 3) % 64);
    hwc_guarded_alloc(&gc, len, (mis + 7) % 64);
    hwc_guarded_alloc(&go, len, (mis + 13) % 64);
    hwc_guarded_alloc(&gt, tl, (mis + 1) % 64);
    hwc_rng_fill(r, ga.p, al);
    hwc_rng_fill(r, gp.p, len);
    reference(kernel, key, kl, iv, ivl, ga.p, al, gc.p, gp.p, len, ref_tag);
#define CTX_FMT "[%s] key %zu, iv %zu, aad %zu, len %zu, tag %zu, misalign %zu, " SEED_FMT
#define CTX_ARGS kernel, kl, ivl, al, len, tl, mis, SEED
    hwc_aes_gcm_key k;
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, kl), HWC_OK);

    /* one-shot encrypt and decrypt, guarded buffers */
    cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, ivl, ga.p, al, go.p, gp.p, len, gt.p, tl), HWC_OK);
    cr_assert(memcmp(go.p, gc.p, len) == 0, "encrypt: C " CTX_FMT, CTX_ARGS);
    cr_assert(memcmp(gt.p, ref_tag, tl) == 0, "encrypt: T " CTX_FMT, CTX_ARGS);
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, ivl, ga.p, al, go.p, gc.p, len, gt.p, tl), HWC_OK,
                 "decrypt " CTX_FMT, CTX_ARGS);
    cr_assert(memcmp(go.p, gp.p, len) == 0, "decrypt: P " CTX_FMT, CTX_ARGS);
    cr_assert(hwc_guarded_intact(&ga) && hwc_guarded_intact(&gp) && hwc_guarded_intact(&gc) &&
                  hwc_guarded_intact(&go) && hwc_guarded_intact(&gt),
              "poison overwritten " CTX_FMT, CTX_ARGS);

    /* in place */
    memcpy(go.p, gp.p, len);
    cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, ivl, ga.p, al, go.p, go.p, len, tag, 16), HWC_OK);
    cr_assert(memcmp(go.p, gc.p, len) == 0 && memcmp(tag, ref_tag, 16) == 0, "in place enc " CTX_FMT, CTX_ARGS);
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, ivl, ga.p, al, go.p, go.p, len, tag, 16), HWC_OK);
    cr_assert(memcmp(go.p, gp.p, len) == 0, "in place dec " CTX_FMT, CTX_ARGS);

    /* streaming, random splits (empty calls included), both directions */
    for (int dec = 0; dec < 2; dec++) {
        hwc_aes_gcm_ctx c;
        cr_assert_eq(hwc_aes_gcm_init(&c, &k, iv, ivl), HWC_OK);
        random_pieces(r, &c, aad_piece, NULL, ga.p, al, "aad");
        random_pieces(r, &c, dec ? hwc_aes_gcm_decrypt_update : hwc_aes_gcm_encrypt_update, go.p,
                      dec ? gc.p : gp.p, len, dec ? "decrypt" : "encrypt");
        if (dec) {
            cr_assert_eq(hwc_aes_gcm_decrypt_final(&c, ref_tag, tl), HWC_OK, "stream dec " CTX_FMT, CTX_ARGS);
            cr_assert(memcmp(go.p, gp.p, len) == 0, "stream dec: P " CTX_FMT, CTX_ARGS);
        } else {
            cr_assert_eq(hwc_aes_gcm_encrypt_final(&c, tag, tl), HWC_OK);
            cr_assert(memcmp(go.p, gc.p, len) == 0 && memcmp(tag, ref_tag, tl) == 0,
                      "stream enc " CTX_FMT, CTX_ARGS);
        }
        cr_assert(hwc_all_bytes(&c, sizeof c, 0), "final did not wipe the context " CTX_FMT, CTX_ARGS);
    }
    cr_assert(hwc_guarded_intact(&go), "stream: poison overwritten " CTX_FMT, CTX_ARGS);
    hwc_guarded_free(&ga);
    hwc_guarded_free(&gp);
    hwc_guarded_free(&gc);
    hwc_guarded_free(&go);
    hwc_guarded_free(&gt);
}

static void one_message(const char *kernel, hwc_rng *r, size_t kl, size_t ivl, size_t al, size_t len) {
    uint8_t key[32], iv[128];
    hwc_rng_fill(r, key, kl);
    hwc_rng_fill(r, iv, ivl);
    message_check(kernel, r, key, kl, iv, ivl, al, len);
}

static void differential_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x67636d);
    int quick = hwc_test_quick();
    static const size_t kls[] = {16, 24, 32};
    for (size_t ki = 0; ki < 3; ki++) {
        size_t kl = kls[ki];
        for (size_t len = 0; len <= 600; len += quick ? 23 : 1)   /* dense data lengths */
            one_message(kernel, &r, kl, iv_lens[len % N_IV_LENS], hwc_rng_below(&r, 70), len);
        for (size_t al = 0; al <= 600; al += quick ? 23 : 1)      /* dense AAD lengths */
            one_message(kernel, &r, kl, iv_lens[al % N_IV_LENS], al, hwc_rng_below(&r, 70));
        for (size_t i = 0; i < N_IV_LENS; i++) {                   /* large, every IV length */
            one_message(kernel, &r, kl, iv_lens[i], 600 + hwc_rng_below(&r, 4000),
                        (quick ? 4096 : 65536) + hwc_rng_below(&r, 4096));
        }
    }
}

Test(gcm, kernels_agree_with_openssl_and_generic, .timeout = 900) {
#ifndef HWC_TEST_HAVE_OPENSSL
    fprintf(stderr, "[gcm] built without OpenSSL: every kernel against generic only\n");
#endif
    hwc_test_each_kernel("aes", differential_check, NULL);
}

/* ---- IVs other than 12 bytes with the counter near its byte wrap ------------- */
/* For IVs other than 96 bits J0 = GHASH_H(IV || 0 || [len(IV)]64) (SP 800-38D
   7.1 step 2): the counter is secret, and the kernels make counter blocks
   without looking at it. For every last byte of inc32(J0) from 256 - 40 to
   255 and 0..3, an IV giving it is searched (the context's counter after
   init, about 256 tries), and the message (about 3 zmm batches, so the byte
   wraps inside a batch at every offset) is checked against the references. */
static void hashed_iv_wrap_check(const char *kernel, void *arg) {
    (void)arg;
    static const size_t ivls[] = {16, 13, 60};
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x68697677);
    uint8_t key[32], iv[60];
    for (size_t li = 0; li < sizeof ivls / sizeof ivls[0]; li++) {
        const size_t kl = li == 0 ? 16 : 32, ivl = ivls[li];
        hwc_rng_fill(&r, key, kl);
        hwc_aes_gcm_key k;
        cr_assert_eq(SUITE_GCM_SETKEY(&k, key, kl), HWC_OK);
        for (unsigned want = 256 - 40; want < 256 + 4; want++) {
            hwc_aes_gcm_ctx c;
            int tries = 0;
            do {
                cr_assert(++tries < 100000, "[%s] no IV found for counter byte %u, " SEED_FMT, kernel, want, SEED);
                hwc_rng_fill(&r, iv, ivl);
                cr_assert_eq(hwc_aes_gcm_init(&c, &k, iv, ivl), HWC_OK);
            } while (c.ctr[15] != (uint8_t)want);
            message_check(kernel, &r, key, kl, iv, ivl, hwc_rng_below(&r, 20), 16 * 100 + hwc_rng_below(&r, 16));
        }
    }
}

Test(gcm, hashed_iv_counter_near_byte_wrap) {
    hwc_test_each_kernel("aes", hashed_iv_wrap_check, NULL);
}

/* ---- failed tags: nothing released, contexts wiped ---------------------------- */

static void failed_tag_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[32], iv[12], aad[21], p[77], c[77], out[77], tag[16], bad[16];
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x746167);
    hwc_rng_fill(&r, key, sizeof key);
    hwc_rng_fill(&r, iv, sizeof iv);
    hwc_rng_fill(&r, aad, sizeof aad);
    hwc_rng_fill(&r, p, sizeof p);
    hwc_aes_gcm_key k;
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, 32), HWC_OK);
    cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, 12, aad, sizeof aad, c, p, sizeof p, tag, 16), HWC_OK);
    for (size_t ti = 0; ti < N_TAG_LENS; ti++) {
        size_t tl = tag_lens[ti];
        /* the truncated tag (its first tl bytes) verifies */
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, tag, tl), HWC_OK);
        cr_assert_arr_eq(out, p, sizeof p);
        /* every byte of it flipped (one bit, then all bits) */
        for (size_t i = 0; i < tl; i++) {
            for (int f = 0; f < 2; f++) {
                memcpy(bad, tag, 16);
                bad[i] ^= f ? 0xff : (uint8_t)(1u << (i % 8));
                memset(out, FILL, sizeof out);
                cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, bad, tl),
                             HWC_ERR_AUTH_FAILED, "[%s] tag %zu byte %zu flipped", kernel, tl, i);
                cr_assert(hwc_all_bytes(out, sizeof out, 0), "[%s] plaintext released, tag %zu byte %zu",
                          kernel, tl, i);
                hwc_aes_gcm_ctx ctx;   /* streaming: final says no and wipes */
                cr_assert_eq(hwc_aes_gcm_init(&ctx, &k, iv, 12), HWC_OK);
                cr_assert_eq(hwc_aes_gcm_aad(&ctx, aad, sizeof aad), HWC_OK);
                cr_assert_eq(hwc_aes_gcm_decrypt_update(&ctx, out, c, sizeof c), HWC_OK);
                cr_assert_eq(hwc_aes_gcm_decrypt_final(&ctx, bad, tl), HWC_ERR_AUTH_FAILED);
                cr_assert(hwc_all_bytes(&ctx, sizeof ctx, 0), "[%s] context not wiped after AUTH_FAILED", kernel);
            }
        }
        /* a tag of another length from the same tag bytes: the bytes past tl
           matter only when they are compared */
        if (tl < 16) {
            memcpy(bad, tag, 16);
            bad[tl] ^= 1;
            cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, bad, tl), HWC_OK);
            cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, bad, 16),
                         HWC_ERR_AUTH_FAILED);
        }
    }
    /* ciphertext, AAD, IV or length changed: in place too, the buffer is zeroed */
    for (size_t i = 0; i < sizeof c; i += 5) {
        memcpy(out, c, sizeof c);
        out[i] ^= 0x80;
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, out, sizeof c, tag, 16),
                     HWC_ERR_AUTH_FAILED, "[%s] C byte %zu flipped", kernel, i);
        cr_assert(hwc_all_bytes(out, sizeof out, 0), "[%s] in-place plaintext released", kernel);
    }
    for (size_t i = 0; i < sizeof aad; i++) {
        aad[i] ^= 4;
        memset(out, FILL, sizeof out);
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, tag, 16),
                     HWC_ERR_AUTH_FAILED, "[%s] AAD byte %zu flipped", kernel, i);
        cr_assert(hwc_all_bytes(out, sizeof out, 0));
        aad[i] ^= 4;
    }
    iv[11] ^= 1;
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c, tag, 16), HWC_ERR_AUTH_FAILED);
    iv[11] ^= 1;
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 11, aad, sizeof aad, out, c, sizeof c, tag, 16), HWC_ERR_AUTH_FAILED);
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad - 1, out, c, sizeof c, tag, 16),
                 HWC_ERR_AUTH_FAILED, "AAD truncated");
    memset(out, FILL, sizeof out);
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, aad, sizeof aad, out, c, sizeof c - 1, tag, 16),
                 HWC_ERR_AUTH_FAILED, "ciphertext truncated");
    cr_assert(hwc_all_bytes(out, sizeof c - 1, 0) && out[sizeof c - 1] == FILL, "zeroed exactly len bytes");
    cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 12, c, sizeof aad, out, aad, 0, tag, 16), HWC_ERR_AUTH_FAILED,
                 "data moved into the AAD");
}

Test(gcm, failed_tags_release_nothing) {
    hwc_test_each_kernel("aes", failed_tag_check, NULL);
}

/* ---- argument and order errors: status codes, nothing written ----------------- */

#define untouched(p, n) hwc_all_bytes((p), (n), FILL)

typedef int (*update_fn)(hwc_aes_gcm_ctx *, uint8_t *, const uint8_t *, size_t);

/* Every refused streaming call on c leaves c and out as they were. */
#define REFUSED(call, want, what)                                                                  \
    do {                                                                                           \
        hwc_aes_gcm_ctx before_ = c;                                                               \
        memset(out, FILL, sizeof out);                                                             \
        cr_assert_eq((call), (want), "[%s] %s", kernel, what);                                     \
        cr_assert(memcmp(&before_, &c, sizeof c) == 0, "[%s] %s changed the context", kernel, what); \
        cr_assert(untouched(out, sizeof out), "[%s] %s wrote", kernel, what);                      \
    } while (0)

static void errors_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[32], iv[16] = {1, 2, 3}, in[64], out[64], tag[16];
    memset(key, 7, sizeof key);
    memset(in, 0x11, sizeof in);
    hwc_aes_gcm_key k, kw, unset;
    memset(&unset, 0, sizeof unset);
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, 16), HWC_OK);

    /* setkey */
    static const size_t bad_kl[] = {0, 1, 15, 17, 23, 25, 31, 33, 64};
    memset(&kw, FILL, sizeof kw);
    cr_assert_eq(hwc_aes_gcm_setkey(NULL, key, 16), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_gcm_setkey(&kw, NULL, 16), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_kl / sizeof bad_kl[0]; i++)
        cr_assert_eq(hwc_aes_gcm_setkey(&kw, key, bad_kl[i]), HWC_ERR_KEY_LENGTH);
    cr_assert(untouched(&kw, sizeof kw), "[%s] setkey wrote on error", kernel);

    /* one-shot, both directions */
    for (int dec = 0; dec < 2; dec++) {
#define ONESHOT(kk, v, vl, a, al, o, i, l, t, tl)                                                 \
    (dec ? hwc_aes_gcm_decrypt((kk), (v), (vl), (a), (al), (o), (i), (l), (t), (tl))               \
         : hwc_aes_gcm_encrypt((kk), (v), (vl), (a), (al), (o), (i), (l), (uint8_t *)(t), (tl)))
        memset(out, FILL, sizeof out);
        memset(tag, FILL, sizeof tag);
        cr_assert_eq(ONESHOT(NULL, iv, 12, in, 5, out, in, 20, tag, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, NULL, 12, in, 5, out, in, 20, tag, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, iv, 12, NULL, 5, out, in, 20, tag, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, iv, 12, in, 5, NULL, in, 20, tag, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, iv, 12, in, 5, out, NULL, 20, tag, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, iv, 12, in, 5, out, in, 20, NULL, 16), HWC_ERR_NULL_POINTER);
        cr_assert_eq(ONESHOT(&k, iv, 0, in, 5, out, in, 20, tag, 16), HWC_ERR_BAD_ARGUMENT, "iv_len 0");
        static const size_t bad_tl[] = {0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17, 32};
        for (size_t i = 0; i < sizeof bad_tl / sizeof bad_tl[0]; i++)
            cr_assert_eq(ONESHOT(&k, iv, 12, in, 5, out, in, 20, tag, bad_tl[i]), HWC_ERR_BAD_ARGUMENT,
                         "tag_len %zu", bad_tl[i]);
        cr_assert_eq(ONESHOT(&k, iv, 12, in, 5, out, in, (size_t)GCM_MAX_DATA + 1, tag, 16), HWC_ERR_DATA_LENGTH,
                     "len 2^36 - 31");
        cr_assert_eq(ONESHOT(&unset, iv, 12, in, 5, out, in, 20, tag, 16), HWC_ERR_BAD_ARGUMENT, "unset key");
        cr_assert(untouched(out, sizeof out) && untouched(tag, sizeof tag), "[%s] one-shot %d wrote on error",
                  kernel, dec);
        /* len 0 and aad_len 0 allow NULL buffers */
        cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, 12, NULL, 0, NULL, NULL, 0, tag, 16), HWC_OK);
        cr_assert_eq(ONESHOT(&k, iv, 12, NULL, 0, NULL, NULL, 0, tag, 16), HWC_OK, "empty message, NULL buffers");
#undef ONESHOT
    }

    /* streaming: init */
    hwc_aes_gcm_ctx c;
    memset(&c, FILL, sizeof c);
    REFUSED(hwc_aes_gcm_init(NULL, &k, iv, 12), HWC_ERR_NULL_POINTER, "init NULL ctx");
    REFUSED(hwc_aes_gcm_init(&c, NULL, iv, 12), HWC_ERR_NULL_POINTER, "init NULL key");
    REFUSED(hwc_aes_gcm_init(&c, &k, NULL, 12), HWC_ERR_NULL_POINTER, "init NULL iv");
    REFUSED(hwc_aes_gcm_init(&c, &k, iv, 0), HWC_ERR_BAD_ARGUMENT, "init iv_len 0");
    REFUSED(hwc_aes_gcm_init(&c, &unset, iv, 12), HWC_ERR_BAD_ARGUMENT, "init unset key");

    /* never initialised (garbage or zeroed context) */
    for (int z = 0; z < 2; z++) {
        memset(&c, z ? 0 : FILL, sizeof c);
        REFUSED(hwc_aes_gcm_aad(&c, in, 3), HWC_ERR_BAD_ARGUMENT, "aad before init");
        REFUSED(hwc_aes_gcm_encrypt_update(&c, out, in, 3), HWC_ERR_BAD_ARGUMENT, "encrypt before init");
        REFUSED(hwc_aes_gcm_decrypt_update(&c, out, in, 3), HWC_ERR_BAD_ARGUMENT, "decrypt before init");
        REFUSED(hwc_aes_gcm_encrypt_final(&c, out, 16), HWC_ERR_BAD_ARGUMENT, "encrypt_final before init");
        REFUSED(hwc_aes_gcm_decrypt_final(&c, in, 16), HWC_ERR_BAD_ARGUMENT, "decrypt_final before init");
    }
    REFUSED(hwc_aes_gcm_aad(NULL, in, 3), HWC_ERR_NULL_POINTER, "aad NULL ctx");
    REFUSED(hwc_aes_gcm_encrypt_update(NULL, out, in, 3), HWC_ERR_NULL_POINTER, "update NULL ctx");
    REFUSED(hwc_aes_gcm_decrypt_final(NULL, in, 16), HWC_ERR_NULL_POINTER, "final NULL ctx");

    for (int dec = 0; dec < 2; dec++) {
        update_fn upd = dec ? hwc_aes_gcm_decrypt_update : hwc_aes_gcm_encrypt_update;
        update_fn other = dec ? hwc_aes_gcm_encrypt_update : hwc_aes_gcm_decrypt_update;
        cr_assert_eq(hwc_aes_gcm_init(&c, &k, iv, 12), HWC_OK);
        REFUSED(hwc_aes_gcm_aad(&c, NULL, 3), HWC_ERR_NULL_POINTER, "aad NULL");
        cr_assert_eq(hwc_aes_gcm_aad(&c, in, 5), HWC_OK);
        REFUSED(upd(&c, NULL, in, 3), HWC_ERR_NULL_POINTER, "update NULL out");
        REFUSED(upd(&c, out, NULL, 3), HWC_ERR_NULL_POINTER, "update NULL in");
        /* final refused for a bad argument changes nothing, before and after data */
        for (int phase = 0; phase < 2; phase++) {
            if (phase) cr_assert_eq(upd(&c, out, in, 7), HWC_OK);
            if (dec) {
                REFUSED(hwc_aes_gcm_decrypt_final(&c, NULL, 16), HWC_ERR_NULL_POINTER, "final NULL tag");
                REFUSED(hwc_aes_gcm_decrypt_final(&c, in, 3), HWC_ERR_BAD_ARGUMENT, "final tag_len 3");
                REFUSED(hwc_aes_gcm_decrypt_final(&c, in, 17), HWC_ERR_BAD_ARGUMENT, "final tag_len 17");
            } else {
                REFUSED(hwc_aes_gcm_encrypt_final(&c, NULL, 16), HWC_ERR_NULL_POINTER, "final NULL tag");
                REFUSED(hwc_aes_gcm_encrypt_final(&c, out, 11), HWC_ERR_BAD_ARGUMENT, "final tag_len 11");
                REFUSED(hwc_aes_gcm_encrypt_final(&c, out, 0), HWC_ERR_BAD_ARGUMENT, "final tag_len 0");
            }
        }
        /* order: AAD after data, the other direction's update and final */
        REFUSED(hwc_aes_gcm_aad(&c, in, 1), HWC_ERR_BAD_ARGUMENT, "aad after data");
        REFUSED(hwc_aes_gcm_aad(&c, in, 0), HWC_ERR_BAD_ARGUMENT, "empty aad after data");
        REFUSED(other(&c, out, in, 3), HWC_ERR_BAD_ARGUMENT, "mixed directions");
        if (dec) REFUSED(hwc_aes_gcm_encrypt_final(&c, out, 16), HWC_ERR_BAD_ARGUMENT, "encrypt_final after decrypt");
        else REFUSED(hwc_aes_gcm_decrypt_final(&c, in, 16), HWC_ERR_BAD_ARGUMENT, "decrypt_final after encrypt");
        /* the 2^36 - 32 limit on the sum of the updates */
        hwc_aes_gcm_ctx saved = c;
        c.data_len = GCM_MAX_DATA - 10;   /* as if 2^36 - 42 bytes had been processed */
        REFUSED(upd(&c, out, in, 11), HWC_ERR_DATA_LENGTH, "sum of updates over 2^36 - 32");
        REFUSED(upd(&c, out, in, SIZE_MAX), HWC_ERR_DATA_LENGTH, "len SIZE_MAX");
        cr_assert_eq(upd(&c, out, in, 10), HWC_OK, "up to the limit");
        REFUSED(upd(&c, out, in, 1), HWC_ERR_DATA_LENGTH, "one byte past the limit");
        cr_assert_eq(upd(&c, out, in, 0), HWC_OK);
        c = saved;
        /* the context still works after all the refusals, then is finished */
        cr_assert_eq(upd(&c, out, in, 0), HWC_OK);
        if (dec) cr_assert_eq(hwc_aes_gcm_decrypt_final(&c, in, 16), HWC_ERR_AUTH_FAILED);
        else cr_assert_eq(hwc_aes_gcm_encrypt_final(&c, tag, 16), HWC_OK);
        cr_assert(hwc_all_bytes(&c, sizeof c, 0), "[%s] final did not wipe", kernel);
        REFUSED(hwc_aes_gcm_aad(&c, in, 1), HWC_ERR_BAD_ARGUMENT, "aad after final");
        REFUSED(upd(&c, out, in, 1), HWC_ERR_BAD_ARGUMENT, "update after final");
        REFUSED(hwc_aes_gcm_encrypt_final(&c, out, 16), HWC_ERR_BAD_ARGUMENT, "encrypt_final after final");
        REFUSED(hwc_aes_gcm_decrypt_final(&c, in, 16), HWC_ERR_BAD_ARGUMENT, "decrypt_final after final");
    }
    /* the AAD limit (2^64 - 1 bits) on the sum of the aad calls */
    cr_assert_eq(hwc_aes_gcm_init(&c, &k, iv, 12), HWC_OK);
    c.aad_len = (((uint64_t)1 << 61) - 1) - 2;
    REFUSED(hwc_aes_gcm_aad(&c, in, 3), HWC_ERR_DATA_LENGTH, "AAD over 2^64 - 1 bits");
    hwc_wipe(&c, sizeof c);
}

Test(gcm, errors_leave_outputs_untouched) {
    hwc_test_each_kernel("aes", errors_check, NULL);
}

/* A key keeps the kernel it was set with, whatever is selected afterwards. */
Test(gcm, key_keeps_its_kernel) {
    const char *names[16];
    size_t n = hwc_test_usable_kernels("aes", names, 16);
    uint8_t key[16] = {9}, iv[12] = {1}, p[100], c0[100], c1[100], t0[16], t1[16];
    memset(p, 0x3c, sizeof p);
    for (size_t i = 0; i < n; i++) {
        hwc_aes_gcm_key k;
        cr_assert_eq(hwc_kernel_select("aes", names[i]), HWC_OK);
        cr_assert_eq(SUITE_GCM_SETKEY(&k, key, 16), HWC_OK);
        cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, 12, NULL, 0, c0, p, sizeof p, t0, 16), HWC_OK);
        for (size_t j = 0; j < n; j++) {
            cr_assert_eq(hwc_kernel_select("aes", names[j]), HWC_OK);
            cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, 12, NULL, 0, c1, p, sizeof p, t1, 16), HWC_OK);
            cr_assert(memcmp(c0, c1, sizeof c0) == 0 && memcmp(t0, t1, 16) == 0,
                      "key set on %s, used with %s selected", names[i], names[j]);
        }
    }
    cr_assert_eq(hwc_kernel_select("aes", NULL), HWC_OK);
}

/* ---- the 32-bit counter wraps inside its word (SP 800-38D 6.2 inc32) --------- */
/* A 12-byte IV starts the counter at 2, so the wrap is reached by setting the
   context's counter word near 2^32 after init: the keystream must be E_K of
   blocks whose first 96 bits never change, on every kernel and split. */
static void wrap_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[16], iv[12], p[300], c[300], exp[300], ctrs[304], tag[16], tag2[16];
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x77726170);
    hwc_rng_fill(&r, key, sizeof key);
    hwc_rng_fill(&r, iv, sizeof iv);
    hwc_rng_fill(&r, p, sizeof p);
    hwc_aes_gcm_key k;
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, 16), HWC_OK);
    for (size_t i = 0; i < sizeof ctrs / 16; i++) {   /* ... fffffffb, ..., ffffffff, 0, 1, ... */
        uint32_t v = 0xfffffffbu + (uint32_t)i;
        memcpy(ctrs + 16 * i, iv, 12);
        for (int b = 0; b < 4; b++) ctrs[16 * i + 12 + b] = (uint8_t)(v >> (24 - 8 * b));
    }
    cr_assert_eq(hwc_aes_ecb_encrypt(&k.aes, ctrs, ctrs, sizeof ctrs), HWC_OK);
    for (size_t i = 0; i < sizeof p; i++) exp[i] = p[i] ^ ctrs[i];
    for (int split = 0; split < 3; split++) {
        for (int dec = 0; dec < 2; dec++) {
            hwc_aes_gcm_ctx ctx;
            cr_assert_eq(hwc_aes_gcm_init(&ctx, &k, iv, 12), HWC_OK);
            memset(ctx.ctr + 12, 0xff, 4);
            ctx.ctr[15] = 0xfb;
            update_fn upd = dec ? hwc_aes_gcm_decrypt_update : hwc_aes_gcm_encrypt_update;
            size_t cut = split == 0 ? 0 : split == 1 ? 37 : 160;
            cr_assert_eq(upd(&ctx, c, dec ? exp : p, cut), HWC_OK);
            cr_assert_eq(upd(&ctx, c + cut, (dec ? exp : p) + cut, sizeof p - cut), HWC_OK);
            cr_assert_arr_eq(c, dec ? p : exp, sizeof p, "[%s] counter wrap, split %zu, dec %d", kernel, cut, dec);
            if (dec) {
                cr_assert_eq(hwc_aes_gcm_decrypt_final(&ctx, tag, 16), HWC_OK, "[%s] wrap: tag", kernel);
            } else {
                cr_assert_eq(hwc_aes_gcm_encrypt_final(&ctx, split ? tag2 : tag, 16), HWC_OK);
                if (split) cr_assert_arr_eq(tag, tag2, 16, "[%s] wrap: tag depends on the split", kernel);
            }
        }
    }
}

Test(gcm, counter_wraps_in_32_bits) {
    hwc_test_each_kernel("aes", wrap_check, NULL);
}

#ifdef HWC_TEST_AES_FALLBACK
/* ---- the fallback build: keys really on ECB-only tables ----------------------- */
/* The suite's keys (SUITE_GCM_SETKEY) are bound to a table equal to the
   selected kernel's setkey and ECB with every other slot NULL, their hash
   key table is the portable GHASH's for H = E_K(0^128), and the binding hook
   refuses what hwc_aes_gcm_setkey refuses, writing nothing. */
static void gcm_bound_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[32], blocks[16 * 5], h[16], x1[16] = {0}, x2[16] = {0};
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed() ^ 0x65636231);
    hwc_rng_fill(&r, key, sizeof key);
    hwc_rng_fill(&r, blocks, sizeof blocks);
    static const size_t kls[] = {16, 24, 32};
    for (size_t i = 0; i < 3; i++) {
        hwc_aes_gcm_key k, full;
        cr_assert_eq(SUITE_GCM_SETKEY(&k, key, kls[i]), HWC_OK);
        cr_assert_eq(hwc_aes_gcm_setkey(&full, key, kls[i]), HWC_OK);
        const hwc_aes_impl *t = hwc_aes_key_impl(&k.aes), *ft = hwc_aes_key_impl(&full.aes);
        cr_assert(t != NULL && ft != NULL && t != ft, "[%s] key %zu: not rebound", kernel, kls[i]);
        hwc_aes_impl want;
        memset(&want, 0, sizeof want);
        want.setkey = ft->setkey;
        want.ecb_encrypt = ft->ecb_encrypt;
        want.ecb_decrypt = ft->ecb_decrypt;
        cr_assert(memcmp(t, &want, sizeof want) == 0, "[%s] key %zu: not an ECB-only copy of the kernel's table",
                  kernel, kls[i]);
        unsigned char htab[HWC_GCM_HTAB_BYTES];
        cr_assert_eq(hwc_aes_ecb_encrypt(&k.aes, h, (const uint8_t[16]){0}, 16), HWC_OK);
        hwc_ghash_portable_init(htab, h);
        hwc_ghash_portable(htab, x1, blocks, 5);
        hwc_ghash_portable(k.htab, x2, blocks, 5);
        cr_assert_arr_eq(x1, x2, 16, "[%s] key %zu: hash key table is not the portable GHASH's", kernel, kls[i]);
    }

    hwc_aes_gcm_key k, w;
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, 16), HWC_OK);
    const hwc_aes_impl *t = hwc_aes_key_impl(&k.aes);
    memset(&w, FILL, sizeof w);
    cr_assert_eq(hwc_aes_gcm_setkey_with(NULL, key, 16, t), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_gcm_setkey_with(&w, NULL, 16, t), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_gcm_setkey_with(&w, key, 20, t), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_aes_gcm_setkey_with(&w, NULL, 0, t), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_aes_gcm_setkey_with(&w, key, 16, NULL), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert(untouched(&w, sizeof w), "[%s] gcm_setkey_with wrote on error", kernel);
}

Test(ecb_only, gcm_keys_are_bound_to_ecb_only_tables) {
    hwc_test_each_kernel("aes", gcm_bound_check, NULL);
}
#endif
