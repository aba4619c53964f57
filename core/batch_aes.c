/* Many AES messages at once (contract: docs/API.md, batch.h): CMAC (SP
 * 800-38B) and CBC encryption (SP 800-38A 6.2) of n messages under one key,
 * and XTS (IEEE 1619) over consecutive data units.
 *
 * CMAC and CBC encryption are chains. The kernel's lane step (chain_step in
 * internal/kernel.h) advances up to chain_lanes chains of different
 * messages by the same number of blocks; this file schedules them: each
 * lane holds one message, a step runs as many blocks as every busy lane
 * can read in a row (CMAC: a short message whole, from a copy whose last
 * block is prepared here with K1 or K2; a longer one up to its last block),
 * a lane whose message ends takes the next message at once, the busy lanes
 * are always the first ones, and when one message is left it finishes on
 * the single-message path. Last blocks whose chaining value is known are
 * independent blocks (CMAC: of longer messages, and messages of one block;
 * CBC: of lanes left with one block after a step): they wait in a buffer
 * and go through the kernel's ECB, many per call. Every argument of every
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
#define FINALS 32                        /* last blocks per ECB call (the finals, below) */
#define ORDER_WINDOW 64                  /* messages put in order of length at a time */
#define ORDER_CLASSES 64                 /* length classes of that order */
#define ORDER_MIN_BYTES 512              /* shorter batches keep their order (the order costs more) */
_Static_assert((CMAC_WHOLE_MAX & (CMAC_WHOLE_MAX - 1)) == 0 && CMAC_WHOLE_MAX >= 16, "a power of two");

/* ---- the lane scheduler -------------------------------------------------- */
/* The finals' message numbers and count (the blocks: lanes, below), in the
   caller's frame: the lanes keep the size they had before the finals, the
   layout the figures in docs/aes-batch.md were measured with. */
typedef struct finals {
    size_t msg[FINALS];
    size_t n, peak;
} finals;

/* The order in which the lanes take the messages of a batch of mixed
   lengths (mixed_lengths): within each window of ORDER_WINDOW messages
   (from `base` on, `len` of them), the longest first, by ORDER_CLASSES
   classes of length (stable within a class). Lanes then end close
   together, and few steps run with lanes idle at the end
   (docs/aes-batch.md). Equal lengths keep their order. */
typedef struct order {
    size_t base, len;
    uint8_t at[ORDER_WINDOW];
} order;
_Static_assert(ORDER_WINDOW <= 255, "window positions and class counts in bytes");

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
    finals *fq;
    order *ord;
} batch;

/* The lanes: lane j holds message msg[j], which has left[j] blocks to run
   from io[j].in and, for CMAC, its last block still to prepare when
   tail[j]; io[j] is what the kernel's step reads (chaining value, output,
   input). CMAC lanes chain in mac[j]. A CMAC message of 17 to
   CMAC_WHOLE_MAX bytes is copied to whole[j] with its last block prepared
   (K1 or K2), so that one step runs it whole; a longer one runs up to its
   last block from the caller's buffer. The busy lanes are always the first
   ones.
   The finals: a message's last block once its chaining value is known is
   an independent block. CMAC: SP 800-38B 6.2 step 6's last iteration, T =
   E_K(C_{n-1} ^ M_n'), for the messages whose lanes ran up to the last
   block and for messages of one block (C_0 = 0); CBC (SP 800-38A 6.2): C_n
   = E_K(P_n ^ C_{n-1}) for lanes left with one block after a step
   (cbc_last). fin[q] holds that block of message fq->msg[q]; one ECB call
   encrypts them when FINALS wait and at the end (a lane step of one block
   cost several times its AES work). */
typedef struct lanes {
    hwc_aes_chain io[HWC_AES_MAX_LANES];
    size_t left[HWC_AES_MAX_LANES];
    size_t msg[HWC_AES_MAX_LANES];
    uint8_t tail[HWC_AES_MAX_LANES];
    uint8_t fin[FINALS][16];
    uint8_t mac[HWC_AES_MAX_LANES][16];
    uint8_t whole[HWC_AES_MAX_LANES][CMAC_WHOLE_MAX];
} lanes;

static size_t chain_blocks(const batch *b, size_t i, const int cmac) {
    if (cmac) return b->len[i] ? (b->len[i] + 15) / 16 : 1;
    return b->len[i] / 16;
}

/* d = a ^ c, 16 bytes, by 64-bit words (d may be a or c). */
static inline void xor16(uint8_t *d, const uint8_t *a, const uint8_t *c) {
    for (int h = 0; h < 16; h += 8) {
        uint64_t u, v;
        memcpy(&u, a + h, 8);
        memcpy(&v, c + h, 8);
        u ^= v;
        memcpy(d + h, &u, 8);
    }
}

/* SP 800-38B 6.2 steps 3-4 for message i into d: M_n ^ K1 when complete,
   else (M_n || 10*) ^ K2; XORed with the chaining value x unless NULL. */
static void cmac_last_block(const batch *b, size_t i, const uint8_t *x, uint8_t d[16]) {
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
    xor16(d, m, sub);
    if (x) xor16(d, d, x);
}

/* The waiting finals through ECB: CMAC tags, CBC last output blocks (and
   the updated IVs). */
static void finals_flush(const batch *b, lanes *L) {
    finals *F = b->fq;
    if (!F->n) return;
    b->impl->ecb_encrypt(b->k, L->fin[0], L->fin[0], F->n);
    for (size_t q = 0; q < F->n; q++) {
        const size_t i = F->msg[q];
        if (b->tags) {
            memcpy(b->tags + 16 * i, L->fin[q], 16);
        } else {
            memcpy(b->out[i] + b->len[i] - 16, L->fin[q], 16);
            memcpy(b->ivs + 16 * i, L->fin[q], 16);
        }
    }
    F->n = 0;
}

/* Message i's last block to the finals. CMAC: after chaining value x
   (NULL: a message of one block); CBC: after the chaining value in its IV
   (x unused). Out of line, as the rare path of the lane loop. ECB
   overwrites the blocks with their results; they are wiped all the same. */
static __attribute__((noinline)) void finals_add(const batch *b, lanes *L, size_t i, const uint8_t *x) {
    finals *F = b->fq;
    if (b->tags) cmac_last_block(b, i, x, L->fin[F->n]);
    else xor16(L->fin[F->n], b->in[i] + b->len[i] - 16, b->ivs + 16 * i);
    F->msg[F->n++] = i;
    if (F->n > F->peak) F->peak = F->n;
    if (F->n == FINALS) finals_flush(b, L);
}

/* Message i (CBC: a block or more; CMAC: two or more) into lane j.
   Inline: as a call it cost 64 x 80-byte CMAC batches 8%
   (docs/aes-batch.md). */
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
        if (b->len[i] <= CMAC_WHOLE_MAX) {   /* whole, from whole[j] */
            const size_t body = 16 * (blocks - 1);   /* in pieces of constant length */
            for (size_t piece = CMAC_WHOLE_MAX / 2, o = 0; piece >= 16; piece /= 2)
                if (body & piece) {
                    memcpy(L->whole[j] + o, b->in[i] + o, piece);
                    o += piece;
                }
            cmac_last_block(b, i, NULL, L->whole[j] + body);
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
    if (L->tail[j]) finals_add(b, L, L->msg[j], c->st);   /* the last block not run yet */
    else memcpy(b->tags + 16 * L->msg[j], c->st, 16);
}

/* Lane `from` moves to lane `to` (its pointers into whole and mac too). */
static void lane_move(lanes *L, size_t to, size_t from, const int cmac) {
    L->io[to] = L->io[from];
    L->left[to] = L->left[from];
    L->tail[to] = L->tail[from];
    L->msg[to] = L->msg[from];
    if (cmac) {
        memcpy(L->mac[to], L->mac[from], 16);
        L->io[to].st = L->mac[to];
        const size_t off = (uintptr_t)L->io[from].in - (uintptr_t)L->whole[from];
        if (off < sizeof L->whole[0]) {
            memcpy(L->whole[to], L->whole[from], sizeof L->whole[0]);
            L->io[to].in = L->whole[to] + off;
        }
    }
}

/* The window of the order that holds position p: a counting sort of its
   messages by length class, longest first. Lengths are public. */
static __attribute__((noinline)) void order_window(const batch *b, size_t p) {
    order *o = b->ord;
    o->base = p - p % ORDER_WINDOW;
    o->len = b->n - o->base < ORDER_WINDOW ? b->n - o->base : ORDER_WINDOW;
    const size_t *len = b->len + o->base;
    size_t top = 0;
    for (size_t k = 0; k < o->len; k++) top = len[k] > top ? len[k] : top;
    unsigned sh = 0;
    while (top >> sh >= ORDER_CLASSES) sh++;
    uint8_t start[ORDER_CLASSES + 1] = {0};   /* class c = the (c+1)-th longest */
    for (size_t k = 0; k < o->len; k++) start[ORDER_CLASSES - (len[k] >> sh)]++;
    for (unsigned c = 0, sum = 0; c <= ORDER_CLASSES; c++) {
        const unsigned here = start[c];
        start[c] = (uint8_t)sum;
        sum += here;
    }
    for (size_t k = 0; k < o->len; k++) o->at[start[ORDER_CLASSES - (len[k] >> sh)]++] = (uint8_t)k;
}

/* The message at position p: p itself when the batch keeps its order
   (mapped 0, a constant in each copy of the lane loop). */
static inline __attribute__((always_inline)) size_t msg_at(const batch *b, size_t p, const int mapped) {
    if (!mapped) return p;
    const order *o = b->ord;
    if (p - o->base >= o->len) order_window(b, p);
    return o->base + o->at[p - o->base];
}

/* The shortest message that takes a lane: CMAC two blocks (17 bytes), CBC
   one block. */
static inline size_t lane_min_len(const int cmac) { return cmac ? 17 : 16; }

/* Past the messages that need no lane from `next` on: CMAC messages of
   one block (or none: one padded block) each to the finals, CBC messages of
   no block. One copy per order (skip_kept, skip_mapped), out of line. */
static inline __attribute__((always_inline)) size_t skip_short(const batch *b, lanes *L, size_t next,
                                                              const int mapped) {
    for (; next < b->n && b->len[msg_at(b, next, mapped)] < lane_min_len(b->tags != NULL); next++)
        if (b->tags) finals_add(b, L, msg_at(b, next, mapped), NULL);
    return next;
}
static __attribute__((noinline)) size_t skip_kept(const batch *b, lanes *L, size_t next) {
    return skip_short(b, L, next, 0);
}
static __attribute__((noinline)) size_t skip_mapped(const batch *b, lanes *L, size_t next) {
    return skip_short(b, L, next, 1);
}
/* The first message from `next` on that needs a lane (CMAC: two blocks
   or more; CBC: one or more); n when none is left. Only the usual cases
   inline: the whole search as a call made 64 x 64 B batches 3-9% slower.
   (CBC messages of one block through the finals made 64 x 16 B batches
   1.16-1.28x slower than one lane step of one block.) */
static inline __attribute__((always_inline)) size_t next_chain(const batch *b, lanes *L, size_t next, const int cmac,
                                                              const int mapped) {
    if (next == b->n || b->len[msg_at(b, next, mapped)] >= lane_min_len(cmac)) return next;
    return mapped ? skip_mapped(b, L, next) : skip_kept(b, L, next);
}

/* CBC lanes that ran up to their last block (SP 800-38A 6.2: C_n = E_K(P_n
   ^ C_{n-1}), C_{n-1} in the message's IV) send it to the finals and take
   the next message, as if they had ended; a message of one block in a lane
   keeps it (one step of such messages was cheaper than the finals). One
   copy per order, out of line (cbc_last_kept, cbc_last_mapped). Returns the
   next message and updates the next step's length. */
static inline __attribute__((always_inline)) size_t cbc_last(const batch *b, lanes *L, size_t busy, size_t next,
                                                            size_t *fewest, const int mapped) {
    size_t f = SIZE_MAX;
    for (size_t j = 0; j < busy; j++) {
        if (L->left[j] == 1 && L->io[j].in != b->in[L->msg[j]]) {
            finals_add(b, L, L->msg[j], NULL);
            L->left[j] = 0;
            next = next_chain(b, L, next, 0, mapped);
            if (next < b->n) lane_start(b, L, j, msg_at(b, next++, mapped), 0);
        }
        if (L->left[j] && L->left[j] < f) f = L->left[j];
    }
    *fewest = f;
    return next;
}
static __attribute__((noinline)) size_t cbc_last_kept(const batch *b, lanes *L, size_t busy, size_t next,
                                                      size_t *fewest) {
    return cbc_last(b, L, busy, next, fewest, 0);
}
static __attribute__((noinline)) size_t cbc_last_mapped(const batch *b, lanes *L, size_t busy, size_t next,
                                                        size_t *fewest) {
    return cbc_last(b, L, busy, next, fewest, 1);
}

/* A step runs as many blocks as every busy lane has left in a row; a lane
   whose message ends takes the next message that needs a lane; when none
   is left, the last busy lane moves into it. (Moving every later lane
   down one place made 64 CBC messages of mixed lengths 5-11% slower: each
   move read a lane just written.) */
static inline __attribute__((always_inline)) void run_lanes(const batch *b, lanes *L, const size_t width,
                                                             const int cmac, const int mapped) {
    size_t next = 0, busy = 0;
    while (busy < width && (next = next_chain(b, L, next, cmac, mapped)) < b->n)
        lane_start(b, L, busy++, msg_at(b, next++, mapped), cmac);
    size_t s = SIZE_MAX;   /* the step's blocks: the fewest any busy lane has left */
    for (size_t j = 0; j < busy; j++) s = L->left[j] < s ? L->left[j] : s;
    while (busy >= 2) {
        b->impl->chain_step(b->k, L->io, busy, s);
        size_t fewest = SIZE_MAX;   /* the next step's, found on the way */
        int one_left = 0;           /* CBC: a lane ran up to its last block */
        for (size_t j = 0; j < busy; j++) {
            if ((L->left[j] -= s) != 0) {
                L->io[j].in += 16 * s;
                if (!cmac) {
                    L->io[j].out += 16 * s;
                    one_left |= L->left[j] == 1;
                }
            } else {
                if (cmac && L->tail[j]) finals_add(b, L, L->msg[j], L->mac[j]);
                else if (cmac) memcpy(b->tags + 16 * L->msg[j], L->mac[j], 16);
                next = next_chain(b, L, next, cmac, mapped);
                if (next == b->n) continue;   /* the lane empties (left 0) */
                lane_start(b, L, j, msg_at(b, next++, mapped), cmac);
            }
            fewest = L->left[j] < fewest ? L->left[j] : fewest;
        }
        if (!cmac && one_left) next = mapped ? cbc_last_mapped(b, L, busy, next, &fewest)
                                             : cbc_last_kept(b, L, busy, next, &fewest);
        s = fewest;
        if (next < b->n) continue;
        /* empty lanes (left 0) take the last busy lanes */
        for (size_t j = 0; j < busy;) {
            if (L->left[j]) {
                j++;
            } else if (L->left[--busy]) {
                lane_move(L, j, busy, cmac);
            }
        }
    }
    /* at most one message left, already in lane 0 */
    if (busy) lane_finish(b, L, 0, cmac);
    while ((next = next_chain(b, L, next, cmac, mapped)) < b->n) {   /* no lane step: one message after another */
        lane_start(b, L, 0, msg_at(b, next++, mapped), cmac);
        lane_finish(b, L, 0, cmac);
    }
    finals_flush(b, L);
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

/* 1 when a batch's lanes should take its messages in `order`: the
   first, middle and last lengths are not all equal and one of them is
   ORDER_MIN_BYTES or more. Three samples, not a pass over the lengths: a
   pass cost the 64 x 16-80 B batches 3-8%. */
static int mixed_lengths(size_t n, const size_t *len) {
    const size_t a = len[0], m = len[n / 2], z = len[n - 1];
    const size_t top = a > m ? (a > z ? a : z) : (m > z ? m : z);
    return (a != m || m != z) && top >= ORDER_MIN_BYTES;
}

static void run_batch(const batch *b) {
    /* no lane step, or few short messages: width 0 sends every message to
       lane_finish */
    const size_t width = b->impl->chain_step && !few_short(b) ? b->impl->chain_lanes : 0;
    lanes L;
    if (b->tags) {
        if (b->ord) run_lanes(b, &L, width, 1, 1);
        else run_lanes(b, &L, width, 1, 0);
        const size_t used = width < b->n ? (width ? width : 1) : b->n;   /* lanes that held a message */
        hwc_wipe_inline(L.whole, used * sizeof L.whole[0]);   /* CMAC states and last blocks */
        hwc_wipe_inline(L.mac, used * sizeof L.mac[0]);
    } else if (b->ord) {
        run_lanes(b, &L, width, 0, 1);
    } else {
        run_lanes(b, &L, width, 0, 0);
    }
    if (b->fq->peak) hwc_wipe_inline(L.fin, b->fq->peak * sizeof L.fin[0]);   /* CMAC: tags; CBC: outputs */
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
    finals F = {.n = 0, .peak = 0};
    order o = {.base = 0, .len = 0};
    batch b = {&k, hwc_aes_key_impl(&k), n, msg, NULL, len, NULL, tags, {0}, {0}, &F, NULL};
    if (mixed_lengths(n, len)) b.ord = &o;
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
        finals F = {.n = 0, .peak = 0};
        order o = {.base = 0, .len = 0};
        batch b = {k, impl, n, in, out, len, ivs, NULL, {0}, {0}, &F, NULL};
        if (mixed_lengths(n, len)) b.ord = &o;
        run_batch(&b);
    }
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_MODES | HWC_CLEAN_LANES, HWC_SCRUB_LANES);
    return HWC_OK;
}

/* IEEE 1619 5.1: the tweak of data unit `sector` is its 16-byte
   little-endian number, encrypted with the tweak key. Units go in runs of
   XTS_TWEAK_BATCH: their tweaks as one ECB call, their blocks through the
   kernel's units loop (round keys loaded once per run). Runs of fewer than
   XTS_UNITS_MIN units take the single-unit slot per unit instead: below
   that the units loop's set-up (zmm: the broadcast key table, three tweak
   sets and their wipes) cost more than it saved (docs/aes-batch.md). */
#define XTS_UNITS_MIN 8
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
    void (*units_fn)(const hwc_aes_key *, const uint8_t *, size_t, size_t, uint8_t *, const uint8_t *) =
        decrypt ? di->xts_decrypt_units : di->xts_encrypt_units;
    uint8_t t[16 * XTS_TWEAK_BATCH];
    const size_t used = 16 * (units < XTS_TWEAK_BATCH ? units : XTS_TWEAK_BATCH);   /* bytes of t[] written */
    for (size_t done = 0; done < units;) {
        const size_t c = units - done < XTS_TWEAK_BATCH ? units - done : XTS_TWEAK_BATCH;
        for (size_t u = 0; u < c; u++) {   /* one 16-byte store each (internal/bytes.h) */
            const hwc_u64x2 v = {hwc_le64_word(sector + done + u), 0};
            memcpy(t + 16 * u, &v, 16);
        }
        ti->ecb_encrypt(&k->tweak, t, t, c);
        uint8_t *o = out + sector_size * done;
        const uint8_t *p = in + sector_size * done;
        if (units_fn && c >= XTS_UNITS_MIN) {
            units_fn(&k->data, t, c, unit_blocks, o, p);
        } else {
            for (size_t u = 0; u < c; u++, o += sector_size, p += sector_size) {
                if (decrypt) HWC_AES_MODE(di, xts_decrypt)(&k->data, t + 16 * u, o, p, unit_blocks);
                else HWC_AES_MODE(di, xts_encrypt)(&k->data, t + 16 * u, o, p, unit_blocks);
            }
        }
        done += c;
    }
    hwc_wipe_inline(t, used);
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
