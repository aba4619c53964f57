/* hwcrypt: many independent messages at once, interleaved in the kernels'
   lanes. Every function gives exactly the bytes of the corresponding single
   calls, for any mix of lengths; n == 0 returns HWC_OK (the arrays may then be
   NULL). If any argument of any message is invalid, the function returns that
   error and writes nothing at all. out[i] == in[i] is allowed; the outputs of
   different messages must not overlap. Reference: docs/API.md. */
#ifndef HWCRYPT_BATCH_H
#define HWCRYPT_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "aes.h"
#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* AES-CMAC (SP 800-38B) of n messages under one key; tags: n * 16 bytes. */
HWC_API int hwc_cmac_many(const uint8_t *key, size_t key_len, size_t n,
                          const uint8_t *const msg[], const size_t len[], uint8_t *tags);
/* n CBC encryptions (SP 800-38A) under one key; ivs: n * 16 bytes, each
   updated to its message's last ciphertext block; each len % 16 == 0. */
HWC_API int hwc_aes_cbc_encrypt_many(const hwc_aes_key *k, size_t n, uint8_t *ivs,
                                     uint8_t *const out[], const uint8_t *const in[],
                                     const size_t len[]);
/* len / sector_size consecutive XTS data units (IEEE 1619); unit i uses the
   tweak (sector + i) as a 16-byte little-endian number. 16 <= sector_size <=
   2^24 and a multiple of 16, len a multiple of sector_size (else
   HWC_ERR_DATA_LENGTH, checked first); the last sector number must not pass
   2^64 - 1 (else HWC_ERR_BAD_ARGUMENT). */
HWC_API int hwc_aes_xts_encrypt_sectors(const hwc_aes_xts_key *k, uint64_t sector, size_t sector_size,
                                        uint8_t *out, const uint8_t *in, size_t len);
HWC_API int hwc_aes_xts_decrypt_sectors(const hwc_aes_xts_key *k, uint64_t sector, size_t sector_size,
                                        uint8_t *out, const uint8_t *in, size_t len);
/* n Streebog digests (RFC 6986); digests: n * digest_bits / 8 bytes. */
HWC_API int hwc_streebog_many(unsigned digest_bits, size_t n, const void *const msg[],
                              const size_t len[], uint8_t *digests);
/* n independent hwc_mpi_modexp calls of equal exp_n and size, each with its
   own modulus; the rules of hwc_mpi_modexp apply per lane (constant time per
   lane included). */
HWC_API int hwc_mpi_modexp_many(size_t n, hwc_limb *const r[], const hwc_limb *const base[],
                                const hwc_limb *const exp[], size_t exp_n,
                                const hwc_limb *const mod[], size_t size);

#ifdef __cplusplus
}
#endif
#endif
