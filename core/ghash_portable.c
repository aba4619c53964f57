/* Portable constant-time GHASH (NIST SP 800-38D 6.3, 6.4).
 *
 * Blocks are read as two big-endian 64-bit words, so the coefficient of x^i
 * of the standard's bit-reflected polynomial sits at bit 127 - i of the
 * 128-bit integer. A carry-less 64x64 product is built from ordinary
 * 64x64 -> 128-bit integer multiplications of operands whose bits are spread
 * four apart (masks 0x1111.., 0x2222.., 0x4444.., 0x8888..): with the
 * multiplier cut to its low 60 bits, each product position sums at most 15
 * one-bits, so the carries never reach the next used position, and masking
 * the results keeps the XOR of the partial products. The top four bits of
 * the multiplier (one per class) meet at most one bit of each class of the
 * multiplicand at any position: those four products have no carries at all.
 * Three such products per 128-bit multiplication (Karatsuba), a shift by one
 * (the product of two reflected polynomials) and the reduction modulo
 * x^128 + x^7 + x^2 + x + 1 with shifts. No branch and no memory index
 * depends on the key or the data. Needs unsigned __int128 (GCC and clang on
 * 64-bit targets). */
#include "internal/bytes.h"
#include "internal/ghash_portable.h"

#define M0 0x1111111111111111ull
#define M1 0x2222222222222222ull
#define M2 0x4444444444444444ull
#define M3 0x8888888888888888ull
#define LOW60 0x0fffffffffffffffull

typedef unsigned __int128 u128;
typedef uint64_t u64_alias __attribute__((may_alias));

/* The hash key in htab: for each of h0, h1, h0^h1 (low and high words of H,
   and their sum for the middle Karatsuba product), its four masked parts. */
enum { HK_LO = 0, HK_HI = 4, HK_MID = 8 };

static inline void split4(u64_alias *d, uint64_t y) {
    d[0] = y & M0;
    d[1] = y & M1;
    d[2] = y & M2;
    d[3] = y & M3;
}

static inline u128 both(uint64_t m) {
    return (u128)m << 64 | m;
}

/* The 128-bit carry-less product x * y, y given as its four parts. */
static inline u128 clmul64(uint64_t x, const u64_alias *y) {
    const uint64_t xl = x & LOW60, xh = x & ~LOW60;
    const uint64_t x0 = xl & M0, x1 = xl & M1, x2 = xl & M2, x3 = xl & M3;
    const u128 y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
    u128 z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    u128 z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    u128 z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    u128 z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    u128 top = (xh * y0) ^ (xh * y1) ^ (xh * y2) ^ (xh * y3);
    return (z0 & both(M0)) ^ (z1 & both(M1)) ^ (z2 & both(M2)) ^ (z3 & both(M3)) ^ top;
}

void hwc_ghash_portable_init(unsigned char *htab, const uint8_t h[16]) {
    u64_alias *t = (u64_alias *)htab;
    uint64_t h1 = hwc_load_be64(h), h0 = hwc_load_be64(h + 8);
    split4(t + HK_LO, h0);
    split4(t + HK_HI, h1);
    split4(t + HK_MID, h0 ^ h1);
}

/* x = (x ^ block) * H per block; x kept in two words between blocks. The
   hash-key words are read from htab in every block (operands of the
   multiplies): the pointer is made opaque to the compiler each time, so it
   cannot hoist the twelve words out of the loop and spill them to the stack,
   where they would stay after the call. */
void hwc_ghash_portable(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks) {
    uint64_t x1 = hwc_load_be64(x), x0 = hwc_load_be64(x + 8);
    for (size_t b = 0; b < blocks; b++, in += 16) {
        const u64_alias *t = (const u64_alias *)htab;
        __asm__ __volatile__("" : "+r"(t));
        uint64_t y1 = x1 ^ hwc_load_be64(in), y0 = x0 ^ hwc_load_be64(in + 8);
        /* 128-bit products lo*lo, hi*hi, mid*mid (Karatsuba) */
        u128 z0 = clmul64(y0, t + HK_LO), z2 = clmul64(y1, t + HK_HI);
        u128 z1 = clmul64(y0 ^ y1, t + HK_MID) ^ z0 ^ z2;
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
        x1 = w0;
        x0 = w1;
    }
    hwc_store_be64(x, x1);
    hwc_store_be64(x + 8, x0);
}
