/* MAC "CMAC" (SP 800-38B, RFC 4493) with cipher=AES-128-CBC, AES-192-CBC or
 * AES-256-CBC, as OpenSSL's CMAC is driven: "cipher" then the key; init
 * without a key starts a new message under the same key. */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_cmac_ctx cmac;
    size_t keylen;           /* from the cipher name; 0 = no cipher yet */
    uint8_t key[32];         /* kept for init without a key */
    int key_set;
} cmac_ctx;

static void *newctx(void *provctx) {
    (void)provctx;
    return calloc(1, sizeof(cmac_ctx));
}

static void freectx(void *vc) { hwc_prov_free(vc, sizeof(cmac_ctx)); }

static void *dupctx(void *vc) { return hwc_prov_copy(vc, sizeof(cmac_ctx)); }

static int set_key(cmac_ctx *c, const unsigned char *key, size_t len) {
    if (!key) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "CMAC: no key");
        return 0;
    }
    if (!c->keylen) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "CMAC: set the cipher (AES-*-CBC) before the key");
        return 0;
    }
    if (len != c->keylen) {
        hwc_prov_error(HWC_ERR_KEY_LENGTH, "CMAC key of %zu bytes, the cipher wants %zu", len, c->keylen);
        return 0;
    }
    if (!hwc_prov_check(hwc_cmac_init(&c->cmac, key, len), "cmac init")) return 0;
    memcpy(c->key, key, len);
    c->key_set = 1;
    return 1;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    cmac_ctx *c = vc;
    const OSSL_PARAM *p;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CIPHER))) {
        static const struct { const char *name; size_t keylen; } ok[] = {
            {"AES-128-CBC", 16}, {"AES-192-CBC", 24}, {"AES-256-CBC", 32},
            {"AES128", 16}, {"AES192", 24}, {"AES256", 32}};
        const char *name;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name)) return 0;
        size_t keylen = 0;
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
            if (!OPENSSL_strcasecmp(name, ok[i].name)) keylen = ok[i].keylen;
        if (!keylen) {
            hwc_prov_error(HWC_PROV_R_UNSUPPORTED, "CMAC cipher '%s' (AES-128-CBC, AES-192-CBC, AES-256-CBC)", name);
            return 0;
        }
        c->keylen = keylen;
        c->key_set = 0;
    }
    const void *key;
    size_t len;
    int has_key = hwc_prov_key_param(params, &key, &len);
    return has_key == 0 || (has_key == 1 && set_key(c, key, len));
}

static int init(void *vc, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    cmac_ctx *c = vc;
    if (!set_ctx_params(c, params)) return 0;
    if (!key && c->key_set) {   /* same key, new message */
        key = c->key;
        keylen = c->keylen;
    }
    return set_key(c, key, keylen);
}

static int update(void *vc, const unsigned char *in, size_t inl) {
    cmac_ctx *c = vc;
    if (!c->key_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "CMAC update before init");
        return 0;
    }
    return hwc_prov_check(hwc_cmac_update(&c->cmac, in, inl), "cmac update");
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    cmac_ctx *c = vc;
    if (!c->key_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "CMAC final before init");
        return 0;
    }
    if (outsize < 16) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "CMAC needs 16 bytes");
        return 0;
    }
    if (!hwc_prov_check(hwc_cmac_final(&c->cmac, out), "cmac final")) return 0;
    *outl = 16;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    (void)vc;
    return hwc_prov_mac_sizes(params, 16, 16);
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
                                   OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0), OSSL_PARAM_END};
    return p;
}

const OSSL_DISPATCH hwc_prov_cmac_functions[] = HWC_PROV_MAC_DISPATCH;
