/* Constant-time check of AES-GCM under valgrind memcheck (the technique of
 * tests/ct_aes.c): the key, IV, AAD, plaintext and the tag given to decrypt
 * are marked undefined, so memcheck reports every conditional jump and
 * memory address that depends on them: key and hash-key setup, J0 for 12-byte
 * and other IVs, GCTR, GHASH (the portable one or the kernel's), partial
 * blocks of the streaming calls, the tag and its comparison. Lengths are
 * public. The only secret-derived value revealed is the decrypt verdict
 * (declassified in core/gcm.c).
 * Built twice: ct_gcm on the kernels' own GCM slots, ct_gcm_fallback on
 * ECB-only tables (aes_suite_keys.h), i.e. core/gcm.c's path for kernels
 * without GCM slots (their ECB and the portable GHASH).
 *
 * Usage (ctest): valgrind --error-exitcode=1 ct_gcm <kernel>. Exit 0 clean,
 * 77 kernel not usable on valgrind's CPU, 2 wrong result. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "hwcrypt/hwcrypt.h"
#include "aes_suite_keys.h"   /* ct_gcm_fallback: keys on ECB-only tables */

#define SKIP 77
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t key[32], iv[60], aad[37], pt[517], ct[517], back[517], tag[16], tag2[16];

static int run(size_t key_len, size_t iv_len) {
    hwc_aes_gcm_key k;
    hwc_aes_gcm_ctx c;
    int bad = 0;
    SECRET(key, sizeof key);
    SECRET(iv, sizeof iv);
    SECRET(aad, sizeof aad);
    SECRET(pt, sizeof pt);
    bad |= SUITE_GCM_SETKEY(&k, key, key_len);
    /* TLS-sized records first (13 and 16 bytes of AAD): 40 bytes of data
       stay in registers on every x86 kernel (impl/x86/aes_gcm_x86_msg.h),
       100 bytes take the last-blocks group on xmm and ymm; then the long
       message */
    bad |= hwc_aes_gcm_encrypt(&k, iv, iv_len, aad, 13, ct, pt, 40, tag, 16);
    bad |= hwc_aes_gcm_encrypt(&k, iv, iv_len, aad, 16, ct, pt, 100, tag, 16);
    bad |= hwc_aes_gcm_encrypt(&k, iv, iv_len, aad, sizeof aad, ct, pt, sizeof pt, tag, 16);
    /* streaming, with partial blocks on both sides of every boundary */
    bad |= hwc_aes_gcm_init(&c, &k, iv, iv_len);
    bad |= hwc_aes_gcm_aad(&c, aad, 5);
    bad |= hwc_aes_gcm_aad(&c, aad + 5, sizeof aad - 5);
    bad |= hwc_aes_gcm_encrypt_update(&c, back, pt, 3);
    bad |= hwc_aes_gcm_encrypt_update(&c, back + 3, pt + 3, 200);
    bad |= hwc_aes_gcm_encrypt_update(&c, back + 203, pt + 203, sizeof pt - 203);
    bad |= hwc_aes_gcm_encrypt_final(&c, tag2, 16);
    /* decrypt with the right tag (secret) and with a wrong one */
    SECRET(tag, sizeof tag);
    int ok = hwc_aes_gcm_decrypt(&k, iv, iv_len, aad, sizeof aad, back, ct, sizeof ct, tag, 16);
    bad |= hwc_aes_gcm_init(&c, &k, iv, iv_len);
    bad |= hwc_aes_gcm_aad(&c, aad, sizeof aad);
    bad |= hwc_aes_gcm_decrypt_update(&c, ct, ct, 100);
    bad |= hwc_aes_gcm_decrypt_update(&c, ct + 100, ct + 100, sizeof ct - 100);
    int ok_stream = hwc_aes_gcm_decrypt_final(&c, tag, 13);
    tag2[0] ^= 1;
    int fail = hwc_aes_gcm_decrypt(&k, iv, iv_len, aad, sizeof aad, tag2, tag2, 0, tag2, 16);
    PUBLIC(tag, sizeof tag);
    PUBLIC(tag2, sizeof tag2);
    PUBLIC(ct, sizeof ct);
    PUBLIC(back, sizeof back);
    PUBLIC(key, sizeof key);
    PUBLIC(iv, sizeof iv);
    PUBLIC(aad, sizeof aad);
    PUBLIC(pt, sizeof pt);
    hwc_wipe(&k, sizeof k);
    if (bad || ok != HWC_OK || ok_stream != HWC_OK || fail != HWC_ERR_AUTH_FAILED ||
        memcmp(back, pt, sizeof pt) != 0 || memcmp(ct, pt, sizeof pt) != 0) {
        fprintf(stderr, "ct_gcm: AES-%zu, IV %zu: wrong result (status %d, verify %d/%d/%d)\n", 8 * key_len,
                iv_len, bad, ok, ok_stream, fail);
        return 2;
    }
    /* ct was decrypted in place: encrypt it again for the next run */
    return hwc_aes_gcm_encrypt(&k, iv, iv_len, aad, sizeof aad, ct, pt, sizeof pt, tag, 16) ==
           HWC_ERR_BAD_ARGUMENT ? 0 : 2;   /* k was wiped: refused */
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "generic";
    if (hwc_kernel_select("aes", want) != HWC_OK) {
        printf("ct_gcm: kernel %s not usable here (valgrind's CPU or this build): skipped\n", want);
        return SKIP;
    }
    if (!RUNNING_ON_VALGRIND) printf("ct_gcm: not running under valgrind: results only, no CT check\n");
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 29 + 3);
    for (size_t i = 0; i < sizeof iv; i++) iv[i] = (uint8_t)(i * 13 + 5);
    for (size_t i = 0; i < sizeof aad; i++) aad[i] = (uint8_t)(i * 11 + 9);
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)(i * 7 + 1);
    int rc = 0;
    static const size_t kls[] = {16, 24, 32}, ivls[] = {12, 60};
    for (size_t a = 0; a < 3 && !rc; a++)
        for (size_t b = 0; b < 2 && !rc; b++) rc = run(kls[a], ivls[b]);
    printf("ct_gcm: kernel %s: AES-128/192/256-GCM, IV 12 and 60, one-shot, streaming, verify: %s\n", want,
           rc ? "FAILED" : "done (valgrind reports any secret-dependent branch or index)");
    return rc;
}
