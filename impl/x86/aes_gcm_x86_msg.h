/* Part of the x86 GCM template (impl/x86/aes_gcm_x86.h includes it once,
 * after the GCTR loops): one whole message in one kernel call (gcm_oneshot,
 * NIST SP 800-38D 7.1 steps 2-6 after J0): messages of up to 63 bytes (zmm:
 * 128) in registers from start to end, longer ones through the batch loops
 * with E_K(J0) beside them and the last blocks, the length block and the
 * tag in one GHASH group. Branches on lengths only. */
#ifndef HWC_IMPL_X86_AES_GCM_X86_MSG_H
#define HWC_IMPL_X86_AES_GCM_X86_MSG_H

#ifndef GL
#error "included by impl/x86/aes_gcm_x86.h only"
#endif

/* ---- one whole message ------------------------------------------------------------ */
/* A partial block (1..15 bytes) into a register, zero padded, and out of
   one: AVX-512BW byte masks on the zmm kernel (masked-off bytes are neither
   read nor written). Elsewhere the block is built in registers from word
   loads (internal/bytes.h: a 16-byte load of a buffer just filled by short
   stores would wait for them), and goes out through a 16-byte buffer in
   this frame, wiped (it holds plaintext). */
#if HWC_GCM_W == 512
HWC_X86_INLINE __m128i gcm_ld_part(const uint8_t *p, size_t n) {
    return _mm_maskz_loadu_epi8((__mmask16)((1u << n) - 1), p);
}
HWC_X86_INLINE void gcm_st_part(uint8_t *p, __m128i v, size_t n) {
    _mm_mask_storeu_epi8(p, (__mmask16)((1u << n) - 1), v);
}
#else
HWC_X86_INLINE __m128i gcm_ld_part(const uint8_t *p, size_t n) {
    return (__m128i)hwc_block_at(p, n, 0);
}
HWC_X86_INLINE void gcm_st_part(uint8_t *p, __m128i v, size_t n) {
    uint8_t b[16];
    hwc_x86_st(b, v);
    hwc_copy_short(p, b, n);
    hwc_wipe_inline(b, sizeof b);
}
#endif

/* 16 bytes of ones, then 16 of zeros: from + 16 - rem, the mask of a
   block's first rem bytes. */
static const uint8_t gcm_ones_zeros[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* n (a constant, 1..5) independent blocks through AES side by side, round
   by round, each round key loaded at its round (G_OPAQUE). */
HWC_X86_INLINE void gcm_chains(const uint8_t *s, __m128i *v, const unsigned n, const unsigned nr) {
    const int wide = 0;
    G_UNROLL for (unsigned i = 0; i < n; i++) v[i] = _mm_xor_si128(v[i], G_RK1(s, 0));
    G_UNROLL for (unsigned r = 1; r < nr; r++) {
        G_OPAQUE(s);
        const __m128i kr = G_RK1(s, r);
        G_UNROLL for (unsigned i = 0; i < n; i++) v[i] = _mm_aesenc_si128(v[i], kr);
    }
    G_OPAQUE(s);
    const __m128i kl = G_RK1(s, nr);
    G_UNROLL for (unsigned i = 0; i < n; i++) v[i] = _mm_aesenclast_si128(v[i], kl);
}

/* E_K(J0) into *e0 (unless have_e0) and, when rem, the partial block's
   output (counter cp, input pin zero padded) into *e1 with its bytes rem..15
   (keystream) zeroed; two chains side by side, each round key loaded at its
   round (G_OPAQUE). */
HWC_X86_INLINE void gcm_msg_aes(const uint8_t *s, const __m128i j0, __m128i *e0, const int have_e0, const __m128i cp,
                                const __m128i pin, __m128i *e1, const size_t rem, const unsigned nr) {
    __m128i v[2] = {j0, cp};
    if (!have_e0 && rem) gcm_chains(s, v, 2, nr);   /* constant counts: v stays in registers */
    else if (!have_e0) gcm_chains(s, v, 1, nr);
    else if (rem) gcm_chains(s, v + 1, 1, nr);
    if (!have_e0) *e0 = v[0];
    if (rem) *e1 = _mm_and_si128(_mm_xor_si128(v[1], pin), hwc_x86_ld(gcm_ones_zeros + 16 - rem));
}

/* A whole message of t (a constant, 0..3) whole blocks and p (a constant,
   0 or 1) partial block of rem bytes, in registers from start to end:
   E_K(J0) and the t + p counter blocks in one round loop (one AES latency,
   where chains in program order measured 1.1-1.25x the time at 16 bytes),
   then one GHASH group over the blocks and the length block lb, fed from
   the same registers (not from out after its stores), one reduction. */
HWC_X86_INLINE void gcm_msg_short(const uint8_t *s, const unsigned char *htab, const __m128i j0, const __m128i x,
                                  const __m128i c, const __m128i lb, uint8_t *out, const uint8_t *in,
                                  const unsigned t, const unsigned p, const size_t rem, const int dec,
                                  uint8_t tag[16], const unsigned nr) {
    const __m128i bsw = gcm_bswap_mask(), cm = gcm_ctr_mask();
    const unsigned n = t + p, h = n + 1;   /* data blocks; hashed blocks with the length block */
    __m128i v[5], d[4], o[4];
    /* the partial block first: clang otherwise moved its byte copies (xmm
       kernels) into the rounds and spilled a round key around them */
    if (p) d[t] = gcm_ld_part(in + 16 * t, rem);
    v[0] = j0;
    G_UNROLL for (unsigned i = 0; i < n; i++)
        v[1 + i] = _mm_shuffle_epi8(_mm_add_epi32(c, _mm_set_epi32((int)i, 0, 0, 0)), cm);
    gcm_chains(s, v, 1 + n, nr);
#if HWC_GCM_W != 512
    hwc_x86_st(tag, v[0]);   /* E_K(J0) waits in tag[] (core/'s buffer): clang spilled it with 16 registers */
    v[0] = _mm_setzero_si128();
#endif
    G_UNROLL for (unsigned i = 0; i < t; i++) {
        d[i] = hwc_x86_ld(in + 16 * i);
        o[i] = _mm_xor_si128(v[1 + i], d[i]);
    }
    if (p) o[t] = _mm_and_si128(_mm_xor_si128(v[1 + t], d[t]), hwc_x86_ld(gcm_ones_zeros + 16 - rem));
    G_OPAQUE(htab);
    const unsigned char *pw = htab + 16 * (32 - h), *kt = pw + 512;
    __m128i lo = _mm_setzero_si128(), hi = lo, mid = lo;
    G_UNROLL for (unsigned i = 0; i < n; i++) {
        __m128i y = _mm_shuffle_epi8(dec ? d[i] : o[i], bsw);
        if (i == 0) y = _mm_xor_si128(y, x);
        gh_acc1(y, gcm_ldk(pw + 16 * i), gcm_ldk(kt + 16 * i), &lo, &hi, &mid);
    }
    gh_acc1(n ? lb : _mm_xor_si128(lb, x), gcm_ldk(pw + 16 * n), gcm_ldk(kt + 16 * n), &lo, &hi, &mid);
    G_UNROLL for (unsigned i = 0; i < t; i++) hwc_x86_st(out + 16 * i, o[i]);
    if (p) gcm_st_part(out + 16 * t, o[t], rem);
#if HWC_GCM_W != 512
    v[0] = hwc_x86_ld(tag);
#endif
    hwc_x86_st(tag, _mm_xor_si128(_mm_shuffle_epi8(gh_reduce1(lo, hi, mid), bsw), v[0]));
}

#if HWC_GCM_W == 512
/* A whole message of 1..128 bytes on zmm, in registers from start to end:
   E_K(J0) on xmm and the data's nv (a constant, 1 or 2) vectors in one
   round loop, the data read and written through byte masks (nothing past
   len is touched); then one GHASH group over the vectors and the length
   block, one reduction. Lanes past the data are zero and their table
   entries are not read (lane masks). */
HWC_X86_INLINE void gcm_msg_zmm(const uint8_t *s, const unsigned char *htab, const __m128i j0, const __m128i x,
                                const __m128i c, const __m128i lb, uint8_t *out, const uint8_t *in,
                                const size_t len, const int dec, uint8_t tag[16], const unsigned nv,
                                const unsigned nr) {
    const int wide = 0;
    const size_t n = (len + 15) / 16, h = n + 1;   /* data blocks; hashed blocks with the length block */
    const GV bswv = G_BC(gcm_bswap_mask()), cmv = G_BC(gcm_ctr_mask());
    const __mmask64 m0 = len >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << len) - 1;
    const __mmask64 m1 = len <= 64 ? 0 : len >= 128 ? ~(__mmask64)0 : ((__mmask64)1 << (len - 64)) - 1;
    const GV cv = G_ADD32(G_BC(c), G_LANE_INC);
    GV a0 = G_SHUF8(cv, cmv), a1 = G_SHUF8(G_ADD32(cv, G_BC(_mm_set_epi32(4, 0, 0, 0))), cmv);
    __m128i e = j0;
    G_OPAQUE(s);
    const __m128i k0 = G_RK1(s, 0);
    e = _mm_xor_si128(e, k0);
    a0 = G_XOR(a0, G_BC(k0));
    if (nv > 1) a1 = G_XOR(a1, G_BC(k0));
    G_UNROLL for (unsigned r = 1; r < nr; r++) {
        G_OPAQUE(s);
        const __m128i kr = G_RK1(s, r);
        e = _mm_aesenc_si128(e, kr);
        a0 = G_ENC(a0, G_BC(kr));
        if (nv > 1) a1 = G_ENC(a1, G_BC(kr));
    }
    G_OPAQUE(s);
    const __m128i kl = G_RK1(s, nr);
    e = _mm_aesenclast_si128(e, kl);
    const GV d0 = _mm512_maskz_loadu_epi8(m0, in);
    const GV o0 = _mm512_maskz_mov_epi8(m0, G_XOR(G_ENCL(a0, G_BC(kl)), d0));
    GV d1 = G_ZERO(), o1 = G_ZERO();
    if (nv > 1) {
        d1 = _mm512_maskz_loadu_epi8(m1, in + 64);
        o1 = _mm512_maskz_mov_epi8(m1, G_XOR(G_ENCL(a1, G_BC(kl)), d1));
    }
    G_OPAQUE(htab);
    const unsigned char *pw = htab + 16 * (32 - h), *kt = pw + 512;
    const __mmask8 q0 = (__mmask8)(n >= 4 ? 0xff : (1u << (2 * n)) - 1);
    GV lo = G_ZERO(), hi = lo, mid = lo;
    gh_acc(G_XOR(G_SHUF8(dec ? d0 : o0, bswv), G_LANE0(x)), _mm512_maskz_loadu_epi64(q0, pw),
           _mm512_maskz_loadu_epi64(q0, kt), &lo, &hi, &mid);
    if (nv > 1) {
        const __mmask8 q1 = (__mmask8)(n >= 8 ? 0xff : (1u << (2 * (n - 4))) - 1);
        gh_acc(G_SHUF8(dec ? d1 : o1, bswv), _mm512_maskz_loadu_epi64(q1, pw + 64),
               _mm512_maskz_loadu_epi64(q1, kt + 64), &lo, &hi, &mid);
    }
    __m128i lo1 = _mm_setzero_si128(), hi1 = lo1, mid1 = lo1;
    gh_acc1(lb, gcm_ldk(pw + 16 * n), gcm_ldk(kt + 16 * n), &lo1, &hi1, &mid1);
    const __m128i y = gh_lanes_xor(gh_reduce(G_XOR(lo, G_LANE0(lo1)), G_XOR(hi, G_LANE0(hi1)),
                                             G_XOR(mid, G_LANE0(mid1))));
    _mm512_mask_storeu_epi8(out, m0, o0);
    if (nv > 1) _mm512_mask_storeu_epi8(out + 64, m1, o1);
    hwc_x86_st(tag, _mm_xor_si128(_mm_shuffle_epi8(y, gcm_bswap_mask()), e));
}
#endif

/* The end of a message (gcm_oneshot): t whole blocks and rem (0..15) bytes
   at in from the lane counter c, the partial block's keystream beside
   E_K(J0) (or E_K(J0) from tag[] when have_e0), then one GHASH group over
   the t blocks, the zero-padded partial block and the length block lb
   (GHASH integer form) into x; the full tag E_K(J0) ^ S (section 7.1 step
   6) to tag. Decryption hashes in before out is written (in place). */
HWC_X86_INLINE void gcm_msg_end(const hwc_aes_key *k, const unsigned char *htab, const __m128i j0, __m128i x,
                                __m128i c, const __m128i lb, uint8_t *out, const uint8_t *in, const size_t t,
                                const size_t rem, const int dec, const int have_e0, uint8_t tag[16],
                                const unsigned nr) {
    const __m128i bsw = gcm_bswap_mask();
    const uint8_t *s = k->sched;
    const __m128i pin = rem ? gcm_ld_part(in + 16 * t, rem) : _mm_setzero_si128();
    const __m128i cp = _mm_shuffle_epi8(_mm_add_epi32(c, _mm_set_epi32((int)t, 0, 0, 0)), gcm_ctr_mask());
    __m128i e0 = have_e0 ? hwc_x86_ld(tag) : _mm_setzero_si128(), e1 = _mm_setzero_si128();
    gcm_msg_aes(s, j0, &e0, have_e0, cp, pin, &e1, rem, nr);
    __m128i ext[2] = {lb, lb};
    if (rem) ext[0] = _mm_shuffle_epi8(dec ? pin : e1, bsw);
    if (dec) {
        x = gh_group_ext(htab, x, in, t, ext, rem ? 2 : 1);
        gcm_ctr_tail(s, 0, &c, out, in, t, nr);
    } else {
        gcm_ctr_tail(s, 0, &c, out, in, t, nr);
        x = gh_group_ext(htab, x, out, t, ext, rem ? 2 : 1);
    }
    if (rem) gcm_st_part(out + 16 * t, e1, rem);
    hwc_x86_st(tag, _mm_xor_si128(_mm_shuffle_epi8(x, bsw), e0));
}

/* Whole messages of 1..63 bytes (more than 3 whole blocks spill key
   material with 16 vector registers), on zmm of 1..128 bytes: xmm chains
   below 64 bytes, zmm vectors from 64 (docs/gcm.md, "Short messages in
   registers"). */
#if HWC_GCM_W == 512
#define G_SHORT_LEN 128
#else
#define G_SHORT_LEN 63
#endif
HWC_X86_INLINE void gcm_short_n(const uint8_t *s, const unsigned char *htab, const __m128i j0, const __m128i x,
                                const __m128i c, const __m128i lb, uint8_t *out, const uint8_t *in,
                                const size_t len, const int dec, uint8_t tag[16], const unsigned nr) {
    const size_t t = len / 16, rem = len % 16;
#define G_SHORT(T, P) \
    if (t == (T) && (rem != 0) == (P)) { \
        gcm_msg_short(s, htab, j0, x, c, lb, out, in, T, P, rem, dec, tag, nr); \
        return; \
    }
    G_SHORT(0, 1) G_SHORT(1, 0) G_SHORT(1, 1) G_SHORT(2, 0) G_SHORT(2, 1) G_SHORT(3, 0) G_SHORT(3, 1)
#undef G_SHORT
#if HWC_GCM_W == 512
    if (len <= 64) gcm_msg_zmm(s, htab, j0, x, c, lb, out, in, len, dec, tag, 1, nr);
    else gcm_msg_zmm(s, htab, j0, x, c, lb, out, in, len, dec, tag, 2, nr);
#endif
}

/* Inline on zmm; elsewhere out of line: inlined into gcm_oneshot, gcc
   spilled E_K(J0) to the frame with 16 registers (the stack scan). */
#if HWC_GCM_W == 512
#define G_SHORT_FN HWC_X86_INLINE
#else
#define G_SHORT_FN static __attribute__((noinline))
#endif
G_SHORT_FN void gcm_short(const hwc_aes_key *k, const unsigned char *htab, const __m128i j0, const __m128i x,
                          const __m128i c, const __m128i lb, uint8_t *out, const uint8_t *in, const size_t len,
                          const int dec, uint8_t tag[16]) {
#define C(n) gcm_short_n(k->sched, htab, j0, x, c, lb, out, in, len, dec, tag, n)
    GCM_BY_ROUNDS(C);
#undef C
}

/* gcm_oneshot (internal/kernel.h): whole batches through gcm_encrypt /
   gcm_decrypt, with E_K(J0) computed before them (into tag[], off their
   critical path); the last full % GB whole blocks (all of them below one
   batch) in gcm_msg_end's single group, which holds at most 32 blocks. */
static void gcm_oneshot(const hwc_aes_key *k, const unsigned char *htab, const uint8_t j0[16],
                        const uint8_t xb[16], uint8_t *out, const uint8_t *in, size_t len,
                        const uint8_t lens[16], int dec, int iv12, uint8_t tag[16]) {
    (void)iv12;   /* zmm only (G_WHOLE) */
    const __m128i bsw = gcm_bswap_mask(), cm = gcm_ctr_mask();
    const size_t full = len / 16, rem = len % 16;
    size_t t = full % GB;
    if (t + 2 > 32) t = 0;
    const size_t bulk = full - t;
    const __m128i j0v = hwc_x86_ld(j0), lb = _mm_shuffle_epi8(hwc_x86_ld(lens), bsw);
    __m128i c = _mm_add_epi32(_mm_shuffle_epi8(j0v, cm), _mm_set_epi32(1, 0, 0, 0));
    __m128i x = _mm_shuffle_epi8(hwc_x86_ld(xb), bsw);
    if (len && len <= G_SHORT_LEN) {
        gcm_short(k, htab, j0v, x, c, lb, out, in, len, dec, tag);
        return;
    }
    if (bulk) {
        uint8_t cb[16], xs[16];
        __m128i e0, unused;
#define C(n) gcm_msg_aes(k->sched, j0v, &e0, 0, j0v, j0v, &unused, 0, n)
        GCM_BY_ROUNDS(C);
#undef C
        hwc_x86_st(cb, _mm_shuffle_epi8(c, cm));
        hwc_x86_st(xs, hwc_x86_ld(xb));
        hwc_x86_st(tag, e0);
        /* whole batches up to G_WHOLE_BLOCKS: the length block in the last
           one's hash (longer calls keep the loops of gcm_encrypt and
           gcm_decrypt and their key table: their own copies in gcm_whole_*
           measured up to 6% slower at 16 KiB - 1 MiB). AES-128 with a
           12-byte IV: the counter form of gcm_ctr12_init for encryption and
           for whole messages' decryption, from three batches on (Zen 5:
           0.94-0.98x the time from 4 KiB; 1 KiB, two batches, 1.02x;
           decryption's pair loop from 16 KiB gained nothing with it;
           docs/gcm.md) */
        const int whole = G_WHOLE && !t && !rem && bulk % GB == 0 && bulk <= G_WHOLE_BLOCKS;
#if G_WHOLE
        const int c12 = iv12 && k->rounds == 10 && bulk > 2 * GB;
        if (whole && c12) (dec ? gcm_whole_dec12 : gcm_whole_enc12)(k, htab, cb, xs, out, in, bulk, lens);
        else if (whole) (dec ? gcm_whole_dec : gcm_whole_enc)(k, htab, cb, xs, out, in, bulk, lens);
        else if (c12 && !dec) gcm_encrypt12(k, htab, cb, xs, out, in, bulk);
        else
#endif
        (dec ? gcm_decrypt : gcm_encrypt)(k, htab, cb, xs, out, in, bulk);
        c = _mm_shuffle_epi8(hwc_x86_ld(cb), cm);
        x = _mm_shuffle_epi8(hwc_x86_ld(xs), bsw);
        hwc_wipe_inline(cb, sizeof cb);
        hwc_wipe_inline(xs, sizeof xs);
        if (whole) {   /* x is S: the tag E_K(J0) ^ S (section 7.1 step 6) */
            hwc_x86_st(tag, _mm_xor_si128(_mm_shuffle_epi8(x, bsw), hwc_x86_ld(tag)));
            return;
        }
        out += 16 * bulk;
        in += 16 * bulk;
    }
#define C(n) gcm_msg_end(k, htab, j0v, x, c, lb, out, in, t, rem, dec, bulk != 0, tag, n)
    GCM_BY_ROUNDS(C);
#undef C
}

#endif
