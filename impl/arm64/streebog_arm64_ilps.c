/* arm64-ilps Streebog kernel table: the compression is AArch64 assembly
 * (streebog_arm64_ilps.S: key and state LPS interleaved over the fused
 * table); this file adds stage 2 of RFC 6986 section 8.2 around it.
 * NOT constant time (secret-indexed table loads), like generic. */
#include "internal/kernel.h"
#include "internal/streebog_constants.h"
#include "impl/arm64/streebog_arm64_ilps.h"

static void ilps_g(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]) {
    hwc_streebog_tables_init();
    hwc_sb_arm64_ilps_compress(h, n, m, hwc_streebog_lps_table, hwc_streebog_C);
}

static void ilps_blocks(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data,
                        size_t nblocks) {
    hwc_streebog_tables_init();
    for (; nblocks; nblocks--, data += 64) {
        uint64_t m[8];
        for (int j = 0; j < 8; j++) m[j] = hwc_streebog_load64(data + 8 * j);
        hwc_sb_arm64_ilps_compress(h, n, m, hwc_streebog_lps_table, hwc_streebog_C);
        hwc_streebog_add512_word(n, 512);   /* branch-free carries */
        hwc_streebog_add512(sigma, m);
    }
}

const hwc_streebog_impl hwc_streebog_arm64_ilps = {
    .g = ilps_g,
    .blocks = ilps_blocks,
    .clean_frames = HWC_CLEAN_HASH,   /* no hash state in its frames (tests/test_stack_scan.c) */
};
