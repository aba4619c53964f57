/* The hwcrypt provider through EVP, one test per algorithm class: random
 * lengths and random update splits against OpenSSL's default provider (and
 * gost-engine's gostprov for Streebog when installed) and against the
 * library; known answers; error paths. The provider reads HWCRYPT_KERNEL
 * when it loads: provider/tests/each_kernel.sh runs this program once per
 * kernel. Seed: HWC_TEST_SEED (printed on failure). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/provider.h>
#include "hwcrypt/hwcrypt.h"
#include "tests/common.h"

static OSSL_LIB_CTX *hw;       /* hwcrypt only */
static OSSL_LIB_CTX *hwdef;    /* hwcrypt + default (delegation, compositions) */
static OSSL_LIB_CTX *gost;     /* gostprov + default, or NULL when not installed */
static OSSL_PROVIDER *loaded[8];
static size_t nloaded;

static OSSL_LIB_CTX *ctx_with(const char *const *names) {
    OSSL_LIB_CTX *c = OSSL_LIB_CTX_new();
    cr_assert(c);
    cr_assert(OSSL_PROVIDER_set_default_search_path(c, HWC_PROV_DIR));
    for (; *names; names++) {
        if (!strcmp(*names, "gostprov")) {
            /* from OpenSSL's own modules directory */
            OSSL_PROVIDER_set_default_search_path(c, NULL);
            if (!(loaded[nloaded] = OSSL_PROVIDER_load(c, "gostprov"))) {
                ERR_clear_error();
                OSSL_LIB_CTX_free(c);
                return NULL;
            }
            nloaded++;
            continue;
        }
        loaded[nloaded] = OSSL_PROVIDER_load(c, *names);
        cr_assert(loaded[nloaded++], "cannot load provider %s from %s", *names, HWC_PROV_DIR);
    }
    return c;
}

static void setup(void) {
    hw = ctx_with((const char *const[]){"hwcrypt", NULL});
    hwdef = ctx_with((const char *const[]){"hwcrypt", "default", NULL});
    gost = ctx_with((const char *const[]){"gostprov", "default", NULL});
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(hw, "hwcrypt");
    const char *name = NULL;
    OSSL_PARAM params[] = {OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0), OSSL_PARAM_END};
    cr_assert(OSSL_PROVIDER_get_params(p, params) && name);
    cr_assert(strstr(name, "kernels:"), "provider name without kernels: %s", name);
    fprintf(stderr, "[provider] %s; HWCRYPT_KERNEL=%s; gostprov %s\n", name,
            getenv("HWCRYPT_KERNEL") ? getenv("HWCRYPT_KERNEL") : "(unset)",
            gost ? "loaded" : "not installed: Streebog cross-check against it not run");
    OSSL_PROVIDER_unload(p);
}

static void teardown(void) {
    while (nloaded) OSSL_PROVIDER_unload(loaded[--nloaded]);
    OSSL_LIB_CTX_free(hw);
    OSSL_LIB_CTX_free(hwdef);
    OSSL_LIB_CTX_free(gost);
}

static int aes_in_hardware(void) { return strcmp(hwc_kernel_active("aes"), "generic") != 0; }

/* Random split of len bytes: the next piece length (0 allowed). */
static size_t piece(hwc_rng *r, size_t left) {
    switch (hwc_rng_below(r, 4)) {
    case 0: return 0;
    case 1: return left < 17 ? left : hwc_rng_below(r, 17);
    default: return hwc_rng_below(r, left + 1);
    }
}

/* ---- digests ------------------------------------------------------------------ */
static void digest_split(EVP_MD *md, const uint8_t *msg, size_t len, hwc_rng *r, uint8_t *out,
                         uint8_t *dup_out) {
    EVP_MD_CTX *c = EVP_MD_CTX_new(), *d = EVP_MD_CTX_new();
    cr_assert(EVP_DigestInit_ex2(c, md, NULL));
    size_t off = 0, dup_at = hwc_rng_below(r, len + 1);
    int duped = 0;
    unsigned n;
    while (off < len) {
        size_t k = piece(r, len - off);
        if (!duped && off + k >= dup_at) {   /* dupctx mid-message, then both go on */
            k = dup_at - off;
            cr_assert(EVP_DigestUpdate(c, msg + off, k));
            off += k;
            cr_assert(EVP_MD_CTX_copy_ex(d, c));
            duped = 1;
            continue;
        }
        cr_assert(EVP_DigestUpdate(c, msg + off, k));
        off += k;
    }
    if (!duped) cr_assert(EVP_MD_CTX_copy_ex(d, c));
    else cr_assert(EVP_DigestUpdate(d, msg + dup_at, len - dup_at));
    cr_assert(EVP_DigestFinal_ex(c, out, &n));
    cr_assert_eq(n, (unsigned)EVP_MD_get_size(md));
    cr_assert(EVP_DigestFinal_ex(d, dup_out, &n));
    EVP_MD_CTX_free(c);
    EVP_MD_CTX_free(d);
}

TestSuite(provider, .init = setup, .fini = teardown);

Test(provider, digest_kat) {
    /* RFC 6986 section 10.1, M1 (digests as docs/API.md prints them) */
    static const char m1[] = "012345678901234567890123456789012345678901234567890123456789012";
    uint8_t want[64], got[64];
    unsigned n;
    const char *names512[] = {"md_gost12_512", "STREEBOG-512", "id-tc26-gost3411-12-512", "1.2.643.7.1.1.2.3"};
    hwc_hex("1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa"
            "00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48", want, 64);
    for (int i = 0; i < 4; i++) {
        EVP_MD *md = EVP_MD_fetch(hw, names512[i], "provider=hwcrypt");
        cr_assert(md, "no digest %s", names512[i]);
        cr_assert(EVP_Digest(m1, 63, got, &n, md, NULL) && n == 64 && !memcmp(got, want, 64), "%s", names512[i]);
        EVP_MD_free(md);
    }
    hwc_hex("9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500", want, 32);
    EVP_MD *md = EVP_MD_fetch(hw, "1.2.643.7.1.1.2.2", NULL);
    cr_assert(md && EVP_MD_get_size(md) == 32 && EVP_MD_get_block_size(md) == 64);
    cr_assert(EVP_Digest(m1, 63, got, &n, md, NULL) && n == 32 && !memcmp(got, want, 32));
    EVP_MD_free(md);
}

Test(provider, digest_random_splits) {
    hwc_rng r;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed);
    static uint8_t msg[4096];
    for (int bits = 256; bits <= 512; bits += 256) {
        const char *name = bits == 256 ? "md_gost12_256" : "md_gost12_512";
        EVP_MD *md = EVP_MD_fetch(hw, name, NULL), *ref = gost ? EVP_MD_fetch(gost, name, NULL) : NULL;
        cr_assert(md);
        for (int it = 0; it < (hwc_test_quick() ? 60 : 300); it++) {
            size_t len = hwc_rng_below(&r, sizeof msg + 1);
            hwc_rng_fill(&r, msg, len);
            uint8_t got[64], dup[64], lib[64], other[64];
            unsigned n;
            digest_split(md, msg, len, &r, got, dup);
            cr_assert_eq(hwc_streebog((unsigned)bits, msg, len, lib), HWC_OK);
            cr_assert(!memcmp(got, lib, bits / 8), "seed %llu: %s len %zu differs from the library",
                      (unsigned long long)seed, name, len);
            cr_assert(!memcmp(dup, lib, bits / 8), "seed %llu: %s dupctx len %zu", (unsigned long long)seed, name, len);
            if (ref) {
                cr_assert(EVP_Digest(msg, len, other, &n, ref, NULL));
                cr_assert(!memcmp(got, other, bits / 8), "seed %llu: %s len %zu differs from gostprov",
                          (unsigned long long)seed, name, len);
            }
        }
        EVP_MD_free(md);
        EVP_MD_free(ref);
    }
}

/* ---- MACs --------------------------------------------------------------------- */
static size_t mac_split(EVP_MAC_CTX *c, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
                        hwc_rng *r, uint8_t *out) {
    size_t n = 0, off = 0;
    cr_assert(EVP_MAC_init(c, key, keylen, NULL));
    while (off < len) {
        size_t k = piece(r, len - off);
        cr_assert(EVP_MAC_update(c, msg + off, k));
        off += k;
    }
    cr_assert(EVP_MAC_final(c, out, &n, 64));
    return n;
}

static EVP_MAC_CTX *mac_ctx(OSSL_LIB_CTX *lc, const char *mac, const char *param, const char *value,
                            const char *props) {
    EVP_MAC *m = EVP_MAC_fetch(lc, mac, props);
    cr_assert(m, "no %s", mac);
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(m);
    EVP_MAC_free(m);
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(param, (char *)value, 0), OSSL_PARAM_END};
    cr_assert(c && EVP_MAC_CTX_set_params(c, p), "%s %s=%s", mac, param, value);
    return c;
}

Test(provider, hmac) {
    /* RFC 7836 section 4.1.1 (HMAC_GOSTR3411_2012_512) and 4.1.2 (256) */
    uint8_t key[200], msg[2048], got[64], want[64], again[64];
    hwc_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", key, 32);
    hwc_hex("0126bdb87800af214341456563780100", msg, 16);
    hwc_rng r;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed);
    EVP_MAC_CTX *c512 = mac_ctx(hw, "HMAC", "digest", "md_gost12_512", NULL);
    EVP_MAC_CTX *c256 = mac_ctx(hw, "HMAC", "digest", "STREEBOG-256", NULL);
    hwc_hex("a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
            "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6", want, 64);
    cr_assert_eq(mac_split(c512, key, 32, msg, 16, &r, got), 64);
    cr_assert(!memcmp(got, want, 64), "RFC 7836 HMAC-512: %s", hwc_tohex(got, 64));
    hwc_hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9", want, 32);
    cr_assert_eq(mac_split(c256, key, 32, msg, 16, &r, got), 32);
    cr_assert(!memcmp(got, want, 32), "RFC 7836 HMAC-256: %s", hwc_tohex(got, 32));
    for (int it = 0; it < (hwc_test_quick() ? 40 : 200); it++) {
        unsigned bits = it & 1 ? 512 : 256;
        size_t kl = hwc_rng_below(&r, sizeof key + 1), len = hwc_rng_below(&r, sizeof msg + 1);
        hwc_rng_fill(&r, key, kl);
        hwc_rng_fill(&r, msg, len);
        EVP_MAC_CTX *c = bits == 512 ? c512 : c256;
        cr_assert_eq(mac_split(c, key, kl, msg, len, &r, got), bits / 8);
        cr_assert_eq(hwc_hmac_streebog(bits, key, kl, msg, len, want), HWC_OK);
        cr_assert(!memcmp(got, want, bits / 8), "seed %llu: HMAC-%u key %zu msg %zu", (unsigned long long)seed,
                  bits, kl, len);
        /* init without a key: same key, new message */
        size_t n = 0;
        cr_assert(EVP_MAC_init(c, NULL, 0, NULL) && EVP_MAC_update(c, msg, len) && EVP_MAC_final(c, again, &n, 64));
        cr_assert(!memcmp(again, want, bits / 8), "seed %llu: HMAC re-init", (unsigned long long)seed);
    }
    EVP_MAC_CTX_free(c512);
    EVP_MAC_CTX_free(c256);
}

Test(provider, hmac_other_digest_goes_to_default) {
    uint8_t key[20] = "key", got[64], want[64];
    hwc_rng r;
    hwc_rng_init(&r, hwc_test_seed());
    EVP_MAC_CTX *c = mac_ctx(hwdef, "HMAC", "digest", "SHA256", "provider=hwcrypt");
    EVP_MAC_CTX *d = mac_ctx(hwdef, "HMAC", "digest", "SHA256", "provider=default");
    uint8_t msg[300];
    hwc_rng_fill(&r, msg, sizeof msg);
    cr_assert_eq(mac_split(c, key, 3, msg, sizeof msg, &r, got), 32);
    cr_assert_eq(mac_split(d, key, 3, msg, sizeof msg, &r, want), 32);
    cr_assert(!memcmp(got, want, 32));
    EVP_MAC_CTX_free(c);
    EVP_MAC_CTX_free(d);
    /* a digest no provider has is an error in the queue, with hwcrypt's text */
    EVP_MAC *m = EVP_MAC_fetch(hw, "HMAC", NULL);
    EVP_MAC_CTX *e = EVP_MAC_CTX_new(m);
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("digest", "NO-SUCH-DIGEST", 0), OSSL_PARAM_END};
    ERR_clear_error();
    cr_assert_not(EVP_MAC_CTX_set_params(e, p));
    char buf[256];
    ERR_error_string_n(ERR_peek_last_error(), buf, sizeof buf);
    cr_assert(strstr(buf, "unsupported by the hwcrypt provider"), "error text: %s", buf);
    ERR_clear_error();
    EVP_MAC_CTX_free(e);
    EVP_MAC_free(m);
}

Test(provider, cmac) {
    if (!aes_in_hardware()) {
        cr_assert_null(EVP_MAC_fetch(hw, "CMAC", NULL), "CMAC offered with the generic AES kernel");
        fprintf(stderr, "[cmac] aes kernel is generic: CMAC correctly not offered\n");
        return;
    }
    hwc_rng r;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed);
    const char *ciphers[] = {"AES-128-CBC", "AES-192-CBC", "AES-256-CBC"};
    uint8_t key[32], msg[1500], got[64], want[64], lib[16];
    for (int ci = 0; ci < 3; ci++) {
        EVP_MAC_CTX *c = mac_ctx(hw, "CMAC", "cipher", ciphers[ci], NULL);
        EVP_MAC_CTX *d = mac_ctx(NULL, "CMAC", "cipher", ciphers[ci], NULL);
        size_t kl = 16 + 8 * (size_t)ci;
        for (int it = 0; it < 60; it++) {
            size_t len = hwc_rng_below(&r, sizeof msg + 1);
            hwc_rng_fill(&r, key, kl);
            hwc_rng_fill(&r, msg, len);
            cr_assert_eq(mac_split(c, key, kl, msg, len, &r, got), 16);
            cr_assert_eq(mac_split(d, key, kl, msg, len, &r, want), 16);
            cr_assert_eq(hwc_cmac(key, kl, msg, len, lib), HWC_OK);
            cr_assert(!memcmp(got, want, 16) && !memcmp(got, lib, 16), "seed %llu: CMAC %s len %zu",
                      (unsigned long long)seed, ciphers[ci], len);
        }
        ERR_clear_error();
        cr_assert_not(EVP_MAC_init(c, key, kl + 1, NULL), "wrong key length accepted");
        ERR_clear_error();
        EVP_MAC_CTX_free(c);
        EVP_MAC_CTX_free(d);
    }
}

/* ---- PBKDF2 ------------------------------------------------------------------- */
static void pbkdf2(OSSL_LIB_CTX *lc, const char *props, const char *digest, const void *pass, size_t pl,
                   const void *salt, size_t sl, uint64_t iter, uint8_t *out, size_t outlen) {
    EVP_KDF *k = EVP_KDF_fetch(lc, "PBKDF2", props);
    cr_assert(k);
    EVP_KDF_CTX *c = EVP_KDF_CTX_new(k);
    EVP_KDF_free(k);
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("digest", (char *)digest, 0),
                      OSSL_PARAM_octet_string("pass", (void *)pass, pl),
                      OSSL_PARAM_octet_string("salt", (void *)salt, sl), OSSL_PARAM_uint64("iter", &iter),
                      OSSL_PARAM_END};
    cr_assert(EVP_KDF_derive(c, out, outlen, p), "PBKDF2 %s", digest);
    EVP_KDF_CTX_free(c);
}

Test(provider, pbkdf2) {
    /* the R 50.1.111-2016 examples are checked through the openssl command
       (openssl_cli_test.sh); here: the library and OpenSSL's own PBKDF2 */
    uint8_t got[128], ref[128];
    /* random inputs: 512 against the library, 256 against OpenSSL's own
       PBKDF2 composed with the provider's STREEBOG-256 digest */
    hwc_rng r;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed);
    uint8_t pass[100], salt[100];
    for (int it = 0; it < 20; it++) {
        size_t pl = hwc_rng_below(&r, sizeof pass), sl = hwc_rng_below(&r, sizeof salt);
        size_t ol = 1 + hwc_rng_below(&r, sizeof got);
        uint32_t iter = 1 + (uint32_t)hwc_rng_below(&r, 50);
        hwc_rng_fill(&r, pass, pl);
        hwc_rng_fill(&r, salt, sl);
        pbkdf2(hw, NULL, "STREEBOG-512", pass, pl, salt, sl, iter, got, ol);
        cr_assert_eq(hwc_pbkdf2_streebog512(pass, pl, salt, sl, iter, ref, ol), HWC_OK);
        cr_assert(!memcmp(got, ref, ol), "seed %llu: PBKDF2-512 vs library", (unsigned long long)seed);
        pbkdf2(hw, NULL, "md_gost12_256", pass, pl, salt, sl, iter, got, ol);
        pbkdf2(hwdef, "provider=default", "md_gost12_256", pass, pl, salt, sl, iter, ref, ol);
        cr_assert(!memcmp(got, ref, ol), "seed %llu: PBKDF2-256 vs OpenSSL's PBKDF2", (unsigned long long)seed);
        pbkdf2(hwdef, "provider=default", "md_gost12_512", pass, pl, salt, sl, iter, ref, ol);
        pbkdf2(hw, NULL, "md_gost12_512", pass, pl, salt, sl, iter, got, ol);
        cr_assert(!memcmp(got, ref, ol), "seed %llu: PBKDF2-512 vs OpenSSL's PBKDF2", (unsigned long long)seed);
    }
    /* another digest: the default provider's PBKDF2 */
    pbkdf2(hwdef, "provider=hwcrypt", "SHA256", "p", 1, "s", 1, 3, got, 40);
    pbkdf2(hwdef, "provider=default", "SHA256", "p", 1, "s", 1, 3, ref, 40);
    cr_assert(!memcmp(got, ref, 40));
}

/* ---- ciphers ------------------------------------------------------------------ */
/* Runs a cipher with random update splits; returns the output length and
   records each call's output length in steps (compared with the default
   provider's: same buffering). */
static int cipher_split(EVP_CIPHER *ci, int enc, int pad, const uint8_t *key, const uint8_t *iv, const uint8_t *in,
                        size_t len, uint8_t *out, size_t *outlen, size_t *steps, size_t *nsteps, hwc_rng *r) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int ok = EVP_CipherInit_ex2(c, ci, key, iv, enc, NULL) && EVP_CIPHER_CTX_set_padding(c, pad);
    size_t off = 0, o = 0;
    *nsteps = 0;
    while (ok && off < len) {
        size_t k = piece(r, len - off);
        int n;
        ok = EVP_CipherUpdate(c, out + o, &n, in + off, (int)k);
        off += k, o += (size_t)n;
        steps[(*nsteps)++] = (size_t)n;
    }
    int n = 0;
    ok = ok && EVP_CipherFinal_ex(c, out + o, &n);
    o += (size_t)n;
    *outlen = o;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

static void check_cipher(const char *name, int ivlen, int block) {
    EVP_CIPHER *ci = EVP_CIPHER_fetch(hw, name, NULL), *ref = EVP_CIPHER_fetch(NULL, name, "provider=default");
    if (!aes_in_hardware()) {
        cr_assert_null(ci, "%s offered with the generic AES kernel", name);
        EVP_CIPHER_free(ref);
        return;
    }
    cr_assert(ci && ref, "%s", name);
    cr_assert_eq(EVP_CIPHER_get_iv_length(ci), ivlen);
    cr_assert_eq(EVP_CIPHER_get_block_size(ci), block);
    cr_assert_eq(EVP_CIPHER_get_mode(ci), EVP_CIPHER_get_mode(ref));
    hwc_rng r, r2;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed ^ (uint64_t)strlen(name) ^ (uint64_t)name[4] << 8 ^ (uint64_t)name[8] << 16);
    static uint8_t in[3000 + 32], a[3100], b[3100], back[3100];
    size_t sa[4000], sb[4000], na, nb, la, lb;
    uint8_t key[32], iv[16];
    for (int it = 0; it < (hwc_test_quick() ? 40 : 150); it++) {
        int pad = block == 1 ? 0 : (int)hwc_rng_below(&r, 2);
        size_t len = hwc_rng_below(&r, 3001);
        if (block > 1 && !pad) len &= ~(size_t)15;
        hwc_rng_fill(&r, key, sizeof key);
        hwc_rng_fill(&r, iv, sizeof iv);
        hwc_rng_fill(&r, in, len);
        /* encrypt, then decrypt the default provider's ciphertext; both
           providers get the same splits and must return the same lengths */
        const uint8_t *src = in;
        size_t srclen = len;
        for (int enc = 1; enc >= 0; enc--) {
            r2 = r;
            cr_assert(cipher_split(ci, enc, pad, key, iv, src, srclen, a, &la, sa, &na, &r));
            cr_assert(cipher_split(ref, enc, pad, key, iv, src, srclen, b, &lb, sb, &nb, &r2));
            cr_assert(la == lb && !memcmp(a, b, la), "seed %llu: %s %s len %zu pad %d differs from default",
                      (unsigned long long)seed, name, enc ? "encrypt" : "decrypt", srclen, pad);
            cr_assert(na == nb && !memcmp(sa, sb, na * sizeof *sa), "seed %llu: %s update lengths differ",
                      (unsigned long long)seed, name);
            memcpy(back, b, lb);
            src = back;
            srclen = lb;
        }
        cr_assert(la == len && !memcmp(a, in, len), "seed %llu: %s round trip len %zu", (unsigned long long)seed,
                  name, len);
    }
    EVP_CIPHER_free(ci);
    EVP_CIPHER_free(ref);
}

Test(provider, aes_ecb_cbc_ctr) {
    const char *modes[] = {"ECB", "CBC", "CTR"};
    for (int m = 0; m < 3; m++)
        for (int bits = 128; bits <= 256; bits += 64) {
            char name[32];
            snprintf(name, sizeof name, "AES-%d-%s", bits, modes[m]);
            check_cipher(name, m ? 16 : 0, m == 2 ? 1 : 16);
        }
    fprintf(stderr, "[aes] kernel %s: %s\n", hwc_kernel_active("aes"),
            aes_in_hardware() ? "ECB/CBC/CTR equal to the default provider" : "AES correctly not offered");
}

Test(provider, aes_ctr_library_and_counter_wrap) {
    if (!aes_in_hardware()) return;
    /* the counter carries through all 128 bits, as the library's */
    uint8_t key[16] = {1}, iv[16], ctr[16], in[100] = {0}, got[100], lib[100];
    memset(iv, 0xff, 16);
    iv[0] = 0x7f;
    memcpy(ctr, iv, 16);
    EVP_CIPHER *ci = EVP_CIPHER_fetch(hw, "AES-128-CTR", NULL);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n1, n2;
    cr_assert(EVP_EncryptInit_ex2(c, ci, key, iv, NULL) && EVP_EncryptUpdate(c, got, &n1, in, 37) &&
              EVP_EncryptUpdate(c, got + 37, &n2, in + 37, 63));
    hwc_aes_key k;
    cr_assert_eq(hwc_aes_setkey(&k, key, 16), HWC_OK);
    cr_assert_eq(hwc_aes_ctr_crypt(&k, ctr, lib, in, 100), HWC_OK);
    cr_assert(!memcmp(got, lib, 100));
    EVP_CIPHER_CTX_free(c);
    EVP_CIPHER_free(ci);
}

Test(provider, aes_xts) {
    const char *names[] = {"AES-128-XTS", "AES-256-XTS"};
    for (int i = 0; i < 2; i++) {
        EVP_CIPHER *ci = EVP_CIPHER_fetch(hw, names[i], NULL), *ref = EVP_CIPHER_fetch(NULL, names[i], NULL);
        if (!aes_in_hardware()) {
            cr_assert_null(ci);
            EVP_CIPHER_free(ref);
            continue;
        }
        cr_assert(ci && ref);
        hwc_rng r;
        uint64_t seed = hwc_test_seed();
        hwc_rng_init(&r, seed + (uint64_t)i);
        static uint8_t in[5000], a[5000], b[5000];
        uint8_t key[64], iv[16];
        size_t kl = (size_t)EVP_CIPHER_get_key_length(ci);
        for (int it = 0; it < 80; it++) {
            size_t len = 16 + hwc_rng_below(&r, sizeof in - 15);
            hwc_rng_fill(&r, key, kl);
            hwc_rng_fill(&r, iv, 16);
            hwc_rng_fill(&r, in, len);
            for (int enc = 1; enc >= 0; enc--) {
                EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
                int na, nb, fa, fb;
                cr_assert(EVP_CipherInit_ex2(c, ci, key, iv, enc, NULL) &&
                          EVP_CipherUpdate(c, a, &na, in, (int)len) && EVP_CipherFinal_ex(c, a + na, &fa));
                cr_assert(EVP_CipherInit_ex2(d, ref, key, iv, enc, NULL) &&
                          EVP_CipherUpdate(d, b, &nb, in, (int)len) && EVP_CipherFinal_ex(d, b + nb, &fb));
                cr_assert(na == nb && fa == fb && !memcmp(a, b, len), "seed %llu: %s %s len %zu",
                          (unsigned long long)seed, names[i], enc ? "encrypt" : "decrypt", len);
                EVP_CIPHER_CTX_free(c);
                EVP_CIPHER_CTX_free(d);
            }
        }
        /* equal key halves (IEEE 1619 5.1 / SP 800-38E) and short units are refused */
        memset(key, 7, sizeof key);
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
        ERR_clear_error();
        cr_assert_not(EVP_EncryptInit_ex2(c, ci, key, iv, NULL), "%s: equal halves accepted", names[i]);
        cr_assert_neq(ERR_peek_last_error(), 0);
        key[0] ^= 1;
        int n;
        cr_assert(EVP_EncryptInit_ex2(c, ci, key, iv, NULL));
        cr_assert_not(EVP_EncryptUpdate(c, a, &n, in, 15), "%s: 15-byte unit accepted", names[i]);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(c);
        EVP_CIPHER_free(ci);
        EVP_CIPHER_free(ref);
    }
}

/* One GCM message with random AAD and data splits; the tag is read after
   encrypt final or set before decrypt final. Returns final's result. */
static int gcm_run(EVP_CIPHER *ci, int enc, const uint8_t *key, const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                   size_t aadlen, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t taglen,
                   hwc_rng *r) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    size_t ivl = ivlen;
    OSSL_PARAM ivp[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl), OSSL_PARAM_END};
    cr_assert(EVP_CipherInit_ex2(c, ci, NULL, NULL, enc, ivp) && EVP_CipherInit_ex2(c, NULL, key, iv, enc, NULL));
    int n;
    for (size_t off = 0, k; off < aadlen; off += k) {
        k = piece(r, aadlen - off);
        cr_assert(EVP_CipherUpdate(c, NULL, &n, aad + off, (int)k) && (size_t)n == k);
    }
    size_t o = 0;
    for (size_t off = 0, k; off < len; off += k) {
        k = piece(r, len - off);
        cr_assert(EVP_CipherUpdate(c, out + o, &n, in + off, (int)k));
        o += (size_t)n;
    }
    cr_assert_eq(o, len);
    if (!enc) cr_assert(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag));
    int ok = EVP_CipherFinal_ex(c, out + o, &n);
    if (ok && enc) cr_assert(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag));
    EVP_CIPHER_CTX_free(c);
    return ok;
}

Test(provider, aes_gcm) {
    const char *names[] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"};
    static const size_t taglens[] = {4, 8, 12, 13, 14, 15, 16};
    hwc_rng r, r2;
    uint64_t seed = hwc_test_seed();
    hwc_rng_init(&r, seed ^ 0x6c6d);
    for (int i = 0; i < 3; i++) {
        EVP_CIPHER *ci = EVP_CIPHER_fetch(hw, names[i], NULL), *ref = EVP_CIPHER_fetch(NULL, names[i], NULL);
        if (!aes_in_hardware()) {
            cr_assert_null(ci, "%s offered with the generic AES kernel", names[i]);
            EVP_CIPHER_free(ref);
            continue;
        }
        cr_assert(ci && ref && EVP_CIPHER_get_iv_length(ci) == 12 && EVP_CIPHER_get_mode(ci) == EVP_CIPH_GCM_MODE);
        cr_assert(EVP_CIPHER_get_flags(ci) & EVP_CIPH_FLAG_AEAD_CIPHER);
        size_t kl = 16 + 8 * (size_t)i;
        static uint8_t in[2100], aad[300], a[2100], b[2100], back[2100];
        uint8_t key[32], iv[64], ta[16], tb[16], lib[16];
        for (int it = 0; it < (hwc_test_quick() ? 30 : 120); it++) {
            size_t ivlen = hwc_rng_below(&r, 3) ? 12 : 1 + hwc_rng_below(&r, sizeof iv);
            size_t aadlen = hwc_rng_below(&r, sizeof aad + 1), len = hwc_rng_below(&r, sizeof in + 1);
            size_t taglen = taglens[hwc_rng_below(&r, 7)];
            hwc_rng_fill(&r, key, kl);
            hwc_rng_fill(&r, iv, ivlen);
            hwc_rng_fill(&r, aad, aadlen);
            hwc_rng_fill(&r, in, len);
            r2 = r;
            cr_assert(gcm_run(ci, 1, key, iv, ivlen, aad, aadlen, in, len, a, ta, 16, &r));
            cr_assert(gcm_run(ref, 1, key, iv, ivlen, aad, aadlen, in, len, b, tb, 16, &r2));
            cr_assert(!memcmp(a, b, len) && !memcmp(ta, tb, 16), "seed %llu: %s iv %zu aad %zu len %zu",
                      (unsigned long long)seed, names[i], ivlen, aadlen, len);
            hwc_aes_gcm_key k;
            cr_assert_eq(hwc_aes_gcm_setkey(&k, key, kl), HWC_OK);
            cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, ivlen, aad, aadlen, back, in, len, lib, 16), HWC_OK);
            cr_assert(!memcmp(back, a, len) && !memcmp(lib, ta, 16), "seed %llu: %s vs the library",
                      (unsigned long long)seed, names[i]);
            cr_assert(gcm_run(ci, 0, key, iv, ivlen, aad, aadlen, a, len, back, ta, taglen, &r),
                      "seed %llu: %s tag of %zu bytes refused", (unsigned long long)seed, names[i], taglen);
            cr_assert(!memcmp(back, in, len));
            ta[hwc_rng_below(&r, taglen)] ^= (uint8_t)(1u << hwc_rng_below(&r, 8));
            ERR_clear_error();
            cr_assert_not(gcm_run(ci, 0, key, iv, ivlen, aad, aadlen, a, len, back, ta, taglen, &r),
                          "seed %llu: %s forged tag accepted", (unsigned long long)seed, names[i]);
            cr_assert_neq(ERR_peek_last_error(), 0);
            ERR_clear_error();
        }
        EVP_CIPHER_free(ci);
        EVP_CIPHER_free(ref);
    }
}

Test(provider, errors_reach_the_queue) {
    if (!aes_in_hardware()) return;
    uint8_t key[16] = {0}, iv[16] = {0}, in[32] = {0}, out[64];
    int n, f;
    EVP_CIPHER *ci = EVP_CIPHER_fetch(hw, "AES-128-CBC", NULL);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    /* decrypting zeros: the last block's padding does not verify */
    ERR_clear_error();
    cr_assert(EVP_DecryptInit_ex2(c, ci, key, iv, NULL) && EVP_DecryptUpdate(c, out, &n, in, 32));
    cr_assert_not(EVP_DecryptFinal_ex(c, out + n, &f));
    char buf[256];
    unsigned long e = ERR_peek_last_error();
    ERR_error_string_n(e, buf, sizeof buf);
    cr_assert(strstr(buf, "bad decrypt"), "error text: %s", buf);
    const char *file, *func, *data;
    int line, flags;
    ERR_peek_last_error_all(&file, &line, &func, &data, &flags);
    cr_assert(data && strstr(data, "PKCS#7"), "error data: %s", data ? data : "(none)");
    /* no padding and a partial block: wrong final block length */
    ERR_clear_error();
    cr_assert(EVP_EncryptInit_ex2(c, ci, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(c, 0) &&
              EVP_EncryptUpdate(c, out, &n, in, 5));
    cr_assert_not(EVP_EncryptFinal_ex(c, out + n, &f));
    ERR_error_string_n(ERR_peek_last_error(), buf, sizeof buf);
    cr_assert(strstr(buf, "wrong final block length"), "error text: %s", buf);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(c);
    EVP_CIPHER_free(ci);
}
