/* Streebog compression g_N (RFC 6986 section 8) with the fused 8 x 256 x 64-bit
 * LPS table: each LPS is 64 table loads XORed into 8 output words.
 *
 * NOT CONSTANT TIME: the table index is a byte of the chaining value / key /
 * message (secret-indexed loads; cache-timing leaks). This is the documented
 * exception for the generic Streebog kernel (registry.c, DESIGN.md); the
 * avx512 kernel is the constant-time one. */
#include "internal/wipe.h"
#include "internal/kernel.h"
#include "hwcrypt/status.h"
#include "internal/streebog_constants.h"

#define T hwc_streebog_lps_table
#if defined(__GNUC__)
#define HWC_SB_INLINE static inline __attribute__((always_inline))
#else
#define HWC_SB_INLINE static inline
#endif

/* x86-64 code shape: the word stays in place and is shifted by 16 after every
   two bytes, so each pair costs movzx low byte + movzx high byte (%ah-style)
   instead of copy + shift + movzx per byte. The empty asm (a) stops the
   compiler from folding the shifts back into per-byte shifts of the original
   word and (b) pins the two table XORs before the next shift, so it cannot
   hoist all 64 index extractions ahead of the loads and spill them (clang
   did: 21 c/B instead of 16). Other targets extract any byte field in one
   instruction (AArch64 ubfx) and need no hint. */
#if defined(__GNUC__) && defined(__x86_64__)
#define STEP(w, a, b) __asm__("" : "+r"(w), "+r"(a), "+r"(b))
#else
#define STEP(w, a, b) ((void)0)
#endif

/* out[c] = XOR_r T[r][byte c of in[r]] (see internal/streebog_constants.h): input word r
   is consumed byte by byte while the 8 outputs accumulate in registers. */
#define LPS_ROW(r, x)                                                              \
    do {                                                                           \
        uint64_t w_ = (x);                                                         \
        o0 ^= T[r][w_ & 0xff]; o1 ^= T[r][(w_ >> 8) & 0xff];                        \
        w_ >>= 16; STEP(w_, o0, o1);                                               \
        o2 ^= T[r][w_ & 0xff]; o3 ^= T[r][(w_ >> 8) & 0xff];                        \
        w_ >>= 16; STEP(w_, o2, o3);                                               \
        o4 ^= T[r][w_ & 0xff]; o5 ^= T[r][(w_ >> 8) & 0xff];                        \
        w_ >>= 16; STEP(w_, o4, o5);                                               \
        o6 ^= T[r][w_ & 0xff]; o7 ^= T[r][w_ >> 8];                                 \
    } while (0)

/* out = LPS(a ^ b); out may alias a or b. */
HWC_SB_INLINE void lps_xor(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]) {
    uint64_t o0 = 0, o1 = 0, o2 = 0, o3 = 0, o4 = 0, o5 = 0, o6 = 0, o7 = 0;
    LPS_ROW(0, a[0] ^ b[0]);
    LPS_ROW(1, a[1] ^ b[1]);
    LPS_ROW(2, a[2] ^ b[2]);
    LPS_ROW(3, a[3] ^ b[3]);
    LPS_ROW(4, a[4] ^ b[4]);
    LPS_ROW(5, a[5] ^ b[5]);
    LPS_ROW(6, a[6] ^ b[6]);
    LPS_ROW(7, a[7] ^ b[7]);
    out[0] = o0; out[1] = o1; out[2] = o2; out[3] = o3;
    out[4] = o4; out[5] = o5; out[6] = o6; out[7] = o7;
}

/* h = g_N(h, m) = E(LPS(h ^ N), m) ^ h ^ m (RFC 6986 section 8); E is 12
   rounds X[K_i] then LPS, then X[K_13], with K_1 = LPS(h ^ N) and
   K_{i+1} = LPS(K_i ^ C_i). k and s are the caller's scratch (wiped there). */
HWC_SB_INLINE void compress(uint64_t h[8], const uint64_t n[8], const uint64_t m[8], uint64_t k[8],
                            uint64_t s[8]) {
    lps_xor(k, h, n);                       /* K_1 */
    lps_xor(s, k, m);                       /* LPS(X[K_1](m)) */
    for (int i = 0; i < 11; i++) {
        lps_xor(k, k, hwc_streebog_C[i]);   /* K_{i+2} = LPS(K_{i+1} ^ C_{i+1}) */
        lps_xor(s, s, k);                   /* LPS(X[K_{i+2}](s)) */
    }
    lps_xor(k, k, hwc_streebog_C[11]);      /* K_13 */
    for (int j = 0; j < 8; j++) h[j] ^= s[j] ^ k[j] ^ m[j];
}

static void generic_g(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]) {
    uint64_t k[8], s[8];
    hwc_streebog_tables_init();
    compress(h, n, m, k, s);
    hwc_wipe_inline(k, sizeof k);   /* round keys and state may derive from secrets (HMAC) */
    hwc_wipe_inline(s, sizeof s);
}

/* Stage 2 of RFC 6986 section 8.2 over whole blocks: h = g_N(h, m),
   N += 512, Sigma += m, both additions carry chains without branches. */
static void generic_blocks(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data,
                           size_t nblocks) {
    uint64_t m[8], k[8], s[8];
    hwc_streebog_tables_init();
    for (; nblocks; nblocks--, data += 64) {
        for (int j = 0; j < 8; j++) m[j] = hwc_streebog_load64(data + 8 * j);
        compress(h, n, m, k, s);
        hwc_streebog_add512_word(n, 512);
        hwc_streebog_add512(sigma, m);
    }
    hwc_wipe_inline(m, sizeof m);
    hwc_wipe_inline(k, sizeof k);
    hwc_wipe_inline(s, sizeof s);
}

const hwc_streebog_impl hwc_streebog_generic = {
    .g = generic_g,
    .blocks = generic_blocks,
    .clean_frames = HWC_CLEAN_HASH,   /* temporaries wiped above */
};
