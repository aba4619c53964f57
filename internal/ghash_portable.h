/* Portable constant-time GHASH (NIST SP 800-38D 6.4), shared by core/gcm.c
 * (for kernels without GCM slots) and the generic kernel: 64x64 carry-less
 * products by masked integer multiplications, no table indexed by data.
 * The hash-key layout in htab is private to core/ghash_portable.c and fits
 * HWC_GCM_HTAB_BYTES. */
#ifndef HWC_INTERNAL_GHASH_PORTABLE_H
#define HWC_INTERNAL_GHASH_PORTABLE_H

#include <stddef.h>
#include <stdint.h>
#include "internal/bytes.h"

/* htab from the hash key h = E_K(0^128) (bytes as the standard prints them). */
void hwc_ghash_portable_init(unsigned char *htab, const uint8_t h[16]);
/* For each 16-byte block: x = (x ^ block) * H in GF(2^128). */
void hwc_ghash_portable(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks);

/* One block of hwc_ghash_portable, inline, for callers that interleave it
   with other work (the generic kernel's GCM runs it between AES rounds):
   x[0], x[1] are the big-endian words of the accumulator (see
   core/ghash_portable.c for the method and the htab layout). */
typedef unsigned __int128 hwc_u128;
typedef uint64_t hwc_u64_alias __attribute__((may_alias));
enum { HWC_GH_LO = 0, HWC_GH_HI = 4, HWC_GH_MID = 8 };   /* htab word offsets */
#define HWC_GH_M0 0x1111111111111111ull
#define HWC_GH_M1 0x2222222222222222ull
#define HWC_GH_M2 0x4444444444444444ull
#define HWC_GH_M3 0x8888888888888888ull

static inline hwc_u128 hwc_gh_both(uint64_t m) {
    return (hwc_u128)m << 64 | m;
}

/* The 128-bit carry-less product x * y, y given as its four masked parts. */
static inline hwc_u128 hwc_gh_clmul64(uint64_t x, const hwc_u64_alias *y) {
    const uint64_t low60 = 0x0fffffffffffffffull;
    const uint64_t xl = x & low60, xh = x & ~low60;
    const uint64_t x0 = xl & HWC_GH_M0, x1 = xl & HWC_GH_M1, x2 = xl & HWC_GH_M2, x3 = xl & HWC_GH_M3;
    const hwc_u128 y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
    hwc_u128 z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    hwc_u128 z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    hwc_u128 z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    hwc_u128 z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    hwc_u128 top = (xh * y0) ^ (xh * y1) ^ (xh * y2) ^ (xh * y3);
    return (z0 & hwc_gh_both(HWC_GH_M0)) ^ (z1 & hwc_gh_both(HWC_GH_M1)) ^ (z2 & hwc_gh_both(HWC_GH_M2)) ^
           (z3 & hwc_gh_both(HWC_GH_M3)) ^ top;
}

/* x = (x ^ block) * H for the block at in. The hash-key words are read from
   htab here, through a pointer made opaque to the compiler each time, so
   that it cannot hoist them out of a caller's loop and spill them to the
   stack, where they would stay after the call. */
static inline void hwc_ghash_portable_step(const unsigned char *htab, uint64_t x[2], const uint8_t *in) {
    const hwc_u64_alias *t = (const hwc_u64_alias *)htab;
    __asm__ __volatile__("" : "+r"(t));
    uint64_t y1 = x[0] ^ hwc_load_be64(in), y0 = x[1] ^ hwc_load_be64(in + 8);
    /* 128-bit products lo*lo, hi*hi, mid*mid (Karatsuba) */
    hwc_u128 z0 = hwc_gh_clmul64(y0, t + HWC_GH_LO), z2 = hwc_gh_clmul64(y1, t + HWC_GH_HI);
    hwc_u128 z1 = hwc_gh_clmul64(y0 ^ y1, t + HWC_GH_MID) ^ z0 ^ z2;
    /* 256-bit product, most significant word first, then shifted left by
       one: the reflected product of two degree-127 polynomials */
    uint64_t w0 = (uint64_t)(z2 >> 64), w1 = (uint64_t)z2 ^ (uint64_t)(z1 >> 64);
    uint64_t w2 = (uint64_t)(z0 >> 64) ^ (uint64_t)z1, w3 = (uint64_t)z0;
    w0 = (w0 << 1) | (w1 >> 63);
    w1 = (w1 << 1) | (w2 >> 63);
    w2 = (w2 << 1) | (w3 >> 63);
    w3 <<= 1;
    /* reduce: x^(128+m) = x^m (1 + x + x^2 + x^7), w3 first, then w2 */
    w1 ^= w3 ^ (w3 >> 1) ^ (w3 >> 2) ^ (w3 >> 7);
    w2 ^= (w3 << 63) ^ (w3 << 62) ^ (w3 << 57);
    w0 ^= w2 ^ (w2 >> 1) ^ (w2 >> 2) ^ (w2 >> 7);
    w1 ^= (w2 << 63) ^ (w2 << 62) ^ (w2 << 57);
    x[0] = w0;
    x[1] = w1;
}

#endif
