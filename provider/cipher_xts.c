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

static void *dupctx(void *vc) {
    xts_ctx *c = malloc(sizeof *c);
    if (c) memcpy(c, vc, sizeof *c);
    return c;
}

static int init(xts_ctx *c, int enc, const unsigned char *key, size_t keylen, const unsigned char *iv,
                size_t ivlen) {
    c->enc = enc;
    if (iv) {
        if (ivlen != 16) {
            hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "XTS IV length %zu, want 16", ivlen);
            return 0;
        }
        memcpy(c->iv, iv, 16);
        c->iv_set = 1;
    }
    if (key) {
        if (keylen != c->keylen) {
            hwc_prov_error(HWC_ERR_KEY_LENGTH, "XTS key of %zu bytes, want %zu", keylen, c->keylen);
            return 0;
        }
        if (!hwc_prov_check(hwc_aes_xts_setkey(&c->key, key, keylen), "xts setkey (equal halves?)")) return 0;
        c->key_set = 1;
    }
    return 1;
}

static int einit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                 const OSSL_PARAM params[]) {
    (void)params;
    return init(vc, 1, key, keylen, iv, ivlen);
}
static int dinit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                 const OSSL_PARAM params[]) {
    (void)params;
    return init(vc, 0, key, keylen, iv, ivlen);
}

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

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    (void)vc, (void)out, (void)outsize;
    *outl = 0;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    xts_ctx *c = vc;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, 16)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, c->keylen)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) && !OSSL_PARAM_set_octet_string(p, c->iv, 16))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) && !OSSL_PARAM_set_octet_string(p, c->iv, 16))
        return 0;
    return 1;
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0), OSSL_PARAM_END};
    return p;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    xts_ctx *c = vc;
    const OSSL_PARAM *p = params ? OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN) : NULL;
    size_t len;
    if (p && (!OSSL_PARAM_get_size_t(p, &len) || len != c->keylen)) {
        hwc_prov_error(HWC_ERR_KEY_LENGTH, "XTS key length is fixed at %zu bytes", c->keylen);
        return 0;
    }
    return 1;
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
        return hwc_prov_cipher_get_params(params, EVP_CIPH_XTS_MODE, 2 * bits / 8, 16, 1, 1);    \
    }                                                                                            \
    const OSSL_DISPATCH hwc_prov_aes##bits##xts_functions[] = {                                  \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))newctx_##bits},                                \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))freectx},                                     \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))dupctx},                                       \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))einit},                                  \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))dinit},                                  \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))update},                                       \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))final},                                         \
        {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))update},                                       \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))get_params_##bits},                        \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))hwc_prov_cipher_gettable_params},     \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},                       \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gettable_ctx_params},             \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},                       \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_params},             \
        {0, NULL}};

XTS_TABLE(128)
XTS_TABLE(256)
