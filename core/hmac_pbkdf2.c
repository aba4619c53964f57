/* HMAC-Streebog (RFC 7836 section 4.1.1 = RFC 2104 with B = 64), one-shot and
 * streaming, and PBKDF2-HMAC-Streebog-512 (RFC 8018 section 5.2 with the PRF
 * of RFC 7836 section 4.5 / RFC 9337). The ipad/opad states (h, N, Sigma
 * after the one 64-byte pad block) are computed once per key, in the
 * streaming context, and PBKDF2 runs on that same context: an iteration is
 * the compressions of two 64-byte messages and nothing else, and the output
 * blocks T1..Tk go through the kernel's lane steps side by side. */
#include <string.h>
#include "hwcrypt/streebog.h"
#include "internal/streebog_constants.h"
#include "internal/wipe.h"
#include "core/streebog_internal.h"

#define HMAC_LIVE 0x484d41432d534221ull   /* "HMAC-SB!" */

/* RFC 2104 section 2: K0 = K (zero-padded to B = 64) or H(K) if |K| > B,
   hashed with the same digest size as the HMAC (RFC 7836 section 4.1.1). */
static void hmac_setup(hwc_hmac_streebog_ctx *s, const hwc_streebog_impl *impl, unsigned bits,
                       const uint8_t *key, size_t key_len) {
    uint8_t k0[64], pad[64];
    memset(k0, 0, sizeof k0);
    if (key_len > 64) {
        hwc_sb_start(&s->inner, impl, bits);
        hwc_sb_absorb(&s->inner, key, key_len);
        hwc_sb_finish(&s->inner, k0);
    } else if (key_len) {
        memcpy(k0, key, key_len);
    }
    for (int i = 0; i < 64; i++) pad[i] = k0[i] ^ 0x36;
    hwc_sb_start(&s->inner, impl, bits);
    hwc_sb_absorb(&s->inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = k0[i] ^ 0x5c;
    hwc_sb_start(&s->outer, impl, bits);
    hwc_sb_absorb(&s->outer, pad, 64);
    s->live = HMAC_LIVE;
    hwc_wipe_inline(k0, sizeof k0);
    hwc_wipe_inline(pad, sizeof pad);
}

/* mac = H(opad-state || H(inner)): inner is the ipad state with the message
   absorbed; it is spent afterwards. */
static void hmac_finish(hwc_streebog_ctx *inner, const hwc_streebog_ctx *outer, uint8_t *mac) {
    uint8_t d[64];
    hwc_streebog_ctx o = *outer;
    hwc_sb_finish(inner, d);
    hwc_sb_absorb(&o, d, o.digest_bits / 8);
    hwc_sb_finish(&o, mac);
    hwc_wipe_inline(d, sizeof d);
    hwc_wipe_inline(&o, sizeof o);
}

static int hmac_live(const hwc_hmac_streebog_ctx *c) {
    return c->live == HMAC_LIVE && hwc_sb_ctx_ok(&c->inner) && hwc_sb_ctx_ok(&c->outer) &&
           c->inner.digest_bits == c->outer.digest_bits;
}

int hwc_hmac_streebog_init(hwc_hmac_streebog_ctx *c, unsigned digest_bits, const uint8_t *key,
                           size_t key_len) {
    if (!c || (!key && key_len)) return HWC_ERR_NULL_POINTER;
    if (digest_bits != 256 && digest_bits != 512) return HWC_ERR_BAD_ARGUMENT;
    const hwc_streebog_impl *impl = hwc_active_streebog();
    hmac_setup(c, impl, digest_bits, key, key_len);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_HASH, HWC_SCRUB_HASH);
    return HWC_OK;
}

int hwc_hmac_streebog_update(hwc_hmac_streebog_ctx *c, const void *data, size_t len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (!hmac_live(c)) return HWC_ERR_BAD_ARGUMENT;
    if (!data && len) return HWC_ERR_NULL_POINTER;
    hwc_sb_absorb(&c->inner, data, len);
    HWC_SCRUB_UNLESS(((const hwc_streebog_impl *)c->inner.impl)->clean_frames, HWC_CLEAN_HASH, HWC_SCRUB_HASH);
    return HWC_OK;
}

int hwc_hmac_streebog_final(hwc_hmac_streebog_ctx *c, uint8_t *mac) {
    if (!c || !mac) return HWC_ERR_NULL_POINTER;
    if (!hmac_live(c)) return HWC_ERR_BAD_ARGUMENT;
    uint8_t out[64];
    unsigned n = c->inner.digest_bits / 8;
    const unsigned clean = ((const hwc_streebog_impl *)c->inner.impl)->clean_frames;
    hmac_finish(&c->inner, &c->outer, out);
    hwc_wipe_inline(c, sizeof *c);
    memcpy(mac, out, n);   /* mac may be inside c */
    hwc_wipe_inline(out, sizeof out);
    HWC_SCRUB_UNLESS(clean, HWC_CLEAN_HASH, HWC_SCRUB_HASH);
    return HWC_OK;
}

int hwc_hmac_streebog(unsigned digest_bits, const uint8_t *key, size_t key_len, const void *msg,
                      size_t len, uint8_t *mac) {
    if (!mac || (!key && key_len) || (!msg && len)) return HWC_ERR_NULL_POINTER;
    if (digest_bits != 256 && digest_bits != 512) return HWC_ERR_BAD_ARGUMENT;
    hwc_hmac_streebog_ctx c;
    const hwc_streebog_impl *impl = hwc_active_streebog();
    hmac_setup(&c, impl, digest_bits, key, key_len);
    hwc_sb_absorb(&c.inner, msg, len);
    int rc = hwc_hmac_streebog_final(&c, mac);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_HASH, HWC_SCRUB_HASH);
    return rc;
}

/* What the compressions of H(pad || one 64-byte block) need besides the
   block, set up once per PBKDF2 call (RFC 6986 section 8.2 for the block,
   8.3 for the finalisation; pad is a state after whole 64-byte blocks). */
typedef struct {
    uint64_t h[8], n0[8], n1[8], zero[8], sigma[8];
    uint8_t n1_bytes[64], last[64];   /* N after the block; the empty tail, padded */
    const hwc_streebog_impl *k;
} block_hash;

static void block_hash_setup(block_hash *b, const hwc_streebog_ctx *pad) {
    uint8_t tmp[64];
    memcpy(b->h, pad->h, sizeof b->h);
    memcpy(b->n0, pad->n, sizeof b->n0);
    memcpy(b->n1, pad->n, sizeof b->n1);
    hwc_streebog_add512_word(b->n1, 512);   /* N += 512, then N += 0 for the empty tail */
    memset(b->zero, 0, sizeof b->zero);
    memcpy(b->sigma, pad->sigma, sizeof b->sigma);
    memcpy(b->n1_bytes, hwc_sb_words_bytes(b->n1, tmp), 64);
    memset(b->last, 0, sizeof b->last);
    b->last[0] = 0x01;   /* 0^511 || 1 */
    b->k = pad->impl;
}

/* Per-lane scratch of hash_block_lanes (wiped once, by the caller). */
typedef struct {
    uint64_t sigma[HWC_SB_MAX_LANES][8];
    uint8_t bytes[2][HWC_SB_MAX_LANES][64];   /* big-endian hosts: words as bytes */
} block_scratch;

/* For each lane l < L: h[l] = the words of H(pad || msg[l]) (Streebog-512),
   msg[l] one 64-byte block as words; h and msg do not overlap. */
static void hash_block_lanes(block_hash *b, size_t L, uint64_t msg[][8], uint64_t h[][8],
                             block_scratch *x) {
    static const uint64_t last_w[8] = {1};
    hwc_sb_lane io[HWC_SB_MAX_LANES] = {{0}};
    for (size_t l = 0; l < L; l++) {
        memcpy(x->sigma[l], b->sigma, sizeof x->sigma[l]);
        hwc_streebog_add512(x->sigma[l], msg[l]);
        hwc_streebog_add512(x->sigma[l], last_w);
        io[l] = (hwc_sb_lane){h[l], b->h, b->n0, NULL,
                              hwc_sb_words_bytes(msg[l], x->bytes[0][l])};
    }
    hwc_sb_compress(b->k, L, io, 1);   /* h = g_N(h, m) */
    for (size_t l = 0; l < L; l++) io[l].h_in = h[l], io[l].n = b->n1, io[l].m = b->last;
    hwc_sb_compress(b->k, L, io, 1);   /* h = g_N(h, 0^511 || 1) */
    for (size_t l = 0; l < L; l++) io[l].n = b->zero, io[l].m = b->n1_bytes;
    hwc_sb_compress(b->k, L, io, 1);   /* h = g_0(h, N) */
    for (size_t l = 0; l < L; l++) io[l].m = hwc_sb_words_bytes(x->sigma[l], x->bytes[1][l]);
    hwc_sb_compress(b->k, L, io, 1);   /* h = g_0(h, Sigma) */
}

/* RFC 8018 section 5.2 for L output blocks at once: u[l] holds U_1 of block
   l on entry; on return t[l] = U_1 ^ ... ^ U_c. */
static void pbkdf2_lanes(block_hash pads[2], size_t L, uint32_t iterations, uint64_t u[][8],
                         uint64_t t[][8]) {
    uint64_t d[HWC_SB_MAX_LANES][8];
    block_scratch x;
    memcpy(t, u, L * sizeof *t);
    for (uint32_t j = 1; j < iterations; j++) {
        hash_block_lanes(&pads[0], L, u, d, &x);   /* H(K0 ^ ipad || U_{j-1}) */
        hash_block_lanes(&pads[1], L, d, u, &x);   /* U_j */
        for (size_t l = 0; l < L; l++)
            for (int w = 0; w < 8; w++) t[l][w] ^= u[l][w];
    }
    hwc_wipe_inline(d, sizeof d);
    hwc_wipe_inline(&x, sizeof x);
}

/* RFC 8018 section 5.2: T_i = U_1 ^ ... ^ U_c, U_1 = PRF(P, S || INT(i)),
   U_j = PRF(P, U_{j-1}); DK = T_1 || T_2 || ... truncated to out_len. The
   salt is absorbed once, before anything is written: out may equal it. */
int hwc_pbkdf2_streebog512(const uint8_t *password, size_t password_len, const uint8_t *salt,
                           size_t salt_len, uint32_t iterations, uint8_t *out, size_t out_len) {
    if ((!out && out_len) || (!password && password_len) || (!salt && salt_len))
        return HWC_ERR_NULL_POINTER;
    if (iterations == 0) return HWC_ERR_BAD_ARGUMENT;
    /* dkLen > (2^32 - 1) * hLen: "derived key too long" (RFC 8018 5.2 step 1). */
    if ((uint64_t)(out_len - 1) / 64 >= 0xffffffffull && out_len) return HWC_ERR_BAD_ARGUMENT;
    if (out_len == 0) return HWC_OK;

    hwc_hmac_streebog_ctx s;
    hwc_streebog_ctx salted, tmp;
    block_hash pads[2];
    uint64_t u[HWC_SB_MAX_LANES][8], t[HWC_SB_MAX_LANES][8];
    uint8_t b[64], ctr[4];
    const hwc_streebog_impl *impl = hwc_active_streebog();
    hmac_setup(&s, impl, 512, password, password_len);
    salted = s.inner;
    hwc_sb_absorb(&salted, salt, salt_len);
    block_hash_setup(&pads[0], &s.inner);
    block_hash_setup(&pads[1], &s.outer);
    size_t width = hwc_sb_lane_width(s.inner.impl);
    for (uint32_t i = 1; out_len;) {
        size_t L = 0;
        for (; L < width && (size_t)64 * L < out_len; L++, i++) {
            ctr[0] = (uint8_t)(i >> 24);
            ctr[1] = (uint8_t)(i >> 16);
            ctr[2] = (uint8_t)(i >> 8);
            ctr[3] = (uint8_t)i;
            tmp = salted;
            hwc_sb_absorb(&tmp, ctr, 4);
            hmac_finish(&tmp, &s.outer, b);   /* U_1 = PRF(P, S || INT(i)) */
            for (int w = 0; w < 8; w++) u[L][w] = hwc_streebog_load64(b + 8 * w);
        }
        pbkdf2_lanes(pads, L, iterations, u, t);
        for (size_t l = 0; l < L; l++) {
            size_t n = out_len < 64 ? out_len : 64;
            for (int w = 0; w < 8; w++) hwc_streebog_store64(b + 8 * w, t[l][w]);
            memcpy(out, b, n);
            out += n;
            out_len -= n;
        }
    }
    hwc_wipe_inline(&s, sizeof s);
    hwc_wipe_inline(&salted, sizeof salted);
    hwc_wipe_inline(pads, sizeof pads);
    hwc_wipe_inline(&tmp, sizeof tmp);
    hwc_wipe_inline(u, sizeof u);
    hwc_wipe_inline(t, sizeof t);
    hwc_wipe_inline(b, sizeof b);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_HASH, HWC_SCRUB_HASH);
    return HWC_OK;
}
