/* Doubling in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1, constant time
 * (the reduction is a mask built from the top bit, never a branch).
 * Contract: docs/API.md (cmac.h). out == in is allowed. */
#include "hwcrypt/cmac.h"

/* SP 800-38B 6.1 / RFC 4493 2.3: big-endian bit string, shift left by one,
   XOR R_128 = 0^120 || 10000111 into the last byte when the MSB was set. */
void hwc_gf128_dbl_be(uint8_t out[16], const uint8_t in[16]) {
    uint8_t mask = (uint8_t)(0u - (unsigned)(in[0] >> 7));
    for (int i = 0; i < 15; i++) out[i] = (uint8_t)((in[i] << 1) | (in[i + 1] >> 7));
    out[15] = (uint8_t)((in[15] << 1) ^ (0x87 & mask));
}

/* IEEE 1619-2007 5.2: byte 0 is the least significant; multiply by alpha
   (x): shift left across bytes 0..15, XOR 0x87 into byte 0 when bit 127 was
   set. */
void hwc_gf128_dbl_le(uint8_t out[16], const uint8_t in[16]) {
    uint8_t mask = (uint8_t)(0u - (unsigned)(in[15] >> 7));
    for (int i = 15; i > 0; i--) out[i] = (uint8_t)((in[i] << 1) | (in[i - 1] >> 7));
    out[0] = (uint8_t)((in[0] << 1) ^ (0x87 & mask));
}
