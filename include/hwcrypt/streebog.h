/* hwcrypt: Streebog, GOST R 34.11-2012 (RFC 6986), HMAC (RFC 7836) and
   PBKDF2-HMAC-Streebog-512 (RFC 8018 with R 50.1.111-2016). Reference: docs/API.md. */
#ifndef HWCRYPT_STREEBOG_H
#define HWCRYPT_STREEBOG_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hwc_streebog_ctx {
    uint64_t h[8];          /* chaining value */
    uint64_t n[8];          /* N: message bits processed, mod 2^512 */
    uint64_t sigma[8];      /* Sigma: sum of message blocks, mod 2^512 */
    uint8_t buf[64];        /* pending bytes (< 64 kept; a full block waits for more) */
    unsigned buf_len;
    unsigned digest_bits;   /* 256 or 512; 0 = not initialised / wiped */
    const void *impl;       /* kernel table bound at init */
} hwc_streebog_ctx;

HWC_API int hwc_streebog_init(hwc_streebog_ctx *h, unsigned digest_bits);   /* 256 or 512 */
HWC_API int hwc_streebog_update(hwc_streebog_ctx *h, const void *data, size_t len);
/* 32 or 64 bytes; the context is then wiped: init again to reuse it */
HWC_API int hwc_streebog_final(hwc_streebog_ctx *h, uint8_t *digest);
HWC_API int hwc_streebog(unsigned digest_bits, const void *data, size_t len, uint8_t *digest);
HWC_API int hwc_hmac_streebog(unsigned digest_bits, const uint8_t *key, size_t key_len,
                      const void *msg, size_t len, uint8_t *mac);      /* RFC 7836 */

/* Streaming HMAC-Streebog (RFC 7836 section 4.1.1): the key's ipad and opad
   states are computed once at init. update/final on a context init has not
   set up, or that final has wiped, give HWC_ERR_BAD_ARGUMENT and change
   nothing; init on a live context starts a new message. */
typedef struct hwc_hmac_streebog_ctx {
    hwc_streebog_ctx inner;   /* K0 ^ ipad, then the message so far */
    hwc_streebog_ctx outer;   /* K0 ^ opad */
    uint64_t live;            /* set by init, 0 once final has run */
} hwc_hmac_streebog_ctx;

HWC_API int hwc_hmac_streebog_init(hwc_hmac_streebog_ctx *c, unsigned digest_bits,
                                   const uint8_t *key, size_t key_len);   /* 256 or 512 */
HWC_API int hwc_hmac_streebog_update(hwc_hmac_streebog_ctx *c, const void *data, size_t len);
/* 32 or 64 bytes; the context is then wiped */
HWC_API int hwc_hmac_streebog_final(hwc_hmac_streebog_ctx *c, uint8_t *mac);

/* digest_bits other than 256/512 and iterations == 0 give HWC_ERR_BAD_ARGUMENT;
   out_len == 0 returns HWC_OK and writes nothing */
HWC_API int hwc_pbkdf2_streebog512(const uint8_t *password, size_t password_len,
                           const uint8_t *salt, size_t salt_len, uint32_t iterations,
                           uint8_t *out, size_t out_len);              /* RFC 7836 / RFC 8018 */
/* With out_len > 64 the output blocks T1, T2, ... are computed together in
   the kernel's lanes (the same bytes as one after another). out may equal
   password or salt. */

#ifdef __cplusplus
}
#endif
#endif
