/* hwcrypt OpenSSL 3 provider: entry point, provider parameters, the
 * algorithm lists and errors. Properties of every algorithm: provider=hwcrypt.
 * AES algorithms (ECB, CBC, CTR, XTS, GCM, CMAC) are offered only when a hardware AES kernel is active (on a
 * CPU without one, OpenSSL's default provider is faster: the QAT provider's
 * rule); Streebog, HMAC and PBKDF2 always. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/provider.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;
static const OSSL_CORE_HANDLE *g_handle;

static void verror(const char *file, int line, const char *func, int reason, const char *fmt, va_list ap) {
    if (!c_new_error || !c_vset_error) return;
    c_new_error(g_handle);
    if (c_set_error_debug) c_set_error_debug(g_handle, file, line, func);
    c_vset_error(g_handle, reason < 0 ? -reason : reason, fmt, ap);
}

void hwc_prov_error_at(const char *file, int line, const char *func, int reason, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verror(file, line, func, reason, fmt, ap);
    va_end(ap);
}

int hwc_prov_check_at(const char *file, int line, const char *func, int status, const char *what) {
    if (status == HWC_OK) return 1;
    hwc_prov_error_at(file, line, func, status, "%s: %s", what, hwc_strerror(status));
    return 0;
}

void hwc_prov_free(void *p, size_t len) {
    if (!p) return;
    hwc_wipe(p, len);
    free(p);
}

void *hwc_prov_copy(const void *ctx, size_t len) {
    void *c = malloc(len);
    if (c) memcpy(c, ctx, len);
    return c;
}

int hwc_prov_mac_sizes(OSSL_PARAM params[], size_t size, size_t block) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, size)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, block)) return 0;
    return 1;
}

const OSSL_PARAM *hwc_prov_mac_gettable_sizes(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
                                   OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL), OSSL_PARAM_END};
    return p;
}

int hwc_prov_key_param(const OSSL_PARAM params[], const void **key, size_t *len) {
    const OSSL_PARAM *p = params ? OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY) : NULL;
    if (!p) return 0;
    return OSSL_PARAM_get_octet_string_ptr(p, key, len) ? 1 : -1;
}

int hwc_prov_cipher_ctx_params(OSSL_PARAM params[], size_t keylen, size_t ivlen, const unsigned char *oiv,
                               const unsigned char *iv) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, ivlen)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, keylen)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) && !OSSL_PARAM_set_octet_string(p, oiv, ivlen))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) && !OSSL_PARAM_set_octet_string(p, iv, ivlen))
        return 0;
    return 1;
}

int hwc_prov_key_length(size_t got, size_t want) {
    if (got == want) return 1;
    hwc_prov_error(HWC_ERR_KEY_LENGTH, "key of %zu bytes, this cipher takes %zu", got, want);
    return 0;
}

int hwc_prov_keylen_param(const OSSL_PARAM params[], size_t want) {
    const OSSL_PARAM *p = params ? OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN) : NULL;
    size_t len = want;
    if (p && !OSSL_PARAM_get_size_t(p, &len)) return 0;
    return hwc_prov_key_length(len, want);
}

int hwc_prov_set_iv(const unsigned char *iv, size_t ivlen, unsigned char *dst1, unsigned char *dst2) {
    if (!iv) return 1;
    if (ivlen != 16) {
        hwc_prov_error(HWC_PROV_R_BAD_PARAMETER, "IV length %zu, want 16", ivlen);
        return 0;
    }
    memcpy(dst1, iv, 16);
    if (dst2) memcpy(dst2, iv, 16);
    return 1;
}

const OSSL_ITEM *hwc_prov_reason_strings(void) {
    static OSSL_ITEM items[] = {
        {1, NULL}, {2, NULL}, {3, NULL}, {4, NULL}, {5, NULL}, {6, NULL}, {7, NULL}, {8, NULL}, {9, NULL},
        {HWC_PROV_R_WRONG_FINAL_BLOCK_LENGTH, "wrong final block length"},
        {HWC_PROV_R_BAD_DECRYPT, "bad decrypt"},
        {HWC_PROV_R_OUTPUT_TOO_SMALL, "output buffer too small"},
        {HWC_PROV_R_NOT_INITIALISED, "not initialised"},
        {HWC_PROV_R_UNSUPPORTED, "unsupported by the hwcrypt provider"},
        {HWC_PROV_R_BAD_PARAMETER, "invalid parameter"},
        {0, NULL}};
    for (int i = 0; i < 9; i++) items[i].ptr = (void *)hwc_strerror(-(i + 1));
    return items;
}

#define PROPS "provider=hwcrypt"
static const OSSL_ALGORITHM digests[] = {
    {"STREEBOG-256:md_gost12_256:id-tc26-gost3411-12-256:1.2.643.7.1.1.2.2", PROPS,
     hwc_prov_streebog256_functions, "GOST R 34.11-2012 256-bit (hwcrypt)"},
    {"STREEBOG-512:md_gost12_512:id-tc26-gost3411-12-512:1.2.643.7.1.1.2.3", PROPS,
     hwc_prov_streebog512_functions, "GOST R 34.11-2012 512-bit (hwcrypt)"},
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM kdfs[] = {
    {"PBKDF2:1.2.840.113549.1.5.12", PROPS, hwc_prov_pbkdf2_functions, "PBKDF2 (hwcrypt)"},
    {NULL, NULL, NULL, NULL}};
/* MACs and ciphers: AES ones only with a hardware AES kernel (filled at init) */
static OSSL_ALGORITHM macs[3];
static OSSL_ALGORITHM ciphers[15];

static const OSSL_ALGORITHM aes_ciphers[] = {
    {"AES-128-ECB:2.16.840.1.101.3.4.1.1", PROPS, hwc_prov_aes128ecb_functions, NULL},
    {"AES-192-ECB:2.16.840.1.101.3.4.1.21", PROPS, hwc_prov_aes192ecb_functions, NULL},
    {"AES-256-ECB:2.16.840.1.101.3.4.1.41", PROPS, hwc_prov_aes256ecb_functions, NULL},
    {"AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", PROPS, hwc_prov_aes128cbc_functions, NULL},
    {"AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", PROPS, hwc_prov_aes192cbc_functions, NULL},
    {"AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", PROPS, hwc_prov_aes256cbc_functions, NULL},
    {"AES-128-CTR", PROPS, hwc_prov_aes128ctr_functions, NULL},
    {"AES-192-CTR", PROPS, hwc_prov_aes192ctr_functions, NULL},
    {"AES-256-CTR", PROPS, hwc_prov_aes256ctr_functions, NULL},
    {"AES-128-XTS:1.3.111.2.1619.0.1.1", PROPS, hwc_prov_aes128xts_functions, NULL},
    {"AES-256-XTS:1.3.111.2.1619.0.1.2", PROPS, hwc_prov_aes256xts_functions, NULL},
    {"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", PROPS, hwc_prov_aes128gcm_functions, NULL},
    {"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", PROPS, hwc_prov_aes192gcm_functions, NULL},
    {"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", PROPS, hwc_prov_aes256gcm_functions, NULL},
};

static int aes_in_hardware(void) {
    const char *k = hwc_kernel_active("aes");
    return k && strcmp(k, "generic") != 0;
}

static void fill_tables(void) {
    size_t m = 0;
    macs[m++] = (OSSL_ALGORITHM){"HMAC", PROPS, hwc_prov_hmac_functions, "HMAC over Streebog (hwcrypt)"};
    if (aes_in_hardware()) {
        macs[m++] = (OSSL_ALGORITHM){"CMAC", PROPS, hwc_prov_cmac_functions, "AES-CMAC (hwcrypt)"};
        memcpy(ciphers, aes_ciphers, sizeof aes_ciphers);
    }
}

static const OSSL_ALGORITHM *query(void *provctx, int id, int *no_cache) {
    (void)provctx;
    *no_cache = 0;
    switch (id) {
    case OSSL_OP_DIGEST: return digests;
    case OSSL_OP_MAC: return macs;
    case OSSL_OP_KDF: return kdfs;
    case OSSL_OP_CIPHER: return ciphers;
    }
    return NULL;
}

static const OSSL_PARAM *gettable_params(void *provctx) {
    (void)provctx;
    static const OSSL_PARAM p[] = {
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
        OSSL_PARAM_END};
    return p;
}

/* "hwcrypt provider (kernels: aes=avx512, streebog=avx512, mpi=adx)" */
static char name[256];
static void make_name(void) {
    size_t n = (size_t)snprintf(name, sizeof name, "hwcrypt provider (kernels:");
    const char *const *fam = hwc_families();
    for (size_t i = 0; fam[i] && n < sizeof name; i++)
        n += (size_t)snprintf(name + n, sizeof name - n, "%s %s=%s", i ? "," : "", fam[i],
                              hwc_kernel_active(fam[i]));
    if (n < sizeof name) snprintf(name + n, sizeof name - n, "%s", aes_in_hardware() ? ")" : "; AES left to other providers)");
}

/* The algorithm tables and the name, once per process (the kernels are
   chosen once: HWCRYPT_KERNEL is read at the first init). */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static void setup_once(void) {
    hwc_init();   /* a bad HWCRYPT_KERNEL item is reported on stderr */
    fill_tables();
    make_name();
}

static int get_params(void *provctx, OSSL_PARAM params[]) {
    (void)provctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) && !OSSL_PARAM_set_utf8_ptr(p, name))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) && !OSSL_PARAM_set_utf8_ptr(p, hwc_version()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
        !OSSL_PARAM_set_utf8_ptr(p, "hwcrypt " HWC_PROV_VERSION ", built against " OPENSSL_VERSION_TEXT))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(p, 1)) return 0;
    return 1;
}

static const OSSL_ITEM *reason_strings(void *provctx) {
    (void)provctx;
    return hwc_prov_reason_strings();
}

static void teardown(void *provctx) {
    hwc_prov_ctx *pc = provctx;
    if (!pc) return;
    free(pc);
}

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))reason_strings},
    {0, NULL}};

__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                                              const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out, void **provctx) {
    for (const OSSL_DISPATCH *f = in; f->function_id != 0; f++) {
        switch (f->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR: c_new_error = OSSL_FUNC_core_new_error(f); break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG: c_set_error_debug = OSSL_FUNC_core_set_error_debug(f); break;
        case OSSL_FUNC_CORE_VSET_ERROR: c_vset_error = OSSL_FUNC_core_vset_error(f); break;
        }
    }
    g_handle = handle;
    pthread_once(&tables_once, setup_once);
    hwc_prov_ctx *pc = calloc(1, sizeof *pc);
    if (!pc) return 0;
    pc->handle = handle;
    *out = provider_functions;
    *provctx = pc;
    return 1;
}
