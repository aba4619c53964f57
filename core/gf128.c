/* Doubling in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1, constant time
 * (the reduction is a mask built from the top bit, never a branch).
 * Contract: docs/API.md (cmac.h). out == in is allowed. */
#include <string.h>
#include "hwcrypt/cmac.h"
#include "internal/bytes.h"

/* SP 800-38B 6.1 / RFC 4493 2.3: big-endian bit string, shift left by one,
   XOR R_128 = 0^120 || 10000111 into the last byte when the MSB was set.
   out in one 16-byte store: callers hand it to a kernel's 16-byte load
   (internal/bytes.h). */
void hwc_gf128_dbl_be(uint8_t out[16], const uint8_t in[16]) {
    const uint64_t hi = hwc_load_be64(in), lo = hwc_load_be64(in + 8);
    const uint64_t r = 0x87 & (0 - (hi >> 63));
    const hwc_u64x2 v = {hwc_be64_word(hi << 1 | lo >> 63), hwc_be64_word(lo << 1 ^ r)};
    memcpy(out, &v, 16);
}

/* IEEE 1619-2007 5.2: byte 0 is the least significant; multiply by alpha
   (x): shift left across bytes 0..15, XOR 0x87 into byte 0 when bit 127 was
   set. */
void hwc_gf128_dbl_le(uint8_t out[16], const uint8_t in[16]) {
    const uint64_t lo = hwc_load_le64(in), hi = hwc_load_le64(in + 8);
    const uint64_t r = 0x87 & (0 - (hi >> 63));
    const hwc_u64x2 v = {hwc_le64_word(lo << 1 ^ r), hwc_le64_word(hi << 1 | lo >> 63)};
    memcpy(out, &v, 16);
}
