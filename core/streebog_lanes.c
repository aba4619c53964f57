/* Streebog in lanes: the schedule of many independent compressions over the
 * kernel's lane steps, and hwc_streebog_many (RFC 6986 section 8 for every
 * message, the messages side by side). core/ owns the stages: each lane
 * holds one message's h, N and Sigma; its whole blocks (stage 2, N and
 * Sigma advanced by the kernel) and the three compressions of stage 3 all go
 * through the same lane steps, and a lane whose message ends takes the next
 * message at once. */
#include <stdint.h>
#include <string.h>
#include "hwcrypt/batch.h"
#include "internal/streebog_constants.h"
#include "internal/wipe.h"
#include "core/streebog_internal.h"

size_t hwc_sb_lane_width(const hwc_streebog_impl *k) {
    size_t w = HWC_SB_MAX_LANES;
    while (w > 1 && !k->g_lanes[w]) w--;
    return w;
}

const uint8_t *hwc_sb_words_bytes(const uint64_t w[8], uint8_t tmp[64]) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)tmp;
    return (const uint8_t *)w;
#else
    for (int i = 0; i < 8; i++) hwc_streebog_store64(tmp + 8 * i, w[i]);
    return tmp;
#endif
}

/* One lane by the kernel's blocks() or g (kernels without a 1-lane step). */
static void lane_by_g(const hwc_streebog_impl *k, const hwc_sb_lane *a, size_t nblocks) {
    uint64_t m[8];
    if (a->h != a->h_in) memcpy(a->h, a->h_in, sizeof m);
    if (a->sigma) {
        k->blocks(a->h, a->n, a->sigma, a->m, nblocks);
        return;
    }
    for (int i = 0; i < 8; i++) m[i] = hwc_streebog_load64(a->m + 8 * i);
    k->g(a->h, a->n, m);
}

void hwc_sb_compress(const hwc_streebog_impl *k, size_t count, const hwc_sb_lane *lane,
                     size_t nblocks) {
    while (count) {
        size_t w = count < HWC_SB_MAX_LANES ? count : HWC_SB_MAX_LANES;
        while (w > 1 && !k->g_lanes[w]) w--;
        if (k->g_lanes[w]) k->g_lanes[w](lane, nblocks);
        else lane_by_g(k, lane, nblocks);
        lane += w;
        count -= w;
    }
}

/* Where a lane's message is in RFC 6986 section 8: stage 2 blocks, the
   padded last block, g_0(h, N), g_0(h, Sigma). */
enum { PH_BLOCK, PH_PAD, PH_FIN_N, PH_FIN_SIGMA };

typedef struct {
    uint64_t h[8], n[8], sigma[8], zero[8];
    uint8_t last[64];   /* the padded last block, then N or Sigma as bytes */
    const uint8_t *p;   /* bytes not compressed yet */
    size_t left;
    size_t idx;         /* message number */
    int phase;
} sb_lane;

static void lane_start(sb_lane *a, size_t idx, const void *msg, size_t len, unsigned bits) {
    uint64_t iv = bits == 256 ? 0x0101010101010101ull : 0;
    for (int i = 0; i < 8; i++) {
        a->h[i] = iv;
        a->n[i] = 0;
        a->sigma[i] = 0;
        a->zero[i] = 0;
    }
    a->p = msg;
    a->left = len;
    a->idx = idx;
    a->phase = len >= 64 ? PH_BLOCK : PH_PAD;
}

/* The next compression of lane a. */
static hwc_sb_lane lane_input(sb_lane *a) {
    hwc_sb_lane io = {a->h, a->h, a->n, NULL, a->last};
    const uint8_t *b;
    switch (a->phase) {
    case PH_BLOCK:   /* h = g_N(h, m), N += 512, Sigma += m */
        io.sigma = a->sigma;
        io.m = a->p;
        break;
    case PH_PAD:     /* m = 0^(511-|M|) || 1 || M */
        memset(a->last, 0, sizeof a->last);
        if (a->left) memcpy(a->last, a->p, a->left);
        a->last[a->left] = 0x01;
        break;
    default:         /* g_0(h, N), g_0(h, Sigma) */
        io.n = a->zero;
        b = hwc_sb_words_bytes(a->phase == PH_FIN_N ? a->n : a->sigma, a->last);
        if (b != a->last) memcpy(a->last, b, sizeof a->last);
        break;
    }
    return io;
}

/* After nb compressions (nb > 1 only for whole blocks): the rest of
   section 8.2 / 8.3; 1 when the message is done. */
static int lane_advance(sb_lane *a, size_t nb) {
    switch (a->phase) {
    case PH_BLOCK:
        a->p += 64 * nb;
        a->left -= 64 * nb;
        if (a->left < 64) a->phase = PH_PAD;
        return 0;
    case PH_PAD: {
        uint64_t m[8];
        for (int i = 0; i < 8; i++) m[i] = hwc_streebog_load64(a->last + 8 * i);
        hwc_streebog_add512_word(a->n, (uint64_t)a->left * 8);
        hwc_streebog_add512(a->sigma, m);
        a->phase = PH_FIN_N;
        return 0;
    }
    case PH_FIN_N:
        a->phase = PH_FIN_SIGMA;
        return 0;
    default:
        return 1;
    }
}

int hwc_streebog_many(unsigned digest_bits, size_t n, const void *const msg[], const size_t len[],
                      uint8_t *digests) {
    if (n && (!msg || !len || !digests)) return HWC_ERR_NULL_POINTER;
    for (size_t i = 0; i < n; i++)
        if (!msg[i] && len[i]) return HWC_ERR_NULL_POINTER;
    if (digest_bits != 256 && digest_bits != 512) return HWC_ERR_BAD_ARGUMENT;
    if (n == 0) return HWC_OK;

    const hwc_streebog_impl *k = hwc_active_streebog();
    size_t width = hwc_sb_lane_width(k), live = 0, next = 0;
    size_t dlen = digest_bits / 8, first = digest_bits == 256 ? 4 : 0;
    sb_lane lanes[HWC_SB_MAX_LANES];
    hwc_sb_lane io[HWC_SB_MAX_LANES] = {{0}};
    for (; live < width && next < n; live++, next++)
        lane_start(&lanes[live], next, msg[next], len[next], digest_bits);
    while (live) {
        /* as many whole blocks as every lane still has, else one step */
        size_t nb = SIZE_MAX;
        for (size_t l = 0; l < live; l++) {
            io[l] = lane_input(&lanes[l]);
            size_t lb = lanes[l].phase == PH_BLOCK ? lanes[l].left / 64 : 1;
            if (lb < nb) nb = lb;
        }
        hwc_sb_compress(k, live, io, nb);
        for (size_t l = 0; l < live;) {
            sb_lane *a = &lanes[l];
            if (!lane_advance(a, nb)) {
                l++;
                continue;
            }
            uint8_t *out = digests + a->idx * dlen;
            for (size_t i = first; i < 8; i++) hwc_streebog_store64(out + 8 * (i - first), a->h[i]);
            if (next < n) {
                lane_start(a, next, msg[next], len[next], digest_bits);
                next++;
                l++;
            } else {
                *a = lanes[--live];   /* the last lane takes this slot */
            }
        }
    }
    hwc_wipe_inline(lanes, sizeof lanes);
    return HWC_OK;
}
