/* hwcrypt: AES-CMAC (NIST SP 800-38B, RFC 4493). Reference: docs/API.md. */
#ifndef HWCRYPT_CMAC_H
#define HWCRYPT_CMAC_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "aes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hwc_cmac_ctx {
    hwc_aes_key key;
    uint8_t k1[16], k2[16];  /* subkeys, SP 800-38B 6.1 */
    uint8_t state[16];       /* running CBC-MAC value */
    uint8_t buf[16];         /* pending bytes; a full block is kept back for final */
    unsigned buf_len;
} hwc_cmac_ctx;

HWC_API int hwc_cmac_init(hwc_cmac_ctx *c, const uint8_t *key, size_t key_len);   /* 16, 24, 32 */
HWC_API int hwc_cmac_update(hwc_cmac_ctx *c, const uint8_t *msg, size_t len);     /* any split */
HWC_API int hwc_cmac_final(hwc_cmac_ctx *c, uint8_t tag[16]);  /* then ready for a new message, same key */
HWC_API int hwc_cmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len, uint8_t tag[16]);
/* 4 <= tag_len <= 16 (else HWC_ERR_BAD_ARGUMENT); constant-time compare;
   HWC_OK, or HWC_ERR_AUTH_FAILED on mismatch */
HWC_API int hwc_cmac_verify(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len,
                    const uint8_t *tag, size_t tag_len);
HWC_API void hwc_gf128_dbl_be(uint8_t out[16], const uint8_t in[16]); /* CMAC subkey doubling */
HWC_API void hwc_gf128_dbl_le(uint8_t out[16], const uint8_t in[16]); /* XTS tweak doubling */

/* Wipe a CMAC context (key schedule, subkeys, state). */
HWC_API void hwc_cmac_wipe(hwc_cmac_ctx *c);

#ifdef __cplusplus
}
#endif
#endif
