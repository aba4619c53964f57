/* AES-CMAC (NIST SP 800-38B, RFC 4493): subkeys, buffering, padding and
 * the constant-time tag comparison. The CBC-MAC chain runs in the kernel
 * bound to the key (cmac_chain, or core/'s ECB-built chain when the kernel
 * has none). Contract: docs/API.md (cmac.h). */
#include <string.h>
#include "hwcrypt/cmac.h"
#include "core/aes_internal.h"
#include "internal/bytes.h"
#include "internal/wipe.h"
#include "internal/ct.h"

/* A context that went through hwc_cmac_init: its kernel, else NULL. */
static const hwc_aes_impl *ctx_impl(const hwc_cmac_ctx *c) {
    if (c->buf_len > 16) return NULL;
    return hwc_aes_key_impl(&c->key);
}

static int key_len_ok(size_t key_len) {
    return key_len == 16 || key_len == 24 || key_len == 32;
}

/* SP 800-38B 6.1: L = E_K(0^128), K1 = dbl(L), K2 = dbl(K1). */
int hwc_cmac_init(hwc_cmac_ctx *c, const uint8_t *key, size_t key_len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (!key_len_ok(key_len)) return HWC_ERR_KEY_LENGTH;
    if (!key) return HWC_ERR_NULL_POINTER;
    int rc = hwc_aes_setkey(&c->key, key, key_len);
    if (rc != HWC_OK) return rc;
    const hwc_aes_impl *impl = hwc_aes_key_impl(&c->key);
    uint8_t l[16] = {0};
    impl->ecb_encrypt(&c->key, l, l, 1);
    hwc_gf128_dbl_be(c->k1, l);
    hwc_gf128_dbl_be(c->k2, c->k1);
    hwc_wipe_inline(l, sizeof l);
    memset(c->state, 0, sizeof c->state);
    memset(c->buf, 0, sizeof c->buf);
    c->buf_len = 0;
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_SETKEY | HWC_CLEAN_MODES, HWC_SCRUB_BULK);
    return HWC_OK;
}

/* The n bytes at msg into buf after its buf_len bytes (buf holds zeros past
   them), written whole in one store: the kernel and final load buf whole
   (internal/bytes.h). */
static void buf_add(hwc_cmac_ctx *c, const uint8_t *msg, size_t n) {
    hwc_u64x2 b;
    memcpy(&b, c->buf, 16);
    b |= hwc_block_at(msg, n, c->buf_len);
    memcpy(c->buf, &b, 16);
}

/* SP 800-38B 6.2 steps 5-6, streamed: every complete block is chained as
   soon as more input follows it; the last (possibly complete) block stays in
   buf for final. */
int hwc_cmac_update(hwc_cmac_ctx *c, const uint8_t *msg, size_t len) {
    if (!c) return HWC_ERR_NULL_POINTER;
    if (len && !msg) return HWC_ERR_NULL_POINTER;
    const hwc_aes_impl *impl = ctx_impl(c);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    if (len == 0) return HWC_OK;
    if (len <= 16 - c->buf_len) {
        buf_add(c, msg, len);
        c->buf_len += (unsigned)len;
        return HWC_OK;
    }
    /* More than fits. With an empty buffer the message is chained in place
       (one kernel call); otherwise the buffered block is completed first. */
    if (c->buf_len) {
        size_t take = 16 - c->buf_len;
        buf_add(c, msg, take);
        msg += take;
        len -= take;
        HWC_AES_MODE(impl, cmac_chain)(&c->key, c->state, c->buf, 1);
    }
    /* len >= 1 here: chain all but the last 1..16 bytes. */
    size_t blocks = (len - 1) / 16;
    if (blocks) HWC_AES_MODE(impl, cmac_chain)(&c->key, c->state, msg, blocks);
    msg += 16 * blocks;
    len -= 16 * blocks;
    const hwc_u64x2 b = hwc_block_at(msg, len, 0);
    memcpy(c->buf, &b, 16);
    c->buf_len = (unsigned)len;
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_MODES, HWC_SCRUB_CHAIN);
    return HWC_OK;
}

/* SP 800-38B 6.2 steps 3-4, 6-7: M_n ^ K1 if complete, else (M_n || 10*) ^
   K2; T = E(C_{n-1} ^ M_n). Then ready for a new message (key kept). */
int hwc_cmac_final(hwc_cmac_ctx *c, uint8_t tag[16]) {
    if (!c || !tag) return HWC_ERR_NULL_POINTER;
    const hwc_aes_impl *impl = ctx_impl(c);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    /* buf holds zeros past buf_len (init, update); the padding's 1 bit is
       one word, and last goes out in one 16-byte store for the kernel's
       load (internal/bytes.h) */
    const unsigned n = c->buf_len;
    const uint64_t pad = n == 16 ? 0 : hwc_le64_word((uint64_t)0x80 << (8 * (n % 8)));
    hwc_u64x2 m, k;
    memcpy(&m, c->buf, 16);
    memcpy(&k, n == 16 ? c->k1 : c->k2, 16);
    const hwc_u64x2 p = {n < 8 ? pad : 0, n < 8 ? 0 : pad};
    hwc_u64x2 v = m ^ k ^ p;
    uint8_t last[16];
    memcpy(last, &v, 16);
    HWC_AES_MODE(impl, cmac_chain)(&c->key, c->state, last, 1);
    memcpy(tag, c->state, 16);
#ifndef __OPTIMIZE__
    /* no scrub reaches this function's own frame, where a build without
       optimisation keeps k (the subkey) and v (the subkey under a known
       block); optimised builds keep both in registers (the stack scan), and
       wiping them would make them stores (3% on 16-byte calls) */
    hwc_wipe_inline(&k, sizeof k);
    hwc_wipe_inline(&v, sizeof v);
#endif
    hwc_wipe_inline(last, sizeof last);
    hwc_wipe_inline(c->state, sizeof c->state);
    hwc_wipe_inline(c->buf, sizeof c->buf);
    c->buf_len = 0;
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_MODES, HWC_SCRUB_CHAIN);
    return HWC_OK;
}

void hwc_cmac_wipe(hwc_cmac_ctx *c) {
    if (c) hwc_wipe_inline(c, sizeof *c);   /* NULL: nothing to wipe, as hwc_wipe */
}

/* Lengths are checked before the pointers they describe: a NULL pointer with
   length 0 gets the length error. */
int hwc_cmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len, uint8_t tag[16]) {
    if (!key_len_ok(key_len)) return HWC_ERR_KEY_LENGTH;
    if (!key || !tag || (len && !msg)) return HWC_ERR_NULL_POINTER;
    hwc_cmac_ctx c;
    int rc = hwc_cmac_init(&c, key, key_len);
    if (rc != HWC_OK) return rc;
    uint8_t t[16];
    rc = hwc_cmac_update(&c, msg, len);
    if (rc == HWC_OK) rc = hwc_cmac_final(&c, t);
    if (rc == HWC_OK) memcpy(tag, t, 16);
    hwc_wipe_inline(t, sizeof t);
    hwc_cmac_wipe(&c);
    return rc;
}

/* The comparison ORs the XORs of all tag_len bytes: no early exit. */
int hwc_cmac_verify(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len,
                    const uint8_t *tag, size_t tag_len) {
    if (!key_len_ok(key_len)) return HWC_ERR_KEY_LENGTH;
    if (tag_len < 4 || tag_len > 16) return HWC_ERR_BAD_ARGUMENT;
    if (!key || !tag || (len && !msg)) return HWC_ERR_NULL_POINTER;
    uint8_t t[16];
    int rc = hwc_cmac(key, key_len, msg, len, t);
    if (rc != HWC_OK) return rc;
    uint8_t diff = 0;
    for (size_t i = 0; i < tag_len; i++) diff |= (uint8_t)(t[i] ^ tag[i]);
    hwc_wipe_inline(t, sizeof t);
    /* 1 when diff == 0, computed without a data-dependent branch. */
    unsigned ok = 1u & (((unsigned)diff - 1u) >> 8);
    HWC_DECLASSIFY(&ok, sizeof ok);   /* match or not is the public result */
    return ok ? HWC_OK : HWC_ERR_AUTH_FAILED;
}
