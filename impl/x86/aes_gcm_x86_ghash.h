/* Part of the x86 GCM template (impl/x86/aes_gcm_x86.h includes it once,
 * after its width primitives): GHASH in the representation that header's
 * top comment describes: Karatsuba products, the Montgomery-style
 * reduction, the hash-key table (ghash_init) and GHASH of whole blocks
 * (ghash), NIST SP 800-38D 6.4. Carry-less multiplies have no
 * data-dependent timing; branches depend on block counts only. */
#ifndef HWC_IMPL_X86_AES_GCM_X86_GHASH_H
#define HWC_IMPL_X86_AES_GCM_X86_GHASH_H

#ifndef GL
#error "included by impl/x86/aes_gcm_x86.h only"
#endif

/* ---- GHASH arithmetic ------------------------------------------------------------ */
/* Whole-block byte reversal (block <-> GHASH integer). */
HWC_X86_INLINE __m128i gcm_bswap_mask(void) {
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
/* Reverses the bytes of the last 32-bit word only (counter block <-> lane counter). */
HWC_X86_INLINE __m128i gcm_ctr_mask(void) {
    return _mm_set_epi8(12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/* x^63 + x^62 + x^57: g* without x^128 and 1, divided by x^64. */
#define GCM_FOLD_CONST 0xC200000000000000ull

/* Karatsuba accumulation of d * p per 128-bit lane: lo, hi and the middle
   product (d0 ^ d1)(p0 ^ p1), kt holding p0 ^ p1. */
HWC_X86_INLINE void gh_acc(GV d, GV p, GV kt, GV *lo, GV *hi, GV *mid) {
    *lo = G_XOR(*lo, G_CLMUL(d, p, 0x00));
    *hi = G_XOR(*hi, G_CLMUL(d, p, 0x11));
    *mid = G_XOR(*mid, G_CLMUL(G_XOR(d, G_SWAPQ(d)), kt, 0x00));
}

/* Two products at once, each sum updated by one three-way XOR. Both middle
   operands come from one vector t = (d0 ^ d1, e0 ^ e1) per lane, the middle
   products taking its low and its high half: zmm builds t from a byte
   alignment (a shuffle-unit instruction) and a blend, other widths from an
   unpack pair; either way fewer instructions on the 4-wide vector ALUs,
   which the carry-less multiplies also occupy (docs/gcm.md). */
HWC_X86_INLINE void gh_acc2(GV d, GV p, GV kt, GV e, GV q, GV ku, GV *lo, GV *hi, GV *mid) {
#if HWC_GCM_W == 512
    const GV t = G_XOR(_mm512_alignr_epi8(e, d, 8), _mm512_mask_blend_epi64(0xAA, d, e));
#else
    const GV t = G_XOR(G_UNPLO(d, e), G_UNPHI(d, e));
#endif
    *lo = G_XOR3(*lo, G_CLMUL(d, p, 0x00), G_CLMUL(e, q, 0x00));
    *hi = G_XOR3(*hi, G_CLMUL(d, p, 0x11), G_CLMUL(e, q, 0x11));
    *mid = G_XOR3(*mid, G_CLMUL(t, kt, 0x00), G_CLMUL(t, ku, 0x01));
}

/* Swap of the 64-bit halves of each lane, for the reduction: on zmm a byte
   alignment (shuffle unit) instead of VPSHUFD (vector ALU), as above. */
#if HWC_GCM_W == 512
#define G_SWAPQ_R(v) _mm512_alignr_epi8(v, v, 8)
#else
#define G_SWAPQ_R G_SWAPQ
#endif

/* (hi x^128 + m x^64 + lo) x^-128 mod g* per lane, m = mid ^ lo ^ hi: the
   low 64-bit half is folded twice (section comment at the top). */
HWC_X86_INLINE GV gh_reduce(GV lo, GV hi, GV mid) {
    const GV K = G_BC(_mm_set_epi64x(0, (long long)GCM_FOLD_CONST));
    GV m = G_XOR3(mid, lo, hi);
    m = G_XOR3(m, G_CLMUL(lo, K, 0x00), G_SWAPQ_R(lo));
    return G_XOR3(hi, G_CLMUL(m, K, 0x00), G_SWAPQ_R(m));
}

/* XOR of the 128-bit lanes. */
HWC_X86_INLINE __m128i gh_lanes_xor(GV v) {
#if HWC_GCM_W == 128
    return v;
#elif HWC_GCM_W == 256
    return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
#else
    const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
#endif
}

/* xmm versions for the table and single blocks. */
HWC_X86_INLINE void gh_acc1(__m128i d, __m128i p, __m128i kt, __m128i *lo, __m128i *hi, __m128i *mid) {
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(d, p, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(d, p, 0x11));
    *mid = _mm_xor_si128(*mid, _mm_clmulepi64_si128(_mm_xor_si128(d, _mm_shuffle_epi32(d, 0x4e)), kt, 0x00));
}

HWC_X86_INLINE __m128i gh_reduce1(__m128i lo, __m128i hi, __m128i mid) {
    const __m128i K = _mm_set_epi64x(0, (long long)GCM_FOLD_CONST);
    __m128i m = _mm_xor_si128(_mm_xor_si128(mid, lo), hi);
    m = _mm_xor_si128(_mm_xor_si128(m, _mm_clmulepi64_si128(lo, K, 0x00)), _mm_shuffle_epi32(lo, 0x4e));
    return _mm_xor_si128(_mm_xor_si128(hi, _mm_clmulepi64_si128(m, K, 0x00)), _mm_shuffle_epi32(m, 0x4e));
}

/* Halves of a XORed into both halves (the Karatsuba key of a table entry). */
HWC_X86_INLINE __m128i gh_kar(__m128i a) {
    const __m128i t = _mm_xor_si128(a, _mm_shuffle_epi32(a, 0x4e));
    return _mm_unpacklo_epi64(t, t);
}

HWC_X86_INLINE __m128i gh_mont1(__m128i a, __m128i b) {
    __m128i lo = _mm_setzero_si128(), hi = lo, mid = lo;
    gh_acc1(a, b, gh_kar(b), &lo, &hi, &mid);
    return gh_reduce1(lo, hi, mid);
}

/* ghash_init: P_1 = H x mod g* (a left shift with the bit shifted out of
   x^127 folded back as g*, selected by a mask: no branch on the key), then
   P_(n+1) = mont(P_n, P_1); zmm also P_(n+32) = mont(P_n, P_32) (the
   decryption loop's pairs of batches, gcm_run). */
static void gcm_ghash_init(unsigned char *htab, const uint8_t h[16]) {
    const __m128i u = _mm_shuffle_epi8(hwc_x86_ld(h), gcm_bswap_mask());
    /* u << 1 across the 64-bit halves */
    const __m128i sh = _mm_or_si128(_mm_slli_epi64(u, 1), _mm_slli_si128(_mm_srli_epi64(u, 63), 8));
    /* all ones when bit 127 of u is set */
    const __m128i top = _mm_shuffle_epi32(_mm_srai_epi32(u, 31), 0xff);
    const __m128i gpoly = _mm_set_epi64x((long long)GCM_FOLD_CONST, 1);
    __m128i p1 = _mm_xor_si128(sh, _mm_and_si128(top, gpoly)), p = p1;
    for (int n = 1; n <= 32; n++) {
        hwc_x86_st(htab + 16 * (32 - n), p);
        hwc_x86_st(htab + 512 + 16 * (32 - n), gh_kar(p));
        p = gh_mont1(p, p1);
    }
#if HWC_GCM_W == 512
    const __m128i p32 = hwc_x86_ld(htab);
    for (int n = 1; n <= 32; n++) {
        const __m128i q = gh_mont1(hwc_x86_ld(htab + 16 * (32 - n)), p32);
        hwc_x86_st(htab + 1024 + 16 * (32 - n), q);
        hwc_x86_st(htab + 1536 + 16 * (32 - n), gh_kar(q));
    }
#endif
}

/* GHASH of n blocks at in, then e (0..2) blocks ext[] already in GHASH
   integer form, into x (GHASH integer form): n + e in 1..32, one group.
   Full vectors first, the remaining blocks on xmm: with e, their sums are
   added to lane 0 and there is one reduction (on xmm when there is no full
   vector); without (gh_blocks), they are reduced apart, as they always
   were (the code around the ymm batch loops stays as it was). */
HWC_X86_INLINE __m128i gh_group_ext(const unsigned char *htab, __m128i x, const uint8_t *in, size_t n,
                                    const __m128i *ext, const unsigned e) {
    G_OPAQUE(htab);
    const unsigned char *pw = htab + 16 * (32 - n - e), *kt = pw + 512;
    const __m128i bsw = gcm_bswap_mask();
    __m128i lo1 = _mm_setzero_si128(), hi1 = lo1, mid1 = lo1;
    size_t i = 0;
    if (n >= GL) {
        const GV bswv = G_BC(bsw);
        GV lo = G_ZERO(), hi = lo, mid = lo;
        for (i = GL; i + GL <= n; i += GL)
            gh_acc(G_SHUF8(G_LD(in + 16 * i), bswv), G_LDK(pw + 16 * i), G_LDK(kt + 16 * i), &lo, &hi, &mid);
        /* the block that takes x last: a short chain from x to the result */
        gh_acc(G_XOR(G_SHUF8(G_LD(in), bswv), G_LANE0(x)), G_LDK(pw), G_LDK(kt), &lo, &hi, &mid);
        if (i == n + e) return gh_lanes_xor(gh_reduce(lo, hi, mid));
        if (!e) {   /* whole blocks only (gh_blocks): the xmm sums reduced apart */
            for (; i < n; i++)
                gh_acc1(_mm_shuffle_epi8(hwc_x86_ld(in + 16 * i), bsw), gcm_ldk(pw + 16 * i), gcm_ldk(kt + 16 * i),
                        &lo1, &hi1, &mid1);
            return _mm_xor_si128(gh_lanes_xor(gh_reduce(lo, hi, mid)), gh_reduce1(lo1, hi1, mid1));
        }
        for (; i < n + e; i++) {
            const __m128i d = i < n ? _mm_shuffle_epi8(hwc_x86_ld(in + 16 * i), bsw) : ext[i - n];
            gh_acc1(d, gcm_ldk(pw + 16 * i), gcm_ldk(kt + 16 * i), &lo1, &hi1, &mid1);
        }
        return gh_lanes_xor(gh_reduce(G_XOR(lo, G_LANE0(lo1)), G_XOR(hi, G_LANE0(hi1)),
                                      G_XOR(mid, G_LANE0(mid1))));
    }
    for (; i < n + e; i++) {
        __m128i d = i < n ? _mm_shuffle_epi8(hwc_x86_ld(in + 16 * i), bsw) : ext[i - n];
        if (i == 0) d = _mm_xor_si128(d, x);
        gh_acc1(d, gcm_ldk(pw + 16 * i), gcm_ldk(kt + 16 * i), &lo1, &hi1, &mid1);
    }
    return gh_reduce1(lo1, hi1, mid1);
}

HWC_X86_INLINE __m128i gh_group(const unsigned char *htab, __m128i x, const uint8_t *in, size_t n) {
    return gh_group_ext(htab, x, in, n, NULL, 0);
}

HWC_X86_INLINE __m128i gh_blocks(const unsigned char *htab, __m128i x, const uint8_t *in, size_t blocks) {
    while (blocks) {
        const size_t n = blocks < 32 ? blocks : 32;
        x = gh_group(htab, x, in, n);
        in += 16 * n;
        blocks -= n;
    }
    return x;
}

static void gcm_ghash(const unsigned char *htab, uint8_t xb[16], const uint8_t *in,
                                          size_t blocks) {
    const __m128i bsw = gcm_bswap_mask();
    const __m128i x = gh_blocks(htab, _mm_shuffle_epi8(hwc_x86_ld(xb), bsw), in, blocks);
    hwc_x86_st(xb, _mm_shuffle_epi8(x, bsw));
}

#endif
