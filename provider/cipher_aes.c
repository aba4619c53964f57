/* Ciphers AES-{128,192,256}-{ECB,CBC,CTR} (FIPS 197, SP 800-38A) with the
 * update/final behaviour of OpenSSL's own: ECB/CBC buffer a partial block,
 * decryption with padding keeps the last block back until final, PKCS#7
 * padding on by default ("padding" parameter); CTR keeps the unused part of
 * its last keystream block for the next update (hwc_aes_ctr_crypt discards
 * it) and advances the whole 128-bit big-endian counter. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "hwcrypt/hwcrypt.h"
#include "prov.h"

typedef struct {
    hwc_aes_key key;
    unsigned mode;           /* EVP_CIPH_ECB_MODE, EVP_CIPH_CBC_MODE or EVP_CIPH_CTR_MODE */
    size_t keylen;
    int enc, pad, key_set;
    uint8_t oiv[16];         /* IV as given */
    uint8_t iv[16];          /* CBC: running IV; CTR: next counter block */
    uint8_t buf[16];         /* ECB/CBC: pending bytes */
    size_t bufsz;
    uint8_t ks[16];          /* CTR: keystream of the current block */
    unsigned num;            /* CTR: bytes of ks used (0 = none left) */
} aes_ctx;

static void *newctx(size_t keylen, unsigned mode) {
    aes_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->keylen = keylen;
    c->mode = mode;
    c->pad = 1;
    return c;
}

static void freectx(void *vc) { hwc_prov_free(vc, sizeof(aes_ctx)); }

static void *dupctx(void *vc) { return hwc_prov_copy(vc, sizeof(aes_ctx)); }

static int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    aes_ctx *c = vc;
    const OSSL_PARAM *p;
    unsigned v;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING))) {
        if (!OSSL_PARAM_get_uint(p, &v)) return 0;
        c->pad = v != 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM))) {
        if (!OSSL_PARAM_get_uint(p, &v) || v >= 16) return 0;
        c->num = v;
    }
    return hwc_prov_keylen_param(params, c->keylen);
}

static int init(aes_ctx *c, int enc, const unsigned char *key, size_t keylen, const unsigned char *iv,
                size_t ivlen, const OSSL_PARAM params[]) {
    c->enc = enc;
    c->bufsz = 0;
    c->num = 0;
    if (c->mode != EVP_CIPH_ECB_MODE && !hwc_prov_set_iv(iv, ivlen, c->oiv, c->iv)) return 0;
    if (key) {
        if (!hwc_prov_key_length(keylen, c->keylen)) return 0;
        if (!hwc_prov_check(hwc_aes_setkey(&c->key, key, keylen), "aes setkey")) return 0;
        c->key_set = 1;
    }
    return set_ctx_params(c, params);
}

HWC_PROV_CIPHER_INITS

/* Whole blocks of ECB or CBC in the context's direction. */
static int blocks(aes_ctx *c, unsigned char *out, const unsigned char *in, size_t len) {
    int st;
    if (c->mode == EVP_CIPH_ECB_MODE)
        st = c->enc ? hwc_aes_ecb_encrypt(&c->key, out, in, len) : hwc_aes_ecb_decrypt(&c->key, out, in, len);
    else
        st = c->enc ? hwc_aes_cbc_encrypt(&c->key, c->iv, out, in, len)
                    : hwc_aes_cbc_decrypt(&c->key, c->iv, out, in, len);
    return hwc_prov_check(st, "aes");
}

/* CTR over any length: leftover keystream first, whole blocks in one call,
   then one more keystream block for a tail (kept for the next call). */
static int ctr(aes_ctx *c, unsigned char *out, const unsigned char *in, size_t len) {
    while (c->num && len) {
        *out++ = *in++ ^ c->ks[c->num];
        c->num = (c->num + 1) & 15;
        len--;
    }
    size_t whole = len & ~(size_t)15;
    if (whole && !hwc_prov_check(hwc_aes_ctr_crypt(&c->key, c->iv, out, in, whole), "aes ctr")) return 0;
    out += whole, in += whole, len -= whole;
    if (len) {
        static const uint8_t zero[16];
        if (!hwc_prov_check(hwc_aes_ctr_crypt(&c->key, c->iv, c->ks, zero, 16), "aes ctr")) return 0;
        for (size_t i = 0; i < len; i++) out[i] = in[i] ^ c->ks[i];
        c->num = (unsigned)len;
    }
    return 1;
}

static int ready(const aes_ctx *c, size_t outsize, size_t need) {
    if (!c->key_set) {
        hwc_prov_error(HWC_PROV_R_NOT_INITIALISED, "no AES key set");
        return 0;
    }
    if (outsize < need) {
        hwc_prov_error(HWC_PROV_R_OUTPUT_TOO_SMALL, "%zu bytes of output space, %zu needed", outsize, need);
        return 0;
    }
    return 1;
}

static int update(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    aes_ctx *c = vc;
    if (c->mode == EVP_CIPH_CTR_MODE) {
        if (!ready(c, outsize, inl) || !ctr(c, out, in, inl)) return 0;
        *outl = inl;
        return 1;
    }
    /* Bytes written now: the buffer plus the input, in whole blocks, less
       one block held back when decrypting with padding and ending on a
       block boundary (it may be the padded last block). */
    size_t total = c->bufsz + inl;
    size_t n = total & ~(size_t)15;
    if (!c->enc && c->pad && n == total && n) n -= 16;
    if (!ready(c, outsize, n)) return 0;
    size_t done = 0;
    if (c->bufsz && n) {
        size_t take = 16 - c->bufsz;
        memcpy(c->buf + c->bufsz, in, take);
        in += take, inl -= take;
        if (!blocks(c, out, c->buf, 16)) return 0;
        c->bufsz = 0;
        done = 16;
    }
    size_t direct = n - done;
    if (direct && !blocks(c, out + done, in, direct)) return 0;
    in += direct, inl -= direct;
    if (inl) memcpy(c->buf + c->bufsz, in, inl);   /* a partial block, or one held back */
    c->bufsz += inl;
    *outl = n;
    return 1;
}

static int final(void *vc, unsigned char *out, size_t *outl, size_t outsize) {
    aes_ctx *c = vc;
    *outl = 0;
    if (!c->key_set) return ready(c, 0, 0);
    if (c->mode == EVP_CIPH_CTR_MODE) return 1;
    if (c->enc && c->pad) {   /* PKCS#7 (RFC 5652 6.3): always one more block */
        if (!ready(c, outsize, 16)) return 0;
        memset(c->buf + c->bufsz, (int)(16 - c->bufsz), 16 - c->bufsz);
        if (!blocks(c, out, c->buf, 16)) return 0;
        c->bufsz = 0;
        *outl = 16;
        return 1;
    }
    if (c->bufsz != (c->pad ? 16u : 0u)) {
        hwc_prov_error(HWC_PROV_R_WRONG_FINAL_BLOCK_LENGTH, "%zu bytes left over", c->bufsz);
        return 0;
    }
    if (!c->pad) return 1;
    uint8_t last[16];
    if (!blocks(c, last, c->buf, 16)) return 0;
    c->bufsz = 0;
    /* padding check without a branch on the decrypted bytes until the end:
       padlen in 1..16 and the last padlen bytes equal to it */
    unsigned padlen = last[15];
    unsigned bad = ((padlen - 1u) >> 31) | ((16u - padlen) >> 31);
    for (unsigned i = 0; i < 16; i++) {
        unsigned in_pad = ((i - (16u - padlen)) >> 31) ^ 1u;
        bad |= in_pad & ((((unsigned)last[i] ^ padlen) + 0xffu) >> 8);
    }
    if (bad) {
        hwc_wipe(last, sizeof last);
        hwc_prov_error(HWC_PROV_R_BAD_DECRYPT, "PKCS#7 padding does not verify");
        return 0;
    }
    if (!ready(c, outsize, 16 - padlen)) return 0;
    memcpy(out, last, 16 - padlen);
    hwc_wipe(last, sizeof last);
    *outl = 16 - padlen;
    return 1;
}

/* EVP_Cipher(): no buffering, no padding. */
static int cipher(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                  size_t inl) {
    aes_ctx *c = vc;
    if (!ready(c, outsize, inl)) return 0;
    if (c->mode == EVP_CIPH_CTR_MODE ? !ctr(c, out, in, inl) : !blocks(c, out, in, inl)) return 0;
    *outl = inl;
    return 1;
}

static int get_ctx_params(void *vc, OSSL_PARAM params[]) {
    aes_ctx *c = vc;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING)) && !OSSL_PARAM_set_uint(p, (unsigned)c->pad))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM)) && !OSSL_PARAM_set_uint(p, c->num)) return 0;
    return hwc_prov_cipher_ctx_params(params, c->keylen, c->mode == EVP_CIPH_ECB_MODE ? 0 : 16, c->oiv, c->iv);
}

static const OSSL_PARAM *gettable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {HWC_PROV_CIPHER_CTX_PARAM_LIST, OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
                                   OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL), OSSL_PARAM_END};
    return p;
}

static const OSSL_PARAM *settable_ctx_params(void *vc, void *provctx) {
    (void)vc, (void)provctx;
    static const OSSL_PARAM p[] = {OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
                                   OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_END};
    return p;
}

int hwc_prov_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen, size_t blksz,
                               int flags) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) && !OSSL_PARAM_set_uint(p, mode)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, keylen)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, ivlen)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, blksz)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) &&
        !OSSL_PARAM_set_int(p, (flags & HWC_PROV_CUSTOM_IV) != 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !OSSL_PARAM_set_int(p, (flags & HWC_PROV_AEAD) != 0))
        return 0;
    const char *zero[] = {OSSL_CIPHER_PARAM_CTS, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, OSSL_CIPHER_PARAM_HAS_RAND_KEY};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if ((p = OSSL_PARAM_locate(params, zero[i])) && !OSSL_PARAM_set_int(p, 0)) return 0;
    return 1;
}

const OSSL_PARAM *hwc_prov_cipher_gettable_params(void *provctx) {
    (void)provctx;
    static const OSSL_PARAM p[] = {
        OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL), OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL), OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL), OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL), OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL), OSSL_PARAM_END};
    return p;
}

/* One table per key size and mode: ECB/CBC block 16 (IV 0/16), CTR a stream (block 1). */
#define AES_TABLE(bits, lmode, MODE, ivlen, blksz)                                                \
    static void *newctx_##bits##lmode(void *provctx) {                                            \
        (void)provctx;                                                                            \
        return newctx(bits / 8, EVP_CIPH_##MODE##_MODE);                                          \
    }                                                                                             \
    static int get_params_##bits##lmode(OSSL_PARAM params[]) {                                    \
        return hwc_prov_cipher_get_params(params, EVP_CIPH_##MODE##_MODE, bits / 8, ivlen, blksz, 0); \
    }                                                                                             \
    const OSSL_DISPATCH hwc_prov_aes##bits##lmode##_functions[] =                                  \
        HWC_PROV_CIPHER_DISPATCH(newctx_##bits##lmode, get_params_##bits##lmode);

AES_TABLE(128, ecb, ECB, 0, 16)
AES_TABLE(192, ecb, ECB, 0, 16)
AES_TABLE(256, ecb, ECB, 0, 16)
AES_TABLE(128, cbc, CBC, 16, 16)
AES_TABLE(192, cbc, CBC, 16, 16)
AES_TABLE(256, cbc, CBC, 16, 16)
AES_TABLE(128, ctr, CTR, 16, 1)
AES_TABLE(192, ctr, CTR, 16, 1)
AES_TABLE(256, ctr, CTR, 16, 1)
