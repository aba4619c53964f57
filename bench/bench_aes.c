/* AES and AES-CMAC benchmark: every usable aes kernel (from hwc_kernels(),
 * never a hand-kept list) interleaved with the peers found at configure time
 * (OpenSSL EVP incl. EVP_MAC CMAC, mbedTLS, nettle, libgcrypt), AES-128 and
 * AES-256: ECB-enc, CBC-enc, CBC-dec, CTR, XTS-enc (one data unit per op),
 * CMAC (one whole message per op: update + final, key set up once).
 * Each operation is a new message, as its user would do it: set the IV/
 * counter/tweak (APIs that update the IV in place get a fresh copy, so no
 * implementation chains one message into the next), then process the
 * message; keys are expanded once, outside timing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"

#ifdef HWC_BENCH_HAVE_OPENSSL
#include <openssl/core_names.h>
#include <openssl/evp.h>
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
#include <mbedtls/aes.h>
#include <mbedtls/cipher.h>
#include <mbedtls/cmac.h>
#include <mbedtls/version.h>
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/cmac.h>
#include <nettle/ctr.h>
#include <nettle/xts.h>
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
#include <gcrypt.h>
#endif

enum op { OP_ECB_ENC, OP_CBC_ENC, OP_CBC_DEC, OP_CTR, OP_XTS_ENC, OP_CMAC, NOPS };
static const char *const op_names[NOPS] = {"ecb-enc", "cbc-enc", "cbc-dec", "ctr", "xts-enc", "cmac"};

enum peer { P_OURS, P_OPENSSL, P_MBEDTLS, P_NETTLE, P_GCRYPT };

/* One timed thing: an implementation, an operation, a key, a message size. */
typedef struct acase {
    int op, peer;
    size_t len;
    unsigned key_len;                 /* 16 or 32 */
    const uint8_t *in;
    uint8_t *out;
    uint8_t iv[16], tag[16];
    union {
        struct { hwc_aes_key k; } ours;
        struct { hwc_aes_xts_key k; } ours_xts;
        struct { hwc_cmac_ctx c; } ours_cmac;
#ifdef HWC_BENCH_HAVE_OPENSSL
        struct { EVP_CIPHER_CTX *ctx; EVP_MAC_CTX *mac; } ossl;
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        struct { mbedtls_aes_context aes; mbedtls_aes_xts_context xts; mbedtls_cipher_context_t cmac; } mbed;
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
        struct {
            union { struct aes128_ctx a128; struct aes256_ctx a256; } aes;
            union { struct xts_aes128_key x128; struct xts_aes256_key x256; } xts;
            union { struct cmac_aes128_ctx c128; struct cmac_aes256_ctx c256; } cmac;
        } nettle;
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
        struct { gcry_cipher_hd_t h; gcry_mac_hd_t m; } gcry;
#endif
    } u;
} acase;

static const uint8_t bench_key[64] = {
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
    0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45, 0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26};

/* ---- ours ------------------------------------------------------------------ */
static int ours_setup(acase *c, const char *kernel) {
    if (hwc_kernel_select("aes", kernel) != HWC_OK) return -1;
    int r;
    if (c->op == OP_XTS_ENC) r = hwc_aes_xts_setkey(&c->u.ours_xts.k, bench_key, 2 * c->key_len);
    else if (c->op == OP_CMAC) r = hwc_cmac_init(&c->u.ours_cmac.c, bench_key, c->key_len);
    else r = hwc_aes_setkey(&c->u.ours.k, bench_key, c->key_len);
    hwc_kernel_select("aes", NULL);
    return r == HWC_OK ? 0 : -1;
}

static void ours_run(void *arg, size_t iters) {
    acase *c = arg;
    const hwc_aes_key *k = &c->u.ours.k;
    uint8_t iv[16];
    for (size_t i = 0; i < iters; i++) {
        memcpy(iv, c->iv, 16);
        switch (c->op) {
        case OP_ECB_ENC: hwc_aes_ecb_encrypt(k, c->out, c->in, c->len); break;
        case OP_CBC_ENC: hwc_aes_cbc_encrypt(k, iv, c->out, c->in, c->len); break;
        case OP_CBC_DEC: hwc_aes_cbc_decrypt(k, iv, c->out, c->in, c->len); break;
        case OP_CTR: hwc_aes_ctr_crypt(k, iv, c->out, c->in, c->len); break;
        case OP_XTS_ENC: hwc_aes_xts_encrypt(&c->u.ours_xts.k, c->iv, c->out, c->in, c->len); break;
        case OP_CMAC:
            hwc_cmac_update(&c->u.ours_cmac.c, c->in, c->len);
            hwc_cmac_final(&c->u.ours_cmac.c, c->tag);
            break;
        }
    }
    hwc_bench_sink(c->out, c->len);
}

/* ---- OpenSSL (EVP, EVP_MAC) ---------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_OPENSSL
static int ossl_setup(acase *c) {
    if (c->op == OP_CMAC) {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
        if (!mac) return -1;
        c->u.ossl.mac = EVP_MAC_CTX_new(mac);
        EVP_MAC_free(mac);
        char cipher[16];
        snprintf(cipher, sizeof cipher, "AES-%u-CBC", 8 * c->key_len);
        OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
                               OSSL_PARAM_construct_end()};
        return c->u.ossl.mac && EVP_MAC_init(c->u.ossl.mac, bench_key, c->key_len, params) ? 0 : -1;
    }
    static const char *const modes[NOPS] = {"ECB", "CBC", "CBC", "CTR", "XTS", ""};
    char name[24];
    snprintf(name, sizeof name, "AES-%u-%s", 8 * c->key_len, modes[c->op]);
    EVP_CIPHER *ciph = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!ciph) return -1;
    c->u.ossl.ctx = EVP_CIPHER_CTX_new();
    int ok = c->u.ossl.ctx && EVP_CipherInit_ex(c->u.ossl.ctx, ciph, NULL, bench_key, c->iv,
                                                c->op != OP_CBC_DEC);
    EVP_CIPHER_free(ciph);
    if (ok) EVP_CIPHER_CTX_set_padding(c->u.ossl.ctx, 0);
    return ok ? 0 : -1;
}

static void ossl_run(void *arg, size_t iters) {
    acase *c = arg;
    int outl;
    for (size_t i = 0; i < iters; i++) {
        if (c->op == OP_CMAC) {
            size_t tl;
            EVP_MAC_init(c->u.ossl.mac, NULL, 0, NULL);   /* same key, new message */
            EVP_MAC_update(c->u.ossl.mac, c->in, c->len);
            EVP_MAC_final(c->u.ossl.mac, c->tag, &tl, sizeof c->tag);
            continue;
        }
        if (c->op != OP_ECB_ENC) EVP_CipherInit_ex(c->u.ossl.ctx, NULL, NULL, NULL, c->iv, -1);
        EVP_CipherUpdate(c->u.ossl.ctx, c->out, &outl, c->in, (int)c->len);
    }
    hwc_bench_sink(c->out, c->len);
}

static void ossl_free(acase *c) {
    if (c->op == OP_CMAC) EVP_MAC_CTX_free(c->u.ossl.mac);
    else EVP_CIPHER_CTX_free(c->u.ossl.ctx);
}
#endif

/* ---- mbedTLS 2.28 ---------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_MBEDTLS
static int mbed_setup(acase *c) {
    const unsigned bits = 8 * c->key_len;
    if (c->op == OP_CMAC) {
        mbedtls_cipher_init(&c->u.mbed.cmac);
        const mbedtls_cipher_info_t *ci = mbedtls_cipher_info_from_type(
            c->key_len == 16 ? MBEDTLS_CIPHER_AES_128_ECB : MBEDTLS_CIPHER_AES_256_ECB);
        if (!ci || mbedtls_cipher_setup(&c->u.mbed.cmac, ci)) return -1;
        return mbedtls_cipher_cmac_starts(&c->u.mbed.cmac, bench_key, bits) ? -1 : 0;
    }
    if (c->op == OP_XTS_ENC) {
        mbedtls_aes_xts_init(&c->u.mbed.xts);
        return mbedtls_aes_xts_setkey_enc(&c->u.mbed.xts, bench_key, 2 * bits) ? -1 : 0;
    }
    mbedtls_aes_init(&c->u.mbed.aes);
    if (c->op == OP_CBC_DEC) return mbedtls_aes_setkey_dec(&c->u.mbed.aes, bench_key, bits) ? -1 : 0;
    return mbedtls_aes_setkey_enc(&c->u.mbed.aes, bench_key, bits) ? -1 : 0;
}

static void mbed_run(void *arg, size_t iters) {
    acase *c = arg;
    unsigned char iv[16];
    for (size_t i = 0; i < iters; i++) {
        memcpy(iv, c->iv, 16);
        switch (c->op) {
        case OP_ECB_ENC:   /* the ECB API takes one block */
            for (size_t j = 0; j < c->len; j += 16)
                mbedtls_aes_crypt_ecb(&c->u.mbed.aes, MBEDTLS_AES_ENCRYPT, c->in + j, c->out + j);
            break;
        case OP_CBC_ENC:
            mbedtls_aes_crypt_cbc(&c->u.mbed.aes, MBEDTLS_AES_ENCRYPT, c->len, iv, c->in, c->out);
            break;
        case OP_CBC_DEC:
            mbedtls_aes_crypt_cbc(&c->u.mbed.aes, MBEDTLS_AES_DECRYPT, c->len, iv, c->in, c->out);
            break;
        case OP_CTR: {
            size_t off = 0;
            unsigned char stream[16];
            mbedtls_aes_crypt_ctr(&c->u.mbed.aes, c->len, &off, iv, stream, c->in, c->out);
            break;
        }
        case OP_XTS_ENC:
            mbedtls_aes_crypt_xts(&c->u.mbed.xts, MBEDTLS_AES_ENCRYPT, c->len, c->iv, c->in, c->out);
            break;
        case OP_CMAC:
            mbedtls_cipher_cmac_update(&c->u.mbed.cmac, c->in, c->len);
            mbedtls_cipher_cmac_finish(&c->u.mbed.cmac, c->tag);
            mbedtls_cipher_cmac_reset(&c->u.mbed.cmac);
            break;
        }
    }
    hwc_bench_sink(c->out, c->len);
}

static void mbed_free(acase *c) {
    if (c->op == OP_CMAC) mbedtls_cipher_free(&c->u.mbed.cmac);
    else if (c->op == OP_XTS_ENC) mbedtls_aes_xts_free(&c->u.mbed.xts);
    else mbedtls_aes_free(&c->u.mbed.aes);
}
#endif

/* ---- nettle 3.8 ------------------------------------------------------------------ */
#ifdef HWC_BENCH_HAVE_NETTLE
static int nettle_setup(acase *c) {
    const int k128 = c->key_len == 16;
    switch (c->op) {
    case OP_XTS_ENC:
        if (k128) xts_aes128_set_encrypt_key(&c->u.nettle.xts.x128, bench_key);
        else xts_aes256_set_encrypt_key(&c->u.nettle.xts.x256, bench_key);
        break;
    case OP_CMAC:
        if (k128) cmac_aes128_set_key(&c->u.nettle.cmac.c128, bench_key);
        else cmac_aes256_set_key(&c->u.nettle.cmac.c256, bench_key);
        break;
    case OP_CBC_DEC:
        if (k128) aes128_set_decrypt_key(&c->u.nettle.aes.a128, bench_key);
        else aes256_set_decrypt_key(&c->u.nettle.aes.a256, bench_key);
        break;
    default:
        if (k128) aes128_set_encrypt_key(&c->u.nettle.aes.a128, bench_key);
        else aes256_set_encrypt_key(&c->u.nettle.aes.a256, bench_key);
    }
    return 0;
}

static void nettle_run(void *arg, size_t iters) {
    acase *c = arg;
    const int k128 = c->key_len == 16;
    const void *a = &c->u.nettle.aes;
    nettle_cipher_func *enc = k128 ? (nettle_cipher_func *)aes128_encrypt : (nettle_cipher_func *)aes256_encrypt;
    nettle_cipher_func *dec = k128 ? (nettle_cipher_func *)aes128_decrypt : (nettle_cipher_func *)aes256_decrypt;
    uint8_t iv[16];
    for (size_t i = 0; i < iters; i++) {
        memcpy(iv, c->iv, 16);
        switch (c->op) {
        case OP_ECB_ENC: enc(a, c->len, c->out, c->in); break;
        case OP_CBC_ENC:
            if (k128) cbc_aes128_encrypt(&c->u.nettle.aes.a128, iv, c->len, c->out, c->in);
            else cbc_aes256_encrypt(&c->u.nettle.aes.a256, iv, c->len, c->out, c->in);
            break;
        case OP_CBC_DEC: cbc_decrypt(a, dec, 16, iv, c->len, c->out, c->in); break;
        case OP_CTR: ctr_crypt(a, enc, 16, iv, c->len, c->out, c->in); break;
        case OP_XTS_ENC:
            if (k128) xts_aes128_encrypt_message(&c->u.nettle.xts.x128, c->iv, c->len, c->out, c->in);
            else xts_aes256_encrypt_message(&c->u.nettle.xts.x256, c->iv, c->len, c->out, c->in);
            break;
        case OP_CMAC:
            if (k128) {
                cmac_aes128_update(&c->u.nettle.cmac.c128, c->len, c->in);
                cmac_aes128_digest(&c->u.nettle.cmac.c128, 16, c->tag);
            } else {
                cmac_aes256_update(&c->u.nettle.cmac.c256, c->len, c->in);
                cmac_aes256_digest(&c->u.nettle.cmac.c256, 16, c->tag);
            }
            break;
        }
    }
    hwc_bench_sink(c->out, c->len);
}
#endif

/* ---- libgcrypt ------------------------------------------------------------------- */
#ifdef HWC_BENCH_HAVE_GCRYPT
int hwc_bench_gcrypt_init(void) {
    static int inited;
    if (!inited) {
        if (!gcry_check_version(NULL)) return -1;
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
        inited = 1;
    }
    return 0;
}

static int gc_setup(acase *c) {
    if (hwc_bench_gcrypt_init() != 0) return -1;
    if (c->op == OP_CMAC) {
        if (gcry_mac_open(&c->u.gcry.m, GCRY_MAC_CMAC_AES, 0, NULL)) return -1;
        return gcry_mac_setkey(c->u.gcry.m, bench_key, c->key_len) ? -1 : 0;
    }
    static const int modes[NOPS] = {GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CBC,
                                    GCRY_CIPHER_MODE_CTR, GCRY_CIPHER_MODE_XTS, 0};
    if (gcry_cipher_open(&c->u.gcry.h, c->key_len == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256,
                         modes[c->op], 0))
        return -1;
    const size_t kl = c->op == OP_XTS_ENC ? 2 * c->key_len : c->key_len;
    return gcry_cipher_setkey(c->u.gcry.h, bench_key, kl) ? -1 : 0;
}

static void gc_run(void *arg, size_t iters) {
    acase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        switch (c->op) {
        case OP_CMAC: {
            size_t tl = 16;
            gcry_mac_write(c->u.gcry.m, c->in, c->len);
            gcry_mac_read(c->u.gcry.m, c->tag, &tl);
            gcry_mac_reset(c->u.gcry.m);
            break;
        }
        case OP_ECB_ENC: gcry_cipher_encrypt(c->u.gcry.h, c->out, c->len, c->in, c->len); break;
        case OP_CTR:
            gcry_cipher_setctr(c->u.gcry.h, c->iv, 16);
            gcry_cipher_encrypt(c->u.gcry.h, c->out, c->len, c->in, c->len);
            break;
        case OP_CBC_DEC:
            gcry_cipher_setiv(c->u.gcry.h, c->iv, 16);
            gcry_cipher_decrypt(c->u.gcry.h, c->out, c->len, c->in, c->len);
            break;
        default:   /* CBC-enc, XTS-enc */
            gcry_cipher_setiv(c->u.gcry.h, c->iv, 16);
            gcry_cipher_encrypt(c->u.gcry.h, c->out, c->len, c->in, c->len);
        }
    }
    hwc_bench_sink(c->out, c->len);
}

static void gc_free(acase *c) {
    if (c->op == OP_CMAC) gcry_mac_close(c->u.gcry.m);
    else gcry_cipher_close(c->u.gcry.h);
}
#endif

/* ---- groups ------------------------------------------------------------------------ */
enum { MAXCASES = 16 };
static uint8_t *g_in, *g_out;

static void size_label(char *buf, size_t n, size_t len) {
    const unsigned v = (unsigned)len;
    if (v >= (1u << 20) && v % (1u << 20) == 0) snprintf(buf, n, "%u MiB", v >> 20);
    else if (v >= 1024 && v % 1024 == 0) snprintf(buf, n, "%u KiB", v >> 10);
    else snprintf(buf, n, "%u B", v);
}

static void run_group(const hwc_bench_opts *o, int op, unsigned key_len, size_t len) {
    hwc_bench_case cases[MAXCASES];
    acase *args[MAXCASES];
    size_t n = 0;
    hwc_kernel_info ks[MAXCASES];
    size_t nk = hwc_kernels("aes", ks, MAXCASES);
    if (nk > MAXCASES) nk = MAXCASES;
    static const struct { int peer; const char *name; } peers[] = {
#ifdef HWC_BENCH_HAVE_OPENSSL
        {P_OPENSSL, "openssl " HWC_BENCH_OPENSSL_VERSION},
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        {P_MBEDTLS, "mbedtls " MBEDTLS_VERSION_STRING},
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
        {P_NETTLE, "nettle " HWC_BENCH_NETTLE_VERSION},
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
        {P_GCRYPT, "libgcrypt " HWC_BENCH_GCRYPT_VERSION},
#endif
        {P_OURS, NULL}};
    const size_t npeers = sizeof peers / sizeof peers[0] - 1;
    for (size_t i = 0; i < nk + npeers && n < MAXCASES; i++) {
        acase *c = aligned_alloc(64, (sizeof(acase) + 63) / 64 * 64);
        if (!c) break;
        memset(c, 0, sizeof *c);
        c->op = op;
        c->len = len;
        c->key_len = key_len;
        c->in = g_in;
        c->out = g_out;
        memcpy(c->iv, bench_key + 48, 16);
        int ok = -1;
        const char *impl = NULL, *kernel = NULL;
        void (*run)(void *, size_t) = NULL;
        if (i < nk) {
            if (!ks[i].usable) { free(c); continue; }
            c->peer = P_OURS;
            ok = ours_setup(c, ks[i].name);
            impl = kernel = ks[i].name;
            run = ours_run;
        } else {
            c->peer = peers[i - nk].peer;
            impl = peers[i - nk].name;
            switch (c->peer) {
#ifdef HWC_BENCH_HAVE_OPENSSL
            case P_OPENSSL: ok = ossl_setup(c); run = ossl_run; break;
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
            case P_MBEDTLS: ok = mbed_setup(c); run = mbed_run; break;
#endif
#ifdef HWC_BENCH_HAVE_NETTLE
            case P_NETTLE: ok = nettle_setup(c); run = nettle_run; break;
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
            case P_GCRYPT: ok = gc_setup(c); run = gc_run; break;
#endif
            default: break;
            }
        }
        if (ok != 0) {
            fprintf(stderr, "bench aes: %s: %s setup failed, skipped\n", impl, op_names[op]);
            free(c);
            continue;
        }
        args[n] = c;
        cases[n] = (hwc_bench_case){.impl = impl, .is_peer = c->peer != P_OURS, .kernel = kernel,
                                    .run = run, .arg = c};
        n++;
    }
    char opname[32], sz[32];
    if (op == OP_CMAC) snprintf(opname, sizeof opname, "cmac-aes%u", 8 * key_len);
    else snprintf(opname, sizeof opname, "aes%u-%s", 8 * key_len, op_names[op]);
    size_label(sz, sizeof sz, len);
    /* XTS: the size is the data unit; one data unit per operation */
    hwc_bench_group(o, "aes", opname, sz, (double)len, HWC_UNIT_BYTES, cases, n);
    for (size_t i = 0; i < n; i++) {
        acase *c = args[i];
        switch (c->peer) {
#ifdef HWC_BENCH_HAVE_OPENSSL
        case P_OPENSSL: ossl_free(c); break;
#endif
#ifdef HWC_BENCH_HAVE_MBEDTLS
        case P_MBEDTLS: mbed_free(c); break;
#endif
#ifdef HWC_BENCH_HAVE_GCRYPT
        case P_GCRYPT: gc_free(c); break;
#endif
        default: break;
        }
        hwc_wipe(c, sizeof *c);
        free(c);
    }
}

void hwc_bench_aes(const hwc_bench_opts *o) {
    static const size_t quick_sizes[] = {16, 1024, 65536};
    static const size_t full_sizes[] = {16, 64, 1024, 16384, 65536, 1u << 20};
    static const size_t quick_xts[] = {4096};
    static const size_t full_xts[] = {512, 4096, 16384};
    const size_t *sizes = o->quick ? quick_sizes : full_sizes;
    const size_t nsizes = o->quick ? 3 : 6;
    const size_t maxlen = (1u << 20) + 64;
    g_in = aligned_alloc(64, maxlen);
    g_out = aligned_alloc(64, maxlen);
    if (!g_in || !g_out) {
        fprintf(stderr, "bench aes: out of memory\n");
        free(g_in);
        free(g_out);
        return;
    }
    for (size_t i = 0; i < maxlen; i++) g_in[i] = (uint8_t)(i * 131 + 7);
    memset(g_out, 0, maxlen);
    for (int op = 0; op < NOPS; op++) {
        for (unsigned kl = 16; kl <= 32; kl += 16) {
            if (op == OP_XTS_ENC) {
                const size_t *du = o->quick ? quick_xts : full_xts;
                for (size_t i = 0; i < (o->quick ? 1u : 3u); i++) run_group(o, op, kl, du[i]);
                continue;
            }
            for (size_t i = 0; i < nsizes; i++) {
                const size_t len = sizes[i];
                /* CMAC also at 64 B in the quick run; CBC-enc and CMAC at 10000 B */
                if (op == OP_CMAC && o->quick && len == 1024) run_group(o, op, kl, 64);
                if ((op == OP_CBC_ENC || op == OP_CMAC) && len == 16384) run_group(o, op, kl, 10000);
                /* ECB at XTS's 4 KiB unit: that row's floor is this one plus
                   one block's AES latency, E_K2 of the tweak (docs/aes-batch.md) */
                if (op == OP_ECB_ENC && !o->quick && len == 16384) run_group(o, op, kl, 4096);
                run_group(o, op, kl, len);
                if ((op == OP_CBC_ENC || op == OP_CMAC) && o->quick && len == 1024)
                    run_group(o, op, kl, 10000);
            }
        }
    }
    free(g_in);
    free(g_out);
    hwc_bench_aes_many(o);
}
