/* KDF "PBKDF2" (RFC 8018 section 5.2) with PRF HMAC-STREEBOG-512 through
 * hwc_pbkdf2_streebog512 (R 50.1.111-2016 section 4) and HMAC-STREEBOG-256
 * from the library's streaming HMAC. Parameters as OpenSSL's PBKDF2: pass, salt,
 * iter, digest, properties, pkcs5 (0 = SP 800-132 lower bounds). Another
 * digest (OpenSSL's default is SHA1) is derived by the other providers'
 * PBKDF2 (see HWC_PROV_ELSEWHERE_LIBCTX). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_prov_ctx *pc;
    unsigned char *pass, *salt;
    size_t pass_len, salt_len;
    uint64_t iter;
    int pkcs5;              /* 1: no lower bounds (OpenSSL's default); 0: SP 800-132 checks */
    char digest[64];
} pbkdf2_ctx;

static void *newctx(void *provctx) {
    pbkdf2_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->pc = provctx;
    c->iter = 2048;         /* OpenSSL's PKCS5_DEFAULT_ITER */
    c->pkcs5 = 1;
    strcpy(c->digest, "SHA1");
    return c;
}

static void reset(void *vc) {
    pbkdf2_ctx *c = vc;
    hwc_prov_free(c->pass, c->pass_len);
    hwc_prov_free(c->salt, c->salt_len);
    hwc_prov_ctx *pc = c->pc;
    memset(c, 0, sizeof *c);
    c->pc = pc;
    c->iter = 2048;
    c->pkcs5 = 1;
    strcpy(c->digest, "SHA1");
}

static void freectx(void *vc) {
    if (!vc) return;
    reset(vc);
    free(vc);
}

static int dup_bytes(unsigned char **dst, const void *src, size_t len) {
    *dst = malloc(len ? len : 1);
    if (*dst && len) memcpy(*dst, src, len);
    return *dst != NULL;
}

static void *dupctx(void *vc) {
    const pbkdf2_ctx *s = vc;
    pbkdf2_ctx *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *s;
    c->pass = c->salt = NULL;
    if ((s->pass && !dup_bytes(&c->pass, s->pass, s->pass_len)) ||
        (s->salt && !dup_bytes(&c->salt, s->salt, s->salt_len))) {
        freectx(c);
        return NULL;
    }
    return c;
}

static int set_octets(const OSSL_PARAM *p, unsigned char **dst, size_t *len) {
    const void *v;
    size_t n;
    unsigned char *copy;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &n) || !dup_bytes(&copy, v, n)) return 0;
    hwc_prov_free(*dst, *len);
    *dst = copy;
    *len = n;
    return 1;
}

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    pbkdf2_ctx *c = vc;
    const OSSL_PARAM *p;
    const char *name;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_PKCS5)) && !OSSL_PARAM_get_int(p, &c->pkcs5)) return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_DIGEST))) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strlen(name) >= sizeof c->digest) return 0;
        strcpy(c->digest, name);
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_PASSWORD)) && !set_octets(p, &c->pass, &c->pass_len))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_SALT)) && !set_octets(p, &c->salt, &c->salt_len))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_ITER)) && !OSSL_PARAM_get_uint64(p, &c->iter)) return 0;
    return 1;
}

/* PBKDF2 with HMAC-STREEBOG-256 (RFC 8018 5.2: T_i = U_1 ^ ... ^ U_c), each
   HMAC from a copy of the keyed state. */
static int pbkdf2_256(const pbkdf2_ctx *c, unsigned char *out, size_t len) {
    hwc_hmac_streebog_ctx keyed, run;
    uint8_t u[32], t[32];
    int ok = hwc_prov_check(hwc_hmac_streebog_init(&keyed, 256, c->pass, c->pass_len), "pbkdf2");
    for (uint32_t i = 1; ok && len; i++) {
        uint8_t be[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
        run = keyed;
        ok = hwc_hmac_streebog_update(&run, c->salt, c->salt_len) == HWC_OK &&
             hwc_hmac_streebog_update(&run, be, 4) == HWC_OK && hwc_hmac_streebog_final(&run, u) == HWC_OK;
        memcpy(t, u, 32);
        for (uint64_t j = 1; ok && j < c->iter; j++) {
            run = keyed;
            ok = hwc_hmac_streebog_update(&run, u, 32) == HWC_OK && hwc_hmac_streebog_final(&run, u) == HWC_OK;
            for (int b = 0; b < 32; b++) t[b] ^= u[b];
        }
        size_t n = len < 32 ? len : 32;
        if (ok) memcpy(out, t, n);
        out += n;
        len -= n;
    }
    hwc_wipe(&keyed, sizeof keyed);
    hwc_wipe(&run, sizeof run);
    hwc_wipe(u, sizeof u);
    hwc_wipe(t, sizeof t);
    return ok;
}

/* Any other digest: the other providers' PBKDF2 with the same parameters. */
static int derive_elsewhere(const pbkdf2_ctx *c, unsigned char *key, size_t keylen) {
    EVP_KDF *kdf = EVP_KDF_fetch(HWC_PROV_ELSEWHERE_LIBCTX, "PBKDF2", HWC_PROV_ELSEWHERE_PROPS);
    EVP_KDF_CTX *k = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
    EVP_KDF_free(kdf);
    int pkcs5 = c->pkcs5;
    uint64_t iter = c->iter;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)c->digest, 0),
        OSSL_PARAM_octet_string(OSSL_KDF_PARAM_PASSWORD, c->pass, c->pass_len),
        OSSL_PARAM_octet_string(OSSL_KDF_PARAM_SALT, c->salt, c->salt_len),
        OSSL_PARAM_uint64(OSSL_KDF_PARAM_ITER, &iter), OSSL_PARAM_int(OSSL_KDF_PARAM_PKCS5, &pkcs5),
        OSSL_PARAM_END};
    int ok = k && EVP_KDF_derive(k, key, keylen, params);
    if (!k) hwc_prov_error(HWC_PROV_R_UNSUPPORTED, "PBKDF2 digest '%s': not Streebog, and no other provider's PBKDF2",
                           c->digest);
    EVP_KDF_CTX_free(k);
    return ok;
}

static int derive(void *vc, unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    pbkdf2_ctx *c = vc;
    if (!set_ctx_params(c, params)) return 0;
    if (!c->pass || !c->salt) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "PBKDF2: missing %s", c->pass ? "salt" : "pass");
        return 0;
    }
    size_t size = hwc_prov_streebog_size(c->digest);
    if (!size) return derive_elsewhere(c, key, keylen);
    if (keylen == 0 || c->iter == 0 ||
        (c->pkcs5 == 0 && (keylen * 8 < 112 || c->salt_len < 16 || c->iter < 1000))) {
        hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "PBKDF2: key length %zu, salt length %zu, iterations %llu%s",
                       keylen, c->salt_len, (unsigned long long)c->iter,
                       c->pkcs5 == 0 ? " (SP 800-132 wants >= 14, >= 16, >= 1000)" : "");
        return 0;
    }
    if (size == 32) return pbkdf2_256(c, key, keylen);
    if (c->iter > UINT32_MAX) {
        hwc_prov_error(HWC_PROV_R_UNSUPPORTED, "PBKDF2: more than 2^32-1 iterations");
        return 0;
    }
    return hwc_prov_check(hwc_pbkdf2_streebog512(c->pass, c->pass_len, c->salt, c->salt_len, (uint32_t)c->iter,
                                                 key, keylen),
                          "pbkdf2");
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    (void)vc;
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_KDF_PARAM_SIZE);
    return !p || OSSL_PARAM_set_size_t(p, SIZE_MAX);
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_KDF_PARAM_SIZE, NULL), OSSL_PARAM_END};
    return p;
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_PROPERTIES, NULL, 0),
                                   OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_DIGEST, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_KDF_PARAM_PASSWORD, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_KDF_PARAM_SALT, NULL, 0),
                                   OSSL_PARAM_uint64(OSSL_KDF_PARAM_ITER, NULL),
                                   OSSL_PARAM_int(OSSL_KDF_PARAM_PKCS5, NULL), OSSL_PARAM_END};
    return p;
}

const OSSL_DISPATCH hwc_prov_pbkdf2_functions[] = {
    {OSSL_FUNC_KDF_NEWCTX, (void (*)(void))newctx},
    {OSSL_FUNC_KDF_DUPCTX, (void (*)(void))dupctx},
    {OSSL_FUNC_KDF_FREECTX, (void (*)(void))freectx},
    {OSSL_FUNC_KDF_RESET, (void (*)(void))reset},
    {OSSL_FUNC_KDF_DERIVE, (void (*)(void))derive},
    {OSSL_FUNC_KDF_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_params},
    {OSSL_FUNC_KDF_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},
    {OSSL_FUNC_KDF_GETTABLE_CTX_PARAMS, (void (*)(void))gettable_ctx_params},
    {OSSL_FUNC_KDF_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},
    {0, NULL}};
