/* MAC "HMAC" (RFC 2104) over STREEBOG-256/512 (RFC 7836 section 4.1.1)
 * through the library's streaming HMAC; the keyed state is kept so that an
 * init without a key starts a new message under the same key.
 * Another digest (a user's HMAC-SHA256 where this provider is configured
 * next to the default one) is handed to the HMAC of the other providers
 * (see HWC_PROV_ELSEWHERE_LIBCTX), so loading hwcrypt never breaks it. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_prov_ctx *pc;
    unsigned bits;          /* digest chosen: 256/512; 0 = none yet or another digest */
    hwc_hmac_streebog_ctx keyed, run;
    int keyed_set, running;
    EVP_MAC_CTX *other;     /* HMAC of another provider, for another digest */
} hmac_ctx;

static void *newctx(void *provctx) {
    hmac_ctx *c = calloc(1, sizeof *c);
    if (c) c->pc = provctx;
    return c;
}

static void freectx(void *vc) {
    hmac_ctx *c = vc;
    if (c) EVP_MAC_CTX_free(c->other);
    hwc_prov_free(c, sizeof *c);
}

static void *dupctx(void *vc) {
    hmac_ctx *c = malloc(sizeof *c);
    if (!c) return NULL;
    memcpy(c, vc, sizeof *c);
    if (c->other && !(c->other = EVP_MAC_CTX_dup(c->other))) {
        hwc_prov_free(c, sizeof *c);
        return NULL;
    }
    return c;
}

/* digest=NAME: a Streebog digest here, anything else to the other providers */
static int set_digest(hmac_ctx *c, const char *name, const OSSL_PARAM params[]) {
    size_t size = hwc_prov_streebog_size(name);
    EVP_MAC_CTX_free(c->other);
    c->other = NULL;
    c->running = c->keyed_set = 0;
    c->bits = (unsigned)size * 8;
    if (size) return 1;
    EVP_MAC *mac = EVP_MAC_fetch(HWC_PROV_ELSEWHERE_LIBCTX, "HMAC", HWC_PROV_ELSEWHERE_PROPS);
    c->other = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac);
    if (!c->other || !EVP_MAC_CTX_set_params(c->other, params)) {
        hwc_prov_error(HWC_PROV_R_UNSUPPORTED, "HMAC digest '%s': not Streebog, and no other provider's HMAC takes it",
                       name);
        EVP_MAC_CTX_free(c->other);
        c->other = NULL;
        return 0;
    }
    return 1;
}

static int set_key(hmac_ctx *c, const unsigned char *key, size_t len) {
    if (!c->bits) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "HMAC: set the digest before the key");
        return 0;
    }
    if (!hwc_prov_check(hwc_hmac_streebog_init(&c->keyed, c->bits, key, len), "hmac init")) return 0;
    c->run = c->keyed;
    c->keyed_set = c->running = 1;
    return 1;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    hmac_ctx *c = vc;
    const OSSL_PARAM *p;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_DIGEST))) {
        const char *name;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || !set_digest(c, name, params)) return 0;
    } else if (c->other && !EVP_MAC_CTX_set_params(c->other, params)) {
        return 0;
    }
    if (c->other) return 1;   /* the other HMAC has taken every parameter */
    const void *key;
    size_t len;
    int has_key = hwc_prov_key_param(params, &key, &len);
    return has_key == 0 || (has_key == 1 && set_key(c, key, len));
}

static int init(void *vc, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    hmac_ctx *c = vc;
    if (!set_ctx_params(c, params)) return 0;
    if (c->other) return EVP_MAC_init(c->other, key, keylen, NULL);
    if (key) return set_key(c, key, keylen);
    if (!c->keyed_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "HMAC: no key");
        return 0;
    }
    c->run = c->keyed;   /* same key, new message */
    c->running = 1;
    return 1;
}

static int update(void *vc, const unsigned char *in, size_t inl) {
    hmac_ctx *c = vc;
    if (c->other) return EVP_MAC_update(c->other, in, inl);
    if (!c->running) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "HMAC update before init");
        return 0;
    }
    return hwc_prov_check(hwc_hmac_streebog_update(&c->run, in, inl), "hmac update");
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    hmac_ctx *c = vc;
    if (c->other) return EVP_MAC_final(c->other, out, outl, outsize);
    if (!c->running) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "HMAC final before init");
        return 0;
    }
    if (outsize < c->bits / 8) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "HMAC needs %u bytes", c->bits / 8);
        return 0;
    }
    c->running = 0;
    if (!hwc_prov_check(hwc_hmac_streebog_final(&c->run, out), "hmac final")) return 0;
    *outl = c->bits / 8;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    hmac_ctx *c = vc;
    if (c->other) return EVP_MAC_CTX_get_params(c->other, params);
    return hwc_prov_mac_sizes(params, c->bits / 8, 64);
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_DIGEST, NULL, 0),
                                   OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0), OSSL_PARAM_END};
    return p;
}

const OSSL_DISPATCH hwc_prov_hmac_functions[] = HWC_PROV_MAC_DISPATCH;
