/* Big-endian 64-bit loads and stores from byte arrays, for any host byte
   order (compilers turn the loops into one load or store plus a byte swap). */
#ifndef HWC_INTERNAL_BYTES_H
#define HWC_INTERNAL_BYTES_H

#include <stdint.h>

static inline uint64_t hwc_load_be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static inline void hwc_store_be64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

#endif
