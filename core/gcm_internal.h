/* Internal to core/ and the tests: a GCM key bound to a given AES kernel
 * table, the way core/aes_internal.h binds an AES key. */
#ifndef HWC_CORE_GCM_INTERNAL_H
#define HWC_CORE_GCM_INTERNAL_H

#include "hwcrypt/gcm.h"
#include "internal/kernel.h"

/* hwc_aes_gcm_setkey with a given kernel table instead of the active one
   (same checks and return codes, k untouched on error; impl must have
   setkey and ecb_*; NULL gives HWC_ERR_KERNEL_UNAVAILABLE). The hash key
   table is built by impl's ghash_init, or by the portable GHASH when impl
   has none. hwc_aes_gcm_setkey is this with hwc_active_aes(); the tests
   bind keys to ECB-only tables (tests/ecb_only_keys.c). */
int hwc_aes_gcm_setkey_with(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len, const hwc_aes_impl *impl);

#endif
