/* Internal to core/: the kernel table bound to an AES key, and the classic
 * modes core/ builds from a kernel's ECB when the kernel leaves a slot NULL. */
#ifndef HWC_CORE_AES_INTERNAL_H
#define HWC_CORE_AES_INTERNAL_H

#include "internal/kernel.h"

/* The kernel table of a key set by hwc_aes_setkey, or NULL when the key was
   never set (rounds == 0) or does not look like a set key. */
const hwc_aes_impl *hwc_aes_key_impl(const hwc_aes_key *k);
/* The clean_frames bits (internal/kernel.h) both halves of an XTS key
   share; 0 when k or a half is unusable (then core/ scrubs). */
unsigned hwc_aes_xts_clean(const hwc_aes_xts_key *k);

/* hwc_aes_setkey with a given kernel table instead of the active one (same
   checks and return codes; impl must have setkey and ecb_*). hwc_aes_setkey
   is this with hwc_active_aes(); the tests bind keys to test-only tables. */
int hwc_aes_setkey_with(hwc_aes_key *k, const uint8_t *key, size_t key_len, const hwc_aes_impl *impl);

/* core/aes_from_ecb.c: the classic mode slots built from the key's own
   ecb_encrypt / ecb_decrypt, with the signature and contract of the slot of
   the same name in internal/kernel.h. Constant time as the ECB below them. */
void hwc_aes_cbc_encrypt_from_ecb(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks);
void hwc_aes_cbc_decrypt_from_ecb(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks);
void hwc_aes_ctr_from_ecb(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                          size_t blocks);
void hwc_aes_xts_encrypt_from_ecb(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks);
void hwc_aes_xts_decrypt_from_ecb(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks);
void hwc_aes_cmac_chain_from_ecb(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks);

/* The function for classic mode slot `slot` (cbc_encrypt, cbc_decrypt, ctr,
   xts_encrypt, xts_decrypt, cmac_chain) of kernel table t: the kernel's own,
   or core/'s ECB-built one when the kernel left it NULL. One test per call;
   a full table takes its own function as before. */
#define HWC_AES_MODE(t, slot) ((t)->slot ? (t)->slot : hwc_aes_##slot##_from_ecb)

#endif
