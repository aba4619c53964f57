/* Constant-time check of the AES family under valgrind memcheck (the ctgrind
 * technique, as tests/ct_modexp.c): keys and plaintexts are marked undefined,
 * so memcheck reports every conditional jump and memory address that depends
 * on them, in key expansion, every mode, XTS tweak arithmetic (T = E_K2(i) is
 * secret), CMAC subkeys and padding, and the GF(2^128) doublings. IVs,
 * counters, tweak inputs and lengths are public. The two verdicts the API
 * reveals (XTS equal halves, CMAC verify) are declassified in core/.
 * The batch calls (include/hwcrypt/batch.h) run on the same secret key and
 * data, with public lengths, counts, IVs and sector numbers, and their
 * results are compared with the single calls'.
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
#include "hwcrypt/batch.h"
#include "aes_suite_keys.h"   /* ct_aes_fallback: keys on ECB-only tables */

#define SKIP 77
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t key[64], pt[517], ct[517], back[517];

/* ---- batch calls ---------------------------------------------------------- */
/* 11 messages: more than the 8 lanes of generic and aesni, so lanes take new
   messages mid-batch and the last message finishes on the single path. CMAC:
   empty, partial and complete last blocks; CBC: 0 to 32 blocks. */
#define NMSG 11
static const size_t cmac_len[NMSG] = {0, 1, 15, 16, 17, 31, 64, 100, 160, 255, 517};
static const size_t cbc_len[NMSG] = {16, 0, 32, 48, 160, 16, 256, 64, 512, 80, 496};
static uint8_t cbc_out[NMSG][512], cbc_ref[512];
/* XTS: 70 units of 16 bytes (more than one run of tweaks in core/) from a
   sector number whose low bytes carry, and 3 units of 512 bytes. */
static uint8_t xin[1536], xout[1536], xback[1536], xref[512];

/* Message i: pt, or its end for odd i (lanes read different bytes). */
static const uint8_t *msg_at(size_t i, size_t len) { return i & 1 ? pt + sizeof pt - len : pt; }

static int cmac_many_check(size_t key_len) {
    const uint8_t *msg[NMSG];
    uint8_t tags[16 * NMSG], ref[16];
    for (size_t i = 0; i < NMSG; i++) msg[i] = msg_at(i, cmac_len[i]);
    int bad = hwc_cmac_many(key, key_len, NMSG, msg, cmac_len, tags);
    PUBLIC(tags, sizeof tags);
    for (size_t i = 0; i < NMSG; i++) {
        bad |= hwc_cmac(key, key_len, msg[i], cmac_len[i], ref);
        PUBLIC(ref, sizeof ref);
        bad |= memcmp(ref, tags + 16 * i, 16) != 0;
    }
    return bad;
}

static int cbc_many_check(const hwc_aes_key *k) {
    const uint8_t *in[NMSG];
    uint8_t *out[NMSG], ivs[16 * NMSG], iv[16];
    for (size_t i = 0; i < sizeof ivs; i++) ivs[i] = (uint8_t)(i * 5 + 2);   /* public */
    for (size_t i = 0; i < NMSG; i++) in[i] = msg_at(i, cbc_len[i]), out[i] = cbc_out[i];
    int bad = hwc_aes_cbc_encrypt_many(k, NMSG, ivs, out, in, cbc_len);
    PUBLIC(ivs, sizeof ivs);
    PUBLIC(cbc_out, sizeof cbc_out);
    for (size_t i = 0; i < NMSG; i++) {
        for (size_t b = 0; b < 16; b++) iv[b] = (uint8_t)((16 * i + b) * 5 + 2);
        bad |= hwc_aes_cbc_encrypt(k, iv, cbc_ref, in[i], cbc_len[i]);
        PUBLIC(iv, sizeof iv);
        PUBLIC(cbc_ref, sizeof cbc_ref);
        bad |= memcmp(cbc_ref, cbc_out[i], cbc_len[i]) != 0 || memcmp(iv, ivs + 16 * i, 16) != 0;
    }
    return bad;
}

static int xts_sectors_check(const hwc_aes_xts_key *xk, uint64_t sector, size_t unit, size_t units) {
    const size_t len = unit * units;
    int bad = hwc_aes_xts_encrypt_sectors(xk, sector, unit, xout, xin, len);
    bad |= hwc_aes_xts_decrypt_sectors(xk, sector, unit, xback, xout, len);
    PUBLIC(xout, sizeof xout);
    PUBLIC(xback, sizeof xback);
    for (size_t u = 0; u < units; u++) {
        uint8_t tweak[16] = {0};   /* IEEE 1619 5.1: the sector number, little-endian */
        for (int i = 0; i < 8; i++) tweak[i] = (uint8_t)((sector + u) >> (8 * i));
        bad |= hwc_aes_xts_encrypt(xk, tweak, xref, xin + unit * u, unit);
        PUBLIC(xref, sizeof xref);
        bad |= memcmp(xref, xout + unit * u, unit) != 0;
    }
    PUBLIC(xin, sizeof xin);
    bad |= memcmp(xback, xin, len) != 0;
    SECRET(xin, sizeof xin);
    return bad;
}

/* Nonzero when a batch call fails or differs from the single calls. */
static int batch_checks(const hwc_aes_key *k, const hwc_aes_xts_key *xk, size_t key_len) {
    int bad = cmac_many_check(key_len) | cbc_many_check(k);
    if (key_len != 24) {
        bad |= xts_sectors_check(xk, 0x1ffffffc0ull, 16, 70);
        bad |= xts_sectors_check(xk, 0xff, 512, 3);
    }
    return bad;
}

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
    SECRET(xin, sizeof xin);
    int batch_bad = batch_checks(&k, &xk, key_len);
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
    if (bad || v != HWC_OK || memcmp(back, pt, key_len == 24 ? 512 : 517) != 0 || batch_bad) {
        fprintf(stderr, "ct_aes: AES-%zu wrong result (status %d, verify %d, batch %d)\n",
                8 * key_len, bad, v, batch_bad);
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
    for (size_t i = 0; i < sizeof xin; i++) xin[i] = (uint8_t)(i * 3 + 11);
    int rc = run(16);
    if (!rc) rc = run(24);
    if (!rc) rc = run(32);
    printf("ct_aes: kernel %s: AES-128/192/256 ECB, CBC, CTR, XTS (+stealing), CMAC, dbl,\n"
           "  cmac_many, cbc_encrypt_many, xts_*_sectors: %s\n", want,
           rc ? "FAILED" : "done (valgrind reports any key- or data-dependent branch or index)");
    return rc;
}
