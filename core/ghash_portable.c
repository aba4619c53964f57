/* Portable constant-time GHASH (NIST SP 800-38D 6.3, 6.4).
 *
 * Blocks are read as two big-endian 64-bit words, so the coefficient of x^i
 * of the standard's bit-reflected polynomial sits at bit 127 - i of the
 * 128-bit integer. A carry-less 64x64 product is built from ordinary integer
 * multiplications of operands whose bits are spread four apart (masks
 * 0x1111.., 0x2222.., 0x4444.., 0x8888..): each product position then sums at
 * most 15 one-bits below bit 64, so the carries never reach the next used
 * position, and masking the result keeps the XOR of the partial products.
 * That gives the low 64 bits of the product; the high 64 bits are the low
 * bits of the product of the bit-reversed operands, reversed again and
 * shifted by one. Three products per 128-bit multiplication (Karatsuba), then
 * the reduction modulo x^128 + x^7 + x^2 + x + 1 with shifts. No branch and
 * no memory index depends on the key or the data. */
#include <string.h>
#include "internal/ghash_portable.h"
#include "internal/wipe.h"

#define M0 0x1111111111111111ull
#define M1 0x2222222222222222ull
#define M2 0x4444444444444444ull
#define M3 0x8888888888888888ull

typedef uint64_t u64_alias __attribute__((may_alias));

/* The hash key in htab: for each of h0, h1, h0^h1 (low and high words of H,
   and their sum for the middle Karatsuba product) and for their bit
   reversals, the four masked parts. */
enum { HK_LO = 0, HK_HI = 4, HK_MID = 8, HK_REV = 12, HK_WORDS = 24 };

static inline uint64_t load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

static inline void store_be64(uint8_t *p, uint64_t v) {
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

static inline uint64_t rev64(uint64_t x) {
    x = ((x & 0x5555555555555555ull) << 1) | ((x >> 1) & 0x5555555555555555ull);
    x = ((x & 0x3333333333333333ull) << 2) | ((x >> 2) & 0x3333333333333333ull);
    x = ((x & 0x0f0f0f0f0f0f0f0full) << 4) | ((x >> 4) & 0x0f0f0f0f0f0f0f0full);
    return __builtin_bswap64(x);
}

static inline void split4(uint64_t *d, uint64_t y) {
    d[0] = y & M0;
    d[1] = y & M1;
    d[2] = y & M2;
    d[3] = y & M3;
}

/* Low 64 bits of the carry-less product x * y, y given as its four parts. */
static inline uint64_t clmul_lo(uint64_t x, const u64_alias *y) {
    uint64_t x0 = x & M0, x1 = x & M1, x2 = x & M2, x3 = x & M3;
    uint64_t z0 = (x0 * y[0]) ^ (x1 * y[3]) ^ (x2 * y[2]) ^ (x3 * y[1]);
    uint64_t z1 = (x0 * y[1]) ^ (x1 * y[0]) ^ (x2 * y[3]) ^ (x3 * y[2]);
    uint64_t z2 = (x0 * y[2]) ^ (x1 * y[1]) ^ (x2 * y[0]) ^ (x3 * y[3]);
    uint64_t z3 = (x0 * y[3]) ^ (x1 * y[2]) ^ (x2 * y[1]) ^ (x3 * y[0]);
    return (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3);
}

void hwc_ghash_portable_init(unsigned char *htab, const uint8_t h[16]) {
    u64_alias *t = (u64_alias *)htab;
    uint64_t h1 = load_be64(h), h0 = load_be64(h + 8);
    split4(t + HK_LO, h0);
    split4(t + HK_HI, h1);
    split4(t + HK_MID, h0 ^ h1);
    split4(t + HK_REV + HK_LO, rev64(h0));
    split4(t + HK_REV + HK_HI, rev64(h1));
    split4(t + HK_REV + HK_MID, rev64(h0) ^ rev64(h1));
}

/* x = (x ^ block) * H per block; x kept in two words between blocks. */
void hwc_ghash_portable(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks) {
    const u64_alias *t = (const u64_alias *)htab;
    uint64_t x1 = load_be64(x), x0 = load_be64(x + 8);
    for (size_t b = 0; b < blocks; b++, in += 16) {
        uint64_t y1 = x1 ^ load_be64(in), y0 = x0 ^ load_be64(in + 8), y2 = y0 ^ y1;
        uint64_t r1 = rev64(y1), r0 = rev64(y0), r2 = r0 ^ r1;
        /* 128-bit products lo*lo, hi*hi, mid*mid (Karatsuba) */
        uint64_t z0l = clmul_lo(y0, t + HK_LO), z2l = clmul_lo(y1, t + HK_HI);
        uint64_t z1l = clmul_lo(y2, t + HK_MID);
        uint64_t z0h = rev64(clmul_lo(r0, t + HK_REV + HK_LO)) >> 1;
        uint64_t z2h = rev64(clmul_lo(r1, t + HK_REV + HK_HI)) >> 1;
        uint64_t z1h = rev64(clmul_lo(r2, t + HK_REV + HK_MID)) >> 1;
        z1l ^= z0l ^ z2l;
        z1h ^= z0h ^ z2h;
        /* 256-bit product, most significant word first, then shifted left by
           one: the reflected product of two degree-127 polynomials */
        uint64_t w0 = z2h, w1 = z2l ^ z1h, w2 = z0h ^ z1l, w3 = z0l;
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
    store_be64(x, x1);
    store_be64(x + 8, x0);
}
