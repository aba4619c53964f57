/* ECB-only kernel tables for the fallback runs of the AES and CMAC suites
 * (see aes_suite_keys.h): for every kernel table a key is bound to, a copy
 * with only setkey, ecb_encrypt and ecb_decrypt, every other slot NULL, so
 * core/ builds CBC, CTR, XTS and the CMAC chain from the kernel's ECB
 * (core/aes_from_ecb.c). Linked into test_aes_fallback and
 * test_cmac_fallback; the test below proves those suites really ran on such
 * tables and that the test-only binding hook refuses what setkey refuses. */
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"
#include "core/aes_internal.h"

#define MAX_TABLES 16

/* ECB-only copy of `full`, made once per full table (one per kernel). */
static const hwc_aes_impl *ecb_only(const hwc_aes_impl *full) {
    static const hwc_aes_impl *from[MAX_TABLES];
    static hwc_aes_impl made[MAX_TABLES];
    static size_t n;
    for (size_t i = 0; i < n; i++)
        if (from[i] == full) return &made[i];
    cr_assert(n < MAX_TABLES, "more than %d AES kernel tables", MAX_TABLES);
    memset(&made[n], 0, sizeof made[n]);
    made[n].setkey = full->setkey;
    made[n].ecb_encrypt = full->ecb_encrypt;
    made[n].ecb_decrypt = full->ecb_decrypt;
    from[n] = full;
    return &made[n++];
}

/* Rebind a key the public call has just set (same key bytes, same kernel)
   to the ECB-only copy of its table. */
static int rebind(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    const hwc_aes_impl *full = hwc_aes_key_impl(k);
    cr_assert(full != NULL, "public setkey left no table");
    return hwc_aes_setkey_with(k, key, key_len, ecb_only(full));
}

int hwc_test_ecb_only_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    int rc = hwc_aes_setkey(k, key, key_len);
    return rc == HWC_OK ? rebind(k, key, key_len) : rc;
}

int hwc_test_ecb_only_xts_setkey(hwc_aes_xts_key *k, const uint8_t *key, size_t key_len) {
    int rc = hwc_aes_xts_setkey(k, key, key_len);
    if (rc != HWC_OK) return rc;
    rc = rebind(&k->data, key, key_len / 2);
    return rc == HWC_OK ? rebind(&k->tweak, key + key_len / 2, key_len / 2) : rc;
}

int hwc_test_ecb_only_cmac_init(hwc_cmac_ctx *c, const uint8_t *key, size_t key_len) {
    int rc = hwc_cmac_init(c, key, key_len);
    return rc == HWC_OK ? rebind(&c->key, key, key_len) : rc;
}

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
