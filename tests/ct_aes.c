/* Constant-time check of the AES family under valgrind memcheck (the ctgrind
 * technique, as tests/ct_modexp.c): keys and plaintexts are marked undefined,
 * so memcheck reports every conditional jump and memory address that depends
 * on them, in key expansion, every mode, XTS tweak arithmetic (T = E_K2(i) is
 * secret), CMAC subkeys and padding, and the GF(2^128) doublings. IVs,
 * counters, tweak inputs and lengths are public. The two verdicts the API
 * reveals (XTS equal halves, CMAC verify) are declassified in core/.
 * Built twice: ct_aes on the kernels' own modes, ct_aes_fallback on
 * ECB-only tables (aes_suite_keys.h), i.e. the modes core/ builds from ECB.
 *
 * Usage (ctest): HWCRYPT_KERNEL=aes=<kernel> valgrind --error-exitcode=1
 *   ct_aes <kernel>. Exit 0 clean, 77 kernel not usable on valgrind's CPU
 *   (valgrind 3.19 has no VAES/AVX-512), 2 wrong result. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "hwcrypt/hwcrypt.h"
#include "aes_suite_keys.h"   /* ct_aes_fallback: keys on ECB-only tables */

#define SKIP 77
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t key[64], pt[517], ct[517], back[517];

static int run(size_t key_len) {
    hwc_aes_key k;
    uint8_t iv[16] = {1, 2, 3}, iv_dec[16] = {1, 2, 3}, ctr[16], tag[16], tweak[16] = {7};
    memset(ctr, 0xff, sizeof ctr);   /* the counter wraps inside the call */
    ctr[0] = 0x00;
    int bad = 0;
    SECRET(key, sizeof key);
    SECRET(pt, sizeof pt);
    bad |= SUITE_SETKEY(&k, key, key_len);
    bad |= hwc_aes_ecb_encrypt(&k, ct, pt, 512);
    bad |= hwc_aes_ecb_decrypt(&k, back, ct, 512);
    bad |= hwc_aes_cbc_encrypt(&k, iv, ct, pt, 512);
    bad |= hwc_aes_cbc_decrypt(&k, iv_dec, back, ct, 512);
    bad |= hwc_aes_ctr_crypt(&k, ctr, ct, pt, 517);
    PUBLIC(ctr, sizeof ctr);
    hwc_aes_xts_key xk;
    memset(&xk, 0, sizeof xk);
    if (key_len != 24) {   /* XTS-AES-128 and -256 only (IEEE 1619) */
        bad |= SUITE_XTS_SETKEY(&xk, key, 2 * key_len);
        bad |= hwc_aes_xts_encrypt(&xk, tweak, ct, pt, 517);    /* ciphertext stealing */
        bad |= hwc_aes_xts_decrypt(&xk, tweak, back, ct, 517);
        bad |= hwc_aes_xts_encrypt(&xk, tweak, ct, back, 512);  /* back: the round trip, kept */
    }
    hwc_cmac_ctx c;
    bad |= SUITE_CMAC_INIT(&c, key, key_len);
    bad |= hwc_cmac_update(&c, pt, 100);
    bad |= hwc_cmac_update(&c, pt + 100, 17);
    bad |= hwc_cmac_final(&c, tag);
    PUBLIC(tag, sizeof tag);   /* a tag is public once computed */
    int v = hwc_cmac_verify(key, key_len, pt, 117, tag, 16);
    uint8_t d[16];
    hwc_gf128_dbl_be(d, pt);
    hwc_gf128_dbl_le(d, pt + 16);
    PUBLIC(d, sizeof d);
    PUBLIC(ct, sizeof ct);
    PUBLIC(back, sizeof back);
    PUBLIC(key, sizeof key);
    PUBLIC(pt, sizeof pt);
    hwc_wipe(&k, sizeof k);
    hwc_wipe(&xk, sizeof xk);
    hwc_wipe(&c, sizeof c);
    /* back holds the XTS round trip (517 bytes), or for AES-192 the CBC one */
    if (bad || v != HWC_OK || memcmp(back, pt, key_len == 24 ? 512 : 517) != 0) {
        fprintf(stderr, "ct_aes: AES-%zu wrong result (status %d, verify %d)\n", 8 * key_len, bad, v);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "generic";
    if (hwc_kernel_select("aes", want) != HWC_OK) {
        printf("ct_aes: kernel %s not usable here (valgrind's CPU or this build): skipped\n", want);
        return SKIP;
    }
    if (!RUNNING_ON_VALGRIND) printf("ct_aes: not running under valgrind: results only, no CT check\n");
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 29 + 3);
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)(i * 7 + 1);
    int rc = run(16);
    if (!rc) rc = run(24);
    if (!rc) rc = run(32);
    printf("ct_aes: kernel %s: AES-128/192/256 ECB, CBC, CTR, XTS (+stealing), CMAC, dbl: %s\n", want,
           rc ? "FAILED" : "done (valgrind reports any key- or data-dependent branch or index)");
    return rc;
}
