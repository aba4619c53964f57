/* MAC "HMAC" (RFC 2104) over STREEBOG-256/512 (RFC 7836 section 4.1.1).
 * Another digest (a user's HMAC-SHA256 where this provider is configured
 * next to the default one) is handed to the HMAC of the other providers
 * (see HWC_PROV_ELSEWHERE_LIBCTX), so loading hwcrypt never breaks it. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

int hwc_prov_hmac_setkey(hwc_prov_hmac_key *k, unsigned bits, const unsigned char *key, size_t len) {
    uint8_t block[64] = {0}, pad[64];
    hwc_streebog_ctx h;
    int st = HWC_OK;
    if (len > sizeof block) st = hwc_streebog(bits, key, len, block);   /* K = H(K) */
    else if (len) memcpy(block, key, len);
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
    if (st == HWC_OK) st = hwc_streebog_init(&h, bits);
    if (st == HWC_OK) st = hwc_streebog_update(&h, pad, 64);
    if (st == HWC_OK) k->inner = h;
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
    if (st == HWC_OK) st = hwc_streebog_init(&h, bits);
    if (st == HWC_OK) st = hwc_streebog_update(&h, pad, 64);
    if (st == HWC_OK) k->outer = h;
    k->bits = st == HWC_OK ? bits : 0;
    hwc_wipe(block, sizeof block);
    hwc_wipe(pad, sizeof pad);
    hwc_wipe(&h, sizeof h);
    return hwc_prov_check(st, "hmac key");
}

int hwc_prov_hmac_end(const hwc_prov_hmac_key *k, hwc_streebog_ctx *run, unsigned char *mac) {
    uint8_t ih[64];
    hwc_streebog_ctx o = k->outer;
    int st = hwc_streebog_final(run, ih);
    if (st == HWC_OK) st = hwc_streebog_update(&o, ih, k->bits / 8);
    if (st == HWC_OK) st = hwc_streebog_final(&o, mac);
    hwc_wipe(ih, sizeof ih);
    hwc_wipe(&o, sizeof o);
    return hwc_prov_check(st, "hmac final");
}

typedef struct {
    hwc_prov_ctx *pc;
    unsigned bits;          /* digest chosen: 256/512; 0 = none yet or another digest */
    hwc_prov_hmac_key key;
    hwc_streebog_ctx run;
    int running;
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
    c->running = 0;
    c->key.bits = 0;
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
    if (!hwc_prov_hmac_setkey(&c->key, c->bits, key, len)) return 0;
    c->run = c->key.inner;
    c->running = 1;
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
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY))) {
        const void *key;
        size_t len;
        if (!OSSL_PARAM_get_octet_string_ptr(p, &key, &len) || !set_key(c, key, len)) return 0;
    }
    return 1;
}

static int init(void *vc, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    hmac_ctx *c = vc;
    if (!set_ctx_params(c, params)) return 0;
    if (c->other) return EVP_MAC_init(c->other, key, keylen, NULL);
    if (key) return set_key(c, key, keylen);
    if (!c->key.bits) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "HMAC: no key");
        return 0;
    }
    c->run = c->key.inner;   /* same key, new message */
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
    return hwc_prov_check(hwc_streebog_update(&c->run, in, inl), "hmac update");
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
    if (!hwc_prov_hmac_end(&c->key, &c->run, out)) return 0;
    *outl = c->bits / 8;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    hmac_ctx *c = vc;
    if (c->other) return EVP_MAC_CTX_get_params(c->other, params);
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, c->bits / 8)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, 64)) return 0;
    return 1;
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
                                   OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL), OSSL_PARAM_END};
    return p;
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_DIGEST, NULL, 0),
                                   OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0), OSSL_PARAM_END};
    return p;
}

const OSSL_DISPATCH hwc_prov_hmac_functions[] = {
    {OSSL_FUNC_MAC_NEWCTX, (void (*)(void))newctx},
    {OSSL_FUNC_MAC_DUPCTX, (void (*)(void))dupctx},
    {OSSL_FUNC_MAC_FREECTX, (void (*)(void))freectx},
    {OSSL_FUNC_MAC_INIT, (void (*)(void))init},
    {OSSL_FUNC_MAC_UPDATE, (void (*)(void))update},
    {OSSL_FUNC_MAC_FINAL, (void (*)(void))final},
    {OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},
    {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))gettable_ctx_params},
    {OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},
    {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_params},
    {0, NULL}};
