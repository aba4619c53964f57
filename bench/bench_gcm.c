/* AES-GCM benchmark: every usable aes kernel (GCM follows the AES kernel)
 * interleaved with the peers found at configure time: OpenSSL EVP,
 * intel-ipsec-mb, libgcrypt, nettle, mbedTLS. AES-128 and AES-256, encrypt
 * and decrypt (tag checked), 12-byte IV; one whole message per operation
 * (IV set, AAD, data, tag), keys expanded once outside timing. Sizes 16 B,
 * 64 B, 1 KiB, 16 KiB, 64 KiB without AAD, and 16 KiB with 64 bytes of AAD
 * (--quick: 16 B and 16 KiB).
 * Decrypt rows use a real ciphertext and tag, so every library runs its
 * success path. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"

#ifdef HWC_BENCH_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
#include <intel-ipsec-mb.h>
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
#include <mbedtls/gcm.h>
#include <mbedtls/version.h>
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
#include <nettle/gcm.h>
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
#include <gcrypt.h>
#endif

/* One timed thing: an implementation, a direction, a key, a message shape. */
typedef struct gcase {
    int dec;
    unsigned key_len;                 /* 16 or 32 */
    size_t len, aad_len;
    const uint8_t *in, *aad, *tag_in; /* tag_in: the valid tag of `in` (decrypt) */
    uint8_t *out;
    uint8_t iv[12], tag[16];
    union {
        hwc_aes_gcm_key ours;
#ifdef HWC_BENCH_HAVE_OPENSSL
        EVP_CIPHER_CTX *ossl;
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
        struct { HWC_ALIGN64 struct gcm_key_data key; HWC_ALIGN64 struct gcm_context_data ctx; IMB_MGR *mgr; } imb;  /* key: 64-byte aligned */
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        mbedtls_gcm_context mbed;
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
        union { struct gcm_aes128_ctx a128; struct gcm_aes256_ctx a256; } nettle;
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
        gcry_cipher_hd_t gcry;
#endif
    } u;
} gcase;

static const uint8_t gcm_key[32] = {
    0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65, 0x73, 0x1c, 0x6d, 0x6a, 0x8f, 0x94, 0x67, 0x30, 0x83, 0x08,
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t gcm_iv[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

/* ---- ours ------------------------------------------------------------------ */
static const char *g_kernel;   /* set before ours_setup */

static int ours_setup(gcase *c) {
    if (hwc_kernel_select("aes", g_kernel) != HWC_OK) return -1;
    int r = hwc_aes_gcm_setkey(&c->u.ours, gcm_key, c->key_len);
    hwc_kernel_select("aes", NULL);
    return r == HWC_OK ? 0 : -1;
}

static void ours_run(void *arg, size_t iters) {
    gcase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        if (c->dec)
            hwc_aes_gcm_decrypt(&c->u.ours, c->iv, 12, c->aad, c->aad_len, c->out, c->in, c->len, c->tag_in, 16);
        else
            hwc_aes_gcm_encrypt(&c->u.ours, c->iv, 12, c->aad, c->aad_len, c->out, c->in, c->len, c->tag, 16);
    }
    hwc_bench_sink(c->out, c->len);
}

static void no_free(gcase *c) { (void)c; }

/* ---- OpenSSL EVP ---------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_OPENSSL
static int ossl_setup(gcase *c) {
    c->u.ossl = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ciph = c->key_len == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
    return c->u.ossl && EVP_CipherInit_ex(c->u.ossl, ciph, NULL, gcm_key, NULL, !c->dec) ? 0 : -1;
}

static void ossl_run(void *arg, size_t iters) {
    gcase *c = arg;
    int outl;
    for (size_t i = 0; i < iters; i++) {
        EVP_CipherInit_ex(c->u.ossl, NULL, NULL, NULL, c->iv, -1);
        if (c->aad_len) EVP_CipherUpdate(c->u.ossl, NULL, &outl, c->aad, (int)c->aad_len);
        EVP_CipherUpdate(c->u.ossl, c->out, &outl, c->in, (int)c->len);
        if (c->dec) EVP_CIPHER_CTX_ctrl(c->u.ossl, EVP_CTRL_GCM_SET_TAG, 16, (void *)c->tag_in);
        EVP_CipherFinal_ex(c->u.ossl, c->out + outl, &outl);
        if (!c->dec) EVP_CIPHER_CTX_ctrl(c->u.ossl, EVP_CTRL_GCM_GET_TAG, 16, c->tag);
    }
    hwc_bench_sink(c->out, c->len);
}

static void ossl_free(gcase *c) { EVP_CIPHER_CTX_free(c->u.ossl); }
#endif

/* ---- intel-ipsec-mb (its direct GCM API; decrypt returns the tag to compare) ---- */
#ifdef HWC_BENCH_HAVE_IPSECMB
static int imb_setup(gcase *c) {
    c->u.imb.mgr = alloc_mb_mgr(0);
    if (!c->u.imb.mgr) return -1;
    init_mb_mgr_auto(c->u.imb.mgr, NULL);
    if (c->key_len == 16) IMB_AES128_GCM_PRE(c->u.imb.mgr, gcm_key, &c->u.imb.key);
    else IMB_AES256_GCM_PRE(c->u.imb.mgr, gcm_key, &c->u.imb.key);
    return 0;
}

static void imb_run(void *arg, size_t iters) {
    gcase *c = arg;
    IMB_MGR *m = c->u.imb.mgr;
    for (size_t i = 0; i < iters; i++) {
        uint64_t n = c->len, an = c->aad_len;
        if (c->key_len == 16 && c->dec)
            IMB_AES128_GCM_DEC(m, &c->u.imb.key, &c->u.imb.ctx, c->out, c->in, n, c->iv, c->aad, an, c->tag, 16);
        else if (c->key_len == 16)
            IMB_AES128_GCM_ENC(m, &c->u.imb.key, &c->u.imb.ctx, c->out, c->in, n, c->iv, c->aad, an, c->tag, 16);
        else if (c->dec)
            IMB_AES256_GCM_DEC(m, &c->u.imb.key, &c->u.imb.ctx, c->out, c->in, n, c->iv, c->aad, an, c->tag, 16);
        else
            IMB_AES256_GCM_ENC(m, &c->u.imb.key, &c->u.imb.ctx, c->out, c->in, n, c->iv, c->aad, an, c->tag, 16);
        if (c->dec && memcmp(c->tag, c->tag_in, 16) != 0) memset(c->out, 0, c->len);
    }
    hwc_bench_sink(c->out, c->len);
}

static void imb_free(gcase *c) { free_mb_mgr(c->u.imb.mgr); }
#endif

/* ---- mbedTLS 2.28 ----------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_MBEDTLS
static int mbed_setup(gcase *c) {
    mbedtls_gcm_init(&c->u.mbed);
    return mbedtls_gcm_setkey(&c->u.mbed, MBEDTLS_CIPHER_ID_AES, gcm_key, 8 * c->key_len) ? -1 : 0;
}

static void mbed_run(void *arg, size_t iters) {
    gcase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        if (c->dec)
            mbedtls_gcm_auth_decrypt(&c->u.mbed, c->len, c->iv, 12, c->aad, c->aad_len, c->tag_in, 16, c->in, c->out);
        else
            mbedtls_gcm_crypt_and_tag(&c->u.mbed, MBEDTLS_GCM_ENCRYPT, c->len, c->iv, 12, c->aad, c->aad_len, c->in,
                                      c->out, 16, c->tag);
    }
    hwc_bench_sink(c->out, c->len);
}

static void mbed_free(gcase *c) { mbedtls_gcm_free(&c->u.mbed); }
#endif

/* ---- nettle 3.8 ----------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_NETTLE
static int nettle_setup(gcase *c) {
    if (c->key_len == 16) gcm_aes128_set_key(&c->u.nettle.a128, gcm_key);
    else gcm_aes256_set_key(&c->u.nettle.a256, gcm_key);
    return 0;
}

static void nettle_run(void *arg, size_t iters) {
    gcase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        if (c->key_len == 16) {
            struct gcm_aes128_ctx *x = &c->u.nettle.a128;
            gcm_aes128_set_iv(x, 12, c->iv);
            if (c->aad_len) gcm_aes128_update(x, c->aad_len, c->aad);
            if (c->dec) gcm_aes128_decrypt(x, c->len, c->out, c->in);
            else gcm_aes128_encrypt(x, c->len, c->out, c->in);
            gcm_aes128_digest(x, 16, c->tag);
        } else {
            struct gcm_aes256_ctx *x = &c->u.nettle.a256;
            gcm_aes256_set_iv(x, 12, c->iv);
            if (c->aad_len) gcm_aes256_update(x, c->aad_len, c->aad);
            if (c->dec) gcm_aes256_decrypt(x, c->len, c->out, c->in);
            else gcm_aes256_encrypt(x, c->len, c->out, c->in);
            gcm_aes256_digest(x, 16, c->tag);
        }
        if (c->dec && memcmp(c->tag, c->tag_in, 16) != 0) memset(c->out, 0, c->len);
    }
    hwc_bench_sink(c->out, c->len);
}
#endif

/* ---- libgcrypt ------------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_GCRYPT
static int gc_setup(gcase *c) {
    if (hwc_bench_gcrypt_init() != 0) return -1;
    if (gcry_cipher_open(&c->u.gcry, c->key_len == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256,
                         GCRY_CIPHER_MODE_GCM, 0))
        return -1;
    return gcry_cipher_setkey(c->u.gcry, gcm_key, c->key_len) ? -1 : 0;
}

static void gc_run(void *arg, size_t iters) {
    gcase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        gcry_cipher_setiv(c->u.gcry, c->iv, 12);
        if (c->aad_len) gcry_cipher_authenticate(c->u.gcry, c->aad, c->aad_len);
        if (c->dec) {
            gcry_cipher_decrypt(c->u.gcry, c->out, c->len, c->in, c->len);
            gcry_cipher_checktag(c->u.gcry, c->tag_in, 16);
        } else {
            gcry_cipher_encrypt(c->u.gcry, c->out, c->len, c->in, c->len);
            gcry_cipher_gettag(c->u.gcry, c->tag, 16);
        }
    }
    hwc_bench_sink(c->out, c->len);
}

static void gc_free(gcase *c) { gcry_cipher_close(c->u.gcry); }
#endif

/* ---- groups ------------------------------------------------------------------------ */
typedef struct gimpl {
    const char *name;
    int (*setup)(gcase *);
    void (*run)(void *, size_t);
    void (*free)(gcase *);
} gimpl;

static const gimpl peers[] = {
#ifdef HWC_BENCH_HAVE_OPENSSL
    {"openssl " HWC_BENCH_OPENSSL_VERSION, ossl_setup, ossl_run, ossl_free},
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
    {"ipsec-mb " IMB_VERSION_STR, imb_setup, imb_run, imb_free},
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
    {"libgcrypt " HWC_BENCH_GCRYPT_VERSION, gc_setup, gc_run, gc_free},
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
    {"nettle " HWC_BENCH_NETTLE_VERSION, nettle_setup, nettle_run, no_free},
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
    {"mbedtls " MBEDTLS_VERSION_STRING, mbed_setup, mbed_run, mbed_free},
#endif
    {NULL, NULL, NULL, NULL}};

enum { MAXCASES = 16 };
static uint8_t *g_pt, *g_ct, *g_out, g_aad[64];

static void run_group(const hwc_bench_opts *o, int dec, unsigned key_len, size_t len, size_t aad_len) {
    hwc_bench_case cases[MAXCASES];
    gcase *args[MAXCASES];
    const gimpl *impls[MAXCASES];
    hwc_kernel_info ks[MAXCASES];
    size_t nk = hwc_kernels("aes", ks, MAXCASES), n = 0;
    const size_t npeers = sizeof peers / sizeof peers[0] - 1;
    static const gimpl ours = {NULL, ours_setup, ours_run, no_free};
    if (nk > MAXCASES) nk = MAXCASES;

    /* the decrypt input: a valid ciphertext and tag (generic-independent: any kernel) */
    uint8_t tag[16];
    hwc_aes_gcm_key k;
    hwc_aes_gcm_setkey(&k, gcm_key, key_len);
    hwc_aes_gcm_encrypt(&k, gcm_iv, 12, g_aad, aad_len, g_ct, g_pt, len, tag, 16);

    for (size_t i = 0; i < nk + npeers && n < MAXCASES; i++) {
        if (i < nk && !ks[i].usable) continue;
        const gimpl *im = i < nk ? &ours : &peers[i - nk];
        gcase *c = aligned_alloc(64, (sizeof(gcase) + 63) / 64 * 64);
        if (!c) break;
        memset(c, 0, sizeof *c);
        *c = (gcase){.dec = dec, .key_len = key_len, .len = len, .aad_len = aad_len,
                     .in = dec ? g_ct : g_pt, .aad = g_aad, .tag_in = tag, .out = g_out};
        memcpy(c->iv, gcm_iv, 12);
        const char *name = i < nk ? ks[i].name : im->name;
        g_kernel = name;
        if (im->setup(c) != 0) {
            fprintf(stderr, "bench gcm: %s setup failed, skipped\n", name);
            free(c);
            continue;
        }
        args[n] = c;
        impls[n] = im;
        cases[n] = (hwc_bench_case){.impl = name, .is_peer = i >= nk, .kernel = i < nk ? name : NULL,
                                    .run = im->run, .arg = c};
        n++;
    }
    char opname[32], sz[32];
    snprintf(opname, sizeof opname, "gcm%u-%s", 8 * key_len, dec ? "dec" : "enc");
    if (len >= 1024) snprintf(sz, sizeof sz, "%zu KiB%s", len >> 10, aad_len ? "+64A" : "");
    else snprintf(sz, sizeof sz, "%zu B", len);
    hwc_bench_group(o, "aes", opname, sz, (double)len, HWC_UNIT_BYTES, cases, n);
    for (size_t i = 0; i < n; i++) {
        if (args[i]->dec && memcmp(args[i]->out, g_pt, len) != 0)
            fprintf(stderr, "bench gcm: %s decrypt gave a wrong plaintext\n", cases[i].impl);
        impls[i]->free(args[i]);
        hwc_wipe(args[i], sizeof *args[i]);
        free(args[i]);
    }
    hwc_wipe(&k, sizeof k);
}

void hwc_bench_gcm(const hwc_bench_opts *o) {
    static const size_t quick_sizes[] = {16, 16384};
    static const size_t full_sizes[] = {16, 64, 1024, 16384, 65536};
    const size_t *sizes = o->quick ? quick_sizes : full_sizes;
    const size_t nsizes = o->quick ? 2 : 5, maxlen = 65536;
    g_pt = aligned_alloc(64, maxlen);
    g_ct = aligned_alloc(64, maxlen);
    g_out = aligned_alloc(64, maxlen);
    if (!g_pt || !g_ct || !g_out) {
        fprintf(stderr, "bench gcm: out of memory\n");
        free(g_pt);
        free(g_ct);
        free(g_out);
        return;
    }
    for (size_t i = 0; i < maxlen; i++) g_pt[i] = (uint8_t)(i * 131 + 7);
    for (size_t i = 0; i < sizeof g_aad; i++) g_aad[i] = (uint8_t)(i * 17 + 3);
    for (unsigned kl = 16; kl <= 32; kl += 16) {
        for (int dec = 0; dec < 2; dec++) {
            for (size_t i = 0; i < nsizes; i++) run_group(o, dec, kl, sizes[i], 0);
            if (!o->quick) run_group(o, dec, kl, 16384, 64);   /* 16 KiB with 64 bytes of AAD */
        }
    }
    free(g_pt);
    free(g_ct);
    free(g_out);
}
