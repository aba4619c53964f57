/* arm64-ilps Streebog kernel: assembly entry point (streebog_arm64_ilps.S). */
#ifndef HWC_IMPL_STREEBOG_ARM64_ILPS_H
#define HWC_IMPL_STREEBOG_ARM64_ILPS_H

#include <stdint.h>

/* h = g_N(h, m) (RFC 6986 section 8) over the fused LPS table:
   table = hwc_streebog_lps_table (built by hwc_streebog_tables_init()),
   c = hwc_streebog_C. h may alias m or n. AAPCS64 leaf function: saves and
   restores x19-x28, x29, x30 on its own 256-byte frame (CFI described);
   uses only the caller-saved SIMD registers v0-v7, v16-v31 (zeroed on
   return), never d8-d15. */
void hwc_sb_arm64_ilps_compress(uint64_t h[8], const uint64_t n[8], const uint64_t m[8],
                                const uint64_t table[8][256], const uint64_t c[12][8]);

#endif
