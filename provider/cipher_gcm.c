/* Ciphers AES-{128,192,256}-GCM (NIST SP 800-38D) through the library's
 * streaming GCM, driven as OpenSSL's own: an update with no output buffer
 * is AAD, "ivlen" before the IV (12 by default, 1..128), the tag read after
 * encrypt final ("tag", 1..16 bytes) or set before decrypt final (a length
 * the library accepts: 4, 8, 12..16); a failed tag check fails final. A new
 * IV on the same context starts the next message. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

#define GCM_IV_MAX 128

typedef struct {
    hwc_aes_gcm_key key;
    hwc_aes_gcm_ctx msg;     /* msg.key points at key above */
    size_t keylen, ivlen, taglen;
    int enc, key_set, iv_set, started, tag_ready;
    uint8_t iv[GCM_IV_MAX];
    uint8_t tag[16];         /* encrypt: computed at final; decrypt: expected */
} gcm_ctx;

static void freectx(void *vc) { hwc_prov_free(vc, sizeof(gcm_ctx)); }

static void *dupctx(void *vc) {
    gcm_ctx *c = hwc_prov_copy(vc, sizeof(gcm_ctx));
    if (c) c->msg.key = &c->key;
    return c;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    gcm_ctx *c = vc;
    const OSSL_PARAM *p;
    size_t len;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN))) {
        if (!OSSL_PARAM_get_size_t(p, &len) || len == 0 || len > GCM_IV_MAX || c->started) {
            hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "GCM IV length: 1 to %d bytes, before the IV is set",
                           GCM_IV_MAX);
            return 0;
        }
        c->ivlen = len;
        c->iv_set = 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > 16 ||
            (p->data && c->enc)) {
            hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "GCM tag: 1 to 16 bytes, set only to decrypt");
            return 0;
        }
        if (p->data) memcpy(c->tag, p->data, p->data_size);
        c->taglen = p->data_size;
    }
    return hwc_prov_keylen_param(params, c->keylen);
}

static int init(gcm_ctx *c, int enc, const unsigned char *key, size_t keylen, const unsigned char *iv,
                size_t ivlen, const OSSL_PARAM params[]) {
    c->enc = enc;
    c->started = c->tag_ready = 0;
    if (!set_ctx_params(c, params)) return 0;
    if (iv) {
        if (ivlen != c->ivlen) {
            hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "GCM IV of %zu bytes, the context expects %zu", ivlen,
                           c->ivlen);
            return 0;
        }
        memcpy(c->iv, iv, ivlen);
        c->iv_set = 1;
    }
    if (key) {
        if (!hwc_prov_key_length(keylen, c->keylen)) return 0;
        if (!hwc_prov_check(hwc_aes_gcm_setkey(&c->key, key, keylen), "gcm setkey")) return 0;
        c->key_set = 1;
    }
    return 1;
}

HWC_PROV_CIPHER_INITS

/* The message starts at the first AAD, data or final after key and IV. */
static int start(gcm_ctx *c) {
    if (c->started) return 1;
    if (!c->key_set || !c->iv_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "GCM needs a key and an IV");
        return 0;
    }
    if (!hwc_prov_check(hwc_aes_gcm_init(&c->msg, &c->key, c->iv, c->ivlen), "gcm init")) return 0;
    c->started = 1;
    return 1;
}

static int update(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    gcm_ctx *c = vc;
    if (!start(c)) return 0;
    int st;
    if (!out) {
        st = hwc_aes_gcm_aad(&c->msg, in, inl);
    } else if (outsize < inl) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "%zu bytes of output space, %zu needed", outsize, inl);
        return 0;
    } else {
        st = c->enc ? hwc_aes_gcm_encrypt_update(&c->msg, out, in, inl)
                    : hwc_aes_gcm_decrypt_update(&c->msg, out, in, inl);
    }
    if (!hwc_prov_check(st, out ? "gcm data" : "gcm aad")) return 0;
    *outl = inl;
    return 1;
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    (void)out, (void)outsize;
    gcm_ctx *c = vc;
    *outl = 0;
    if (!start(c)) return 0;
    c->started = 0;   /* the library wipes the message state either way */
    if (c->enc) {
        if (!hwc_prov_check(hwc_aes_gcm_encrypt_final(&c->msg, c->tag, 16), "gcm final")) return 0;
        c->tag_ready = 1;
        return 1;
    }
    if (!c->taglen) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "GCM decrypt: no tag set before final");
        hwc_wipe(&c->msg, sizeof c->msg);
        return 0;
    }
    int st = hwc_aes_gcm_decrypt_final(&c->msg, c->tag, c->taglen);
    if (st == HWC_ERR_AUTH_FAILED) {
        hwc_prov_error(HWC_PROV_R_BAD_DECRYPT, "GCM tag does not verify");
        return 0;
    }
    if (st != HWC_OK) hwc_wipe(&c->msg, sizeof c->msg);   /* a refused tag length: the message is over */
    return hwc_prov_check(st, "gcm final (tag lengths 4, 8, 12 to 16)");
}

/* EVP_Cipher(): no input is final, no output buffer is AAD. */
static int cipher(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    return in ? update(vc, out, outl, outsize, in, inl) : final(vc, out, outl, outsize);
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    gcm_ctx *c = vc;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) &&
        !OSSL_PARAM_set_size_t(p, c->taglen ? c->taglen : 16))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
        if (!c->enc || !c->tag_ready || p->data_size == 0 || p->data_size > 16) {
            hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "GCM tag: 1 to 16 bytes, after encrypt final");
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, c->tag, p->data_size)) return 0;
    }
    return hwc_prov_cipher_ctx_params(params, c->keylen, c->ivlen, c->iv, c->iv);
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {HWC_PROV_CIPHER_CTX_PARAM_LIST,
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0), OSSL_PARAM_END};
    return p;
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_END};
    return p;
}

#define GCM_TABLE(bits)                                                                           \
    static void *newctx_##bits(void *provctx) {                                                   \
        (void)provctx;                                                                            \
        gcm_ctx *c = calloc(1, sizeof *c);                                                        \
        if (c) c->keylen = bits / 8, c->ivlen = 12;                                               \
        return c;                                                                                 \
    }                                                                                             \
    static int get_params_##bits(OSSL_PARAM params[]) {                                           \
        return hwc_prov_cipher_get_params(params, EVP_CIPH_GCM_MODE, bits / 8, 12, 1,             \
                                          HWC_PROV_AEAD | HWC_PROV_CUSTOM_IV);                    \
    }                                                                                             \
    const OSSL_DISPATCH hwc_prov_aes##bits##gcm_functions[] =                                     \
        HWC_PROV_CIPHER_DISPATCH(newctx_##bits, get_params_##bits);

GCM_TABLE(128)
GCM_TABLE(192)
GCM_TABLE(256)
