/* AES key schedule with AES-NI (FIPS-197 section 5.2) for the x86 kernels,
 * both directions: encryption round keys at sched[0..15*16) and the
 * equivalent inverse cipher's keys (FIPS-197 section 5.3.5: AESIMC of the
 * middle round keys, in decryption order) at sched[HWC_X86_DEC_OFF..].
 * Constant time: S-box lookups are done by AESKEYGENASSIST, no tables.
 * Included by each x86 kernel file, compiled with that kernel's flags. */
#ifndef HWC_IMPL_X86_AES_X86_KEYSCHED_H
#define HWC_IMPL_X86_AES_X86_KEYSCHED_H

#include <stdint.h>
#include <string.h>
#include <immintrin.h>
#include "internal/wipe.h"
#include "internal/kernel.h"

#define HWC_X86_DEC_OFF 240   /* 15 encryption round keys, then 15 decryption ones */

#define HWC_X86_INLINE static inline __attribute__((always_inline))

HWC_X86_INLINE __m128i hwc_x86_ld(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
HWC_X86_INLINE void hwc_x86_st(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }

/* w ^= w << 32 ^ w << 64 ^ w << 96: the running XOR of the previous words. */
HWC_X86_INLINE __m128i hwc_x86_prefix_xor(__m128i w) {
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    return _mm_xor_si128(w, _mm_slli_si128(w, 4));
}

/* AES-128: one step of the expansion; AESKEYGENASSIST's dword 3 is
   RotWord(SubWord(w3)) ^ Rcon. */
#define HWC_X86_K128(prev, rcon) \
    _mm_xor_si128(hwc_x86_prefix_xor(prev), \
                  _mm_shuffle_epi32(_mm_aeskeygenassist_si128(prev, rcon), 0xff))

static inline void hwc_x86_expand128(__m128i *rk, const uint8_t *key) {
    __m128i k = hwc_x86_ld(key);
    rk[0] = k;
    k = HWC_X86_K128(k, 0x01); rk[1] = k;
    k = HWC_X86_K128(k, 0x02); rk[2] = k;
    k = HWC_X86_K128(k, 0x04); rk[3] = k;
    k = HWC_X86_K128(k, 0x08); rk[4] = k;
    k = HWC_X86_K128(k, 0x10); rk[5] = k;
    k = HWC_X86_K128(k, 0x20); rk[6] = k;
    k = HWC_X86_K128(k, 0x40); rk[7] = k;
    k = HWC_X86_K128(k, 0x80); rk[8] = k;
    k = HWC_X86_K128(k, 0x1b); rk[9] = k;
    k = HWC_X86_K128(k, 0x36); rk[10] = k;
}

/* AES-256: even round keys take RotWord(SubWord(.)) ^ Rcon of the previous
   odd key's last word (dword 3); odd ones SubWord of the even key's last
   word (dword 2 of AESKEYGENASSIST, no rotation, no Rcon). */
#define HWC_X86_K256(i, rcon) do { \
        rk[i] = _mm_xor_si128(hwc_x86_prefix_xor(rk[(i) - 2]), \
                  _mm_shuffle_epi32(_mm_aeskeygenassist_si128(rk[(i) - 1], rcon), 0xff)); \
        if ((i) + 1 <= 14) \
            rk[(i) + 1] = _mm_xor_si128(hwc_x86_prefix_xor(rk[(i) - 1]), \
                  _mm_shuffle_epi32(_mm_aeskeygenassist_si128(rk[i], 0), 0xaa)); \
    } while (0)

static inline void hwc_x86_expand256(__m128i *rk, const uint8_t *key) {
    rk[0] = hwc_x86_ld(key);
    rk[1] = hwc_x86_ld(key + 16);
    HWC_X86_K256(2, 0x01);
    HWC_X86_K256(4, 0x02);
    HWC_X86_K256(6, 0x04);
    HWC_X86_K256(8, 0x08);
    HWC_X86_K256(10, 0x10);
    HWC_X86_K256(12, 0x20);
    HWC_X86_K256(14, 0x40);
}

/* SubWord (FIPS-197 5.2) of a little-endian word: AESKEYGENASSIST's dword 0
   is SubWord of source dword 1. */
HWC_X86_INLINE uint32_t hwc_x86_subword(uint32_t w) {
    return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(_mm_set1_epi32((int)w), 0));
}

/* AES-192: the word-by-word KeyExpansion of FIPS-197 5.2 (Nk = 6). */
static inline void hwc_x86_expand192(__m128i *rk, const uint8_t *key) {
    static const uint8_t rcon[9] = {0, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
    uint32_t w[52];
    memcpy(w, key, 24);                       /* little-endian words: byte 0 lowest */
    for (unsigned i = 6; i < 52; i++) {
        uint32_t t = w[i - 1];
        if (i % 6 == 0) {
            t = (t >> 8) | (t << 24);         /* RotWord */
            t = hwc_x86_subword(t) ^ rcon[i / 6];
        }
        w[i] = w[i - 6] ^ t;
    }
    for (unsigned r = 0; r < 13; r++) rk[r] = hwc_x86_ld(&w[4 * r]);
    hwc_wipe_inline(w, sizeof w);
}

/* setkey for every x86 kernel: core/ has set k->rounds. */
static inline void hwc_x86_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    __m128i rk[15];
    const unsigned nr = key_len == 16 ? 10 : key_len == 24 ? 12 : 14;
    if (key_len == 16) hwc_x86_expand128(rk, key);
    else if (key_len == 24) hwc_x86_expand192(rk, key);
    else hwc_x86_expand256(rk, key);
    for (unsigned r = nr + 1; r < 15; r++) rk[r] = _mm_setzero_si128();
    uint8_t *s = k->sched;
    for (unsigned r = 0; r < 15; r++) hwc_x86_st(s + 16 * r, rk[r]);
    /* Equivalent inverse cipher: dk[0] = ek[Nr], dk[i] = InvMixColumns(ek[Nr-i]),
       dk[Nr] = ek[0]; unused slots zero. */
    uint8_t *d = s + HWC_X86_DEC_OFF;
    hwc_x86_st(d, rk[nr]);
    for (unsigned r = 1; r < nr; r++) hwc_x86_st(d + 16 * r, _mm_aesimc_si128(rk[nr - r]));
    hwc_x86_st(d + 16 * nr, rk[0]);
    for (unsigned r = nr + 1; r < 15; r++) hwc_x86_st(d + 16 * r, _mm_setzero_si128());
    hwc_wipe_inline(rk, sizeof rk);
}

#endif
