/* Differential fuzzing of Streebog (RFC 6986), HMAC-Streebog (RFC 7836) and
 * PBKDF2-HMAC-Streebog-512: every usable streebog kernel against generic and
 * libgcrypt. The input chooses the digest size, the split of the message into
 * update calls, a point where the context is copied (both copies must give
 * the digest), the HMAC key, and a short PBKDF2 (1-3 iterations, up to 200
 * output bytes: several output blocks); hwc_streebog_many on three pieces of
 * the message against one call per piece. */
#include <stdint.h>
#include <gcrypt.h>
#include "fuzz_common.h"

enum { MAX_MSG = 4096, MAX_SPLITS = 16, MAX_KEY = 160, MAX_DK = 200 };

static fz_kernels kernels;

static void gcry_ref(unsigned bits, const uint8_t *key, size_t kl, const uint8_t *msg, size_t len,
                     uint8_t *digest, uint8_t *mac) {
    int algo = bits == 256 ? GCRY_MD_STRIBOG256 : GCRY_MD_STRIBOG512;
    gcry_md_hash_buffer(algo, digest, msg, len);
    gcry_md_hd_t h;
    FZ_CHECK(gcry_md_open(&h, algo, GCRY_MD_FLAG_HMAC) == 0, "gcry_md_open");
    FZ_CHECK(gcry_md_setkey(h, kl ? key : (const uint8_t *)"", kl) == 0, "gcry_md_setkey");
    gcry_md_write(h, msg, len);
    memcpy(mac, gcry_md_read(h, 0), bits / 8);
    gcry_md_close(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) {
        fz_usable("streebog", &kernels);
        FZ_CHECK(gcry_check_version(NULL), "libgcrypt");
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
    fz_in in = {data, size};
    unsigned bits = fz_byte(&in) & 1 ? 256 : 512;
    size_t nsplit = fz_byte(&in) % MAX_SPLITS, copy_at = fz_byte(&in) % (MAX_SPLITS + 1);
    size_t kl = fz_byte(&in) % MAX_KEY, iters = 1 + fz_byte(&in) % 3, dk_len = fz_byte(&in) % MAX_DK;
    size_t cuts[MAX_SPLITS];
    for (size_t i = 0; i < nsplit; i++) cuts[i] = fz_below(&in, 200);
    uint8_t key[MAX_KEY], digest[64], mac[64], ref_d[64], ref_m[64], dk[MAX_DK], ref_dk[MAX_DK];
    fz_bytes(&in, key, kl);
    static uint8_t msg[MAX_MSG];
    size_t len = in.n < MAX_MSG ? in.n : MAX_MSG;
    fz_bytes(&in, msg, len);
    gcry_ref(bits, key, kl, msg, len, ref_d, ref_m);
    /* salt = the message, kept short; skipped where libgcrypt refuses the input
       (e.g. dkLen 0 or an empty password) */
    int pbkdf2 = len <= 256 &&
                 gcry_kdf_derive(kl ? key : (const uint8_t *)"", kl, GCRY_KDF_PBKDF2, GCRY_MD_STRIBOG512,
                                 len ? msg : (const uint8_t *)"", len, iters, dk_len, ref_dk) == 0;
    for (size_t i = kernels.n; i-- > 0;) {   /* generic first */
        const char *kern = kernels.name[i];
        fz_select("streebog", kern);
        FZ_CHECK(hwc_streebog(bits, msg, len, digest) == HWC_OK && !memcmp(digest, ref_d, bits / 8),
                 "streebog/%s one-shot %u differs from libgcrypt, len %zu", kern, bits, len);
        hwc_streebog_ctx c, c2;
        size_t pos = 0, copy_pos = 0;
        FZ_CHECK(hwc_streebog_init(&c, bits) == HWC_OK, "init");
        c2 = c;
        for (size_t s = 0; s <= nsplit; s++) {
            size_t piece = s < nsplit ? cuts[s] : len - pos;
            if (piece > len - pos) piece = len - pos;
            FZ_CHECK(hwc_streebog_update(&c, msg + pos, piece) == HWC_OK, "update");
            pos += piece;
            if (s == copy_at) {
                c2 = c;
                copy_pos = pos;
            }
        }
        FZ_CHECK(hwc_streebog_final(&c, digest) == HWC_OK && !memcmp(digest, ref_d, bits / 8),
                 "streebog/%s streamed %u differs, len %zu, %zu splits", kern, bits, len, nsplit);
        FZ_CHECK(hwc_streebog_update(&c2, msg + copy_pos, len - copy_pos) == HWC_OK &&
                 hwc_streebog_final(&c2, digest) == HWC_OK && !memcmp(digest, ref_d, bits / 8),
                 "streebog/%s context copy at %zu differs", kern, copy_pos);
        /* lanes: the message cut into three, as many messages at once */
        const void *parts[3] = {msg, msg + len / 3, msg + len / 2};
        const size_t part_len[3] = {len / 3, len / 2 - len / 3, len - len / 2};
        uint8_t many[3 * 64], one[64];
        FZ_CHECK(hwc_streebog_many(bits, 3, parts, part_len, many) == HWC_OK, "streebog_many");
        for (int p = 0; p < 3; p++) {
            FZ_CHECK(hwc_streebog(bits, parts[p], part_len[p], one) == HWC_OK &&
                         !memcmp(one, many + p * (bits / 8), bits / 8),
                     "streebog/%s hwc_streebog_many lane %d differs from one call", kern, p);
        }
        FZ_CHECK(hwc_hmac_streebog(bits, key, kl, msg, len, mac) == HWC_OK && !memcmp(mac, ref_m, bits / 8),
                 "streebog/%s HMAC-%u differs from libgcrypt, key %zu, len %zu", kern, bits, kl, len);
        if (pbkdf2) {
            FZ_CHECK(hwc_pbkdf2_streebog512(key, kl, msg, len, (uint32_t)iters, dk, dk_len) == HWC_OK &&
                     !memcmp(dk, ref_dk, dk_len),
                     "streebog/%s PBKDF2 differs, key %zu, salt %zu, c %zu, dkLen %zu", kern, kl, len,
                     iters, dk_len);
        }
    }
    return 0;
}
