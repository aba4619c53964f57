/* GOST R 34.11-2012 hash (RFC 6986 section 8): IVs, padding, N and Sigma, the
 * final stage, and the public streaming API with its argument checks. The
 * compression itself comes from the kernel bound at init. */
#include <string.h>
#include "hwcrypt/streebog.h"
#include "internal/streebog_constants.h"
#include "core/streebog_internal.h"
#include "internal/wipe.h"

static int bits_ok(unsigned digest_bits) { return digest_bits == 256 || digest_bits == 512; }

/* A context hwc_streebog_init() set up and final has not wiped. */
int hwc_sb_ctx_ok(const hwc_streebog_ctx *c) {
    return bits_ok(c->digest_bits) && c->impl != NULL && c->buf_len < 64;
}

void hwc_sb_start(hwc_streebog_ctx *c, const hwc_streebog_impl *impl, unsigned digest_bits) {
    /* IV: 0^512 for the 512-bit hash, (00000001)^64 for the 256-bit one. */
    uint64_t iv = digest_bits == 256 ? 0x0101010101010101ull : 0;
    for (int i = 0; i < 8; i++) {
        c->h[i] = iv;
        c->n[i] = 0;
        c->sigma[i] = 0;
    }
    memset(c->buf, 0, sizeof c->buf);
    c->buf_len = 0;
    c->digest_bits = digest_bits;
    c->impl = impl;
}

void hwc_sb_absorb(hwc_streebog_ctx *c, const uint8_t *p, size_t len) {
    const hwc_streebog_impl *k = c->impl;
    if (len == 0) return;
    if (c->buf_len) {
        size_t take = 64 - c->buf_len;
        if (take > len) take = len;
        memcpy(c->buf + c->buf_len, p, take);
        c->buf_len += (unsigned)take;
        p += take;
        len -= take;
        if (c->buf_len < 64) return;
        k->blocks(c->h, c->n, c->sigma, c->buf, 1);
        c->buf_len = 0;
    }
    if (len >= 64) {
        size_t nb = len / 64;
        k->blocks(c->h, c->n, c->sigma, p, nb);
        p += nb * 64;
        len -= nb * 64;
    }
    if (len) {
        memcpy(c->buf, p, len);
        c->buf_len = (unsigned)len;
    }
}

void hwc_sb_finish(hwc_streebog_ctx *c, uint8_t *out) {
    const hwc_streebog_impl *k = c->impl;
    static const uint64_t zero[8];
    uint64_t m[8];
    /* m = 0^(511-|M|) || 1 || M: the tail bytes, then 0x01, then zeros. */
    memset(c->buf + c->buf_len, 0, 64 - c->buf_len);
    c->buf[c->buf_len] = 0x01;
    for (int i = 0; i < 8; i++) m[i] = hwc_streebog_load64(c->buf + 8 * i);
    k->g(c->h, c->n, m);                                     /* h = g_N(h, m) */
    hwc_streebog_add512_word(c->n, (uint64_t)c->buf_len * 8); /* N += |M| */
    hwc_streebog_add512(c->sigma, m);                         /* Sigma += m */
    k->g(c->h, zero, c->n);                                   /* h = g_0(h, N) */
    k->g(c->h, zero, c->sigma);                               /* h = g_0(h, Sigma) */
    /* 512: all of h; 256: MSB_256(h) = words 4..7. */
    int first = c->digest_bits == 256 ? 4 : 0;
    for (int i = first; i < 8; i++) hwc_streebog_store64(out + 8 * (i - first), c->h[i]);
    hwc_wipe_inline(m, sizeof m);
}

int hwc_streebog_init(hwc_streebog_ctx *h, unsigned digest_bits) {
    if (!h) return HWC_ERR_NULL_POINTER;
    if (!bits_ok(digest_bits)) return HWC_ERR_BAD_ARGUMENT;
    hwc_sb_start(h, hwc_active_streebog(), digest_bits);
    return HWC_OK;
}

int hwc_streebog_update(hwc_streebog_ctx *h, const void *data, size_t len) {
    if (!h) return HWC_ERR_NULL_POINTER;
    if (!hwc_sb_ctx_ok(h)) return HWC_ERR_BAD_ARGUMENT;
    if (!data && len) return HWC_ERR_NULL_POINTER;
    hwc_sb_absorb(h, data, len);
    return HWC_OK;
}

int hwc_streebog_final(hwc_streebog_ctx *h, uint8_t *digest) {
    if (!h || !digest) return HWC_ERR_NULL_POINTER;
    if (!hwc_sb_ctx_ok(h)) return HWC_ERR_BAD_ARGUMENT;
    hwc_sb_finish(h, digest);
    hwc_wipe_inline(h, sizeof *h);   /* digest_bits = 0: init again to reuse */
    return HWC_OK;
}

int hwc_streebog(unsigned digest_bits, const void *data, size_t len, uint8_t *digest) {
    if (!digest || (!data && len)) return HWC_ERR_NULL_POINTER;
    if (!bits_ok(digest_bits)) return HWC_ERR_BAD_ARGUMENT;
    hwc_streebog_ctx c;
    hwc_sb_start(&c, hwc_active_streebog(), digest_bits);
    hwc_sb_absorb(&c, data, len);
    hwc_sb_finish(&c, digest);
    hwc_wipe_inline(&c, sizeof c);
    return HWC_OK;
}
