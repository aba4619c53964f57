/* Differential fuzzing of the AES modes: every usable aes kernel against
 * generic and against OpenSSL EVP. The input chooses the mode (ECB, CBC, CTR,
 * XTS; both directions), key length, key, IV or counter (optionally pushed to
 * just below the 64-bit or 128-bit wrap), a split into two calls (the second
 * on a copy of the key context), in place or misaligned buffers, and data. */
#include <stdint.h>
#include <openssl/evp.h>
#include "fuzz_common.h"

enum { MAX_DATA = 4096, PAD = 64 };
enum { ECB_E, ECB_D, CBC_E, CBC_D, CTR, XTS_E, XTS_D, MODES };

typedef struct {
    int mode, key_len, in_place, wrap;
    size_t split, in_off, out_off, len;
    uint8_t key[64], iv[16], data[MAX_DATA];
} job;

static const EVP_CIPHER *evp(int mode, int key_len) {
    int i = key_len == 16 ? 0 : key_len == 24 ? 1 : 2;
    switch (mode) {
    case ECB_E: case ECB_D: return (const EVP_CIPHER *[]){EVP_aes_128_ecb(), EVP_aes_192_ecb(), EVP_aes_256_ecb()}[i];
    case CBC_E: case CBC_D: return (const EVP_CIPHER *[]){EVP_aes_128_cbc(), EVP_aes_192_cbc(), EVP_aes_256_cbc()}[i];
    case CTR: return (const EVP_CIPHER *[]){EVP_aes_128_ctr(), EVP_aes_192_ctr(), EVP_aes_256_ctr()}[i];
    default: return key_len == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    }
}

static void openssl_run(const job *j, const uint8_t *iv, uint8_t *out) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int enc = j->mode == ECB_E || j->mode == CBC_E || j->mode == CTR || j->mode == XTS_E, n1 = 0, n2 = 0;
    FZ_CHECK(c && EVP_CipherInit_ex(c, evp(j->mode, j->key_len), NULL, j->key,
                                    j->mode >= CBC_E ? iv : NULL, enc) == 1, "EVP init");
    EVP_CIPHER_CTX_set_padding(c, 0);
    FZ_CHECK(EVP_CipherUpdate(c, out, &n1, j->data, (int)j->len) == 1, "EVP update");
    FZ_CHECK(EVP_CipherFinal_ex(c, out + n1, &n2) == 1 && (size_t)(n1 + n2) == j->len, "EVP final");
    EVP_CIPHER_CTX_free(c);
}

/* counter + blocks mod 2^128, big-endian (SP 800-38A B.1 with m = 128). */
static void ctr_add(uint8_t ctr[16], uint64_t blocks) {
    for (int i = 15; i >= 0 && blocks; i--) {
        blocks += ctr[i];
        ctr[i] = (uint8_t)blocks;
        blocks >>= 8;
    }
}

/* One kernel: the job through hwcrypt into out; iv_out gets the chained IV or
   counter. Returns 0, or the hwcrypt error of setkey (XTS equal halves). */
static int hwc_run(const job *j, uint8_t *bufs, uint8_t **outp, uint8_t iv_out[16]) {
    uint8_t *in = bufs + j->in_off, *out = j->in_place ? in : bufs + MAX_DATA + 2 * PAD + j->out_off;
    memcpy(in, j->data, j->len);
    memcpy(iv_out, j->iv, 16);
    *outp = out;
    size_t a = j->split, b = j->len - a;
    if (j->mode == XTS_E || j->mode == XTS_D) {
        hwc_aes_xts_key k;
        int rc = hwc_aes_xts_setkey(&k, j->key, (size_t)j->key_len);
        if (rc != HWC_OK) return rc;
        rc = j->mode == XTS_E ? hwc_aes_xts_encrypt(&k, j->iv, out, in, j->len)
                              : hwc_aes_xts_decrypt(&k, j->iv, out, in, j->len);
        FZ_CHECK(rc == HWC_OK, "xts rc %d len %zu", rc, j->len);
        return 0;
    }
    hwc_aes_key k, copy;
    FZ_CHECK(hwc_aes_setkey(&k, j->key, (size_t)j->key_len) == HWC_OK, "setkey");
    copy = k;   /* contexts are plain data: a copy must work the same */
    for (int half = 0; half < 2; half++) {
        const hwc_aes_key *kk = half ? &copy : &k;
        size_t off = half ? a : 0, len = half ? b : a;
        int rc = HWC_OK;
        switch (j->mode) {
        case ECB_E: rc = hwc_aes_ecb_encrypt(kk, out + off, in + off, len); break;
        case ECB_D: rc = hwc_aes_ecb_decrypt(kk, out + off, in + off, len); break;
        case CBC_E: rc = hwc_aes_cbc_encrypt(kk, iv_out, out + off, in + off, len); break;
        case CBC_D: rc = hwc_aes_cbc_decrypt(kk, iv_out, out + off, in + off, len); break;
        default: rc = hwc_aes_ctr_crypt(kk, iv_out, out + off, in + off, len); break;
        }
        FZ_CHECK(rc == HWC_OK, "mode %d rc %d", j->mode, rc);
    }
    return 0;
}

static void read_job(fz_in *in, job *j) {
    j->mode = fz_byte(in) % MODES;
    uint8_t kl = fz_byte(in);
    int xts = j->mode == XTS_E || j->mode == XTS_D;
    j->key_len = xts ? (kl & 1 ? 64 : 32) : 16 + 8 * (kl % 3);
    uint8_t flags = fz_byte(in);
    j->in_place = flags & 1;
    j->wrap = (flags >> 1) & 3;
    j->in_off = fz_byte(in) % PAD;
    j->out_off = fz_byte(in) % PAD;
    size_t split = fz_below(in, MAX_DATA + 1);
    fz_bytes(in, j->key, (size_t)j->key_len);
    fz_bytes(in, j->iv, 16);
    if (j->mode == CTR && j->wrap) {   /* a few blocks below the 64- or 128-bit wrap */
        memset(j->iv + (j->wrap == 1 ? 8 : 0), 0xff, j->wrap == 1 ? 8 : 16);
        j->iv[15] = (uint8_t)(0xff - (j->iv[15] & 7));
    }
    j->len = in->n < MAX_DATA ? in->n : MAX_DATA;
    fz_bytes(in, j->data, j->len);
    if (j->mode <= CBC_D) j->len -= j->len % 16;
    if (xts && j->len < 16) j->len = 16;          /* zero-padded data */
    j->split = split > j->len ? j->len : split;
    if (j->mode != CTR || j->split != j->len) j->split -= j->split % 16;   /* chaining at whole blocks */
}

static fz_kernels kernels;
static uint8_t bufs[2 * (MAX_DATA + 2 * PAD)];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) fz_usable("aes", &kernels);
    static job j;
    fz_in in = {data, size};
    read_job(&in, &j);
    static uint8_t ref[MAX_DATA], first[MAX_DATA];
    uint8_t ref_iv[16], iv[16], first_iv[16];
    int have_ref = 0;
    for (size_t i = kernels.n; i-- > 0;) {   /* generic (lowest priority) first */
        fz_select("aes", kernels.name[i]);
        uint8_t *out;
        int rc = hwc_run(&j, bufs, &out, iv);
        if (rc != 0) {   /* only XTS with equal key halves is refused */
            FZ_CHECK(rc == HWC_ERR_BAD_ARGUMENT &&
                     !memcmp(j.key, j.key + j.key_len / 2, (size_t)j.key_len / 2),
                     "xts setkey rc %d", rc);
            continue;
        }
        if (!have_ref) {
            openssl_run(&j, j.iv, ref);
            memcpy(ref_iv, j.iv, 16);
            if (j.mode == CBC_E && j.len) memcpy(ref_iv, ref + j.len - 16, 16);
            if (j.mode == CBC_D && j.len) memcpy(ref_iv, j.data + j.len - 16, 16);
            if (j.mode == CTR) ctr_add(ref_iv, (j.split + 15) / 16 + (j.len - j.split + 15) / 16);
            memcpy(first, out, j.len);
            memcpy(first_iv, iv, 16);
            have_ref = 1;
        }
        FZ_CHECK(!memcmp(out, first, j.len) && !memcmp(iv, first_iv, 16),
                 "aes/%s differs from aes/%s: mode %d, key %d, len %zu, split %zu",
                 kernels.name[i], kernels.name[kernels.n - 1], j.mode, j.key_len, j.len, j.split);
        FZ_CHECK(!memcmp(out, ref, j.len), "aes/%s differs from OpenSSL: mode %d, key %d, len %zu",
                 kernels.name[i], j.mode, j.key_len, j.len);
        if (j.mode < XTS_E)
            FZ_CHECK(!memcmp(iv, ref_iv, 16), "aes/%s: chained IV/counter, mode %d", kernels.name[i], j.mode);
    }
    return 0;
}
