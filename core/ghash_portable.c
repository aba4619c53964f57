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
#include "internal/ghash_portable.h"

/* The hash key in htab: for each of h0, h1, h0^h1 (low and high words of H,
   and their sum for the middle Karatsuba product), its four masked parts
   (offsets HWC_GH_LO, HWC_GH_HI, HWC_GH_MID). */
static inline void split4(hwc_u64_alias *d, uint64_t y) {
    d[0] = y & HWC_GH_M0;
    d[1] = y & HWC_GH_M1;
    d[2] = y & HWC_GH_M2;
    d[3] = y & HWC_GH_M3;
}

void hwc_ghash_portable_init(unsigned char *htab, const uint8_t h[16]) {
    hwc_u64_alias *t = (hwc_u64_alias *)htab;
    uint64_t h1 = hwc_load_be64(h), h0 = hwc_load_be64(h + 8);
    split4(t + HWC_GH_LO, h0);
    split4(t + HWC_GH_HI, h1);
    split4(t + HWC_GH_MID, h0 ^ h1);
}

/* x = (x ^ block) * H per block (internal/ghash_portable.h). */
void hwc_ghash_portable(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks) {
    uint64_t w[2] = {hwc_load_be64(x), hwc_load_be64(x + 8)};
    for (size_t b = 0; b < blocks; b++, in += 16) hwc_ghash_portable_step(htab, w, in);
    hwc_store_be64(x, w[0]);
    hwc_store_be64(x + 8, w[1]);
}
