/* Many AES messages at once (contract: docs/API.md, batch.h): CMAC (SP
 * 800-38B) and CBC encryption (SP 800-38A 6.2) of n messages under one key,
 * and XTS (IEEE 1619) over consecutive data units.
 *
 * CMAC and CBC encryption are chains. The kernel's lane step (chain_step in
 * internal/kernel.h) advances chain_lanes chains of different messages by
 * the same number of blocks; this file schedules them: each lane holds one
 * message, a step runs as many blocks as every busy lane still has (one
 * when a CMAC lane is at its last block, which is prepared here with K1 or
 * K2), a lane whose message ends takes the next message at once, unused
 * lanes repeat lanes 0 and 1, and when one message is left it finishes on the
 * single-message path. Every argument of every message is checked before
 * anything is written. */
#include <string.h>
#include "hwcrypt/batch.h"
#include "hwcrypt/cmac.h"
#include "core/aes_internal.h"
#include "internal/wipe.h"

#define XTS_MAX_UNIT ((size_t)1 << 24)   /* SP 800-38E: at most 2^20 blocks per data unit */
#define XTS_TWEAK_BATCH 64               /* tweaks encrypted per ECB call */

/* ---- the lane scheduler -------------------------------------------------- */
/* One batch: CBC encryption (out != NULL) or CMAC (tags != NULL). */
typedef struct batch {
    const hwc_aes_key *k;
    const hwc_aes_impl *impl;
    size_t n;
    const uint8_t *const *in;
    uint8_t *const *out;
    const size_t *len;
    uint8_t *ivs;
    uint8_t *tags;
    uint8_t k1[16], k2[16];
} batch;

/* One lane: the message it holds, its chain blocks still to run (for CMAC
   the last one included), where they are, and its chaining value. */
typedef struct lane {
    size_t msg, left;
    const uint8_t *in;
    uint8_t *out;
    uint8_t *st;
    uint8_t last[16];   /* CMAC: the last block, with K1 or K2, once left == 1 */
    uint8_t mac[16];    /* CMAC: the state */
} lane;

static size_t chain_blocks(const batch *b, size_t i) {
    if (b->tags) return b->len[i] ? (b->len[i] + 15) / 16 : 1;
    return b->len[i] / 16;
}

/* SP 800-38B 6.2 steps 3-4: M_n ^ K1 when complete, else (M_n || 10*) ^ K2. */
static void cmac_last_block(const batch *b, lane *l) {
    const size_t len = b->len[l->msg], done = 16 * (chain_blocks(b, l->msg) - 1), rem = len - done;
    memset(l->last, 0, 16);
    if (rem) memcpy(l->last, b->in[l->msg] + done, rem);
    if (rem == 16) {
        for (int i = 0; i < 16; i++) l->last[i] ^= b->k1[i];
    } else {
        l->last[rem] = 0x80;
        for (int i = 0; i < 16; i++) l->last[i] ^= b->k2[i];
    }
}

static void lane_start(const batch *b, lane *l, size_t i) {
    l->msg = i;
    l->left = chain_blocks(b, i);
    l->in = b->in[i];
    if (b->tags) {
        l->out = NULL;
        l->st = l->mac;
        memset(l->mac, 0, 16);
        if (l->left == 1) cmac_last_block(b, l);
    } else {
        l->out = b->out[i];
        l->st = b->ivs + 16 * i;
    }
}

/* Blocks this lane can run in one step: its last CMAC block alone. */
static size_t lane_run(const batch *b, const lane *l) {
    return b->tags && l->left > 1 ? l->left - 1 : l->left;
}

static hwc_aes_chain lane_chain(const batch *b, const lane *l) {
    hwc_aes_chain c = {l->st, l->out, b->tags && l->left == 1 ? l->last : l->in};
    return c;
}

/* Advance by s blocks; returns 1 when the message is done. */
static int lane_advance(const batch *b, lane *l, size_t s) {
    l->left -= s;
    l->in += 16 * s;
    if (l->out) l->out += 16 * s;
    if (l->left == 0) {
        if (b->tags) memcpy(b->tags + 16 * l->msg, l->mac, 16);
        return 1;
    }
    if (b->tags && l->left == 1) cmac_last_block(b, l);
    return 0;
}

/* The rest of a lane's message on the single-message path. */
static void lane_single(const batch *b, lane *l) {
    if (b->tags) {
        if (l->left > 1) HWC_AES_MODE(b->impl, cmac_chain)(b->k, l->mac, l->in, l->left - 1);
        if (l->left > 1) lane_advance(b, l, l->left - 1);
        HWC_AES_MODE(b->impl, cmac_chain)(b->k, l->mac, l->last, 1);
        lane_advance(b, l, 1);
    } else if (l->left) {
        HWC_AES_MODE(b->impl, cbc_encrypt)(b->k, l->st, l->out, l->in, l->left);
    }
}

/* Messages from..n-1 one after another on the single-message path. */
static void run_single(const batch *b, size_t from) {
    lane l;
    for (size_t i = from; i < b->n; i++) {
        lane_start(b, &l, i);
        lane_single(b, &l);
    }
    if (b->tags) hwc_wipe_inline(&l, sizeof l);   /* CMAC state and last block */
}

static void run_batch(const batch *b) {
    const size_t width = b->impl->chain_step ? b->impl->chain_lanes : 0;
    if (width < 2 || b->n < 2) {
        run_single(b, 0);
        return;
    }
    lane lanes[HWC_AES_MAX_LANES];
    int busy[HWC_AES_MAX_LANES] = {0};
    hwc_aes_chain io[HWC_AES_MAX_LANES];
    size_t next = 0;
    const size_t used = b->n < width ? b->n : width;   /* lanes that ever hold a message */
    for (;;) {
        size_t live = 0, s = SIZE_MAX;
        for (size_t j = 0; j < used; j++) {
            while (!busy[j] && next < b->n) {   /* CBC messages of no block: nothing to do */
                if (chain_blocks(b, next)) {
                    lane_start(b, &lanes[j], next);
                    busy[j] = 1;
                }
                next++;
            }
            if (!busy[j]) continue;
            io[live++] = lane_chain(b, &lanes[j]);
            if (lane_run(b, &lanes[j]) < s) s = lane_run(b, &lanes[j]);
        }
        if (live < 2) break;
        /* unused lanes repeat lanes 0 and 1, each at lanes of its own
           parity: zmm stores odd lanes by masked stores, and plain and
           masked stores to the same bytes made short steps up to 9x slower
           on Zen 4; repeats of more lanes cost the L1 more (docs/aes-batch.md) */
        for (size_t j = live; j < width; j++) io[j] = io[j % 2];
        b->impl->chain_step(b->k, io, s);
        for (size_t j = 0; j < used; j++)
            if (busy[j] && lane_advance(b, &lanes[j], s)) busy[j] = 0;
    }
    /* at most one message left, already in its lane */
    for (size_t j = 0; j < used; j++)
        if (busy[j]) lane_single(b, &lanes[j]);
    if (b->tags) hwc_wipe_inline(lanes, used * sizeof lanes[0]);
}

/* ---- public functions ---------------------------------------------------- */
int hwc_cmac_many(const uint8_t *key, size_t key_len, size_t n, const uint8_t *const msg[],
                  const size_t len[], uint8_t *tags) {
    if (!key || (n && (!msg || !len || !tags))) return HWC_ERR_NULL_POINTER;
    for (size_t i = 0; i < n; i++)
        if (len[i] && !msg[i]) return HWC_ERR_NULL_POINTER;
    if (key_len != 16 && key_len != 24 && key_len != 32) return HWC_ERR_KEY_LENGTH;
    if (n == 0) return HWC_OK;
    hwc_aes_key k;
    int rc = hwc_aes_setkey(&k, key, key_len);
    if (rc != HWC_OK) return rc;
    batch b = {&k, hwc_aes_key_impl(&k), n, msg, NULL, len, NULL, tags, {0}, {0}};
    /* SP 800-38B 6.1: L = E_K(0^128), K1 = dbl(L), K2 = dbl(K1) */
    uint8_t l[16] = {0};
    b.impl->ecb_encrypt(&k, l, l, 1);
    hwc_gf128_dbl_be(b.k1, l);
    hwc_gf128_dbl_be(b.k2, b.k1);
    run_batch(&b);
    const unsigned clean = b.impl->clean_frames;
    hwc_wipe_inline(l, sizeof l);
    hwc_wipe_inline(&b, sizeof b);
    hwc_aes_key_wipe(&k);
    HWC_SCRUB_UNLESS(clean, HWC_CLEAN_SETKEY | HWC_CLEAN_MODES | HWC_CLEAN_LANES, HWC_SCRUB_LANES);
    return HWC_OK;
}

int hwc_aes_cbc_encrypt_many(const hwc_aes_key *k, size_t n, uint8_t *ivs, uint8_t *const out[],
                             const uint8_t *const in[], const size_t len[]) {
    if (!k || (n && (!ivs || !out || !in || !len))) return HWC_ERR_NULL_POINTER;
    for (size_t i = 0; i < n; i++) {
        if (len[i] && (!out[i] || !in[i])) return HWC_ERR_NULL_POINTER;
        if (len[i] % 16) return HWC_ERR_DATA_LENGTH;
    }
    const hwc_aes_impl *impl = hwc_aes_key_impl(k);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    if (n == 0) return HWC_OK;
    batch b = {k, impl, n, in, out, len, ivs, NULL, {0}, {0}};
    run_batch(&b);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_MODES | HWC_CLEAN_LANES, HWC_SCRUB_LANES);
    return HWC_OK;
}

/* IEEE 1619 5.1: the tweak of data unit `sector` is its 16-byte
   little-endian number, encrypted with the tweak key. Units go in runs of
   XTS_TWEAK_BATCH: their tweaks as one ECB call, their blocks through the
   kernel's units loop (round keys loaded once per run). */
static int xts_sectors(const hwc_aes_xts_key *k, uint64_t sector, size_t sector_size, uint8_t *out,
                       const uint8_t *in, size_t len, int decrypt) {
    if (sector_size < 16 || sector_size > XTS_MAX_UNIT || sector_size % 16) return HWC_ERR_DATA_LENGTH;
    if (len % sector_size) return HWC_ERR_DATA_LENGTH;
    if (len == 0) return HWC_OK;
    if (!k || !out || !in) return HWC_ERR_NULL_POINTER;
    const hwc_aes_impl *di = hwc_aes_key_impl(&k->data), *ti = hwc_aes_key_impl(&k->tweak);
    if (!di || !ti) return HWC_ERR_BAD_ARGUMENT;
    const size_t units = len / sector_size, unit_blocks = sector_size / 16;
    if (units - 1 > UINT64_MAX - sector) return HWC_ERR_BAD_ARGUMENT;
    uint8_t t[16 * XTS_TWEAK_BATCH];
    for (size_t done = 0; done < units;) {
        const size_t c = units - done < XTS_TWEAK_BATCH ? units - done : XTS_TWEAK_BATCH;
        memset(t, 0, 16 * c);
        for (size_t u = 0; u < c; u++) {
            const uint64_t s = sector + done + u;
            for (int i = 0; i < 8; i++) t[16 * u + i] = (uint8_t)(s >> (8 * i));
        }
        ti->ecb_encrypt(&k->tweak, t, t, c);
        uint8_t *o = out + sector_size * done;
        const uint8_t *p = in + sector_size * done;
        void (*units_fn)(const hwc_aes_key *, const uint8_t *, size_t, size_t, uint8_t *, const uint8_t *) =
            decrypt ? di->xts_decrypt_units : di->xts_encrypt_units;
        if (units_fn) {
            units_fn(&k->data, t, c, unit_blocks, o, p);
        } else {
            for (size_t u = 0; u < c; u++, o += sector_size, p += sector_size) {
                if (decrypt) HWC_AES_MODE(di, xts_decrypt)(&k->data, t + 16 * u, o, p, unit_blocks);
                else HWC_AES_MODE(di, xts_encrypt)(&k->data, t + 16 * u, o, p, unit_blocks);
            }
        }
        done += c;
    }
    hwc_wipe_inline(t, sizeof t);
    return HWC_OK;
}

int hwc_aes_xts_encrypt_sectors(const hwc_aes_xts_key *k, uint64_t sector, size_t sector_size,
                                uint8_t *out, const uint8_t *in, size_t len) {
    int rc = xts_sectors(k, sector, sector_size, out, in, len, 0);
    HWC_SCRUB_UNLESS(hwc_aes_xts_clean(k), HWC_CLEAN_MODES | HWC_CLEAN_XTS, HWC_SCRUB_SECTORS);
    return rc;
}

int hwc_aes_xts_decrypt_sectors(const hwc_aes_xts_key *k, uint64_t sector, size_t sector_size,
                                uint8_t *out, const uint8_t *in, size_t len) {
    int rc = xts_sectors(k, sector, sector_size, out, in, len, 1);
    HWC_SCRUB_UNLESS(hwc_aes_xts_clean(k), HWC_CLEAN_MODES | HWC_CLEAN_XTS, HWC_SCRUB_SECTORS);
    return rc;
}
