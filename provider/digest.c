/* STREEBOG-256/512 (GOST R 34.11-2012, RFC 6986) as OpenSSL digests:
 * streaming over hwc_streebog_*, dupctx copies the running state. */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_streebog_ctx h;
    unsigned bits;
} digest_ctx;

size_t hwc_prov_streebog_size(const char *name) {
    static const struct { const char *name; size_t size; } names[] = {
        {"STREEBOG-256", 32}, {"md_gost12_256", 32}, {"id-tc26-gost3411-12-256", 32}, {"1.2.643.7.1.1.2.2", 32},
        {"STREEBOG-512", 64}, {"md_gost12_512", 64}, {"id-tc26-gost3411-12-512", 64}, {"1.2.643.7.1.1.2.3", 64}};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (!OPENSSL_strcasecmp(name, names[i].name)) return names[i].size;
    return 0;
}

static void *newctx(unsigned bits) {
    digest_ctx *c = calloc(1, sizeof *c);
    if (c) c->bits = bits;
    return c;
}
static void *newctx256(void *provctx) { (void)provctx; return newctx(256); }
static void *newctx512(void *provctx) { (void)provctx; return newctx(512); }

static void freectx(void *vc) { hwc_prov_free(vc, sizeof(digest_ctx)); }

static void *dupctx(void *vc) { return hwc_prov_copy(vc, sizeof(digest_ctx)); }

static int init(void *vc, const OSSL_PARAM params[]) {
    (void)params;
    digest_ctx *c = vc;
    return hwc_prov_check(hwc_streebog_init(&c->h, c->bits), "streebog init");
}

static int update(void *vc, const unsigned char *in, size_t inl) {
    return hwc_prov_check(hwc_streebog_update(&((digest_ctx *)vc)->h, in, inl), "streebog update");
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsz) {
    digest_ctx *c = vc;
    if (outsz < c->bits / 8) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "digest needs %u bytes", c->bits / 8);
        return 0;
    }
    if (!hwc_prov_check(hwc_streebog_final(&c->h, out), "streebog final")) return 0;
    *outl = c->bits / 8;
    return 1;
}

static int get_params(OSSL_PARAM params[], unsigned bits) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, 64)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, bits / 8)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) && !OSSL_PARAM_set_int(p, 0)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) && !OSSL_PARAM_set_int(p, 0)) return 0;
    return 1;
}
static int get_params256(OSSL_PARAM params[]) { return get_params(params, 256); }
static int get_params512(OSSL_PARAM params[]) { return get_params(params, 512); }

static const OSSL_PARAM *gettable_params(void *provctx) {
    (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
                                   OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
                                   OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
                                   OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL), OSSL_PARAM_END};
    return p;
}

#define DIGEST_TABLE(bits)                                                                  \
    const OSSL_DISPATCH hwc_prov_streebog##bits##_functions[] = {                           \
        {OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))newctx##bits},                            \
        {OSSL_FUNC_DIGEST_INIT, (void (*)(void))init},                                      \
        {OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))update},                                  \
        {OSSL_FUNC_DIGEST_FINAL, (void (*)(void))final},                                    \
        {OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))freectx},                                \
        {OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))dupctx},                                  \
        {OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))get_params##bits},                    \
        {OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))gettable_params},                \
        {0, NULL}};
DIGEST_TABLE(256)
DIGEST_TABLE(512)
