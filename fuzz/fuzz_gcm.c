/* Differential fuzzing of AES-GCM (SP 800-38D): every usable aes kernel
 * against generic and OpenSSL EVP. The input chooses the key length, key, IV
 * (1-64 bytes: 12 is the fast path, others are hashed), AAD, tag length,
 * data, and the split of AAD and data into streaming calls; one-shot and
 * streaming must agree with OpenSSL, decryption (in place) must give the
 * plaintext back, and an altered tag must be refused with the output zeroed. */
#include <stdint.h>
#include <openssl/evp.h>
#include "fuzz_common.h"

enum { MAX_DATA = 2048, MAX_AAD = 256, MAX_IV = 64, MAX_SPLITS = 8 };

static void openssl_gcm(const uint8_t *key, size_t kl, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16]) {
    const EVP_CIPHER *c = kl == 16 ? EVP_aes_128_gcm() : kl == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int n = 0;
    FZ_CHECK(x && EVP_EncryptInit_ex(x, c, NULL, NULL, NULL) == 1 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, (int)iv_len, NULL) == 1 &&
             EVP_EncryptInit_ex(x, NULL, NULL, key, iv) == 1, "EVP GCM init");
    FZ_CHECK(EVP_EncryptUpdate(x, NULL, &n, aad, (int)aad_len) == 1, "EVP GCM aad");
    FZ_CHECK(EVP_EncryptUpdate(x, out, &n, in, (int)len) == 1 && EVP_EncryptFinal_ex(x, out + n, &n) == 1,
             "EVP GCM encrypt");
    FZ_CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1, "EVP GCM tag");
    EVP_CIPHER_CTX_free(x);
}

static fz_kernels kernels;
static const size_t tag_lens[7] = {4, 8, 12, 13, 14, 15, 16};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) fz_usable("aes", &kernels);
    fz_in in = {data, size};
    size_t kl = 16 + 8 * (fz_byte(&in) % 3), iv_len = 1 + fz_byte(&in) % MAX_IV;
    if (fz_byte(&in) & 1) iv_len = 12;   /* the usual case, half the time */
    size_t aad_len = fz_byte(&in) % MAX_AAD, tag_len = tag_lens[fz_byte(&in) % 7];
    size_t nsplit = fz_byte(&in) % MAX_SPLITS, cuts[MAX_SPLITS];
    for (size_t i = 0; i < nsplit; i++) cuts[i] = fz_below(&in, 300);
    uint8_t key[32], iv[MAX_IV], aad[MAX_AAD], ref_tag[16], tag[16];
    fz_bytes(&in, key, kl);
    fz_bytes(&in, iv, iv_len);
    fz_bytes(&in, aad, aad_len);
    static uint8_t msg[MAX_DATA], ref[MAX_DATA], buf[MAX_DATA];
    size_t len = in.n < MAX_DATA ? in.n : MAX_DATA;
    fz_bytes(&in, msg, len);
    openssl_gcm(key, kl, iv, iv_len, aad, aad_len, msg, len, ref, ref_tag);
    for (size_t i = kernels.n; i-- > 0;) {   /* generic first */
        const char *kern = kernels.name[i];
        fz_select("aes", kern);
        hwc_aes_gcm_key k;
        FZ_CHECK(hwc_aes_gcm_setkey(&k, key, kl) == HWC_OK, "setkey");
        FZ_CHECK(hwc_aes_gcm_encrypt(&k, iv, iv_len, aad, aad_len, buf, msg, len, tag, tag_len) == HWC_OK &&
                     !memcmp(buf, ref, len) && !memcmp(tag, ref_tag, tag_len),
                 "aes/%s GCM differs from OpenSSL: key %zu, iv %zu, aad %zu, len %zu", kern, kl, iv_len,
                 aad_len, len);
        FZ_CHECK(hwc_aes_gcm_decrypt(&k, iv, iv_len, aad, aad_len, buf, buf, len, tag, tag_len) == HWC_OK &&
                     !memcmp(buf, msg, len), "aes/%s GCM decrypt in place", kern);
        /* streaming: AAD in two pieces, the data in the fuzzed pieces */
        hwc_aes_gcm_ctx c;
        FZ_CHECK(hwc_aes_gcm_init(&c, &k, iv, iv_len) == HWC_OK, "init");
        FZ_CHECK(hwc_aes_gcm_aad(&c, aad, aad_len / 2) == HWC_OK &&
                 hwc_aes_gcm_aad(&c, aad + aad_len / 2, aad_len - aad_len / 2) == HWC_OK, "aad");
        size_t pos = 0;
        for (size_t s = 0; s <= nsplit; s++) {
            size_t piece = s < nsplit ? cuts[s] : len - pos;
            if (piece > len - pos) piece = len - pos;
            FZ_CHECK(hwc_aes_gcm_encrypt_update(&c, buf + pos, msg + pos, piece) == HWC_OK, "update");
            pos += piece;
        }
        FZ_CHECK(hwc_aes_gcm_encrypt_final(&c, tag, tag_len) == HWC_OK && !memcmp(buf, ref, len) &&
                     !memcmp(tag, ref_tag, tag_len),
                 "aes/%s streamed GCM differs, %zu splits, len %zu", kern, nsplit, len);
        /* an altered tag: refused, and no plaintext released */
        tag[len % tag_len] ^= 0x40;
        memcpy(buf, ref, len);
        FZ_CHECK(hwc_aes_gcm_decrypt(&k, iv, iv_len, aad, aad_len, buf, buf, len, tag, tag_len) ==
                     HWC_ERR_AUTH_FAILED, "aes/%s accepted an altered tag", kern);
        for (size_t b = 0; b < len; b++) FZ_CHECK(buf[b] == 0, "aes/%s released plaintext", kern);
    }
    return 0;
}
