/* Streebog internals shared by core/streebog.c and core/hmac_pbkdf2.c: the
 * RFC 6986 section 8 stages on a context whose kernel table is already bound
 * (no argument checks, no dispatch, no wipe). */
#ifndef HWC_CORE_STREEBOG_INTERNAL_H
#define HWC_CORE_STREEBOG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "hwcrypt/streebog.h"
#include "internal/kernel.h"

/* Stage 1: IV (0x00.. for 512, 0x01.. for 256), N = Sigma = 0, kernel bound. */
void hwc_sb_start(hwc_streebog_ctx *c, const hwc_streebog_impl *impl, unsigned digest_bits);
/* Stage 2: absorb bytes; full 64-byte blocks are compressed as soon as they
   are complete (buf_len stays < 64). */
void hwc_sb_absorb(hwc_streebog_ctx *c, const uint8_t *p, size_t len);
/* Stage 3: writes digest_bits / 8 bytes to out. The context is left spent
   (caller wipes it). */
void hwc_sb_finish(hwc_streebog_ctx *c, uint8_t *out);
/* 1 for a context stage 1 set up and final has not wiped. */
int hwc_sb_ctx_ok(const hwc_streebog_ctx *c);

/* The widest lane step the kernel has (1 when it has none). */
size_t hwc_sb_lane_width(const hwc_streebog_impl *k);
/* Advances lane[0..count) (internal/kernel.h, hwc_sb_lane) by nblocks in
   the widest lane steps the kernel has, then narrower ones, then g. */
void hwc_sb_compress(const hwc_streebog_impl *k, size_t count, const hwc_sb_lane *lane,
                     size_t nblocks);
/* The 64 message-order bytes of the words w (w itself on a little-endian
   host, else converted into tmp). */
const uint8_t *hwc_sb_words_bytes(const uint64_t w[8], uint8_t tmp[64]);

#endif
