/* Part of the x86 AES template (impl/x86/aes_x86_modes.h includes it once,
 * after the mode loops, with the template's width HWC_W and its macros):
 * the lane step of internal/kernel.h (chain_step). HWC_NB vectors of HWC_L
 * lanes = HWC_NB * HWC_L independent CBC / CBC-MAC chains (32 on zmm, 16 on
 * ymm, 8 on xmm), one block of every lane per round of the loop: with 8
 * vectors in flight the AESENC latency is covered as in ECB, so many
 * messages run at the parallel modes' rate (SP 800-38A 6.2, SP 800-38B 6.2).
 * Lane j of the step sits in vector j / HWC_L, 128-bit lane j % HWC_L.
 * Constant time: the same instructions whatever the data; branches on the
 * block count and on whether outputs are written only. */
#ifndef HWC_IMPL_X86_AES_X86_LANES_H
#define HWC_IMPL_X86_AES_X86_LANES_H

#ifndef HWC_L
#error "included by impl/x86/aes_x86_modes.h only"
#endif

/* Blocks at p[0] + off, ..., p[HWC_L - 1] + off as one vector. */
HWC_X86_INLINE hwc_v gather(const uint8_t *const *p, size_t off) {
#if HWC_L == 1
    return hwc_x86_ld(p[0] + off);
#elif HWC_L == 2
    return _mm256_inserti128_si256(_mm256_castsi128_si256(hwc_x86_ld(p[0] + off)),
                                   hwc_x86_ld(p[1] + off), 1);
#else
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(hwc_x86_ld(p[0] + off)),
                                               hwc_x86_ld(p[1] + off), 1);
    const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(hwc_x86_ld(p[2] + off)),
                                               hwc_x86_ld(p[3] + off), 1);
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
#endif
}

/* The lanes of v to p[0] + off, ..., p[HWC_L - 1] + off. */
HWC_X86_INLINE void scatter(uint8_t *const *p, size_t off, hwc_v v) {
#if HWC_L == 1
    hwc_x86_st(p[0] + off, v);
#elif HWC_L == 2
    hwc_x86_st(p[0] + off, _mm256_castsi256_si128(v));
    hwc_x86_st(p[1] + off, _mm256_extracti128_si256(v, 1));
#else
    hwc_x86_st(p[0] + off, _mm512_castsi512_si128(v));
    hwc_x86_st(p[1] + off, _mm512_extracti32x4_epi32(v, 1));
    hwc_x86_st(p[2] + off, _mm512_extracti32x4_epi32(v, 2));
    hwc_x86_st(p[3] + off, _mm512_extracti32x4_epi32(v, 3));
#endif
}

HWC_X86_INLINE void chain_step_n(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t blocks,
                                 const unsigned nr, const int store) {
    enum { W = HWC_NB * HWC_L };
    const uint8_t *in[W];
    uint8_t *out[W], *st[W];
    HWC_UNROLL for (int j = 0; j < W; j++) {
        in[j] = lane[j].in;
        out[j] = lane[j].out;
        st[j] = lane[j].st;
    }
    hwc_keys K;
    load_keys(&K, k->sched, nr);
    hwc_v x[HWC_NB];
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) x[i] = gather((const uint8_t *const *)st + HWC_L * i, 0);
    for (size_t off = 0; off < 16 * blocks; off += 16) {
        /* every lane's block read before any of this block index is written */
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) x[i] = V_XOR3(x[i], gather(in + HWC_L * i, off), K.k[0]);
        rounds_mid(x, HWC_NB, &K, nr, 0);
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) x[i] = V_ENCL(x[i], K.last);
        if (store) HWC_UNROLL for (int i = 0; i < HWC_NB; i++) scatter(out + HWC_L * i, off, x[i]);
    }
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) scatter(st + HWC_L * i, 0, x[i]);
}

static void chain_step(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t blocks) {
    if (lane[0].out) HWC_BY_ROUNDS(k->rounds, nr, chain_step_n(k, lane, blocks, nr, 1));
    else HWC_BY_ROUNDS(k->rounds, nr, chain_step_n(k, lane, blocks, nr, 0));
}

#endif
