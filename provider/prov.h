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
   cipher_xts.c). */
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

/* Constant parameters of a cipher (mode, lengths, flags), shared by the
   AES tables of cipher_aes.c and cipher_xts.c. */
int hwc_prov_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen, size_t blksz,
                               int custom_iv);
const OSSL_PARAM *hwc_prov_cipher_gettable_params(void *provctx);

/* Streebog digest size in bytes (32 or 64) for an OpenSSL digest name, or 0. */
size_t hwc_prov_streebog_size(const char *name);

/* HMAC over Streebog (RFC 2104 with RFC 7836's digests, block 64 bytes),
   built from the public digest API: the digest states after the inner and
   outer pads are kept, so each message costs no key processing. */
#include "hwcrypt/streebog.h"
typedef struct hwc_prov_hmac_key {
    hwc_streebog_ctx inner, outer;
    unsigned bits;   /* 256 or 512; 0 = no key */
} hwc_prov_hmac_key;
int hwc_prov_hmac_setkey(hwc_prov_hmac_key *k, unsigned bits, const unsigned char *key, size_t len);
/* the tag of the message absorbed by `run` (a copy of k->inner updated with it) */
int hwc_prov_hmac_end(const hwc_prov_hmac_key *k, hwc_streebog_ctx *run, unsigned char *mac);

/* Wipes and frees (NULL allowed). */
void hwc_prov_free(void *p, size_t len);

#endif
