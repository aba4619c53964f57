/* The fallback runs of the AES and CMAC suites (test_aes_fallback,
 * test_cmac_fallback: test_aes.c and test_cmac.c built with
 * HWC_TEST_AES_FALLBACK, keys from ecb_only_keys.c) really run on ECB-only
 * tables, and the test-only binding hook refuses what setkey refuses. */
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#include "core/aes_internal.h"

static void assert_ecb_only(const char *kernel, const char *what, const hwc_aes_key *k) {
    const hwc_aes_impl *t = hwc_aes_key_impl(k);
    cr_assert(t != NULL, "[%s] %s: no table", kernel, what);
    cr_assert(t->setkey && t->ecb_encrypt && t->ecb_decrypt, "[%s] %s: ECB missing", kernel, what);
    cr_assert(!t->cbc_encrypt && !t->cbc_decrypt && !t->ctr && !t->xts_encrypt && !t->xts_decrypt &&
                  !t->cmac_chain && !t->ghash_init && !t->ghash && !t->gcm_encrypt && !t->gcm_decrypt,
              "[%s] %s: a mode slot is set", kernel, what);
}

static void bound_check(const char *kernel, void *arg) {
    (void)arg;
    uint8_t key[64];
    for (int i = 0; i < 64; i++) key[i] = (uint8_t)(i * 13 + 7);
    hwc_aes_key k, w;
    hwc_aes_xts_key xk;
    hwc_cmac_ctx c;
    cr_assert_eq(SUITE_SETKEY(&k, key, 24), HWC_OK);
    assert_ecb_only(kernel, "setkey", &k);
    cr_assert_eq(SUITE_XTS_SETKEY(&xk, key, 64), HWC_OK);
    assert_ecb_only(kernel, "xts data key", &xk.data);
    assert_ecb_only(kernel, "xts tweak key", &xk.tweak);
    cr_assert_eq(SUITE_CMAC_INIT(&c, key, 32), HWC_OK);
    assert_ecb_only(kernel, "cmac key", &c.key);

    /* The hook checks as hwc_aes_setkey does and leaves k untouched on error. */
    const hwc_aes_impl *t = hwc_aes_key_impl(&k);
    memset(&w, 0x5A, sizeof w);
    cr_assert_eq(hwc_aes_setkey_with(NULL, key, 16, t), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_setkey_with(&w, NULL, 16, t), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_aes_setkey_with(&w, key, 20, t), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_aes_setkey_with(&w, NULL, 0, t), HWC_ERR_KEY_LENGTH);
    cr_assert_eq(hwc_aes_setkey_with(&w, key, 16, NULL), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert(hwc_all_bytes(&w, sizeof w, 0x5A), "[%s] setkey_with wrote on error", kernel);
}

Test(ecb_only, suite_keys_are_bound_to_ecb_only_tables) {
    hwc_test_each_kernel("aes", bound_check, NULL);
}
