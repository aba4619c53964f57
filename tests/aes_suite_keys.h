/* How the AES suites (test_aes.c, test_cmac.c, test_gcm.c, ct_aes.c, ct_gcm.c, the GCM
 * part of test_wycheproof.c) make the keys they test. Normally through the
 * public calls, bound to the selected kernel. Built with HWC_TEST_AES_FALLBACK
 * (test_aes_fallback, test_cmac_fallback, test_gcm_fallback,
 * test_wycheproof_gcm_fallback, ct_aes_fallback, ct_gcm_fallback), the same suites run on keys
 * bound to an ECB-only copy of the selected kernel's table (setkey and ecb_*
 * only, every other slot NULL, GCM slots included), so every mode goes
 * through core/'s ECB-built fallbacks (tests/ecb_only_keys.c). Keys the
 * suites compare against ("generic") stay on the full tables. */
#ifndef HWC_TEST_AES_SUITE_KEYS_H
#define HWC_TEST_AES_SUITE_KEYS_H

#include "hwcrypt/hwcrypt.h"

#ifdef HWC_TEST_AES_FALLBACK
/* The public call, then the key rebound (hwc_aes_setkey_with) to the
   ECB-only copy of the table the public call bound. Same return codes. */
int hwc_test_ecb_only_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len);
int hwc_test_ecb_only_xts_setkey(hwc_aes_xts_key *k, const uint8_t *key, size_t key_len);
int hwc_test_ecb_only_cmac_init(hwc_cmac_ctx *c, const uint8_t *key, size_t key_len);
int hwc_test_ecb_only_gcm_setkey(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len);
#define SUITE_SETKEY hwc_test_ecb_only_setkey
#define SUITE_XTS_SETKEY hwc_test_ecb_only_xts_setkey
#define SUITE_CMAC_INIT hwc_test_ecb_only_cmac_init
#define SUITE_GCM_SETKEY hwc_test_ecb_only_gcm_setkey
#else
#define SUITE_SETKEY hwc_aes_setkey
#define SUITE_XTS_SETKEY hwc_aes_xts_setkey
#define SUITE_CMAC_INIT hwc_cmac_init
#define SUITE_GCM_SETKEY hwc_aes_gcm_setkey
#endif

#endif
