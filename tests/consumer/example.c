/* The README's API example, built in CI against the INSTALLED package (CMake
 * find_package and pkg-config) and run: it must print the RFC 6986 M1
 * Streebog-256 digest and round-trip AES-CTR. */
#include <hwcrypt/hwcrypt.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *msg = "012345678901234567890123456789012345678901234567890123456789012";
    uint8_t digest[32], key[16] = {0}, ctr[16] = {0}, ct[63], back[63];
    if (hwc_streebog(256, msg, strlen(msg), digest) != HWC_OK) return 1;
    for (int i = 0; i < 32; i++) printf("%02x", digest[i]);
    printf("  (streebog256, kernel %s)\n", hwc_kernel_active("streebog"));

    hwc_aes_key k;                                 /* fixed storage, no heap */
    hwc_aes_setkey(&k, key, sizeof key);           /* binds the best AES kernel */
    hwc_aes_ctr_crypt(&k, ctr, ct, (const uint8_t *)msg, 63);
    memset(ctr, 0, sizeof ctr);
    hwc_aes_ctr_crypt(&k, ctr, back, ct, 63);
    hwc_wipe(&k, sizeof k);
    printf("aes-ctr round trip %s (kernel %s)\n", memcmp(back, msg, 63) ? "FAILED" : "ok",
           hwc_kernel_active("aes"));
    return memcmp(back, msg, 63) != 0;
}
