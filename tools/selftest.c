/* hwcrypt selftest: known-answer tests on every usable kernel of every
 * family; non-zero exit on any failure. */
#include <stdio.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "cli.h"

static int failures;

static void unhex(const char *h, uint8_t *out) {
    for (size_t i = 0; h[2 * i]; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static int expect(const char *what, const uint8_t *got, const char *want_hex) {
    uint8_t want[128];
    size_t n = strlen(want_hex) / 2;
    unhex(want_hex, want);
    if (memcmp(got, want, n) == 0) return 1;
    printf("    FAILED: %s\n", what);
    failures++;
    return 0;
}

static int aes_kats(void) {
    int ok = 1;
    uint8_t key[32], pt[64], out[64], iv[16];
    hwc_aes_key k;
    unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", key);
    unhex("00112233445566778899aabbccddeeff", pt);
    /* FIPS-197 Appendix C.1, C.2, C.3 */
    static const char *const c[3] = {"69c4e0d86a7b0430d8cdb78070b4c55a",
                                     "dda97ca4864cdfe06eaf70a0ec0d7191",
                                     "8ea2b7ca516745bfeafc49904b496089"};
    for (int i = 0; i < 3; i++) {
        hwc_aes_setkey(&k, key, 16 + 8 * (size_t)i);
        hwc_aes_ecb_encrypt(&k, out, pt, 16);
        ok &= expect("FIPS-197 C encrypt", out, c[i]);
        hwc_aes_ecb_decrypt(&k, out, out, 16);
        ok &= expect("FIPS-197 C decrypt", out, "00112233445566778899aabbccddeeff");
    }
    /* SP 800-38A F.5.1 CTR-AES128, first block */
    unhex("2b7e151628aed2a6abf7158809cf4f3c", key);
    unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", iv);
    unhex("6bc1bee22e409f96e93d7e117393172a", pt);
    hwc_aes_setkey(&k, key, 16);
    hwc_aes_ctr_crypt(&k, iv, out, pt, 16);
    ok &= expect("SP 800-38A F.5.1 CTR", out, "874d6191b620e3261bef6864990db6ce");
    /* SP 800-38A F.2.1 CBC-AES128, first block */
    unhex("000102030405060708090a0b0c0d0e0f", iv);
    hwc_aes_cbc_encrypt(&k, iv, out, pt, 16);
    ok &= expect("SP 800-38A F.2.1 CBC", out, "7649abac8119b246cee98e9b12e9197d");
    /* RFC 4493 section 4, Example 2 */
    uint8_t tag[16];
    hwc_cmac(key, 16, pt, 16, tag);
    ok &= expect("RFC 4493 Example 2 CMAC", tag, "070a16b46b4d4144f79bdd9dd04a287c");
    /* IEEE 1619-2007 Annex B, XTS-AES-128 vector 2 */
    hwc_aes_xts_key xk;
    uint8_t xkey[32], tweak[16] = {0x33, 0x33, 0x33, 0x33, 0x33};
    memset(xkey, 0x11, 16);
    memset(xkey + 16, 0x22, 16);
    memset(pt, 0x44, 32);
    hwc_aes_xts_setkey(&xk, xkey, 32);
    hwc_aes_xts_encrypt(&xk, tweak, out, pt, 32);
    ok &= expect("IEEE 1619 vector 2 XTS",
                 out, "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0");
    /* McGrew-Viega GCM specification, Appendix B, Test Case 4 (AES-128-GCM,
       20 bytes of AAD, 60 bytes of data): C and T */
    hwc_aes_gcm_key gk;
    uint8_t gkey[16], giv[12], aad[20], gct[64];
    unhex("feffe9928665731c6d6a8f9467308308", gkey);
    unhex("cafebabefacedbaddecaf888", giv);
    unhex("feedfacedeadbeeffeedfacedeadbeefabaddad2", aad);
    unhex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
          "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", pt);
    hwc_aes_gcm_setkey(&gk, gkey, 16);
    hwc_aes_gcm_encrypt(&gk, giv, 12, aad, 20, gct, pt, 60, tag, 16);
    ok &= expect("GCM spec Test Case 4 C", gct,
                 "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                 "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091");
    ok &= expect("GCM spec Test Case 4 T", tag, "5bc94fbc3221a5db94fae95ae7121a47");
    if (hwc_aes_gcm_decrypt(&gk, giv, 12, aad, 20, out, gct, 60, tag, 16) != HWC_OK ||
        memcmp(out, pt, 60) != 0)
        ok = 0, printf("    FAILED: GCM spec Test Case 4 decrypt\n"), failures++;
    tag[15] ^= 1;
    if (hwc_aes_gcm_decrypt(&gk, giv, 12, aad, 20, out, gct, 60, tag, 16) != HWC_ERR_AUTH_FAILED)
        ok = 0, printf("    FAILED: GCM forged tag accepted\n"), failures++;
    hwc_wipe(&k, sizeof k);
    hwc_wipe(&xk, sizeof xk);
    hwc_wipe(&gk, sizeof gk);
    return ok;
}

static int streebog_kats(void) {
    /* API.md / RFC 6986 section 10.1 M1, digests in libgcrypt byte order */
    const char *m1 = "012345678901234567890123456789012345678901234567890123456789012";
    uint8_t d[64];
    int ok = 1;
    hwc_streebog(512, m1, 63, d);
    ok &= expect("RFC 6986 M1 Streebog-512", d,
                 "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa"
                 "00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48");
    hwc_streebog(256, m1, 63, d);
    ok &= expect("RFC 6986 M1 Streebog-256", d,
                 "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500");
    return ok;
}

/* Arithmetic identities with known answers. */
static int mpi_kats(void) {
    int ok = 1;
    hwc_limb a[2] = {~0ull, 0}, r[4], d[2] = {0, 0};
    hwc_mpi_mul(r, a, 1, a, 1);   /* (2^64-1)^2 = 2^128 - 2^65 + 1 */
    if (r[0] != 1 || r[1] != ~1ull) ok = 0, printf("    FAILED: (2^64-1)^2\n"), failures++;
    hwc_limb carry = hwc_mpi_muladd(d, a, 1, ~0ull);
    if (d[0] != 1 || carry != ~1ull) ok = 0, printf("    FAILED: muladd\n"), failures++;
    /* 4^13 mod 497 = 445 (the textbook example) */
    hwc_limb b = 4, e = 13, m = 497, x;
    hwc_mpi_modexp(&x, &b, &e, 1, &m, 1);
    if (x != 445) ok = 0, printf("    FAILED: 4^13 mod 497\n"), failures++;
    /* Fermat: 3^(p-1) = 1 mod p for the Mersenne prime p = 2^127 - 1 */
    hwc_limb p[2] = {~0ull, ~0ull >> 1}, pm1[2] = {~0ull - 1, ~0ull >> 1}, three[2] = {3, 0}, y[2];
    hwc_mpi_modexp(y, three, pm1, 2, p, 2);
    if (y[0] != 1 || y[1] != 0) ok = 0, printf("    FAILED: Fermat 2^127-1\n"), failures++;
    return ok;
}

int hwc_cmd_selftest(int argc, char **argv) {
    (void)argv;
    if (argc) {
        fprintf(stderr, "hwcrypt selftest: takes no options\n");
        return 2;
    }
    /* Known-answer tests by family name; every family of hwc_families()
       must have an entry (a family without one fails the selftest). */
    static const struct { const char *family; int (*run)(void); } kats[] = {
        {"aes", aes_kats}, {"streebog", streebog_kats}, {"mpi", mpi_kats}};
    for (const char *const *fam = hwc_families(); *fam; fam++) {
        int (*run)(void) = NULL;
        for (size_t j = 0; j < sizeof kats / sizeof kats[0]; j++)
            if (!strcmp(kats[j].family, *fam)) run = kats[j].run;
        if (!run) {
            printf("%-9s no known-answer tests: FAILED\n", *fam);
            failures++;
            continue;
        }
        hwc_kernel_info k[32];
        size_t n = hwc_kernels(*fam, k, 32);
        for (size_t i = 0; i < n && i < 32; i++) {
            if (!k[i].usable) {
                printf("%-9s %-12s not usable here (needs %s)\n", *fam, k[i].name, k[i].requires);
                continue;
            }
            hwc_kernel_select(*fam, k[i].name);
            int ok = run();
            printf("%-9s %-12s %s\n", *fam, k[i].name, ok ? "ok" : "FAILED");
        }
        hwc_kernel_select(*fam, NULL);
    }
    printf("selftest: %s\n", failures ? "FAILED" : "all known-answer tests passed");
    return failures ? 1 : 0;
}
