/* ECB-only kernel tables for the fallback runs of the AES suites (see
 * aes_suite_keys.h): for every kernel table a key is bound to, a copy with
 * only setkey, ecb_encrypt and ecb_decrypt, every other slot NULL, so core/
 * builds CBC, CTR, XTS and the CMAC chain from the kernel's ECB
 * (core/aes_from_ecb.c), and GCM from the kernel's ECB and the portable
 * GHASH (core/gcm.c). Plain C (no Criterion), so the valgrind
 * constant-time check links it too. */
#include <string.h>
#include "aes_suite_keys.h"
#include "core/aes_internal.h"
#include "core/gcm_internal.h"

#define MAX_TABLES 16

/* ECB-only copy of `full`, made once per full table (one per kernel); NULL
   when more tables than expected show up. */
static const hwc_aes_impl *ecb_only(const hwc_aes_impl *full) {
    static const hwc_aes_impl *from[MAX_TABLES];
    static hwc_aes_impl made[MAX_TABLES];
    static size_t n;
    for (size_t i = 0; i < n; i++)
        if (from[i] == full) return &made[i];
    if (n == MAX_TABLES) return NULL;
    memset(&made[n], 0, sizeof made[n]);
    made[n].setkey = full->setkey;
    made[n].ecb_encrypt = full->ecb_encrypt;
    made[n].ecb_decrypt = full->ecb_decrypt;
    from[n] = full;
    return &made[n++];
}

/* The ECB-only copy of the table a key is bound to (NULL: none). */
static const hwc_aes_impl *ecb_only_of(const hwc_aes_key *k) {
    const hwc_aes_impl *full = hwc_aes_key_impl(k);
    return full ? ecb_only(full) : NULL;
}

/* Rebind a key the public call has just set (same key bytes, same kernel)
   to the ECB-only copy of its table. Any failure is an error status, which
   the suites check like every other. hwc_aes_setkey_with refuses a NULL
   table with HWC_ERR_KERNEL_UNAVAILABLE. */
static int rebind(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    return hwc_aes_setkey_with(k, key, key_len, ecb_only_of(k));
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

int hwc_test_ecb_only_gcm_setkey(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len) {
    int rc = hwc_aes_gcm_setkey(k, key, key_len);
    return rc == HWC_OK ? hwc_aes_gcm_setkey_with(k, key, key_len, ecb_only_of(&k->aes)) : rc;
}
