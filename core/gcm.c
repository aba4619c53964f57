/* AES-GCM (NIST SP 800-38D): J0, GCTR counters, GHASH padding and lengths,
 * tags, the streaming state machine and every argument check. The bulk work
 * (GCTR + GHASH over whole blocks) goes to the GCM slots of the AES kernel
 * bound at setkey; a kernel without them gets GCTR from its ecb_encrypt and
 * the portable constant-time GHASH (internal/ghash_portable.h).
 *
 * Partial blocks: AAD and ciphertext bytes are XORed straight into the GHASH
 * accumulator x, and x is multiplied by H (a GHASH step over a zero block)
 * when the block is complete or padded (section 7.1 step 5: zero padding).
 * buf keeps the keystream of a partial data block.
 * Contract: docs/API.md (gcm.h). On error nothing is written. */
#include <string.h>
#include "hwcrypt/gcm.h"
#include "core/aes_internal.h"
#include "internal/ghash_portable.h"
#include "internal/wipe.h"
#include "internal/ct.h"

/* Section 5.2.1.1: len(P) <= 2^39 - 256 bits; len(A), len(IV) <= 2^64 - 1 bits. */
#define GCM_MAX_DATA (((uint64_t)1 << 36) - 32)
#define GCM_MAX_AAD (((uint64_t)1 << 61) - 1)
#define GCM_BATCH 8   /* counter blocks per ecb_encrypt call on the fallback path */

/* Streaming states; anything else is a context never initialised. */
enum {
    ST_AAD = 0x41414447u,   /* after init: AAD allowed, direction open */
    ST_ENC = 0x434e4547u,   /* encrypt data seen */
    ST_DEC = 0x43454447u,   /* decrypt data seen */
};

static const uint8_t zero_block[16];

static const hwc_aes_impl *gcm_impl(const hwc_aes_gcm_key *k) {
    return hwc_aes_key_impl(&k->aes);
}

static void ghash(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, uint8_t x[16],
                  const uint8_t *in, size_t blocks) {
    if (impl->ghash) impl->ghash(k->htab, x, in, blocks);
    else hwc_ghash_portable(k->htab, x, in, blocks);
}

/* Section 6.2: the low 32 bits, big-endian, incremented mod 2^32. */
static void inc32(uint8_t ctr[16]) {
    uint32_t v = ((uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 | (uint32_t)ctr[14] << 8 | ctr[15]) + 1;
    ctr[12] = (uint8_t)(v >> 24);
    ctr[13] = (uint8_t)(v >> 16);
    ctr[14] = (uint8_t)(v >> 8);
    ctr[15] = (uint8_t)v;
}

/* Section 6.5 GCTR over whole blocks + GHASH of the ciphertext, from the
   kernel's ecb_encrypt: decrypt hashes in before out is written. */
static void gctr_fallback(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, int dec,
                          uint8_t ctr[16], uint8_t x[16], uint8_t *out, const uint8_t *in,
                          size_t blocks) {
    uint8_t ks[16 * GCM_BATCH];
    while (blocks) {
        size_t n = blocks < GCM_BATCH ? blocks : GCM_BATCH;
        for (size_t i = 0; i < n; i++) {
            memcpy(ks + 16 * i, ctr, 16);
            inc32(ctr);
        }
        impl->ecb_encrypt(&k->aes, ks, ks, n);
        if (dec) ghash(impl, k, x, in, n);
        for (size_t i = 0; i < 16 * n; i++) out[i] = in[i] ^ ks[i];
        if (!dec) ghash(impl, k, x, out, n);
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
    hwc_wipe_inline(ks, sizeof ks);
}

static void gctr_blocks(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, int dec,
                        uint8_t ctr[16], uint8_t x[16], uint8_t *out, const uint8_t *in,
                        size_t blocks) {
    if (dec && impl->gcm_decrypt) impl->gcm_decrypt(&k->aes, k->htab, ctr, x, out, in, blocks);
    else if (!dec && impl->gcm_encrypt) impl->gcm_encrypt(&k->aes, k->htab, ctr, x, out, in, blocks);
    else gctr_fallback(impl, k, dec, ctr, x, out, in, blocks);
}

/* Section 6.4 on a 64-bit big-endian pair (lengths in bits). */
static void ghash_lengths(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, uint8_t x[16],
                          uint64_t a_bits, uint64_t b_bits) {
    uint8_t blk[16];
    for (int i = 0; i < 8; i++) {
        blk[i] = (uint8_t)(a_bits >> (56 - 8 * i));
        blk[8 + i] = (uint8_t)(b_bits >> (56 - 8 * i));
    }
    ghash(impl, k, x, blk, 1);
}

int hwc_aes_gcm_setkey(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len) {
    if (!k) return HWC_ERR_NULL_POINTER;
    hwc_aes_key aes;
    int rc = hwc_aes_setkey(&aes, key, key_len);
    if (rc != HWC_OK) return rc;                 /* k untouched */
    const hwc_aes_impl *impl = hwc_aes_key_impl(&aes);
    uint8_t h[16];
    impl->ecb_encrypt(&aes, h, zero_block, 1);   /* H = CIPH_K(0^128), section 7.1 step 1 */
    k->aes = aes;
    if (impl->ghash_init) impl->ghash_init(k->htab, h);
    else hwc_ghash_portable_init(k->htab, h);
    hwc_wipe_inline(h, sizeof h);
    hwc_wipe_inline(&aes, sizeof aes);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return HWC_OK;
}

/* Section 7.1 step 2: J0 = IV || 0^31 || 1 for 96-bit IVs, else
   GHASH(IV || 0^(s+64) || [len(IV)]_64). Then the context's first counter
   inc32(J0) and E_K(J0). */
static void start(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, const hwc_aes_gcm_key *k,
                  const uint8_t *iv, size_t iv_len) {
    uint8_t j0[16] = {0};
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        size_t full = iv_len / 16, rem = iv_len % 16;
        if (full) ghash(impl, k, j0, iv, full);
        if (rem) {
            for (size_t i = 0; i < rem; i++) j0[i] ^= iv[16 * full + i];
            ghash(impl, k, j0, zero_block, 1);
        }
        ghash_lengths(impl, k, j0, 0, (uint64_t)iv_len * 8);
    }
    memset(c, 0, sizeof *c);
    c->key = k;
    impl->ecb_encrypt(&k->aes, c->ek_j0, j0, 1);
    memcpy(c->ctr, j0, 16);
    inc32(c->ctr);
    c->state = ST_AAD;
    hwc_wipe_inline(j0, sizeof j0);
}

static int live(const hwc_aes_gcm_ctx *c) {
    return (c->state == ST_AAD || c->state == ST_ENC || c->state == ST_DEC) && c->key &&
           gcm_impl(c->key);
}

int hwc_aes_gcm_init(hwc_aes_gcm_ctx *c, const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len) {
    if (!c || !k || !iv) return HWC_ERR_NULL_POINTER;
    if (iv_len == 0 || (uint64_t)iv_len > GCM_MAX_AAD) return HWC_ERR_BAD_ARGUMENT;
    const hwc_aes_impl *impl = gcm_impl(k);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    start(c, impl, k, iv, iv_len);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return HWC_OK;
}

/* x ^= bytes at block position pos, multiplying by H at each block end. */
static void absorb(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, const uint8_t *p, size_t len,
                   uint64_t total) {
    size_t pos = (size_t)(total % 16);
    for (size_t i = 0; i < len; i++) {
        c->x[pos] ^= p[i];
        if (++pos == 16) {
            ghash(impl, c->key, c->x, zero_block, 1);
            pos = 0;
        }
    }
}

int hwc_aes_gcm_aad(hwc_aes_gcm_ctx *c, const uint8_t *aad, size_t len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (!live(c) || c->state != ST_AAD) return HWC_ERR_BAD_ARGUMENT;
    if (len && !aad) return HWC_ERR_NULL_POINTER;
    if ((uint64_t)len > GCM_MAX_AAD - c->aad_len) return HWC_ERR_DATA_LENGTH;
    const hwc_aes_impl *impl = gcm_impl(c->key);
    size_t head = (size_t)((16 - c->aad_len % 16) % 16);
    if (head > len) head = len;
    absorb(c, impl, aad, head, c->aad_len);
    size_t full = (len - head) / 16, tail = (len - head) % 16;
    if (full) ghash(impl, c->key, c->x, aad + head, full);
    absorb(c, impl, aad + head + 16 * full, tail, 0);
    c->aad_len += len;
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return HWC_OK;
}

/* End of the AAD: its zero padding (a pending partial block is multiplied). */
static void close_aad(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl) {
    if (c->state == ST_AAD && c->aad_len % 16) ghash(impl, c->key, c->x, zero_block, 1);
}

/* Keystream bytes of the partial block at data position pos onward; the
   ciphertext (out for encrypt, in for decrypt) is absorbed into x. */
static void partial(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, int dec, uint8_t *out,
                    const uint8_t *in, size_t len, size_t pos) {
    for (size_t i = 0; i < len; i++) {
        uint8_t ci = in[i];
        out[i] = ci ^ c->buf[pos + i];
        c->x[pos + i] ^= dec ? ci : out[i];
    }
    if (pos + len == 16) ghash(impl, c->key, c->x, zero_block, 1);
}

static int update(hwc_aes_gcm_ctx *c, int dec, uint8_t *out, const uint8_t *in, size_t len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    unsigned want = dec ? ST_DEC : ST_ENC;
    if (!live(c) || (c->state != ST_AAD && c->state != want)) return HWC_ERR_BAD_ARGUMENT;
    if (len && (!out || !in)) return HWC_ERR_NULL_POINTER;
    if ((uint64_t)len > GCM_MAX_DATA - c->data_len) return HWC_ERR_DATA_LENGTH;
    const hwc_aes_impl *impl = gcm_impl(c->key);
    close_aad(c, impl);
    c->state = want;
    size_t pos = (size_t)(c->data_len % 16);
    c->data_len += len;
    if (pos) {                                 /* finish the pending keystream block */
        size_t n = 16 - pos < len ? 16 - pos : len;
        partial(c, impl, dec, out, in, n, pos);
        out += n;
        in += n;
        len -= n;
    }
    size_t full = len / 16, tail = len % 16;
    if (full) gctr_blocks(impl, c->key, dec, c->ctr, c->x, out, in, full);
    if (tail) {                                /* keystream of one more block, kept in buf */
        impl->ecb_encrypt(&c->key->aes, c->buf, c->ctr, 1);
        inc32(c->ctr);
        partial(c, impl, dec, out + 16 * full, in + 16 * full, tail, 0);
    }
    return HWC_OK;
}

int hwc_aes_gcm_encrypt_update(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len) {
    int rc = update(c, 0, out, in, len);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return rc;
}

int hwc_aes_gcm_decrypt_update(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len) {
    int rc = update(c, 1, out, in, len);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return rc;
}

static int tag_len_ok(size_t t) {
    return t == 4 || t == 8 || (t >= 12 && t <= 16);
}

/* Section 7.1 steps 5-6: S = GHASH(... || [len(A)]_64 || [len(C)]_64),
   T = MSB_t(GCTR(J0, S)) = MSB_t(E_K(J0) ^ S). */
static void compute_tag(hwc_aes_gcm_ctx *c, uint8_t full_tag[16]) {
    const hwc_aes_impl *impl = gcm_impl(c->key);
    close_aad(c, impl);
    if (c->data_len % 16) ghash(impl, c->key, c->x, zero_block, 1);
    ghash_lengths(impl, c->key, c->x, c->aad_len * 8, c->data_len * 8);
    for (int i = 0; i < 16; i++) full_tag[i] = c->x[i] ^ c->ek_j0[i];
}

static int final_check(const hwc_aes_gcm_ctx *c, unsigned want, const uint8_t *tag, size_t tag_len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (!live(c) || (c->state != ST_AAD && c->state != want)) return HWC_ERR_BAD_ARGUMENT;
    if (!tag) return HWC_ERR_NULL_POINTER;
    if (!tag_len_ok(tag_len)) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

int hwc_aes_gcm_encrypt_final(hwc_aes_gcm_ctx *c, uint8_t *tag, size_t tag_len) {
    int rc = final_check(c, ST_ENC, tag, tag_len);
    if (rc != HWC_OK) return rc;
    uint8_t t[16];
    compute_tag(c, t);
    memcpy(tag, t, tag_len);
    hwc_wipe_inline(t, sizeof t);
    hwc_wipe(c, sizeof *c);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return HWC_OK;
}

/* Constant-time comparison; only the verdict is revealed. */
int hwc_aes_gcm_decrypt_final(hwc_aes_gcm_ctx *c, const uint8_t *tag, size_t tag_len) {
    int rc = final_check(c, ST_DEC, tag, tag_len);
    if (rc != HWC_OK) return rc;
    uint8_t t[16], diff = 0;
    compute_tag(c, t);
    for (size_t i = 0; i < tag_len; i++) diff |= (uint8_t)(t[i] ^ tag[i]);
    uint8_t ok = (uint8_t)(((unsigned)diff - 1u) >> 8 & 1u);   /* 1 iff diff == 0 */
    HWC_DECLASSIFY(&ok, sizeof ok);
    hwc_wipe_inline(t, sizeof t);
    hwc_wipe(c, sizeof *c);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return ok ? HWC_OK : HWC_ERR_AUTH_FAILED;
}

/* ---- one-shot ---------------------------------------------------------------- */

static int oneshot_check(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len) {
    if (!k || !iv || !tag) return HWC_ERR_NULL_POINTER;
    if ((aad_len && !aad) || (len && (!out || !in))) return HWC_ERR_NULL_POINTER;
    if (iv_len == 0 || (uint64_t)iv_len > GCM_MAX_AAD || !tag_len_ok(tag_len)) return HWC_ERR_BAD_ARGUMENT;
    if ((uint64_t)len > GCM_MAX_DATA || (uint64_t)aad_len > GCM_MAX_AAD) return HWC_ERR_DATA_LENGTH;
    if (!gcm_impl(k)) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

/* One message through a stack context (wiped by final). Decrypt: on a tag
   mismatch out[0..len) is zeroed, so no unauthenticated plaintext leaves. */
static int oneshot(const hwc_aes_gcm_key *k, int dec, const uint8_t *iv, size_t iv_len,
                   const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t *tag, size_t tag_len) {
    int rc = oneshot_check(k, iv, iv_len, aad, aad_len, out, in, len, tag, tag_len);
    if (rc != HWC_OK) return rc;
    hwc_aes_gcm_ctx c;
    start(&c, gcm_impl(k), k, iv, iv_len);
    hwc_aes_gcm_aad(&c, aad, aad_len);
    update(&c, dec, out, in, len);
    if (!dec) return hwc_aes_gcm_encrypt_final(&c, tag, tag_len);
    rc = hwc_aes_gcm_decrypt_final(&c, tag, tag_len);
    if (rc != HWC_OK && len) hwc_wipe(out, len);
    return rc;
}

int hwc_aes_gcm_encrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                        size_t len, uint8_t *tag, size_t tag_len) {
    int rc = oneshot(k, 0, iv, iv_len, aad, aad_len, out, in, len, tag, tag_len);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return rc;
}

int hwc_aes_gcm_decrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                        size_t len, const uint8_t *tag, size_t tag_len) {
    int rc = oneshot(k, 1, iv, iv_len, aad, aad_len, out, in, len, (uint8_t *)tag, tag_len);
    hwc_stack_scrub(HWC_SCRUB_BULK);
    return rc;
}
