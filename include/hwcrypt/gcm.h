/* hwcrypt: AES-GCM (NIST SP 800-38D), part of the "aes" family: it runs on the
   AES kernel bound at hwc_aes_gcm_setkey. Reference: docs/API.md.
   A (key, IV) pair must never encrypt two messages: nonce uniqueness is the
   caller's duty. */
#ifndef HWCRYPT_GCM_H
#define HWCRYPT_GCM_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "aes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hash-key powers H^1..H^n in the layout of the kernel bound at setkey. */
#define HWC_GCM_HTAB_BYTES 2048

typedef struct hwc_aes_gcm_key {
    hwc_aes_key aes;                                 /* schedule; aes.impl = kernel */
    HWC_ALIGN64 unsigned char htab[HWC_GCM_HTAB_BYTES];
} hwc_aes_gcm_key;

/* One message in progress (streaming interface). */
typedef struct hwc_aes_gcm_ctx {
    const hwc_aes_gcm_key *key;
    uint8_t ctr[16];        /* next counter block (inc32) */
    uint8_t ek_j0[16];      /* E_K(J0): masks the tag */
    uint8_t x[16];          /* GHASH accumulator (partial blocks XORed in) */
    uint8_t buf[16];        /* keystream of a partial data block */
    uint64_t aad_len;       /* bytes of AAD so far */
    uint64_t data_len;      /* bytes of data so far */
    unsigned state;         /* phase and direction; 0 = finished; see core/gcm.c */
} hwc_aes_gcm_ctx;

HWC_API int hwc_aes_gcm_setkey(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len);  /* 16, 24, 32 */

/* iv_len >= 1; tag_len in {4, 8, 12, 13, 14, 15, 16}; len <= 2^36 - 32.
   out == in allowed. decrypt: HWC_ERR_AUTH_FAILED on a tag mismatch, and then
   out[0..len) is zeroed. */
HWC_API int hwc_aes_gcm_encrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                                const uint8_t *aad, size_t aad_len,
                                uint8_t *out, const uint8_t *in, size_t len,
                                uint8_t *tag, size_t tag_len);
HWC_API int hwc_aes_gcm_decrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                                const uint8_t *aad, size_t aad_len,
                                uint8_t *out, const uint8_t *in, size_t len,
                                const uint8_t *tag, size_t tag_len);

HWC_API int hwc_aes_gcm_init(hwc_aes_gcm_ctx *c, const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len);
/* any number of calls, all before the first data call */
HWC_API int hwc_aes_gcm_aad(hwc_aes_gcm_ctx *c, const uint8_t *aad, size_t len);
/* any split; each call writes exactly len bytes. Decrypted bytes are
   unauthenticated until hwc_aes_gcm_decrypt_final returns HWC_OK. */
HWC_API int hwc_aes_gcm_encrypt_update(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
HWC_API int hwc_aes_gcm_decrypt_update(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
/* HWC_OK or HWC_ERR_AUTH_FAILED (constant-time compare); final wipes c. */
HWC_API int hwc_aes_gcm_encrypt_final(hwc_aes_gcm_ctx *c, uint8_t *tag, size_t tag_len);
HWC_API int hwc_aes_gcm_decrypt_final(hwc_aes_gcm_ctx *c, const uint8_t *tag, size_t tag_len);

#ifdef __cplusplus
}
#endif
#endif
