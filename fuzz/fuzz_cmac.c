/* Differential fuzzing of AES-CMAC: every usable aes kernel against generic
 * and OpenSSL's EVP_MAC "CMAC". The input chooses the key length, key, the
 * message and its split into update calls; the context is copied at one split
 * point and both copies must finish with the same tag; one-shot and verify
 * agree. */
#include <stdint.h>
#include <openssl/evp.h>
#include "fuzz_openssl_cmac.h"

enum { MAX_MSG = 2048, MAX_SPLITS = 16 };

static fz_kernels kernels;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) fz_usable("aes", &kernels);
    fz_in in = {data, size};
    size_t kl = 16 + 8 * (fz_byte(&in) % 3), nsplit = fz_byte(&in) % MAX_SPLITS, copy_at = fz_byte(&in);
    size_t cuts[MAX_SPLITS];
    uint8_t key[32], ref[16], tag[16], tag2[16];
    for (size_t i = 0; i < nsplit; i++) cuts[i] = fz_below(&in, 64);   /* piece lengths */
    fz_bytes(&in, key, kl);
    static uint8_t msg[MAX_MSG];
    size_t len = in.n < MAX_MSG ? in.n : MAX_MSG;
    fz_bytes(&in, msg, len);
    openssl_cmac(key, kl, msg, len, ref);
    for (size_t i = kernels.n; i-- > 0;) {   /* generic first */
        const char *kern = kernels.name[i];
        fz_select("aes", kern);
        FZ_CHECK(hwc_cmac(key, kl, msg, len, tag) == HWC_OK, "hwc_cmac");
        FZ_CHECK(!memcmp(tag, ref, 16), "aes/%s one-shot CMAC differs from OpenSSL, key %zu, len %zu",
                 kern, kl, len);
        FZ_CHECK(hwc_cmac_verify(key, kl, msg, len, ref, 16) == HWC_OK, "aes/%s verify", kern);
        hwc_cmac_ctx c, c2;
        FZ_CHECK(hwc_cmac_init(&c, key, kl) == HWC_OK, "init");
        size_t pos = 0, copy_pos = 0;
        for (size_t s = 0; s <= nsplit; s++) {
            size_t piece = s < nsplit ? cuts[s] : len - pos;
            if (piece > len - pos) piece = len - pos;
            FZ_CHECK(hwc_cmac_update(&c, msg + pos, piece) == HWC_OK, "update");
            pos += piece;
            if (s == copy_at % (nsplit + 1)) {
                c2 = c;
                copy_pos = pos;
            }
        }
        FZ_CHECK(hwc_cmac_final(&c, tag) == HWC_OK && !memcmp(tag, ref, 16),
                 "aes/%s streamed CMAC differs, key %zu, len %zu, %zu splits", kern, kl, len, nsplit);
        /* the copy absorbs the rest of the message on its own */
        FZ_CHECK(hwc_cmac_update(&c2, msg + copy_pos, len - copy_pos) == HWC_OK, "update copy");
        FZ_CHECK(hwc_cmac_final(&c2, tag2) == HWC_OK && !memcmp(tag2, ref, 16),
                 "aes/%s CMAC of a context copy differs", kern);
        /* the context is ready for a new message with the same key */
        FZ_CHECK(hwc_cmac_update(&c, msg, len) == HWC_OK && hwc_cmac_final(&c, tag) == HWC_OK &&
                 !memcmp(tag, ref, 16), "aes/%s CMAC after final", kern);
    }
    return 0;
}
