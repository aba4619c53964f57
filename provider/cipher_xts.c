/* Ciphers AES-128-XTS and AES-256-XTS (IEEE 1619, SP 800-38E) as OpenSSL's
 * own: the 16-byte IV is the tweak, every update call is one data unit of
 * 16 bytes to 2^24 bytes (ciphertext stealing for a partial last block),
 * the key is data key || tweak key and equal halves are refused. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_aes_xts_key key;
    size_t keylen;           /* 32 or 64: both halves */
    int enc, key_set, iv_set;
    uint8_t iv[16];
} xts_ctx;

static void freectx(void *vc) { hwc_prov_free(vc, sizeof(xts_ctx)); }

static void *dupctx(void *vc) { return hwc_prov_copy(vc, sizeof(xts_ctx)); }

static int init(xts_ctx *c, int enc, const unsigned char *key, size_t keylen, const unsigned char *iv,
                size_t ivlen, const OSSL_PARAM params[]) {
    c->enc = enc;
    if (!hwc_prov_set_iv(iv, ivlen, c->iv, NULL)) return 0;
    c->iv_set |= iv != NULL;
    if (key) {
        if (!hwc_prov_key_length(keylen, c->keylen)) return 0;
        if (!hwc_prov_check(hwc_aes_xts_setkey(&c->key, key, keylen), "xts setkey (equal halves?)")) return 0;
        c->key_set = 1;
    }
    return hwc_prov_keylen_param(params, c->keylen);
}

HWC_PROV_CIPHER_INITS

static int update(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    xts_ctx *c = vc;
    if (!c->key_set || !c->iv_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "XTS needs a key and an IV");
        return 0;
    }
    if (outsize < inl) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "%zu bytes of output space, %zu needed", outsize, inl);
        return 0;
    }
    int st = c->enc ? hwc_aes_xts_encrypt(&c->key, c->iv, out, in, inl)
                    : hwc_aes_xts_decrypt(&c->key, c->iv, out, in, inl);
    if (!hwc_prov_check(st, "xts (a data unit is 16 to 2^24 bytes)")) return 0;
    *outl = inl;
    return 1;
}

/* EVP_Cipher(): one data unit, as update. */
static int cipher(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    return update(vc, out, outl, outsize, in, inl);
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    (void)vc, (void)out, (void)outsize;
    *outl = 0;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    xts_ctx *c = vc;
    return hwc_prov_cipher_ctx_params(params, c->keylen, 16, c->iv, c->iv);
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {HWC_PROV_CIPHER_CTX_PARAM_LIST, OSSL_PARAM_END};
    return p;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    return hwc_prov_keylen_param(params, ((xts_ctx *)vc)->keylen);
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_END};
    return p;
}

#define XTS_TABLE(bits)                                                                          \
    static void *newctx_##bits(void *provctx) {                                                  \
        (void)provctx;                                                                           \
        xts_ctx *c = calloc(1, sizeof *c);                                                       \
        if (c) c->keylen = 2 * bits / 8;                                                         \
        return c;                                                                                \
    }                                                                                            \
    static int get_params_##bits(OSSL_PARAM params[]) {                                          \
        return hwc_prov_cipher_get_params(params, EVP_CIPH_XTS_MODE, 2 * bits / 8, 16, 1, HWC_PROV_CUSTOM_IV); \
    }                                                                                            \
    const OSSL_DISPATCH hwc_prov_aes##bits##xts_functions[] =                                 \
        HWC_PROV_CIPHER_DISPATCH(newctx_##bits, get_params_##bits);

XTS_TABLE(128)
XTS_TABLE(256)
