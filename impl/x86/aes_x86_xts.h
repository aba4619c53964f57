/* Part of the x86 AES template (impl/x86/aes_x86_modes.h includes it once,
 * after CTR, with the template's width HWC_W and its macros): XTS over whole
 * blocks (IEEE 1619-2018 5.3.1/5.4.1, SP 800-38E), one data unit per call
 * (xts_enc, xts_dec) or many consecutive units with the round keys loaded
 * once (xts_enc_units, xts_dec_units). Constant time: the same instructions
 * whatever the data; branches on lengths only. */
#ifndef HWC_IMPL_X86_AES_X86_XTS_H
#define HWC_IMPL_X86_AES_X86_XTS_H

#ifndef HWC_L
#error "included by impl/x86/aes_x86_modes.h only"
#endif

/* ---- XTS (IEEE 1619 5.3.1/5.4.1 over whole blocks) ---------------------------- */
/* Tweaks are 128-bit little-endian polynomials (bit i = x^i), x^128 = x^7 +
   x^2 + x + 1. Multiplying every lane by x^(8b), 1 <= b <= 4, is a byte shift
   of the lane plus the reduction of the b bytes shifted out: one carry-less
   multiply by 0x87 (no 64-bit shifts: those share the AES port on Intel).
   Branch-free. b must be a literal (byte shifts take immediates). */
#if HWC_W == 128 || defined(__VPCLMULQDQ__)
#define HWC_GF_MULX_BYTES(v, b, P) V_XOR(V_BSLLI(v, b), V_CLMUL_LO_LO(V_BSRLI(v, 16 - (b)), P))
#else
/* No VPCLMULQDQ (this table also runs where VAES comes without it, e.g. qemu
   -cpu max): h * 0x87 = h ^ h << 1 ^ h << 2 ^ h << 7 for h < 2^(8b), b <= 2. */
#define HWC_GF_MULX_BYTES(v, b, P) ((void)(P), mul87_add(V_BSLLI(v, b), V_BSRLI(v, 16 - (b))))
#endif

/* a ^ h * 0x87 for h < 2^57 per qword, without carry-less multiplication. */
HWC_X86_INLINE hwc_v mul87_add(hwc_v a, hwc_v h) {
    return V_XOR(V_XOR3(a, h, V_SLLI64(h, 1)), V_XOR(V_SLLI64(h, 2), V_SLLI64(h, 7)));
}

/* Multiply one xmm tweak by x (IEEE 1619 5.2), branch-free: the bit shifted
   out of x^127 selects 0x87 through a sign mask. */
HWC_X86_INLINE __m128i xmulx1(__m128i t) {
    const __m128i m = _mm_srai_epi32(_mm_shuffle_epi32(t, 0x13), 31);   /* lanes: sign of q1, of q0 */
    return _mm_xor_si128(_mm_add_epi64(t, t), _mm_and_si128(m, _mm_set_epi64x(1, 0x87)));
}

/* Tweak vector i from T broadcast to every lane (tb): lane j gets
   T x^(L i + j). Shift counts per lane (variable shifts), the s < 32 bits
   leaving x^127 reduced by one carry-less multiply by 0x87: depth one, so
   every vector of a batch is ready a few cycles after T. */
HWC_X86_INLINE hwc_v tweak_vec(hwc_v tb, unsigned i, hwc_v P) {
#if HWC_W == 128
    const __m128i s = _mm_cvtsi32_si128((int)i);
    const __m128i a = _mm_sll_epi64(tb, s);
    const __m128i h = _mm_srl_epi64(tb, _mm_sub_epi64(_mm_cvtsi32_si128(64), s));
#elif HWC_W == 256
    const hwc_v s = _mm256_add_epi64(_mm256_set_epi64x(1, 1, 0, 0), _mm256_set1_epi64x((long long)(HWC_L * i)));
    const hwc_v a = _mm256_sllv_epi64(tb, s);
    const hwc_v h = _mm256_srlv_epi64(tb, _mm256_sub_epi64(_mm256_set1_epi64x(64), s));
#else
    const hwc_v s = _mm512_add_epi64(_mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0), _mm512_set1_epi64((long long)(HWC_L * i)));
    const hwc_v a = _mm512_sllv_epi64(tb, s);
    const hwc_v h = _mm512_srlv_epi64(tb, _mm512_sub_epi64(_mm512_set1_epi64(64), s));
#endif
    /* h: per qword the bits shifted out; low qword's go up, high qword's reduce */
#if HWC_W == 128 || defined(__VPCLMULQDQ__)
    return V_XOR3(a, V_LO_UP(h), V_CLMUL_HI_LO(h, P));
#else
    (void)P;
    const hwc_v r = V_BSRLI(h, 8);
    return V_XOR(V_XOR3(a, V_BSLLI(h, 8), r), V_XOR3(V_SLLI64(r, 1), V_SLLI64(r, 2), V_SLLI64(r, 7)));
#endif
}

/* XTS loop on zmm and ymm with VPCLMULQDQ: two tweak sets (even and odd
   batches) stepped by two batches at a time, with no byte shifts (those
   take the AES/shuffle slots on Zen 5, where VPUNPCKLQDQ, VPSHUFD, AND/XOR
   and VPCLMULQDQ do not; docs/bench.md).
   x^32: rotating each lane's dwords (d0 d1 d2 d3 -> d3 d0 d1 d2) puts d3
   at x^0 instead of x^128 = x^7 + x^2 + x + 1; one carry-less multiply of
   d3 by C adds the rest: C = 0x86 (c86 set), or C = 0x87 with d3 XORed
   out again (one VPTERNLOGD on zmm).
   x^64: the low qword moves up, the high one is reduced by one carry-less
   multiply by 0x87. zmm steps by x^64 (2 x 32 blocks), ymm by x^32. */
#if HWC_L > 1 && defined(__VPCLMULQDQ__)
#define HWC_XTS_STEP2 1
#define HWC_XTS_STEP2_Q (HWC_L == 4 ? 0x87 : 0x86)
HWC_X86_INLINE hwc_v tweak_x32(hwc_v t, hwc_v C, const int c86) {
#if HWC_L == 4
    const hwc_v rot = _mm512_shuffle_epi32(t, (_MM_PERM_ENUM)0x93);
    /* d3 0 0 0: an AND (any ALU port), not a second shuffle */
    const hwc_v top = _mm512_and_si512(rot, _mm512_set_epi32(0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1));
#else
    const hwc_v rot = _mm256_shuffle_epi32(t, 0x93);
    const hwc_v top = _mm256_and_si256(rot, _mm256_set_epi32(0, 0, 0, -1, 0, 0, 0, -1));
#endif
    return c86 ? V_XOR(rot, V_CLMUL_LO_LO(top, C)) : V_XOR3(rot, top, V_CLMUL_LO_LO(top, C));
}

/* The odd set from the even one: x^(L HWC_NB) (zmm x^32, ymm x^16). */
HWC_X86_INLINE hwc_v tweak_odd(hwc_v t, hwc_v P) {
#if HWC_L == 4
    return tweak_x32(t, P, 0);
#else
    return HWC_GF_MULX_BYTES(t, 2, P);
#endif
}

HWC_X86_INLINE hwc_v tweak_step2(hwc_v t, hwc_v Q) {
#if HWC_L == 4
    return V_XOR(V_LO_UP(t), V_CLMUL_HI_LO(t, Q));
#else
    return tweak_x32(t, Q, 1);
#endif
}
#endif

/* The HWC_NB tweak vectors of the first batch with little depth: the first
   8/L from T by tweak_vec, the others by whole-byte shifts (x^8 per byte) of
   those (literal byte counts: one line per vector). */
HWC_X86_INLINE void first_tweaks(hwc_v tv[HWC_NB], hwc_v tb, hwc_v P) {
#if HWC_L == 4
    tv[0] = tweak_vec(tb, 0, P); tv[1] = tweak_vec(tb, 1, P);
    tv[2] = HWC_GF_MULX_BYTES(tv[0], 1, P); tv[3] = HWC_GF_MULX_BYTES(tv[1], 1, P);
    tv[4] = HWC_GF_MULX_BYTES(tv[0], 2, P); tv[5] = HWC_GF_MULX_BYTES(tv[1], 2, P);
    tv[6] = HWC_GF_MULX_BYTES(tv[0], 3, P); tv[7] = HWC_GF_MULX_BYTES(tv[1], 3, P);
#elif HWC_L == 2
    HWC_UNROLL for (int i = 0; i < 4; i++) tv[i] = tweak_vec(tb, (unsigned)i, P);
    HWC_UNROLL for (int i = 4; i < 8; i++) tv[i] = HWC_GF_MULX_BYTES(tv[i - 4], 1, P);
#else
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tv[i] = tweak_vec(tb, (unsigned)i, P);
#endif
}

HWC_X86_INLINE void xts_tail(hwc_xkeys *X, __m128i *tx, uint8_t *out, const uint8_t *in,
                             size_t blocks, const unsigned nr, const int decrypt) {
    for (; blocks; blocks--, in += 16, out += 16) {
        keys_fresh(X);
        const __m128i y = x_xor3(hwc_x86_ld(in), *tx, xkey(X, 0));
        const __m128i kl = _mm_xor_si128(xkey(X, nr), *tx);
        *tx = xmulx1(*tx);
        hwc_x86_st(out, x_last(xrounds_mid(y, X, nr, decrypt), kl, decrypt));
    }
}

/* Middle rounds 1..nr-1 of a batch. With o (the ymm two-set loop of
   xts_body), the other set, in memory, takes its two-batch step meanwhile:
   vector r-1 after round r, r = 1..HWC_NB, its pointer made opaque there so
   that the load stays after that round. Bunched between two batches, the
   eight steps cost 6-7 cycles a batch (docs/bench.md). */
HWC_X86_INLINE void xts_rounds(hwc_v x[HWC_NB], const hwc_keys *K, const unsigned nr, const int decrypt,
                               hwc_v *o, const hwc_v Q) {
#if defined(HWC_XTS_STEP2) && HWC_L == 2
    if (o) {
        const uint8_t *s = K->s;
        HWC_UNROLL for (unsigned r = 1; r < nr; r++) {
            round_n(x, HWC_NB, K, &s, r, decrypt);
            if (r <= HWC_NB) {
                __asm__ __volatile__("" : "+r"(o));
                o[r - 1] = tweak_step2(o[r - 1], Q);
            }
        }
        return;
    }
#endif
    (void)o;
    (void)Q;
    rounds_mid(x, HWC_NB, K, nr, decrypt);
}

/* One batch: HWC_NB vectors with their tweaks tv (o and Q: xts_rounds). */
HWC_X86_INLINE void xts_batch_st(hwc_keys *K, const hwc_v tv[HWC_NB], hwc_v *o, const hwc_v Q,
                                 uint8_t *out, const uint8_t *in, const unsigned nr, const int decrypt) {
    /* with 8 tweaks live, the first and last keys are read for each vector
       (not kept in a register across the batch) unless held */
    hwc_v x[HWC_NB];
    const uint8_t *s = K->s;
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) {
        if (K->lo > 0) __asm__ __volatile__("" : "+r"(s));
        x[i] = V_XOR3(V_LD(in + 16 * HWC_L * i), tv[i], vkey_at(K, s, 0));
    }
    xts_rounds(x, K, nr, decrypt, o, Q);
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) {
        if (K->hi < nr) __asm__ __volatile__("" : "+r"(s));
        V_ST(out + 16 * HWC_L * i, v_last(x[i], V_XOR(vkey_at(K, s, nr), tv[i]), decrypt));
    }
}
HWC_X86_INLINE void xts_batch(hwc_keys *K, const hwc_v tv[HWC_NB], uint8_t *out,
                              const uint8_t *in, const unsigned nr, const int decrypt) {
    xts_batch_st(K, tv, NULL, V_BC(_mm_setzero_si128()), out, in, nr, decrypt);   /* no other set */
}

#if defined(HWC_XTS_STEP2)
/* The batches of the two tweak sets (xts_body). On zmm a set holds
   U = T ^ k_nr, the last round's key with the tweak folded in: the
   whitening takes c = k_0 ^ k_nr and the last round takes U, so a batch has
   no XOR beyond the whitening. Stepping is linear: U x^64 ^ d with
   d = k_nr x^64 ^ k_nr is the next U (one XOR3 with the step's own). On
   ymm (no XOR3 in AVX2, 16 registers) a set holds T, k_nr is 0, and the
   other set o steps within the batch (xts_rounds; zmm: o is NULL). */
HWC_X86_INLINE void xts_set_batch(hwc_keys *K, const hwc_v u[HWC_NB], hwc_v *o, const hwc_v Q,
                                  const hwc_v c, uint8_t *out, const uint8_t *in, const unsigned nr,
                                  const int decrypt) {
#if HWC_L == 4
    hwc_v x[HWC_NB];
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) x[i] = V_XOR3(V_LD(in + 16 * HWC_L * i), u[i], c);
    rounds_mid(x, HWC_NB, K, nr, decrypt);
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) V_ST(out + 16 * HWC_L * i, v_last(x[i], u[i], decrypt));
    (void)o;
    (void)Q;
#else
    (void)c;
    xts_batch_st(K, u, o, Q, out, in, nr, decrypt);
#endif
}

HWC_X86_INLINE hwc_v xts_set_step(hwc_v u, hwc_v Q, hwc_v d) {
#if HWC_L == 4
    return V_XOR3(V_LO_UP(u), V_CLMUL_HI_LO(u, Q), d);
#else
    (void)d;
    return tweak_step2(u, Q);
#endif
}

#if HWC_L == 4
/* The constants of sets that hold T ^ k_nr (xts_set_batch, xts_set_step)
   from the whitening key k0 and the last round's key kn. */
HWC_X86_INLINE void xts_set_consts(const hwc_v k0, const hwc_v kn, const hwc_v Q, hwc_v *c, hwc_v *d) {
    *c = V_XOR(k0, kn);
    *d = V_XOR(tweak_step2(kn, Q), kn);
}
#endif
#endif

#if HWC_L == 4
/* The constants of tweak_u32_mem: the mask of d3's dword and x^128 mod P
   less the x^0 that VPSHUFD's rotation already puts in place. */
static const _Alignas(64) uint32_t xts_x32_mem[32] = {
    0xffffffff, 0, 0, 0, 0xffffffff, 0, 0, 0, 0xffffffff, 0, 0, 0, 0xffffffff, 0, 0, 0,   /* d3's dword */
    0x86, 0, 0, 0, 0x86, 0, 0, 0, 0x86, 0, 0, 0, 0x86, 0, 0, 0};                          /* C = 0x86 */
/* U x^32 ^ d on *u in place, for a set that holds U = T ^ k_nr: by
   linearity (T x^32) ^ k_nr = U x^32 ^ d with d = k_nr x^32 ^ k_nr
   (xts_held_many's cd[1]). Every constant is a memory operand: with 8 data,
   8 tweak and 9 key registers live, constants held in registers made gcc
   spill round keys (tests/test_stack_scan.c). */
HWC_X86_INLINE void tweak_u32_mem(hwc_v *u, const hwc_v *d) {
    hwc_v top, prod;
    __asm__("vpshufd $0x93, %[u], %[u]\n\t"
            "vpandd %[mask], %[u], %[top]\n\t"
            "vpclmulqdq $0x00, %[p], %[top], %[prod]\n\t"
            "vpternlogd $0x96, %[d], %[prod], %[u]"
            : [u] "+v"(*u), [top] "=&v"(top), [prod] "=&v"(prod)
            : [mask] "m"(*(const __m512i *)(const void *)xts_x32_mem),
              [p] "m"(*(const __m512i *)(const void *)(xts_x32_mem + 16)), [d] "m"(*d));
}

/* A batch of the held loop with its set's x^32 step among the rounds. The
   set holds U = T ^ k_nr: the whitening XORs the data with U and
   cd[0] = k_0 ^ k_nr, the last round takes U as its key. U goes to kb (the
   caller's frame, wiped by it) before the rounds, so that u[r - 1] can be
   stepped right after round r. Stepped after the batch, the eight steps
   sit between two batches' chains (4.5 cycles per batch on Zen 5,
   docs/aes-batch.md). */
HWC_X86_INLINE void xts_batch_held(hwc_keys *K, hwc_v u[HWC_NB], hwc_v *kb, const hwc_v *cd, const hwc_v P,
                                   uint8_t *out, const uint8_t *in, const unsigned nr, const int decrypt) {
    hwc_v x[HWC_NB];
    const uint8_t *s = K->s;
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) {
        x[i] = V_XOR3(V_LD(in + 16 * HWC_L * i), u[i], cd[0]);
        kb[i] = u[i];
    }
    __asm__ __volatile__("" : "+r"(kb));   /* kb's stores stay; the last round reads them back */
    HWC_UNROLL for (unsigned r = 1; r < nr; r++) {
        round_n(x, HWC_NB, K, &s, r, decrypt);
        if (r <= HWC_NB) {
#if !defined(HWC_CT_MSAN)   /* MSan checks asm operands like branch conditions (internal/ct.h) */
            tweak_u32_mem(&u[r - 1], &cd[1]);
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) __asm__ __volatile__("" : "+v"(x[i]));
#else
            u[r - 1] = V_XOR(tweak_odd(u[r - 1], P), cd[1]);
#endif
        }
    }
    (void)P;
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) V_ST(out + 16 * HWC_L * i, v_last(x[i], kb[i], decrypt));
}
/* Units of this many blocks (and fewer than HWC_XTS_WIDE_BLOCKS) take
   xts_held_many; units of one or two batches measured slower with the
   steps among the rounds (docs/aes-batch.md). */
#define HWC_XTS_HELD_MANY (4 * HWC_NB * HWC_L)

/* xts_n's whole batches for such units: one tweak set of U = T ^ k_nr
   stepped among the rounds (xts_batch_held), the middle keys held in
   registers; k_0 and k_nr enter only through the set and two folded
   constants in a frame buffer (memory operands). Every batch steps, the
   last one too: its first tweak is then the next block's, and no key is
   used outside the loop (with a last batch of its own after the loop, gcc
   kept a second copy of the keys and spilled it). *tx, *out, *in, *blocks
   are advanced past the whole batches. */
HWC_X86_INLINE void xts_held_many(const uint8_t *keys, __m128i *tx, uint8_t **outp, const uint8_t **inp,
                                  size_t *blocksp, const unsigned nr, const int decrypt) {
    const hwc_v P = V_BC(_mm_cvtsi32_si128(0x87));
    uint8_t *out = *outp;
    const uint8_t *in = *inp;
    size_t blocks = *blocksp;
    hwc_keys K;
    load_keys(&K, keys, nr);
    const hwc_v k0 = vkey(&K, 0), kn = vkey(&K, nr);
    hold_keys_of(&K, nr, 1);
    hwc_v cd[2], u[HWC_NB], klb[HWC_NB];
    cd[0] = V_XOR(k0, kn);
    cd[1] = V_XOR(tweak_odd(kn, P), kn);
    first_tweaks(u, V_BC(*tx), P);
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) u[i] = V_XOR(u[i], kn);
    __asm__ __volatile__("" : : "r"(cd) : "memory");   /* cd in memory */
    do {
        keys_fresh(&K);
        xts_batch_held(&K, u, klb, cd, P, out, in, nr, decrypt);
        in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
    } while (blocks >= HWC_NB * HWC_L);
    hwc_wipe_inline(klb, sizeof klb);
    *tx = V_LOW(V_XOR(u[0], vkey(&K, nr)));
    hwc_wipe_inline(cd, sizeof cd);
    *outp = out;
    *inp = in;
    *blocksp = blocks;
}
#endif

/* One data unit (or a run of blocks) with the round keys K already loaded:
   *tx is the tweak of the first block, left at the one after the last. */
/* held (zmm): one tweak set, round keys in registers; else two tweak sets
   (zmm: keys from a wide_keys buffer, see xts_n). xts_n gives units of
   HWC_XTS_HELD_MANY up to HWC_XTS_WIDE_BLOCKS blocks to xts_held_many
   first, so its held path sees them only from xts_unit_held (sectors
   whose size is not a whole number of batches). */
HWC_X86_INLINE void xts_body(hwc_keys *K, __m128i *tx, uint8_t *out, const uint8_t *in,
                             size_t blocks, const unsigned nr, const int decrypt, const int held) {
    const hwc_v P = V_BC(_mm_cvtsi32_si128(0x87));
#if HWC_L == 4
    /* zmm: one tweak set stepped by x^32 after each batch (VPSHUFD and
       VPCLMULQDQ: no AES slots), the round keys in registers: 8 data + 8
       tweak + 11 key registers (AES-128), the middle 11 or 13 otherwise. */
    if (held && blocks >= HWC_NB * HWC_L) {
        hwc_keys H = *K;
        hold_keys_of(&H, nr, nr > 10);   /* AES-128: every key fits */
        /* AES-192/256 from the schedule: the first and last keys from a
           frame buffer (memory operands), not a broadcast per vector */
        hwc_v ends[15];
        const int outer = nr > 10 && K->stride == 16;
        if (outer) wide_keys_of(&H, ends, nr, 1);
        hwc_v tv[HWC_NB];
        first_tweaks(tv, V_BC(*tx), P);
        for (;;) {
            keys_fresh(&H);
            xts_batch(&H, tv, out, in, nr, decrypt);
            in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
            if (blocks < HWC_NB * HWC_L) break;
            for (int i = 0; i < HWC_NB; i++) tv[i] = tweak_odd(tv[i], P);   /* (unrolled by both compilers) */
        }
        *tx = V_LOW(tweak_odd(tv[0], P));
        if (outer) wide_keys_end_of(ends, nr, 1);
    } else
#else
    (void)held;
#endif
    if (blocks >= HWC_NB * HWC_L) {
        hwc_keys H = *K;
        hwc_v tv[HWC_NB];
        first_tweaks(tv, V_BC(*tx), P);
        xts_batch(&H, tv, out, in, nr, decrypt);
        in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
#if defined(HWC_XTS_STEP2)
        /* Two tweak sets, the odd one set up only when a second batch
           follows (a unit of one batch pays nothing for it). */
        if (blocks >= HWC_NB * HWC_L) {
            const hwc_v Q = V_BC(_mm_cvtsi32_si128(HWC_XTS_STEP2_Q));
            hwc_v tw[HWC_NB];
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tw[i] = tweak_odd(tv[i], P);
            /* zmm: both sets hold T ^ k_nr (xts_set_batch) */
#if HWC_L == 4
            const hwc_v kn = vkey(&H, nr);
            hwc_v c, d;
            xts_set_consts(vkey(&H, 0), kn, Q, &c, &d);
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) {
                tv[i] = V_XOR(tv[i], kn);
                tw[i] = V_XOR(tw[i], kn);
            }
#else
            const hwc_v kn = V_BC(_mm_setzero_si128()), c = kn, d = kn;
#endif
            /* a set is stepped only when a batch of its own follows the
               other set's; after the last batch, only the next tweak */
            for (;;) {
                keys_fresh(&H);
                int more = blocks >= 2 * HWC_NB * HWC_L;
                /* zmm steps a set here, ymm within the other's batch */
                if (HWC_L == 4 && more) HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tv[i] = xts_set_step(tv[i], Q, d);
                xts_set_batch(&H, tw, HWC_L == 4 || !more ? NULL : tv, Q, c, out, in, nr, decrypt);
                in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
                if (!more) {
                    tv[0] = tweak_odd(V_XOR(tw[0], kn), P);
                    break;
                }
                more = blocks >= 2 * HWC_NB * HWC_L;
                if (HWC_L == 4 && more) HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tw[i] = xts_set_step(tw[i], Q, d);
                keys_fresh(&H);
                xts_set_batch(&H, tv, HWC_L == 4 || !more ? NULL : tw, Q, c, out, in, nr, decrypt);
                in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
                if (!more) {
                    tv[0] = tweak_odd(V_XOR(tv[0], kn), P);
                    break;
                }
            }
            *tx = V_LOW(tv[0]);
        } else {
            *tx = V_LOW(tweak_odd(tv[0], P));
        }
#else
        while (blocks >= HWC_NB * HWC_L) {
            keys_fresh(&H);
            /* next batch's tweaks: x^(8 L) = L bytes; they overlap this
               batch's rounds in the out-of-order window */
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tv[i] = HWC_GF_MULX_BYTES(tv[i], HWC_L, P);
            xts_batch(&H, tv, out, in, nr, decrypt);
            in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB; blocks -= HWC_L * HWC_NB;
        }
        /* T x^(blocks done): lane 0 of the next batch's first vector */
        *tx = _mm_xor_si128(_mm_slli_si128(V_LOW(tv[0]), HWC_L),
                            _mm_clmulepi64_si128(_mm_srli_si128(V_LOW(tv[0]), 16 - HWC_L),
                                                 V_LOW(P), 0x00));
#endif
    }
    if (blocks >= HWC_L) {
        const hwc_v tb = V_BC(*tx);
        unsigned r = 0;
        for (; blocks >= HWC_L; r++) {
            keys_fresh(K);
            const hwc_v tw = tweak_vec(tb, r, P);
            hwc_v x[1] = {V_XOR3(V_LD(in), tw, vkey(K, 0))};
            const hwc_v kl = V_XOR(vkey(K, nr), tw);
            rounds_mid(x, 1, K, nr, decrypt);
            V_ST(out, v_last(x[0], kl, decrypt));
            in += 16 * HWC_L; out += 16 * HWC_L; blocks -= HWC_L;
        }
        *tx = V_LOW(tweak_vec(tb, r, P));
    }
    if (HWC_W > 128 && blocks) {
        hwc_xkeys X;
        xkeys_from(&X, K);
        xts_tail(&X, tx, out, in, blocks, nr, decrypt);
    }
}

#if HWC_L == 4
/* The tweak-set pointers of xts_skew and xts_units_pipe, opaque to the
   compiler. */
HWC_X86_INLINE void units_fresh(hwc_v **tv, hwc_v **tw, hwc_v **nx) {
    __asm__ __volatile__("" : "+r"(*tv), "+r"(*tw), "+r"(*nx));
}

/* One step of xts_skew: the rest of the batch in a[] (rounds nr/2+1..nr
   and its output, tweaks tc) with, when more is set, the whitening and
   rounds 1..nr/2 of the next batch (tweaks tn) into a[]. One round of each
   per sub-step, the finishing batch's first. */
HWC_X86_INLINE void xts_skew_step(hwc_keys *K, hwc_v a[HWC_NB], const hwc_v *tc, const hwc_v *tn,
                                  uint8_t *out, const uint8_t *in, const int more, const unsigned nr,
                                  const int decrypt) {
    const uint8_t *s = K->s;
    const unsigned h = nr / 2;
    hwc_v n[HWC_NB];
    if (more) {
        const uint8_t *next = in + 16 * HWC_L * HWC_NB;
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++)
            n[i] = V_XOR3(V_LD(next + 16 * HWC_L * i), tn[i], vkey_at(K, s, 0));
    }
#define HWC_SKEW_SUB(j)                                                                           \
    if ((j) < h) {                                                                                \
        if ((j) + 1 < h) {                                                                        \
            round_n(a, HWC_NB, K, &s, h + 1 + (j), decrypt);                                      \
        } else {                                                                                  \
            __asm__ __volatile__("" : "+r"(s));                                                   \
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++)                                           \
                V_ST(out + 16 * HWC_L * i, v_last(a[i], V_XOR(vkey_at(K, s, nr), tc[i]), decrypt)); \
        }                                                                                         \
        if (more) round_n(n, HWC_NB, K, &s, 1 + (j), decrypt);                                    \
    }
    HWC_SKEW_SUB(0) HWC_SKEW_SUB(1) HWC_SKEW_SUB(2) HWC_SKEW_SUB(3)
    HWC_SKEW_SUB(4) HWC_SKEW_SUB(5) HWC_SKEW_SUB(6)
#undef HWC_SKEW_SUB
    if (more) {
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) a[i] = n[i];
    }
}

/* The whole batches of a zmm call of HWC_XTS_WIDE_BLOCKS blocks and more
   (keys K from a wide_keys buffer) overlapped in program order: a step
   finishes one batch's rounds nr/2+1..nr while the next batch runs its
   first half, so the AES units never wait for eight new chains to start
   (docs/aes-batch.md). The two tweak sets are key material: they live in
   sets (the caller's frame, wiped by it) and are read through pointers
   made opaque for each step, as in xts_units_pipe; each is stepped by two
   batches once its batch is done. *tx, *out, *in, *blocks are advanced
   past the whole batches. */
HWC_X86_INLINE void xts_skew(hwc_keys *K, hwc_v sets[2][HWC_NB], __m128i *tx, uint8_t **outp,
                             const uint8_t **inp, size_t *blocksp, const unsigned nr, const int decrypt) {
    const size_t bb = HWC_NB * HWC_L;   /* blocks per batch */
    const hwc_v P = V_BC(_mm_cvtsi32_si128(0x87));
    const hwc_v Q = V_BC(_mm_cvtsi32_si128(HWC_XTS_STEP2_Q));
    uint8_t *out = *outp;
    const uint8_t *in = *inp;
    size_t blocks = *blocksp;
    hwc_v *tc = sets[0], *tn = sets[1], *sw = NULL;
    first_tweaks(tc, V_BC(*tx), P);
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tn[i] = tweak_odd(tc[i], P);
    hwc_v a[HWC_NB];
    {
        const uint8_t *s = K->s;
        units_fresh(&tc, &tn, &sw);
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) a[i] = V_XOR3(V_LD(in + 16 * HWC_L * i), tc[i], vkey_at(K, s, 0));
        round_n(a, HWC_NB, K, &s, 1, decrypt); round_n(a, HWC_NB, K, &s, 2, decrypt);
        round_n(a, HWC_NB, K, &s, 3, decrypt); round_n(a, HWC_NB, K, &s, 4, decrypt);
        round_n(a, HWC_NB, K, &s, 5, decrypt);
        if (nr > 10) round_n(a, HWC_NB, K, &s, 6, decrypt);
        if (nr > 12) round_n(a, HWC_NB, K, &s, 7, decrypt);
    }
    while (blocks >= 2 * bb) {
        keys_fresh(K);
        units_fresh(&tc, &tn, &sw);
        xts_skew_step(K, a, tc, tn, out, in, 1, nr, decrypt);
        if (blocks >= 3 * bb) {
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tc[i] = tweak_step2(tc[i], Q);
        }
        sw = tc;
        tc = tn;
        tn = sw;
        in += 16 * bb; out += 16 * bb; blocks -= bb;
    }
    keys_fresh(K);
    units_fresh(&tc, &tn, &sw);
    xts_skew_step(K, a, tc, tn, out, in, 0, nr, decrypt);
    *tx = V_LOW(tweak_odd(tc[0], P));
    *outp = out + 16 * bb;
    *inp = in + 16 * bb;
    *blocksp = blocks - bb;
}
#endif

/* zmm: from this many blocks on, XTS broadcasts the keys once into a
   wide_keys buffer (filling and wiping it costs more than holding the keys
   below that) and runs two tweak sets. */
#define HWC_XTS_WIDE_BLOCKS 512

#if HWC_L == 4
/* xts_held_many out of line: inlined into xts_n beside xts_body's held
   path, it made gcc allocate that path anew (6 instructions more in a
   512-byte unit's call, 2-3% slower). The tweak goes through t, not a
   register: a call clobbers every vector register. */
static __attribute__((noinline)) void xts_many_call(const uint8_t *keys, uint8_t t[16], uint8_t **out,
                                                    const uint8_t **in, size_t *blocks, const unsigned nr,
                                                    const int decrypt) {
    __m128i tx = hwc_x86_ld(t);
    HWC_BY_ROUNDS(nr, n, xts_held_many(keys, &tx, out, in, blocks, n, decrypt));
    hwc_x86_st(t, tx);
}
#endif

HWC_X86_INLINE void xts_n(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                          size_t blocks, const unsigned nr, const int decrypt) {
#if HWC_L == 4
    if (blocks >= HWC_XTS_HELD_MANY && blocks < HWC_XTS_WIDE_BLOCKS)
        xts_many_call(sched_of(k, decrypt), t, &out, &in, &blocks, nr, decrypt);
#endif
    __m128i tx = hwc_x86_ld(t);
    if (xmm_only(blocks)) {
        hwc_xkeys X;
        load_xkeys(&X, sched_of(k, decrypt), nr);
        xts_tail(&X, &tx, out, in, blocks, nr, decrypt);
    } else {
        hwc_keys K;
        load_keys(&K, sched_of(k, decrypt), nr);
        if (HWC_L == 4 && blocks >= HWC_XTS_WIDE_BLOCKS) {
            hwc_v wide[15];
            wide_keys(&K, wide, nr);
#if HWC_L == 4
            /* AES-192/256 (AES-128 measured 4% slower overlapped) */
            if (nr > 10) {
                hwc_v sets[2][HWC_NB];
                xts_skew(&K, sets, &tx, &out, &in, &blocks, nr, decrypt);
                hwc_wipe_inline(sets, sizeof sets);
            }
#endif
            xts_body(&K, &tx, out, in, blocks, nr, decrypt, 0);
            wide_keys_end(wide, nr);
        } else {
            xts_body(&K, &tx, out, in, blocks, nr, decrypt, 1);
        }
    }
    hwc_x86_st(t, tx);
}

/* One unit on its own (not inlined into the units loop: the loop's own
   values would crowd its registers and push keys into spill slots). */
static __attribute__((noinline)) void xts_unit_held(const uint8_t *keys, __m128i *tx, uint8_t *out,
                                                    const uint8_t *in, size_t blocks, const unsigned nr,
                                                    const int decrypt) {
    hwc_keys K;
    load_keys(&K, keys, nr);
    K.stride = HWC_L == 4 ? 64 : 16;   /* zmm: a wide_keys buffer (xts_units_n) */
    HWC_BY_ROUNDS(nr, n, xts_body(&K, tx, out, in, blocks, n, decrypt, 1));
}

#if HWC_L == 4

/* zmm units of whole batches (units > 0, unit_blocks a non-zero multiple
   of HWC_NB L), keys K from a wide_keys buffer (memory operands: no key
   registers). The tweak sets are key material and, with the keys, data
   and constants, more than the registers hold: they live in sets, three
   sets of HWC_NB vectors of the caller's frame that it wipes, read through
   pointers made opaque for each batch (no register copy lives across
   batches, so the compiler spills none). Within a unit two sets step by two
   batches each, as in xts_body; the next unit's first set is made (all
   from T by tweak_vec: no AES/shuffle slots) before the current unit's last
   batch: no tweak latency between units. */
HWC_X86_INLINE void xts_units_pipe(hwc_keys *K, hwc_v sets[3][HWC_NB], const uint8_t *t, size_t units,
                                   size_t unit_blocks, uint8_t *out, const uint8_t *in,
                                   const unsigned nr, const int decrypt) {
    const hwc_v P = V_BC(_mm_cvtsi32_si128(0x87));
    hwc_v *tv = sets[0], *tw = sets[1], *nx = sets[2];
    const hwc_v Q = V_BC(_mm_cvtsi32_si128(HWC_XTS_STEP2_Q));
    /* the sets hold T ^ k_nr (xts_set_batch); d carries k_nr through the
       x^64 steps (k_0 and k_nr from the key buffer's first lanes: no key
       is held here) */
    const hwc_v kn = V_BC(xkey(K, nr));
    hwc_v c, d;
    xts_set_consts(V_BC(xkey(K, 0)), kn, Q, &c, &d);
    hwc_v tb = V_BC(hwc_x86_ld(t));
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tv[i] = V_XOR(tweak_vec(tb, (unsigned)i, P), kn);
    for (;;) {
        size_t b = unit_blocks / (HWC_NB * HWC_L);
        if (b > 1) {
            /* two sets, each stepped by two batches (as in xts_body) */
            HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tw[i] = V_XOR(tweak_odd(V_XOR(tv[i], kn), P), kn);
            for (; b > 2; b -= 2) {
                keys_fresh(K);
                units_fresh(&tv, &tw, &nx);
                xts_set_batch(K, tv, NULL, Q, c, out, in, nr, decrypt);
                in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB;
                HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tv[i] = xts_set_step(tv[i], Q, d);
                keys_fresh(K);
                units_fresh(&tv, &tw, &nx);
                xts_set_batch(K, tw, NULL, Q, c, out, in, nr, decrypt);
                in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB;
                HWC_UNROLL for (int i = 0; i < HWC_NB; i++) tw[i] = xts_set_step(tw[i], Q, d);
            }
            if (b == 2) {
                keys_fresh(K);
                units_fresh(&tv, &tw, &nx);
                xts_set_batch(K, tv, NULL, Q, c, out, in, nr, decrypt);
                in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB;
                hwc_v *x = tv;
                tv = tw;
                tw = x;
            }
        }
        keys_fresh(K);
        units_fresh(&tv, &tw, &nx);
        if (--units == 0) break;
        t += 16;
        tb = V_BC(hwc_x86_ld(t));
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) nx[i] = V_XOR(tweak_vec(tb, (unsigned)i, P), kn);
        xts_set_batch(K, tv, NULL, Q, c, out, in, nr, decrypt);
        in += 16 * HWC_L * HWC_NB; out += 16 * HWC_L * HWC_NB;
        hwc_v *x = tv;
        tv = nx;
        nx = x;
    }
    xts_set_batch(K, tv, NULL, Q, c, out, in, nr, decrypt);
}
#endif

/* units data units of unit_blocks blocks, tweaks t[16u..]: keys loaded once. */
HWC_X86_INLINE void xts_units_n(const hwc_aes_key *k, const uint8_t *t, size_t units,
                                size_t unit_blocks, uint8_t *out, const uint8_t *in,
                                const unsigned nr, const int decrypt) {
    const size_t step = 16 * unit_blocks;
    if (xmm_only(unit_blocks)) {
        hwc_xkeys X;
        load_xkeys(&X, sched_of(k, decrypt), nr);
        for (; units; units--, t += 16, out += step, in += step) {
            keys_fresh(&X);
            __m128i tx = hwc_x86_ld(t);
            xts_tail(&X, &tx, out, in, unit_blocks, nr, decrypt);
        }
        return;
    }
    hwc_keys K;
    load_keys(&K, sched_of(k, decrypt), nr);
    /* zmm: the keys broadcast once for the whole call; each unit takes them
       into registers with plain loads (no shuffle slots per unit) */
    hwc_v wide[15];
    if (HWC_L == 4) wide_keys(&K, wide, nr);
#if HWC_L == 4
    if (units && unit_blocks && unit_blocks % (HWC_NB * HWC_L) == 0) {
        hwc_v sets[3][HWC_NB];
        xts_units_pipe(&K, sets, t, units, unit_blocks, out, in, nr, decrypt);
        hwc_wipe_inline(sets, sizeof sets);
        units = 0;
    }
#endif
    const int per_unit = units > 0;
    for (; units; units--, t += 16, out += step, in += step) {
        keys_fresh(&K);
        __m128i tx = hwc_x86_ld(t);
        xts_unit_held(K.s, &tx, out, in, unit_blocks, nr, decrypt);
    }
    if (HWC_L == 4) {
        wide_keys_end(wide, nr);
        /* xts_unit_held's frame holds spilled tweaks (8 tweak, 8 data and
           the key registers do not fit in 32); this kernel declares its XTS
           frames clean, so it scrubs that dead frame itself */
        if (per_unit) hwc_stack_scrub(HWC_SCRUB_XTS);
    }
}

static void xts_enc(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
    HWC_BY_ROUNDS(k->rounds, nr, xts_n(k, t, out, in, blocks, nr, 0));
}

static void xts_dec(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
    HWC_BY_ROUNDS(k->rounds, nr, xts_n(k, t, out, in, blocks, nr, 1));
}

static void xts_enc_units(const hwc_aes_key *k, const uint8_t *t, size_t units, size_t unit_blocks,
                          uint8_t *out, const uint8_t *in) {
    HWC_BY_ROUNDS(k->rounds, nr, xts_units_n(k, t, units, unit_blocks, out, in, nr, 0));
}

static void xts_dec_units(const hwc_aes_key *k, const uint8_t *t, size_t units, size_t unit_blocks,
                          uint8_t *out, const uint8_t *in) {
    HWC_BY_ROUNDS(k->rounds, nr, xts_units_n(k, t, units, unit_blocks, out, in, nr, 1));
}

#endif
