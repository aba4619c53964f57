/* Portable constant-time GHASH (NIST SP 800-38D 6.4), shared by core/gcm.c
 * (for kernels without GCM slots) and the generic kernel: 64x64 carry-less
 * products by masked integer multiplications, no table indexed by data.
 * The hash-key layout in htab is private to core/ghash_portable.c and fits
 * HWC_GCM_HTAB_BYTES. */
#ifndef HWC_INTERNAL_GHASH_PORTABLE_H
#define HWC_INTERNAL_GHASH_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

/* htab from the hash key h = E_K(0^128) (bytes as the standard prints them). */
void hwc_ghash_portable_init(unsigned char *htab, const uint8_t h[16]);
/* For each 16-byte block: x = (x ^ block) * H in GF(2^128). */
void hwc_ghash_portable(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks);

#endif
