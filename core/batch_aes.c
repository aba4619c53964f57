/* Many AES messages at once (contract: docs/API.md, batch.h): CMAC (SP
 * 800-38B) and CBC encryption (SP 800-38A 6.2) of n messages under one key,
 * and XTS (IEEE 1619) over consecutive data units.
 *
 * CMAC and CBC encryption are chains. The kernel's lane step (chain_step in
 * internal/kernel.h) advances up to chain_lanes chains of different
 * messages by the same number of blocks; this file schedules them: each
 * lane holds one message, a step runs as many blocks as every busy lane
 * can read in a row (CMAC: a short message whole, from a copy whose last
 * block is prepared here with K1 or K2; a longer one up to its last block,
 * then that block alone), a lane whose message ends takes the next message
 * at once, the busy lanes are always the first ones, and when one message is
 * left it finishes on the single-message path. Every argument of every
 * message is checked before anything is written. */
#include <string.h>
#include "hwcrypt/batch.h"
#include "hwcrypt/cmac.h"
#include "core/aes_internal.h"
#include "internal/bytes.h"
#include "internal/wipe.h"

#define XTS_MAX_UNIT ((size_t)1 << 24)   /* SP 800-38E: at most 2^20 blocks per data unit */
#define XTS_TWEAK_BATCH 64               /* tweaks encrypted per ECB call */
#define FEW_SHORT_MAX_N 3                /* few_short: measured on Zen 4 (docs/aes-batch.md) */
#define FEW_SHORT_MAX_BYTES 64
#define CMAC_WHOLE_MAX 64                /* CMAC messages run whole from a lane buffer (docs/aes-batch.md) */
_Static_assert((CMAC_WHOLE_MAX & (CMAC_WHOLE_MAX - 1)) == 0 && CMAC_WHOLE_MAX >= 16, "a power of two");

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

/* The lanes: lane j holds message msg[j], which has left[j] blocks to run
   from io[j].in and, for CMAC, its last block still to prepare when
   tail[j]; io[j] is what the kernel's step reads (chaining value, output,
   input). CMAC lanes chain in mac[j]. A CMAC message of one block runs it
   from last[j], prepared with K1 or K2; one of 17 to CMAC_WHOLE_MAX bytes
   is copied to whole[j] with its last block prepared, so that one step
   runs it whole; a longer one runs up to its last block from the caller's
   buffer, then that block from last[j]. The busy lanes are always the
   first ones. */
typedef struct lanes {
    hwc_aes_chain io[HWC_AES_MAX_LANES];
    size_t left[HWC_AES_MAX_LANES];
    size_t msg[HWC_AES_MAX_LANES];
    uint8_t tail[HWC_AES_MAX_LANES];
    uint8_t last[HWC_AES_MAX_LANES][16];
    uint8_t mac[HWC_AES_MAX_LANES][16];
    uint8_t whole[HWC_AES_MAX_LANES][CMAC_WHOLE_MAX];
} lanes;

static size_t chain_blocks(const batch *b, size_t i, const int cmac) {
    if (cmac) return b->len[i] ? (b->len[i] + 15) / 16 : 1;
    return b->len[i] / 16;
}

/* SP 800-38B 6.2 steps 3-4 for message i into d: M_n ^ K1 when complete,
   else (M_n || 10*) ^ K2. */
static void cmac_last_block(const batch *b, size_t i, uint8_t d[16]) {
    const size_t len = b->len[i], rem = len ? len - 16 * ((len - 1) / 16) : 0;
    uint8_t pad[16];
    const uint8_t *m = pad, *sub = b->k2;
    if (rem == 16) {
        m = b->in[i] + len - 16;
        sub = b->k1;
    } else {
        memset(pad, 0, 16);
        if (rem) hwc_copy_short(pad, b->in[i] + len - rem, rem);
        pad[rem] = 0x80;
    }
    for (int h = 0; h < 16; h += 8) {   /* two 64-bit XORs */
        uint64_t w, k;
        memcpy(&w, m + h, 8);
        memcpy(&k, sub + h, 8);
        w ^= k;
        memcpy(d + h, &w, 8);
    }
}

/* Message i (at least one chain block) into lane j. Inline: as a call it
   cost 64 x 80-byte CMAC batches 8% (docs/aes-batch.md). */
static inline __attribute__((always_inline)) void lane_start(const batch *b, lanes *L, size_t j, size_t i,
                                                             const int cmac) {
    const size_t blocks = chain_blocks(b, i, cmac);
    L->msg[j] = i;
    L->left[j] = blocks;
    L->io[j].in = b->in[i];
    if (cmac) {
        L->io[j].out = NULL;
        L->io[j].st = L->mac[j];
        memset(L->mac[j], 0, 16);
        L->tail[j] = 0;
        if (blocks == 1) {
            cmac_last_block(b, i, L->last[j]);
            L->io[j].in = L->last[j];
        } else if (b->len[i] <= CMAC_WHOLE_MAX) {   /* whole, from whole[j] */
            const size_t body = 16 * (blocks - 1);   /* in pieces of constant length */
            for (size_t piece = CMAC_WHOLE_MAX / 2, o = 0; piece >= 16; piece /= 2)
                if (body & piece) {
                    memcpy(L->whole[j] + o, b->in[i] + o, piece);
                    o += piece;
                }
            cmac_last_block(b, i, L->whole[j] + body);
            L->io[j].in = L->whole[j];
        } else {
            L->left[j] = blocks - 1;
            L->tail[j] = 1;
        }
    } else {
        L->io[j].out = b->out[i];
        L->io[j].st = b->ivs + 16 * i;
    }
}

/* Lane j's message to its end on the single-message path. */
static void lane_finish(const batch *b, lanes *L, size_t j, const int cmac) {
    const hwc_aes_chain *c = &L->io[j];
    if (!cmac) {
        HWC_AES_MODE(b->impl, cbc_encrypt)(b->k, c->st, c->out, c->in, L->left[j]);
        return;
    }
    HWC_AES_MODE(b->impl, cmac_chain)(b->k, c->st, c->in, L->left[j]);
    if (L->tail[j]) {   /* the last block not prepared yet */
        cmac_last_block(b, L->msg[j], L->last[j]);
        HWC_AES_MODE(b->impl, cmac_chain)(b->k, c->st, L->last[j], 1);
    }
    memcpy(b->tags + 16 * L->msg[j], c->st, 16);
}

/* Lane `from` moves to lane `to` (its pointers into last, whole and mac
   too). */
static void lane_move(lanes *L, size_t to, size_t from, const int cmac) {
    L->io[to] = L->io[from];
    L->left[to] = L->left[from];
    L->tail[to] = L->tail[from];
    L->msg[to] = L->msg[from];
    if (cmac) {
        memcpy(L->mac[to], L->mac[from], 16);
        L->io[to].st = L->mac[to];
        const size_t off = (uintptr_t)L->io[from].in - (uintptr_t)L->whole[from];
        if (L->io[from].in == L->last[from]) {
            memcpy(L->last[to], L->last[from], 16);
            L->io[to].in = L->last[to];
        } else if (off < sizeof L->whole[0]) {
            memcpy(L->whole[to], L->whole[from], sizeof L->whole[0]);
            L->io[to].in = L->whole[to] + off;
        }
    }
}

/* A step runs as many blocks as every busy lane has left in a row; a lane
   whose message ends takes the next message with a block to run; when none
   is left, the busy lanes after it move down. */
static inline __attribute__((always_inline)) void run_lanes(const batch *b, lanes *L, const size_t width, const int cmac) {
    size_t next = 0, busy = 0;
    for (; next < b->n && busy < width; next++)   /* CBC messages of no block: nothing to do */
        if (chain_blocks(b, next, cmac)) lane_start(b, L, busy++, next, cmac);
    while (busy >= 2) {
        size_t s = SIZE_MAX;
        for (size_t j = 0; j < busy; j++) s = L->left[j] < s ? L->left[j] : s;
        b->impl->chain_step(b->k, L->io, busy, s);
        size_t kept = 0;
        for (size_t j = 0; j < busy; j++) {
            if ((L->left[j] -= s) != 0) {
                L->io[j].in += 16 * s;
                if (!cmac) L->io[j].out += 16 * s;
            } else if (cmac && L->tail[j]) {   /* the last block, from last[j] */
                cmac_last_block(b, L->msg[j], L->last[j]);
                L->io[j].in = L->last[j];
                L->left[j] = 1;
                L->tail[j] = 0;
            } else {
                if (cmac) memcpy(b->tags + 16 * L->msg[j], L->mac[j], 16);
                while (next < b->n && !chain_blocks(b, next, cmac)) next++;
                if (next == b->n) continue;   /* the lane empties */
                lane_start(b, L, j, next++, cmac);
            }
            if (kept < j) lane_move(L, kept, j, cmac);
            kept++;
        }
        busy = kept;
    }
    /* at most one message left, already in lane 0 */
    if (busy) lane_finish(b, L, 0, cmac);
    for (; next < b->n; next++)   /* no lane step: one message after another */
        if (chain_blocks(b, next, cmac)) {
            lane_start(b, L, 0, next, cmac);
            lane_finish(b, L, 0, cmac);
        }
}

/* 1 when CBC messages are few and short enough that single-message calls
   one after another beat one lane step: their chains overlap in the
   core's out-of-order window, where a step of 2-3 lanes waits for one
   chain and costs 300-400 instructions. Not CMAC: there the key schedule's
   subkeys and the copies of lane_start come first, and one after another
   measured slower than the step (docs/aes-batch.md). */
static int few_short(const batch *b) {
    if (b->tags || b->n > FEW_SHORT_MAX_N) return 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->len[i] > FEW_SHORT_MAX_BYTES) return 0;
    return 1;
}

static void run_batch(const batch *b) {
    /* no lane step, or few short messages: width 0 sends every message to
       lane_finish */
    const size_t width = b->impl->chain_step && !few_short(b) ? b->impl->chain_lanes : 0;
    lanes L;
    if (b->tags) {
        run_lanes(b, &L, width, 1);
        const size_t used = width < b->n ? (width ? width : 1) : b->n;   /* lanes that held a message */
        hwc_wipe_inline(L.last, used * sizeof L.last[0]);   /* CMAC states and last blocks */
        hwc_wipe_inline(L.whole, used * sizeof L.whole[0]);
        hwc_wipe_inline(L.mac, used * sizeof L.mac[0]);
    } else {
        run_lanes(b, &L, width, 0);
    }
}

/* ---- public functions ---------------------------------------------------- */
int hwc_cmac_many(const uint8_t *key, size_t key_len, size_t n, const uint8_t *const msg[],
                  const size_t len[], uint8_t *tags) {
    if (!key || (n && (!msg || !len || !tags))) return HWC_ERR_NULL_POINTER;
    for (size_t i = 0; i < n; i++)
        if (len[i] && !msg[i]) return HWC_ERR_NULL_POINTER;
    if (key_len != 16 && key_len != 24 && key_len != 32) return HWC_ERR_KEY_LENGTH;
    if (n == 0) return HWC_OK;
    if (n == 1) return hwc_cmac(key, key_len, msg[0], len[0], tags);   /* arguments checked above */
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
    if (n == 1) {   /* the single call's work without the scheduler's */
        if (len[0]) HWC_AES_MODE(impl, cbc_encrypt)(k, ivs, out[0], in[0], len[0] / 16);
    } else {
        batch b = {k, impl, n, in, out, len, ivs, NULL, {0}, {0}};
        run_batch(&b);
    }
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
