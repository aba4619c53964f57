/* hwcrypt OpenSSL 3 provider: what the algorithm files share. Each
 * algorithm file defines OSSL_DISPATCH tables; prov.c lists them. */
#ifndef HWC_PROV_H
#define HWC_PROV_H

#include <stddef.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/types.h>

/* One per loaded instance of the provider. */
typedef struct hwc_prov_ctx {
    const OSSL_CORE_HANDLE *handle;
} hwc_prov_ctx;

/* Where HMAC and PBKDF2 over a digest that is not Streebog are handed:
   the application's default library context, property query
   "provider!=hwcrypt". (A child library context would follow the loading
   context exactly, but OpenSSL 3.0 then never tears the provider down.) */
#define HWC_PROV_ELSEWHERE_LIBCTX NULL
#define HWC_PROV_ELSEWHERE_PROPS "provider!=hwcrypt"

/* Reasons of the provider's errors in OpenSSL's error queue: 1..9 are the
   library's statuses (-HWC_ERR_*, text from hwc_strerror), the others the
   provider's own. */
enum {
    HWC_PROV_R_WRONG_FINAL_BLOCK_LENGTH = 100,
    HWC_PROV_R_BAD_DECRYPT,
    HWC_PROV_R_OUTPUT_TOO_SMALL,
    HWC_PROV_R_NOT_INITIALISED,
    HWC_PROV_R_UNSUPPORTED,
    HWC_PROV_R_BAD_PARAMETER,
};
const OSSL_ITEM *hwc_prov_reason_strings(void);

/* Raises an error: reason as above, a negative status maps to -status. */
#define hwc_prov_error(...) hwc_prov_error_at(__FILE__, __LINE__, __func__, __VA_ARGS__)
void hwc_prov_error_at(const char *file, int line, const char *func, int reason, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* status != HWC_OK: raises it with `what` and returns 0; else returns 1. */
#define hwc_prov_check(status, what) hwc_prov_check_at(__FILE__, __LINE__, __func__, status, what)
int hwc_prov_check_at(const char *file, int line, const char *func, int status, const char *what);

/* Tables of the algorithms (digest.c, hmac.c, pbkdf2.c, cmac.c, cipher_aes.c,
   cipher_xts.c, cipher_gcm.c). */
extern const OSSL_DISPATCH hwc_prov_streebog256_functions[];
extern const OSSL_DISPATCH hwc_prov_streebog512_functions[];
extern const OSSL_DISPATCH hwc_prov_hmac_functions[];
extern const OSSL_DISPATCH hwc_prov_pbkdf2_functions[];
extern const OSSL_DISPATCH hwc_prov_cmac_functions[];
extern const OSSL_DISPATCH hwc_prov_aes128ecb_functions[], hwc_prov_aes192ecb_functions[],
    hwc_prov_aes256ecb_functions[], hwc_prov_aes128cbc_functions[], hwc_prov_aes192cbc_functions[],
    hwc_prov_aes256cbc_functions[], hwc_prov_aes128ctr_functions[], hwc_prov_aes192ctr_functions[],
    hwc_prov_aes256ctr_functions[];
extern const OSSL_DISPATCH hwc_prov_aes128xts_functions[], hwc_prov_aes256xts_functions[];
extern const OSSL_DISPATCH hwc_prov_aes128gcm_functions[], hwc_prov_aes192gcm_functions[],
    hwc_prov_aes256gcm_functions[];

/* Constant parameters of a cipher (mode, lengths, flags), shared by the
   AES tables of cipher_aes.c, cipher_xts.c and cipher_gcm.c. */
#define HWC_PROV_CUSTOM_IV 1
#define HWC_PROV_AEAD 2
int hwc_prov_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen, size_t blksz,
                               int flags);
const OSSL_PARAM *hwc_prov_cipher_gettable_params(void *provctx);

/* Streebog digest size in bytes (32 or 64) for an OpenSSL digest name, or 0. */
size_t hwc_prov_streebog_size(const char *name);

/* Wipes and frees (NULL allowed). */
void hwc_prov_free(void *p, size_t len);
/* A heap copy of a context with no pointers to own (NULL on no memory). */
void *hwc_prov_copy(const void *ctx, size_t len);

/* A MAC's "size" and "block-size" context parameters, and their list. */
int hwc_prov_mac_sizes(OSSL_PARAM params[], size_t size, size_t block);
const OSSL_PARAM *hwc_prov_mac_gettable_sizes(void *vc, void *provctx);

/* The "key" parameter of a MAC: 1 found (*key, *len set), 0 absent, -1 bad. */
int hwc_prov_key_param(const OSSL_PARAM params[], const void **key, size_t *len);

/* The context parameters every cipher answers: keylen, ivlen, iv (as
   given), updated-iv (as it stands). */
int hwc_prov_cipher_ctx_params(OSSL_PARAM params[], size_t keylen, size_t ivlen, const unsigned char *oiv,
                               const unsigned char *iv);
#define HWC_PROV_CIPHER_CTX_PARAM_LIST                                                     \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL), \
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),                            \
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0)

/* A cipher's fixed key length: a key of another length, or a "keylen"
   parameter asking for one, is refused with an error. */
int hwc_prov_key_length(size_t got, size_t want);
int hwc_prov_keylen_param(const OSSL_PARAM params[], size_t want);

/* A cipher's 16-byte IV from init: copied to each of dst[] (NULL ends),
   or an error for another length. iv == NULL leaves them. */
int hwc_prov_set_iv(const unsigned char *iv, size_t ivlen, unsigned char *dst1, unsigned char *dst2);

/* The dispatch table of a MAC file, from its static functions of these names. */
#define HWC_PROV_MAC_DISPATCH                                                   \
    {{OSSL_FUNC_MAC_NEWCTX, (void (*)(void))newctx},                            \
     {OSSL_FUNC_MAC_DUPCTX, (void (*)(void))dupctx},                            \
     {OSSL_FUNC_MAC_FREECTX, (void (*)(void))freectx},                          \
     {OSSL_FUNC_MAC_INIT, (void (*)(void))init},                                \
     {OSSL_FUNC_MAC_UPDATE, (void (*)(void))update},                            \
     {OSSL_FUNC_MAC_FINAL, (void (*)(void))final},                              \
     {OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},            \
     {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))hwc_prov_mac_gettable_sizes}, \
     {OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},            \
     {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_params},  \
     {0, NULL}}

/* A cipher's encrypt_init and decrypt_init, from its
   static int init(ctx, enc, key, keylen, iv, ivlen, params). */
#define HWC_PROV_CIPHER_INITS                                                                    \
    static int einit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv, \
                     size_t ivlen, const OSSL_PARAM params[]) {                                  \
        return init(vc, 1, key, keylen, iv, ivlen, params);                                      \
    }                                                                                            \
    static int dinit(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv, \
                     size_t ivlen, const OSSL_PARAM params[]) {                                  \
        return init(vc, 0, key, keylen, iv, ivlen, params);                                      \
    }

/* The dispatch table of a cipher, from the static functions of its file
   and its own newctx and get_params. */
#define HWC_PROV_CIPHER_DISPATCH(newctx_fn, get_params_fn)                      \
    {{OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))newctx_fn},                      \
     {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))freectx},                       \
     {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))dupctx},                         \
     {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))einit},                    \
     {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))dinit},                    \
     {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))update},                         \
     {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))final},                           \
     {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))cipher},                         \
     {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))get_params_fn},              \
     {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))hwc_prov_cipher_gettable_params}, \
     {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},         \
     {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gettable_ctx_params}, \
     {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},         \
     {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_params}, \
     {0, NULL}}

#endif
