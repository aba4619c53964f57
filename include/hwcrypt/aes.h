/* hwcrypt: AES (FIPS-197) in ECB, CBC, CTR (SP 800-38A) and XTS (IEEE 1619,
   SP 800-38E). Reference: docs/API.md. */
#ifndef HWCRYPT_AES_H
#define HWCRYPT_AES_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#define HWC_ALIGN64 alignas(64)
#else
#define HWC_ALIGN64 _Alignas(64)
#endif

/* Round keys in the layout of the kernel bound at setkey (opaque to users);
   1024 bytes hold every kernel's encrypt + decrypt schedules. */
#define HWC_AES_SCHED_BYTES 1024

typedef struct hwc_aes_key {
    HWC_ALIGN64 unsigned char sched[HWC_AES_SCHED_BYTES];
    const void *impl;      /* kernel table bound at setkey */
    unsigned rounds;       /* 10, 12 or 14; 0 = not set */
    unsigned key_len;      /* 16, 24 or 32 */
} hwc_aes_key;

HWC_API int hwc_aes_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len); /* 16, 24, 32 */
/* len % 16 == 0, else HWC_ERR_DATA_LENGTH; len 0 is OK */
HWC_API int hwc_aes_ecb_encrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
HWC_API int hwc_aes_ecb_decrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
/* len % 16 == 0; iv is updated to the last ciphertext block, so consecutive
   calls chain exactly like one call */
HWC_API int hwc_aes_cbc_encrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len);
HWC_API int hwc_aes_cbc_decrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len);
/* any len; 128-bit big-endian counter (wraps mod 2^128), advanced by
   ceil(len/16); keystream of a partial last block is discarded */
HWC_API int hwc_aes_ctr_crypt(const hwc_aes_key *k, uint8_t counter[16], uint8_t *out, const uint8_t *in, size_t len);

typedef struct hwc_aes_xts_key {
    hwc_aes_key data;      /* key 1: encrypts the data units */
    hwc_aes_key tweak;     /* key 2: encrypts the tweak */
} hwc_aes_xts_key;

/* 32 or 64 bytes = data key || tweak key; equal halves -> HWC_ERR_BAD_ARGUMENT */
HWC_API int hwc_aes_xts_setkey(hwc_aes_xts_key *k, const uint8_t *key, size_t key_len);
/* one data unit; 16 <= len <= 2^24, ciphertext stealing when len % 16 != 0 */
HWC_API int hwc_aes_xts_encrypt(const hwc_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t len);
HWC_API int hwc_aes_xts_decrypt(const hwc_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t len);

/* Wipe a key schedule (same as hwc_wipe(k, sizeof *k)). */
HWC_API void hwc_aes_key_wipe(hwc_aes_key *k);

#ifdef __cplusplus
}
#endif
#endif
