/* GOST R 34.11-2012 (Streebog) constants, RFC 6986 section 6, shared by every
 * Streebog kernel (generic, avx512, arm64-ilps), plus the fused LPS table.
 *
 * Word and byte order (the one of internal/kernel.h):
 *   A 512-bit vector a = a_63 || ... || a_0 (RFC 6986 section 4: a_63 is the
 *   most significant byte) is held as eight uint64_t words w[0..7] with
 *   w[i] = a_{8i+7} || ... || a_{8i} read as a 64-bit integer, i.e. w[0] holds
 *   the least significant 64 bits. In memory on a little-endian host this is
 *   exactly the 64 message bytes in stream order (byte j of the block = a_j).
 *
 * hwc_streebog_pi[b]      pi of section 6.1 (the S-box S applies to each byte).
 * hwc_streebog_tau[i]     tau of section 6.2: P(a) = a_tau(63) || ... || a_tau(0),
 *                         i.e. output byte i = input byte tau(i). tau is an
 *                         involution (byte 8r+c <-> byte 8c+r, a transpose).
 * hwc_streebog_A[j]       row j of the matrix of section 6.3, as printed:
 *                         l(b) = XOR of A[j] over the bits b_{63-j} set, where
 *                         b_63 is the most significant bit of the 64-bit word.
 * hwc_streebog_C[i][w]    round constant C_{i+1} of section 6.4, word w in the
 *                         order above (C[i][7] = the first 16 hex digits the
 *                         RFC prints).
 * hwc_streebog_lps_table[r][x]
 *                         fused LPS: for a state w[0..7],
 *                           LPS(w)[c] = XOR_{r=0..7} T[r][(w[r] >> 8c) & 0xff]
 *                         i.e. T[r][x] = l(pi[x] << 8r). Built at run time
 *                         from pi and A; call hwc_streebog_tables_init() first.
 */
#ifndef HWC_INTERNAL_STREEBOG_CONSTANTS_H
#define HWC_INTERNAL_STREEBOG_CONSTANTS_H

#include <stdint.h>

extern const uint8_t hwc_streebog_pi[256];
extern const uint8_t hwc_streebog_tau[64];
extern const uint64_t hwc_streebog_A[64];
extern const uint64_t hwc_streebog_C[12][8];
extern uint64_t hwc_streebog_lps_table[8][256];   /* 16 KiB, 64-byte aligned */

/* l of RFC 6986 section 6.3 on one 64-bit word (branch-free). */
uint64_t hwc_streebog_l(uint64_t b);

/* Builds hwc_streebog_lps_table once. Idempotent and thread-safe (first call
   runs the build under pthread_once; later calls are one acquire load), no
   constructor involved. Every kernel calls it before reading the fused table;
   the constant tables above need no init. */
void hwc_streebog_tables_init(void);

/* a += b mod 2^512 (words as above): a carry chain without a
   data-dependent branch. Shared by the kernels' blocks() and by core/. */
static inline void hwc_streebog_add512(uint64_t a[8], const uint64_t b[8]) {
    uint64_t carry = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t s;
        const unsigned c1 = __builtin_add_overflow(a[i], b[i], &s);
        carry = c1 | (unsigned)__builtin_add_overflow(s, carry, &a[i]);
    }
}

/* a += v mod 2^512 for a small v (bit counts), branch-free. */
static inline void hwc_streebog_add512_word(uint64_t a[8], uint64_t v) {
    uint64_t carry = v;
    for (int i = 0; i < 8; i++) carry = __builtin_add_overflow(a[i], carry, &a[i]);
}

/* Little-endian 64-bit load/store for any alignment and host byte order. */
static inline uint64_t hwc_streebog_load64(const uint8_t *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void hwc_streebog_store64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#endif
