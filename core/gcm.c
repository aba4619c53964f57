/* AES-GCM (NIST SP 800-38D): J0, GCTR counters, GHASH padding and lengths,
 * tags, the streaming state machine and every argument check. The bulk work
 * (GCTR + GHASH over whole blocks) goes to the GCM slots of the AES kernel
 * bound at setkey; a kernel without them gets GCTR from its ecb_encrypt and
 * the portable constant-time GHASH (internal/ghash_portable.h).
 *
 * Streaming, partial blocks: AAD and ciphertext bytes are XORed straight
 * into the GHASH accumulator x, and x is multiplied by H (a GHASH step over a
 * zero block) when the block is complete or padded (section 7.1 step 5: zero
 * padding). buf keeps the keystream of a partial data block.
 *
 * One-shot: no context. A kernel with the gcm_oneshot slot takes the whole
 * message after the AAD (internal/kernel.h). Otherwise E_K(J0) comes from
 * the same ecb_encrypt call as the keystream of the data the GCM slots do
 * not take (all of a short message, else its final partial block), and one
 * GHASH call covers the padded AAD tail, the padded ciphertext the slots did
 * not hash and the length block.
 * Every call looks the kernel up once and checks its arguments once.
 * Contract: docs/API.md (gcm.h). On error nothing is written. */
#include <stddef.h>
#include <string.h>
#include "hwcrypt/gcm.h"
#include "core/aes_internal.h"
#include "core/gcm_internal.h"
#include "internal/ghash_portable.h"
#include "internal/wipe.h"
#include "internal/ct.h"

/* Section 5.2.1.1: len(P) <= 2^39 - 256 bits; len(A), len(IV) <= 2^64 - 1 bits. */
#define GCM_MAX_DATA (((uint64_t)1 << 36) - 32)
#define GCM_MAX_AAD (((uint64_t)1 << 61) - 1)
#define GCM_BATCH 8   /* counter blocks per ecb_encrypt call on the fallback path */
/* One-shot messages of up to this many whole blocks run on ecb_encrypt and
   ghash alone (one call each), not on the GCM slots. Kept at one: kernels
   that read several blocks with one wide load (ymm, zmm) would read blocks
   core/ has just written with separate 16-byte stores, and such a load
   waits until those stores reach the cache. */
#define GCM_SHORT_BLOCKS 1

/* Streaming states; anything else is a context never initialised. */
enum {
    ST_AAD = 0x41414447u,   /* after init: AAD allowed, direction open */
    ST_ENC = 0x434e4547u,   /* encrypt data seen */
    ST_DEC = 0x43454447u,   /* decrypt data seen */
};

/* Zero blocks: E_K(0^128) in setkey, the GHASH step of a padded partial
   block (streaming), XORed for a plain copy (one-shot). */
static const uint8_t zero_blocks[16 * (GCM_SHORT_BLOCKS + 1)];

/* Zeroes (wipes) n bytes in 16-byte pieces: fixed-size stores, where one
   memset of a larger buffer may become a string instruction, slow to start
   for a few dozen bytes. */
static void wipe_pieces(void *p, size_t n) {
    uint8_t *b = p;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) hwc_wipe_inline(b + i, 16);
    if (i < n) hwc_wipe_inline(b + i, n - i);
}

static const hwc_aes_impl *gcm_impl(const hwc_aes_gcm_key *k) {
    return hwc_aes_key_impl(&k->aes);
}

/* The stack scrub after a call, unless the kernel's frames are clean
   (internal/kernel.h, clean_frames); clean: its bits, 0 when unknown. */
#define GCM_SCRUB(clean) HWC_SCRUB_UNLESS(clean, HWC_CLEAN_MODES | HWC_CLEAN_GCM, HWC_SCRUB_WIDE)

static void ghash(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, uint8_t x[16],
                  const uint8_t *in, size_t blocks) {
    if (impl->ghash) impl->ghash(k->htab, x, in, blocks);
    else hwc_ghash_portable(k->htab, x, in, blocks);
}

static uint32_t load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Blocks that a kernel reads right after core/ wrote them: one 16-byte
   store each (internal/bytes.h: hwc_u64x2, hwc_be32_word, hwc_be64_word). */

/* Section 6.2: out = inc32 applied i times to ctr (the low 32 bits,
   big-endian, incremented mod 2^32); out may be ctr. */
static void ctr_plus(uint8_t out[16], const uint8_t ctr[16], uint32_t i) {
    hwc_u32x4 v;
    memcpy(&v, ctr, 16);
    v[3] = hwc_be32_word(load_be32(ctr + 12) + i);
    memcpy(out, &v, 16);
}

static void inc32(uint8_t ctr[16]) {
    ctr_plus(ctr, ctr, 1);
}

/* Section 7.1 step 5 (and step 2): [len(A)]_64 || [len(C)]_64, in bits. */
static inline void length_block(uint8_t blk[16], uint64_t a_bytes, uint64_t c_bytes) {
    const hwc_u64x2 v = {hwc_be64_word(a_bytes * 8), hwc_be64_word(c_bytes * 8)};
    memcpy(blk, &v, 16);
}

/* Section 6.5 GCTR over whole blocks + GHASH of the ciphertext, from the
   kernel's ecb_encrypt: decrypt hashes in before out is written. */
__attribute__((noinline)) static void gctr_fallback(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k,
                                                    int dec, uint8_t ctr[16], uint8_t x[16], uint8_t *out,
                                                    const uint8_t *in, size_t blocks) {
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
    wipe_pieces(ks, sizeof ks);
}

static inline void gctr_blocks(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, int dec,
                               uint8_t ctr[16], uint8_t x[16], uint8_t *out, const uint8_t *in,
                               size_t blocks) {
    if (dec && impl->gcm_decrypt) impl->gcm_decrypt(&k->aes, k->htab, ctr, x, out, in, blocks);
    else if (!dec && impl->gcm_encrypt) impl->gcm_encrypt(&k->aes, k->htab, ctr, x, out, in, blocks);
    else gctr_fallback(impl, k, dec, ctr, x, out, in, blocks);
}

int hwc_aes_gcm_setkey_with(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len, const hwc_aes_impl *impl) {
    if (!k) return HWC_ERR_NULL_POINTER;
    hwc_aes_key aes;
    /* built here and copied out: no stale stack bytes in what the kernel
       leaves unused */
    memset(&aes, 0, sizeof aes);
    int rc = hwc_aes_setkey_with(&aes, key, key_len, impl);
    if (rc != HWC_OK) return rc;                 /* k untouched */
    uint8_t h[16];
    impl->ecb_encrypt(&aes, h, zero_blocks, 1);   /* H = CIPH_K(0^128), section 7.1 step 1 */
    k->aes = aes;
    memset(k->htab, 0, sizeof k->htab);   /* what the kernel's layout leaves unused */
    if (impl->ghash_init) impl->ghash_init(k->htab, h);
    else hwc_ghash_portable_init(k->htab, h);
    hwc_wipe_inline(h, sizeof h);
    hwc_wipe_inline(&aes, sizeof aes);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_SETKEY | HWC_CLEAN_MODES | HWC_CLEAN_GCM, HWC_SCRUB_WIDE);
    return HWC_OK;
}

int hwc_aes_gcm_setkey(hwc_aes_gcm_key *k, const uint8_t *key, size_t key_len) {
    return hwc_aes_gcm_setkey_with(k, key, key_len, hwc_active_aes());
}

/* Section 7.1 step 2, IVs other than 96 bits: J0 = GHASH(IV || 0^(s+64) ||
   [len(IV)]_64): the whole IV blocks, then its padded tail and the length
   block in one call. */
static void j0_hashed(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, uint8_t j0[16],
                      const uint8_t *iv, size_t iv_len) {
    size_t full = iv_len / 16, rem = iv_len % 16;
    uint8_t last[32] = {0};
    memset(j0, 0, 16);
    if (full) ghash(impl, k, j0, iv, full);
    memcpy(last, iv + 16 * full, rem);
    length_block(last + (rem ? 16 : 0), 0, iv_len);
    ghash(impl, k, j0, last, rem ? 2 : 1);
}

/* Section 7.1 step 2: J0 = IV || 0^31 || 1 for 96-bit IVs. */
static inline void derive_j0(const hwc_aes_impl *impl, const hwc_aes_gcm_key *k, uint8_t j0[16],
                             const uint8_t *iv, size_t iv_len) {
    if (iv_len != 12) {
        j0_hashed(impl, k, j0, iv, iv_len);
        return;
    }
    uint8_t t[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    uint64_t w[2];
    memcpy(t, iv + 8, 4);
    memcpy(&w[0], iv, 8);
    memcpy(&w[1], t, 8);
    const hwc_u64x2 v = {w[0], w[1]};
    memcpy(j0, &v, 16);
}

/* The context's first counter inc32(J0) and E_K(J0). */
static void start(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, const hwc_aes_gcm_key *k,
                  const uint8_t *iv, size_t iv_len) {
    uint8_t j0[16];
    derive_j0(impl, k, j0, iv, iv_len);
    wipe_pieces(c, sizeof *c);
    const hwc_u64x2 zero = {0, 0};
    memcpy(c->x, &zero, 16);   /* x whole in one store: it is loaded whole (internal/bytes.h) */
    c->key = k;
    impl->ecb_encrypt(&k->aes, c->ek_j0, j0, 1);
    ctr_plus(c->ctr, j0, 1);
    c->state = ST_AAD;
    hwc_wipe_inline(j0, sizeof j0);
}

/* The kernel of a context in state ST_AAD or `want`, else NULL. */
static const hwc_aes_impl *live(const hwc_aes_gcm_ctx *c, unsigned want) {
    if ((c->state != ST_AAD && c->state != want) || !c->key) return NULL;
    return gcm_impl(c->key);
}

int hwc_aes_gcm_init(hwc_aes_gcm_ctx *c, const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len) {
    if (!c || !k || !iv) return HWC_ERR_NULL_POINTER;
    if (iv_len == 0 || (uint64_t)iv_len > GCM_MAX_AAD) return HWC_ERR_BAD_ARGUMENT;
    const hwc_aes_impl *impl = gcm_impl(k);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    start(c, impl, k, iv, iv_len);
    GCM_SCRUB(impl->clean_frames);
    return HWC_OK;
}

/* x ^= the n bytes at p at block position pos (pos + n <= 16), in one
   16-byte store for GHASH's load (internal/bytes.h); a completed block is
   multiplied by H. */
static void absorb(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, const uint8_t *p, size_t n,
                   size_t pos) {
    hwc_u64x2 x;
    memcpy(&x, c->x, 16);
    x ^= hwc_block_at(p, n, pos);
    memcpy(c->x, &x, 16);
    if (pos + n == 16) ghash(impl, c->key, c->x, zero_blocks, 1);
}

int hwc_aes_gcm_aad(hwc_aes_gcm_ctx *c, const uint8_t *aad, size_t len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    const hwc_aes_impl *impl = live(c, ST_AAD);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    if (len && !aad) return HWC_ERR_NULL_POINTER;
    if ((uint64_t)len > GCM_MAX_AAD - c->aad_len) return HWC_ERR_DATA_LENGTH;
    if (!len) return HWC_OK;                   /* (aad may be NULL) */
    size_t head = (size_t)((16 - c->aad_len % 16) % 16);
    if (head > len) head = len;
    if (head) absorb(c, impl, aad, head, (size_t)(c->aad_len % 16));
    size_t full = (len - head) / 16, tail = (len - head) % 16;
    if (full) ghash(impl, c->key, c->x, aad + head, full);
    if (tail) absorb(c, impl, aad + head + 16 * full, tail, 0);
    c->aad_len += len;
    GCM_SCRUB(impl->clean_frames);
    return HWC_OK;
}

/* Keystream bytes of the partial block at data position pos onward; the
   ciphertext (out for encrypt, in for decrypt) is absorbed into x. Byte by
   byte: the same on 16-byte blocks in registers (as absorb) measured 12-15%
   slower for updates of 13 + 51 bytes (docs/gcm.md). */
static void partial(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, int dec, uint8_t *out,
                    const uint8_t *in, size_t len, size_t pos) {
    for (size_t i = 0; i < len; i++) {
        uint8_t ci = in[i];
        out[i] = ci ^ c->buf[pos + i];
        c->x[pos + i] ^= dec ? ci : out[i];
    }
    if (pos + len == 16) ghash(impl, c->key, c->x, zero_blocks, 1);
}

static int update(hwc_aes_gcm_ctx *c, int dec, uint8_t *out, const uint8_t *in, size_t len,
                  unsigned *clean) {
    if (!c) return HWC_ERR_NULL_POINTER;
    unsigned want = dec ? ST_DEC : ST_ENC;
    const hwc_aes_impl *impl = live(c, want);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    *clean = impl->clean_frames;
    if (len && (!out || !in)) return HWC_ERR_NULL_POINTER;
    if ((uint64_t)len > GCM_MAX_DATA - c->data_len) return HWC_ERR_DATA_LENGTH;
    /* end of the AAD: its zero padding (a pending partial block is multiplied) */
    if (c->state == ST_AAD && c->aad_len % 16) ghash(impl, c->key, c->x, zero_blocks, 1);
    c->state = want;
    if (!len) return HWC_OK;                   /* (out and in may be NULL) */
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
    unsigned clean = 0;
    int rc = update(c, 0, out, in, len, &clean);
    GCM_SCRUB(clean);
    return rc;
}

int hwc_aes_gcm_decrypt_update(hwc_aes_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len) {
    unsigned clean = 0;
    int rc = update(c, 1, out, in, len, &clean);
    GCM_SCRUB(clean);
    return rc;
}

static int tag_len_ok(size_t t) {
    return t == 4 || t == 8 || (t >= 12 && t <= 16);
}

/* Constant-time comparison of the first tag_len bytes of the computed tag t
   with tag: 1 iff equal. Only this verdict is revealed. */
static int tag_matches(const uint8_t t[16], const uint8_t *tag, size_t tag_len) {
    uint64_t diff = 0;
    if (tag_len == 16) {   /* the usual length: two 64-bit words */
        uint64_t a[2], b[2];
        memcpy(a, t, 16);
        memcpy(b, tag, 16);
        diff = (a[0] ^ b[0]) | (a[1] ^ b[1]);
    } else {
        for (size_t i = 0; i < tag_len; i++) diff |= (uint8_t)(t[i] ^ tag[i]);
    }
    uint8_t ok = (uint8_t)(((diff | (0 - diff)) >> 63) ^ 1u);   /* 1 iff diff == 0 */
    HWC_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* Section 7.1 steps 5-6: S = GHASH(... || [len(A)]_64 || [len(C)]_64),
   T = MSB_t(GCTR(J0, S)) = MSB_t(E_K(J0) ^ S). The zero padding of a
   pending AAD block and of a pending data block and the length block go to
   one GHASH call. */
static void compute_tag(hwc_aes_gcm_ctx *c, const hwc_aes_impl *impl, uint8_t full_tag[16]) {
    uint8_t blk[48] = {0};
    size_t n = (c->state == ST_AAD && c->aad_len % 16) + (c->data_len % 16 != 0);
    length_block(blk + 16 * n, c->aad_len, c->data_len);
    ghash(impl, c->key, c->x, blk, n + 1);
    for (int i = 0; i < 16; i++) full_tag[i] = c->x[i] ^ c->ek_j0[i];
}

static int final_check(const hwc_aes_gcm_ctx *c, unsigned want, const uint8_t *tag, size_t tag_len,
                       const hwc_aes_impl **impl) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (!(*impl = live(c, want))) return HWC_ERR_BAD_ARGUMENT;
    if (!tag) return HWC_ERR_NULL_POINTER;
    if (!tag_len_ok(tag_len)) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

int hwc_aes_gcm_encrypt_final(hwc_aes_gcm_ctx *c, uint8_t *tag, size_t tag_len) {
    const hwc_aes_impl *impl;
    int rc = final_check(c, ST_ENC, tag, tag_len, &impl);
    if (rc != HWC_OK) return rc;
    uint8_t t[16];
    compute_tag(c, impl, t);
    memcpy(tag, t, tag_len);
    hwc_wipe_inline(t, sizeof t);
    wipe_pieces(c, sizeof *c);
    GCM_SCRUB(impl->clean_frames);
    return HWC_OK;
}

int hwc_aes_gcm_decrypt_final(hwc_aes_gcm_ctx *c, const uint8_t *tag, size_t tag_len) {
    const hwc_aes_impl *impl;
    int rc = final_check(c, ST_DEC, tag, tag_len, &impl);
    if (rc != HWC_OK) return rc;
    uint8_t t[16];
    compute_tag(c, impl, t);
    int ok = tag_matches(t, tag, tag_len);
    hwc_wipe_inline(t, sizeof t);
    wipe_pieces(c, sizeof *c);
    GCM_SCRUB(impl->clean_frames);
    return ok ? HWC_OK : HWC_ERR_AUTH_FAILED;
}

/* ---- one-shot ---------------------------------------------------------------- */

static int oneshot_check(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len,
                         const hwc_aes_impl **impl) {
    if (!k || !iv || !tag) return HWC_ERR_NULL_POINTER;
    if ((aad_len && !aad) || (len && (!out || !in))) return HWC_ERR_NULL_POINTER;
    if (iv_len == 0 || (uint64_t)iv_len > GCM_MAX_AAD || !tag_len_ok(tag_len)) return HWC_ERR_BAD_ARGUMENT;
    if ((uint64_t)len > GCM_MAX_DATA || (uint64_t)aad_len > GCM_MAX_AAD) return HWC_ERR_DATA_LENGTH;
    if (!(*impl = gcm_impl(k))) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

/* out1 = out2 = a ^ b over n bytes, 16 at a time (either output may be a). */
static void xor_to(uint8_t *out1, uint8_t *out2, const uint8_t *a, const uint8_t *b, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        hwc_u64x2 u, v;
        memcpy(&u, a + i, 16);
        memcpy(&v, b + i, 16);
        u ^= v;
        memcpy(out1 + i, &u, 16);
        memcpy(out2 + i, &u, 16);
    }
    for (; i < n; i++) out1[i] = out2[i] = (uint8_t)(a[i] ^ b[i]);
}

/* The one-shot's secrets, wiped once at return. */
typedef struct {
    uint8_t x[16];                              /* GHASH accumulator, then the full tag */
    uint8_t ctr[16];                            /* the GCM slots' counter */
    uint8_t ks[16 * (GCM_SHORT_BLOCKS + 2)];    /* J0 and counter blocks, then E_K(J0) and keystream */
} oneshot_secrets;

/* The end of a one-shot: the full tag in s->x goes out (encrypt) or is
   compared (decrypt: a match writes the cov bytes of plaintext held back,
   gc ^ keystream at out + len - cov; a mismatch zeroes out[0..len)); s is
   wiped. */
static int oneshot_tag(oneshot_secrets *s, int dec, uint8_t *out, size_t len, uint8_t *tag,
                       size_t tag_len, const uint8_t *gc, size_t cov, int rc) {
    if (!dec) {
        if (tag_len == 16) memcpy(tag, s->x, 16);   /* fixed size: no library call */
        else memcpy(tag, s->x, tag_len);
    } else if (tag_matches(s->x, tag, tag_len)) {
        if (cov) xor_to(out + len - cov, out + len - cov, gc, s->ks + 16, cov);
    } else {
        if (len) hwc_wipe(out, len);
        rc = HWC_ERR_AUTH_FAILED;
    }
    hwc_wipe_inline(s, sizeof *s);
    return rc;
}

/* One whole message. A kernel with gcm_oneshot takes all of the data, the
   length block and E_K(J0) in one call after the AAD is hashed. Otherwise
   the GCM slots (or the ECB fallback) take the whole blocks of a message
   longer than GCM_SHORT_BLOCKS blocks; the rest of the
   data ("covered": the final partial block, or the whole short message) is
   XORed with keystream from the ecb_encrypt call that also gives E_K(J0).
   GHASH: whole AAD blocks straight from aad, the slots' blocks inside the
   slots, and g = padded AAD tail (hashed before the slots when they run) ||
   padded covered ciphertext || length block in one call. Decrypt writes
   the covered plaintext only after the tag verified, and on a mismatch
   zeroes out[0..len): no unauthenticated plaintext leaves. */
static int oneshot(const hwc_aes_gcm_key *k, int dec, const uint8_t *iv, size_t iv_len,
                   const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t *tag, size_t tag_len, unsigned *clean) {
    const hwc_aes_impl *impl;
    int rc = oneshot_check(k, iv, iv_len, aad, aad_len, out, in, len, tag, tag_len, &impl);
    if (rc != HWC_OK) return rc;
    *clean = impl->clean_frames;
    oneshot_secrets s;
    uint8_t g[16 * (GCM_SHORT_BLOCKS + 3)];   /* public: AAD, ciphertext, lengths */
    size_t ng = 0;
    memset(s.x, 0, sizeof s.x);
    derive_j0(impl, k, s.ks, iv, iv_len);

    size_t afull = aad_len / 16, arem = aad_len % 16;
    if (afull) ghash(impl, k, s.x, aad, afull);
    if (arem) {                          /* the padded tail in one store (internal/bytes.h) */
        const hwc_u64x2 v = hwc_block_at(aad + 16 * afull, arem, 0);
        memcpy(g, &v, 16);
        ng = 1;
    }

    if (impl->gcm_oneshot) {
        if (ng) ghash(impl, k, s.x, g, 1);
        length_block(g, aad_len, len);
        impl->gcm_oneshot(&k->aes, k->htab, s.ks, s.x, out, in, len, g, dec, iv_len == 12, s.x);
        return oneshot_tag(&s, dec, out, len, tag, tag_len, NULL, 0, rc);
    }

    const size_t full = len / 16;
    const int slots = full > GCM_SHORT_BLOCKS;
    const size_t cov = slots ? len % 16 : len, off = len - cov;
    const size_t cov_blocks = (cov + 15) / 16;
    /* section 6.5: covered block i (from 1) takes the counter J0 + off / 16 + i */
    for (size_t i = 1; i <= cov_blocks; i++) ctr_plus(s.ks + 16 * i, s.ks, (uint32_t)(off / 16 + i));
    if (slots) ctr_plus(s.ctr, s.ks, 1);
    impl->ecb_encrypt(&k->aes, s.ks, s.ks, 1 + cov_blocks);
    if (slots) {
        if (ng) ghash(impl, k, s.x, g, ng);
        ng = 0;
        gctr_blocks(impl, k, dec, s.ctr, s.x, out, in, full);
    }

    uint8_t *gc = g + 16 * ng;   /* the covered ciphertext, zero padded */
    if (cov) {                   /* (out and in may be NULL when len is 0) */
        memset(gc + 16 * (cov_blocks - 1), 0, 16);
        if (dec) xor_to(gc, gc, in + off, zero_blocks, cov);
        else xor_to(out + off, gc, in + off, s.ks + 16, cov);
        ng += cov_blocks;
    }
    length_block(g + 16 * ng, aad_len, len);
    ghash(impl, k, s.x, g, ng + 1);
    for (int i = 0; i < 16; i++) s.x[i] ^= s.ks[i];   /* T = E_K(J0) ^ S */
    return oneshot_tag(&s, dec, out, len, tag, tag_len, gc, cov, rc);
}

int hwc_aes_gcm_encrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                        size_t len, uint8_t *tag, size_t tag_len) {
    unsigned clean = 0;   /* (a scrub when the checks fail before the kernel is known) */
    int rc = oneshot(k, 0, iv, iv_len, aad, aad_len, out, in, len, tag, tag_len, &clean);
    GCM_SCRUB(clean);
    return rc;
}

int hwc_aes_gcm_decrypt(const hwc_aes_gcm_key *k, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                        size_t len, const uint8_t *tag, size_t tag_len) {
    unsigned clean = 0;
    int rc = oneshot(k, 1, iv, iv_len, aad, aad_len, out, in, len, (uint8_t *)tag, tag_len, &clean);
    GCM_SCRUB(clean);
    return rc;
}
