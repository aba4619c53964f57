/* Width-generic AES mode loops for the x86 kernels (aesni: xmm, vaes-avx2:
 * ymm, avx512: zmm). A kernel file defines HWC_W (128, 256 or 512), then
 * includes this header once: the loops below are written once as
 * always-inline functions and compiled at that vector width with the
 * kernel's own target flags. XTS (aes_x86_xts.h) and the lane step of many
 * messages (aes_x86_lanes.h) are parts of it that it includes. Every macro
 * of the template is #undef'd at its end but HWC_X86_AES_MODE_SLOTS, the
 * kernel table's mode slots.
 *
 * Shape of every parallel mode: HWC_NB vectors of HWC_L = HWC_W/128 blocks
 * in flight (8 x 4 = 32 blocks on zmm), round keys broadcast once per call
 * and held in registers, then the vectors left in a group of 4 and one of
 * 3, 2 or 1 (HWC_REST; XTS: one vector at a time), then single blocks on
 * xmm in groups of up to 3 (HWC_XREST); a
 * message shorter than one vector stays on xmm. Each mode is instantiated
 * per key size (10/12/14 rounds) and direction (a constant `decrypt`), so
 * only the keys in use take registers. The last XOR of each block is folded
 * into the last round: AESENCLAST(a, k ^ b) = AESENCLAST(a, k) ^ b. CBC
 * encryption and the CMAC chain are one AESENC chain per call with the next
 * message block folded into the previous block's last round key (latency
 * bound: rounds x AESENC latency / 16 c/B).
 *
 * Standards: FIPS-197 (cipher, equivalent inverse cipher), SP 800-38A (ECB,
 * CBC, CTR), IEEE 1619-2018 / SP 800-38E (XTS), SP 800-38B (CMAC).
 * Constant time: AES-NI/VAES have no data-dependent timing; the only branches
 * are on lengths and on the (public) counter value. */
#ifndef HWC_IMPL_X86_AES_X86_MODES_H
#define HWC_IMPL_X86_AES_X86_MODES_H

#include "aes_x86_keysched.h"

#if !defined(HWC_W)
#error "define HWC_W first"
#endif

/* Vectors in flight: covers AESENC latency x issue rate (3-4 cycles x 2 per
   cycle on Zen 4/5 and Intel ymm; 1 per cycle for zmm on Intel). */
#define HWC_NB 8

/* ---- vector primitives at width HWC_W -------------------------------------- */
#if HWC_W == 128
typedef __m128i hwc_v;
#define HWC_L 1
#define V_LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define V_ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define V_BC(x) (x)
#define V_LOW(v) (v)
#define V_TOP(v) (v)
#define V_ENC _mm_aesenc_si128
#define V_ENCL _mm_aesenclast_si128
#define V_DEC _mm_aesdec_si128
#define V_DECL _mm_aesdeclast_si128
#define V_XOR _mm_xor_si128
#define V_ADD64 _mm_add_epi64
#define V_SHUF8 _mm_shuffle_epi8
#define V_SLLI64 _mm_slli_epi64
#define V_SRLI64 _mm_srli_epi64
#define V_CLMUL_LO_LO(a, b) _mm_clmulepi64_si128(a, b, 0x00)
#define V_CLMUL_HI_LO(a, b) _mm_clmulepi64_si128(a, b, 0x01)
/* each lane's low qword moved up, zero below (VPUNPCKLQDQ, not a byte shift) */
#define V_LO_UP(v) _mm_unpacklo_epi64(_mm_setzero_si128(), v)
/* lanes [c, v0, ..., v(L-2)]: the block before each block of v */
#define V_PREV(c, v) (c)
#define V_BSLLI(v, b) _mm_slli_si128(v, b)
#define V_BSRLI(v, b) _mm_srli_si128(v, b)
#elif HWC_W == 256
typedef __m256i hwc_v;
#define HWC_L 2
#define V_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_ST(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_BC(x) _mm256_broadcastsi128_si256(x)
#define V_LOW(v) _mm256_castsi256_si128(v)
#define V_TOP(v) _mm256_extracti128_si256(v, 1)
#define V_ENC _mm256_aesenc_epi128
#define V_ENCL _mm256_aesenclast_epi128
#define V_DEC _mm256_aesdec_epi128
#define V_DECL _mm256_aesdeclast_epi128
#define V_XOR _mm256_xor_si256
#define V_ADD64 _mm256_add_epi64
#define V_SHUF8 _mm256_shuffle_epi8
#define V_SLLI64 _mm256_slli_epi64
#define V_SRLI64 _mm256_srli_epi64
#define V_CLMUL_LO_LO(a, b) _mm256_clmulepi64_epi128(a, b, 0x00)
#define V_CLMUL_HI_LO(a, b) _mm256_clmulepi64_epi128(a, b, 0x01)
/* each lane's low qword moved up, zero below (VPUNPCKLQDQ, not a byte shift) */
#define V_LO_UP(v) _mm256_unpacklo_epi64(_mm256_setzero_si256(), v)
#define V_PREV(c, v) _mm256_permute2x128_si256(_mm256_castsi128_si256(c), v, 0x20)
#define V_BSLLI(v, b) _mm256_bslli_epi128(v, b)
#define V_BSRLI(v, b) _mm256_bsrli_epi128(v, b)
#elif HWC_W == 512
typedef __m512i hwc_v;
#define HWC_L 4
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_BC(x) _mm512_broadcast_i32x4(x)
#define V_LOW(v) _mm512_castsi512_si128(v)
#define V_TOP(v) _mm512_extracti32x4_epi32(v, 3)
#define V_ENC _mm512_aesenc_epi128
#define V_ENCL _mm512_aesenclast_epi128
#define V_DEC _mm512_aesdec_epi128
#define V_DECL _mm512_aesdeclast_epi128
#define V_XOR _mm512_xor_si512
#define V_ADD64 _mm512_add_epi64
#define V_SHUF8 _mm512_shuffle_epi8
#define V_SLLI64 _mm512_slli_epi64
#define V_SRLI64 _mm512_srli_epi64
#define V_CLMUL_LO_LO(a, b) _mm512_clmulepi64_epi128(a, b, 0x00)
#define V_CLMUL_HI_LO(a, b) _mm512_clmulepi64_epi128(a, b, 0x01)
/* each lane's low qword moved up, zero below (VPUNPCKLQDQ, not a byte shift) */
#define V_LO_UP(v) _mm512_unpacklo_epi64(_mm512_setzero_si512(), v)
#define V_PREV(c, v) _mm512_alignr_epi64(v, _mm512_broadcast_i32x4(c), 6)
#define V_BSLLI(v, b) _mm512_bslli_epi128(v, b)
#define V_BSRLI(v, b) _mm512_bsrli_epi128(v, b)
#else
#error "HWC_W must be 128, 256 or 512"
#endif

/* Three-way XOR: one VPTERNLOGD where AVX-512VL exists. */
#if HWC_W == 512
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
#elif HWC_W == 256 && defined(__AVX512VL__)
#define V_XOR3(a, b, c) _mm256_ternarylogic_epi32(a, b, c, 0x96)
#elif HWC_W == 128 && defined(__AVX512VL__)
#define V_XOR3(a, b, c) _mm_ternarylogic_epi32(a, b, c, 0x96)
#else
#define V_XOR3(a, b, c) V_XOR(V_XOR(a, b), c)
#endif

HWC_X86_INLINE __m128i x_xor3(__m128i a, __m128i b, __m128i c) {
#if defined(__AVX512VL__)
    return _mm_ternarylogic_epi32(a, b, c, 0x96);
#else
    return _mm_xor_si128(_mm_xor_si128(a, b), c);
#endif
}

/* Loops over vectors and rounds are fully unrolled, so that every array
   index is a constant and the arrays live in registers. */
#if defined(__clang__)
#define HWC_UNROLL _Pragma("clang loop unroll(full)")
#else
#define HWC_UNROLL _Pragma("GCC unroll 16")
#endif

/* One middle / last round at width HWC_W and on xmm; decrypt is a constant. */
HWC_X86_INLINE hwc_v v_round(hwc_v x, hwc_v k, const int decrypt) {
    return decrypt ? V_DEC(x, k) : V_ENC(x, k);
}
HWC_X86_INLINE hwc_v v_last(hwc_v x, hwc_v k, const int decrypt) {
    return decrypt ? V_DECL(x, k) : V_ENCL(x, k);
}
HWC_X86_INLINE __m128i x_round(__m128i x, __m128i k, const int decrypt) {
    return decrypt ? _mm_aesdec_si128(x, k) : _mm_aesenc_si128(x, k);
}
HWC_X86_INLINE __m128i x_last(__m128i x, __m128i k, const int decrypt) {
    return decrypt ? _mm_aesdeclast_si128(x, k) : _mm_aesenclast_si128(x, k);
}

/* The round keys of one direction in the schedule (core/ never mixes them). */
HWC_X86_INLINE const uint8_t *sched_of(const hwc_aes_key *k, const int decrypt) {
    return k->sched + (decrypt ? HWC_X86_DEC_OFF : 0);
}

/* Round keys are never held in registers across a whole call: all of them
   live at once (15 for AES-256) next to the data and the tail paths make the
   compiler spill them to its frame, where nothing clears them (no key
   material may stay on the stack: tests/test_stack_scan.c). Each use reads
   the key from the schedule instead: on xmm a memory operand of AESENC, on
   ymm a broadcast from memory (a load only). Every loop iteration makes the
   schedule pointer opaque (keys_fresh), so that no load is hoisted out of
   the loop into a register that lives, and spills, across iterations.
   On zmm a broadcast also takes a shuffle slot, an AES slot on Zen 5
   (docs/bench.md): the loops that fill the AES units (HWC_NB vectors in
   flight) take the broadcast keys into registers for that loop only
   (hold_keys: 8 data + 15 key registers of 32); the groups of 4 vectors
   or fewer after them and the tails read them per use. A call that runs many
   steps with more live vectors than leave room for the keys (the lanes)
   broadcasts them once into a buffer of its own frame (wide_keys), reads
   them from there as full-width memory operands, and wipes it before it
   returns; XTS with AES-192/256 holds the middle keys and reads the first
   and last from such a buffer (wide_keys_of, outer). */
/* A schedule entry: 16-byte aligned (hwc_aes_key.sched is 64-byte aligned),
   so that even legacy-SSE AESENC takes it as a memory operand. */
HWC_X86_INLINE __m128i sched_ld(const uint8_t *p) { return _mm_load_si128((const __m128i *)(const void *)p); }

typedef struct {
    const uint8_t *s;   /* the schedule of one direction, or a wide_keys buffer */
    unsigned stride;    /* bytes from one round key to the next: 16, or 64 (wide_keys) */
    unsigned lo, hi;    /* zmm loops: k[lo..hi] hold those round keys (none: lo > hi) */
    hwc_v k[15];
} hwc_keys;

HWC_X86_INLINE void load_keys(hwc_keys *K, const uint8_t *s, const unsigned nr) {
    (void)nr;
    K->s = s;
    K->stride = 16;
    K->lo = 1;
    K->hi = 0;
}
/* zmm: the round keys of K broadcast into w[0..nr] (outer: only w[0] and
   w[nr], the keys that hold_keys_of(K, nr, 1) leaves out; the other entries
   unused), K reading them there as full-width memory operands; the caller
   wipes w (wide_keys_end_of, same outer) before it returns. */
HWC_X86_INLINE void wide_keys_of(hwc_keys *K, hwc_v w[15], const unsigned nr, const int outer) {
#if HWC_W == 512
    HWC_UNROLL for (unsigned r = 0; r < 15; r++)
        if (r <= nr && (!outer || r == 0 || r == nr)) w[r] = V_BC(sched_ld(K->s + 16 * r));
    K->s = (const uint8_t *)w;
    K->stride = 64;
#else
    (void)K;
    (void)w;
    (void)nr;
    (void)outer;
#endif
}
HWC_X86_INLINE void wide_keys_end_of(hwc_v w[15], const unsigned nr, const int outer) {
#if HWC_W == 512
    if (outer) {
        hwc_wipe_inline(&w[0], sizeof w[0]);
        hwc_wipe_inline(&w[nr], sizeof w[0]);
    } else {
        hwc_wipe_inline(w, 64 * (nr + 1));
    }
#else
    (void)w;
    (void)nr;
    (void)outer;
#endif
}
HWC_X86_INLINE void wide_keys(hwc_keys *K, hwc_v w[15], const unsigned nr) { wide_keys_of(K, w, nr, 0); }
HWC_X86_INLINE void wide_keys_end(hwc_v w[15], const unsigned nr) { wide_keys_end_of(w, nr, 0); }
/* K with the keys in registers where that pays (zmm): all of them, or
   (mid) the middle rounds' only, the first and last read per use. */
HWC_X86_INLINE void hold_keys_of(hwc_keys *K, const unsigned nr, const int mid) {
#if HWC_W == 512
    HWC_UNROLL for (unsigned r = 0; r < 15; r++)
        if (r <= nr && (!mid || (r >= 1 && r < nr)))
            K->k[r] = K->stride == 64 ? _mm512_load_si512((const void *)(K->s + 64 * r))   /* wide_keys */
                                      : V_BC(hwc_x86_ld(K->s + 16 * r));
    K->lo = mid ? 1 : 0;
    K->hi = mid ? nr - 1 : nr;
#else
    (void)K;
    (void)nr;
    (void)mid;
#endif
}
HWC_X86_INLINE void hold_keys(hwc_keys *K, const unsigned nr) { hold_keys_of(K, nr, 0); }
HWC_X86_INLINE void keys_fresh(hwc_keys *K) { __asm__ __volatile__("" : "+r"(K->s)); }
/* round key r broadcast to every lane, from schedule s (K->s or a fresher
   copy of it), and on xmm */
HWC_X86_INLINE hwc_v vkey_at(const hwc_keys *K, const uint8_t *s, const unsigned r) {
    if (r >= K->lo && r <= K->hi) return K->k[r];
#if HWC_W == 512
    if (K->stride == 64) return _mm512_load_si512((const void *)(s + 64 * r));
#endif
    return V_BC(sched_ld(s + K->stride * r));
}
HWC_X86_INLINE hwc_v vkey(const hwc_keys *K, const unsigned r) { return vkey_at(K, K->s, r); }
HWC_X86_INLINE __m128i xkey(const hwc_keys *K, const unsigned r) { return sched_ld(K->s + K->stride * r); }

/* One middle round r on n vectors; a key not held is loaded just before its
   round (s is made opaque first) and the round's results are pinned after
   it, so that the compiler finishes the round on every vector there: no
   key lives on into later rounds (clang would otherwise run the vectors one
   after another with all keys in registers, and spill them). */
HWC_X86_INLINE void round_n(hwc_v *x, const int n, const hwc_keys *K, const uint8_t **s,
                            const unsigned r, const int decrypt) {
    const int held = r >= K->lo && r <= K->hi;
    if (!held) __asm__ __volatile__("" : "+r"(*s));
    const hwc_v k = vkey_at(K, *s, r);
    HWC_UNROLL for (int i = 0; i < n; i++) x[i] = v_round(x[i], k, decrypt);
#if !defined(HWC_CT_MSAN)   /* MSan checks asm operands like branch conditions (internal/ct.h) */
    if (!held) HWC_UNROLL for (int i = 0; i < n; i++) __asm__ __volatile__("" : "+v"(x[i]));
#endif
}

/* Middle rounds 1..nr-1 on n vectors (n and nr constants after inlining). */
HWC_X86_INLINE void rounds_mid(hwc_v *x, const int n, const hwc_keys *K, const unsigned nr,
                               const int decrypt) {
    const uint8_t *s = K->s;
    round_n(x, n, K, &s, 1, decrypt); round_n(x, n, K, &s, 2, decrypt);
    round_n(x, n, K, &s, 3, decrypt); round_n(x, n, K, &s, 4, decrypt);
    round_n(x, n, K, &s, 5, decrypt); round_n(x, n, K, &s, 6, decrypt);
    round_n(x, n, K, &s, 7, decrypt); round_n(x, n, K, &s, 8, decrypt);
    round_n(x, n, K, &s, 9, decrypt);
    if (nr > 10) {
        round_n(x, n, K, &s, 10, decrypt); round_n(x, n, K, &s, 11, decrypt);
        if (nr > 12) {
            round_n(x, n, K, &s, 12, decrypt); round_n(x, n, K, &s, 13, decrypt);
        }
    }
}

/* The fewer than HWC_NB vectors left after an HWC_NB-vector loop go in a
   group of 4, then one group of the 3, 2 or 1 left (n, a constant in each
   branch): each round key is read once per group and the group's chains
   overlap, where one vector per iteration would read every key per vector.
   count is evaluated again after each group. A single vector (64 bytes on
   zmm) is tested first: the shortest path for the commonest short call. */
#if HWC_NB != 8
#error "HWC_REST covers the fewer than 8 vectors after the HWC_NB loops"
#endif
#define HWC_REST(count, n, call) do { \
        if ((count) == 1) { const int n = 1; call; break; } \
        if ((count) >= 4) { const int n = 4; call; } \
        if ((count) >= 3) { const int n = 3; call; } \
        else if ((count) == 2) { const int n = 2; call; } \
        else if ((count) == 1) { const int n = 1; call; } \
    } while (0)

/* The bulk loop of ECB, CBC decryption and CTR: batches of HWC_WIDE_NB
   vectors while they fit, then one of HWC_NB if it fits (n, a constant in
   each copy of call). On ymm and xmm a batch holds 12 vectors: with 8, just
   as many chains as the AESENC latency needs (4 cycles at 2 per cycle), any
   instruction on an AES slot or a late key delays every chain, and CTR ran
   4-8% slower (docs/bench.md). zmm keeps 8: its key registers and 1 KiB
   calls (16 vectors) are better served by two batches of 8. */
#if HWC_W == 512
#define HWC_WIDE_NB HWC_NB
#else
#define HWC_WIDE_NB 12
#endif
#define HWC_BULK(blocks, n, call) do { \
        while ((blocks) >= HWC_WIDE_NB * HWC_L) { const int n = HWC_WIDE_NB; call; } \
        if (HWC_WIDE_NB > HWC_NB && (blocks) >= HWC_NB * HWC_L) { const int n = HWC_NB; call; } \
    } while (0)

/* ---- single blocks on xmm (short messages and tails) -------------------------- */
typedef hwc_keys hwc_xkeys;
#define load_xkeys load_keys

HWC_X86_INLINE void xkeys_from(hwc_xkeys *X, const hwc_keys *K) {
    load_keys(X, K->s, 0);
    X->stride = K->stride;
}

HWC_X86_INLINE __m128i xrounds_mid(__m128i x, const hwc_xkeys *X, const unsigned nr,
                                   const int decrypt) {
    const uint8_t *s = X->s;
    HWC_UNROLL for (unsigned r = 1; r < nr; r++) {
        __asm__ __volatile__("" : "+r"(s));
        x = x_round(x, sched_ld(s + X->stride * r), decrypt);
    }
    return x;
}

/* Middle rounds of n single blocks (a constant, at most 3) on xmm, round
   by round: one read of each key per group, pinned like round_n. */
HWC_X86_INLINE void xrounds_mid_n(__m128i *x, const int n, const hwc_xkeys *X, const unsigned nr,
                                  const int decrypt) {
    const uint8_t *s = X->s;
    HWC_UNROLL for (unsigned r = 1; r < nr; r++) {
        __asm__ __volatile__("" : "+r"(s));
        const __m128i k = sched_ld(s + X->stride * r);
        HWC_UNROLL for (int i = 0; i < n; i++) x[i] = x_round(x[i], k, decrypt);
#if !defined(HWC_CT_MSAN)   /* MSan checks asm operands like branch conditions (internal/ct.h) */
        HWC_UNROLL for (int i = 0; i < n; i++) __asm__ __volatile__("" : "+v"(x[i]));
#endif
    }
}

/* Single blocks on xmm (fewer than one vector: at most 3, except after a
   CTR carry) in groups of 3 (zmm only), 2 (zmm only) or 1; count is
   evaluated again after each group. */
#define HWC_XREST(count, n, call) do { \
        while (count) { \
            if (HWC_L > 2 && (count) >= 3) { const int n = 3; call; } \
            else if (HWC_L > 2 && (count) == 2) { const int n = 2; call; } \
            else { const int n = 1; call; } \
        } \
    } while (0)

/* A message shorter than one vector never touches the wide registers (no
   broadcasts, no 512-bit power-up): each mode runs its xmm tail alone, with
   xmm keys straight from the schedule. */
HWC_X86_INLINE int xmm_only(size_t blocks) {
    return HWC_W > 128 && blocks < HWC_L;
}

/* Every mode is compiled once per key size, so that only the round keys in
   use occupy registers and every round count is a constant: `call` is run
   with `nr` the constant 10, 12 or 14 matching `rounds`. */
#define HWC_BY_ROUNDS(rounds, nr, call) do { \
        if ((rounds) == 10) { const unsigned nr = 10; call; } \
        else if ((rounds) == 12) { const unsigned nr = 12; call; } \
        else { const unsigned nr = 14; call; } \
    } while (0)

/* Each mode's entry picks one of two copies by size: `name`_short for calls
   too short for the HWC_NB-vector loop, compiled without it (bulk = 0), so
   that it needs no callee-saved register and a short call pays no prologue,
   and `name`_bulk. `call` runs with the constants nr and bulk. */
#define HWC_SIZED(name, params, call) \
    static __attribute__((noinline)) void name##_short params { \
        const int bulk = 0; \
        HWC_BY_ROUNDS(k->rounds, nr, call); \
    } \
    static __attribute__((noinline)) void name##_bulk params { \
        const int bulk = 1; \
        HWC_BY_ROUNDS(k->rounds, nr, call); \
    }
#define HWC_BY_SIZE(name, blocks, args) do { \
        if ((blocks) < HWC_NB * HWC_L) name##_short args; \
        else name##_bulk args; \
    } while (0)

/* ---- ECB --------------------------------------------------------------------- */
/* n single blocks (a constant, at most 3) at in. */
HWC_X86_INLINE void ecb_xn(hwc_xkeys *X, uint8_t *out, const uint8_t *in, const int n,
                           const unsigned nr, const int decrypt) {
    keys_fresh(X);
    __m128i x[3];
    HWC_UNROLL for (int i = 0; i < n; i++) x[i] = _mm_xor_si128(hwc_x86_ld(in + 16 * i), xkey(X, 0));
    xrounds_mid_n(x, n, X, nr, decrypt);
    HWC_UNROLL for (int i = 0; i < n; i++) hwc_x86_st(out + 16 * i, x_last(x[i], xkey(X, nr), decrypt));
}

HWC_X86_INLINE void ecb_tail(hwc_xkeys *X, uint8_t *out, const uint8_t *in, size_t blocks,
                             const unsigned nr, const int decrypt) {
    HWC_XREST(blocks, n, {
        ecb_xn(X, out, in, n, nr, decrypt);
        in += 16 * n; out += 16 * n; blocks -= (size_t)n;
    });
}

/* n vectors (a constant: a batch of HWC_BULK, or a group of HWC_REST) at in. */
HWC_X86_INLINE void ecb_vecs(hwc_keys *K, uint8_t *out, const uint8_t *in, const int n,
                             const unsigned nr, const int decrypt) {
    keys_fresh(K);
    hwc_v x[HWC_WIDE_NB];
    HWC_UNROLL for (int i = 0; i < n; i++) x[i] = V_XOR(V_LD(in + 16 * HWC_L * i), vkey(K, 0));
    rounds_mid(x, n, K, nr, decrypt);
    HWC_UNROLL for (int i = 0; i < n; i++) V_ST(out + 16 * HWC_L * i, v_last(x[i], vkey(K, nr), decrypt));
}

HWC_X86_INLINE void ecb_n(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks,
                          const unsigned nr, const int decrypt, const int bulk) {
    if (xmm_only(blocks)) {
        hwc_xkeys X;
        load_xkeys(&X, sched_of(k, decrypt), nr);
        ecb_tail(&X, out, in, blocks, nr, decrypt);
        return;
    }
    hwc_keys K;
    load_keys(&K, sched_of(k, decrypt), nr);
    if (bulk && blocks >= HWC_NB * HWC_L) {   /* keys held for this loop only */
        hwc_keys H = K;
        hold_keys(&H, nr);
        HWC_BULK(blocks, n, {
            ecb_vecs(&H, out, in, n, nr, decrypt);
            in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
        });
    }
    HWC_REST(blocks / HWC_L, n, {
        ecb_vecs(&K, out, in, n, nr, decrypt);
        in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
    });
    if (HWC_W > 128 && blocks) {
        hwc_xkeys X;
        xkeys_from(&X, &K);
        ecb_tail(&X, out, in, blocks, nr, decrypt);
    }
}

HWC_SIZED(ecb_enc, (const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks),
          ecb_n(k, out, in, blocks, nr, 0, bulk))
HWC_SIZED(ecb_dec, (const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks),
          ecb_n(k, out, in, blocks, nr, 1, bulk))

static void ecb_enc(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
    HWC_BY_SIZE(ecb_enc, blocks, (k, out, in, blocks));
}

static void ecb_dec(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
    HWC_BY_SIZE(ecb_dec, blocks, (k, out, in, blocks));
}

/* ---- CBC encryption and the CMAC chain (one block at a time: xmm) ------------ */
/* state = E(state ^ block) over the blocks; with out != NULL each state is
   also written (CBC). The chain is AESENC only: block i+1 ^ k0 is folded into
   block i's AESENCLAST key, and the ciphertext is recovered off the chain. */
HWC_X86_INLINE void chain(const hwc_aes_key *k, uint8_t st[16], uint8_t *out, const uint8_t *in,
                          size_t blocks, const unsigned nr) {
    hwc_xkeys X;
    load_xkeys(&X, k->sched, nr);
    __m128i x = x_xor3(hwc_x86_ld(st), hwc_x86_ld(in), xkey(&X, 0));
    for (; blocks > 1; blocks--) {
        keys_fresh(&X);
        in += 16;
        const __m128i m = _mm_xor_si128(hwc_x86_ld(in), xkey(&X, 0));
        const __m128i kl = _mm_xor_si128(xkey(&X, nr), m);
        x = _mm_aesenclast_si128(xrounds_mid(x, &X, nr, 0), kl);   /* = C_i ^ P_{i+1} ^ k0 */
        if (out) {
            hwc_x86_st(out, _mm_xor_si128(x, m));
            out += 16;
        }
    }
    x = _mm_aesenclast_si128(xrounds_mid(x, &X, nr, 0), xkey(&X, nr));
    if (out) hwc_x86_st(out, x);
    hwc_x86_st(st, x);
}

static void cbc_enc(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
    if (blocks) HWC_BY_ROUNDS(k->rounds, nr, chain(k, iv, out, in, blocks, nr));
}

static void cmac_chain(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks) {
    if (blocks) HWC_BY_ROUNDS(k->rounds, nr, chain(k, state, NULL, in, blocks, nr));
}

/* ---- CBC decryption: parallel; P_i = D(C_i) ^ C_{i-1} ------------------------ */
/* n single blocks (a constant, at most 3) of ciphertext at in; *prev as in
   cbcd_vecs. */
HWC_X86_INLINE void cbcd_xn(hwc_xkeys *X, __m128i *prev, uint8_t *out, const uint8_t *in, const int n,
                            const unsigned nr) {
    keys_fresh(X);
    __m128i x[3];
    HWC_UNROLL for (int i = 0; i < n; i++) x[i] = _mm_xor_si128(hwc_x86_ld(in + 16 * i), xkey(X, 0));
    xrounds_mid_n(x, n, X, nr, 1);
    /* every load before any store (out may equal in) */
    const __m128i next = hwc_x86_ld(in + 16 * n - 16);
    x[0] = _mm_aesdeclast_si128(x[0], _mm_xor_si128(*prev, xkey(X, nr)));
    HWC_UNROLL for (int i = 1; i < n; i++)
        x[i] = _mm_aesdeclast_si128(x[i], _mm_xor_si128(hwc_x86_ld(in + 16 * i - 16), xkey(X, nr)));
    HWC_UNROLL for (int i = 0; i < n; i++) hwc_x86_st(out + 16 * i, x[i]);
    *prev = next;
}

HWC_X86_INLINE void cbcd_tail(hwc_xkeys *X, __m128i *prev, uint8_t *out, const uint8_t *in,
                              size_t blocks, const unsigned nr) {
    HWC_XREST(blocks, n, {
        cbcd_xn(X, prev, out, in, n, nr);
        in += 16 * n; out += 16 * n; blocks -= (size_t)n;
    });
}

/* n vectors (a constant) of ciphertext at in; *prev is the block before
   them, left at their last block. */
HWC_X86_INLINE void cbcd_vecs(hwc_keys *K, __m128i *prev, uint8_t *out, const uint8_t *in, const int n,
                              const unsigned nr) {
    keys_fresh(K);
    hwc_v x[HWC_WIDE_NB];
    HWC_UNROLL for (int i = 0; i < n; i++) x[i] = V_XOR(V_LD(in + 16 * HWC_L * i), vkey(K, 0));
    rounds_mid(x, n, K, nr, 1);
    /* previous ciphertexts loaded late (fewer live registers), all before
       any store (out may equal in) */
    const __m128i next = hwc_x86_ld(in + 16 * HWC_L * n - 16);
    x[0] = V_DECL(x[0], V_XOR(V_PREV(*prev, V_LD(in)), vkey(K, nr)));
    HWC_UNROLL for (int i = 1; i < n; i++)
        x[i] = V_DECL(x[i], V_XOR(V_LD(in + 16 * HWC_L * i - 16), vkey(K, nr)));
    HWC_UNROLL for (int i = 0; i < n; i++) V_ST(out + 16 * HWC_L * i, x[i]);
    *prev = next;
}

HWC_X86_INLINE void cbc_dec_n(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                              size_t blocks, const unsigned nr, const int bulk) {
    __m128i prev = hwc_x86_ld(iv);   /* C_{-1}; kept in a register (in place) */
    if (xmm_only(blocks)) {
        hwc_xkeys X;
        load_xkeys(&X, sched_of(k, 1), nr);
        cbcd_tail(&X, &prev, out, in, blocks, nr);
        hwc_x86_st(iv, prev);
        return;
    }
    hwc_keys K;
    load_keys(&K, sched_of(k, 1), nr);
    if (bulk && blocks >= HWC_NB * HWC_L) {   /* keys held for this loop only */
        hwc_keys H = K;
        hold_keys(&H, nr);
        HWC_BULK(blocks, n, {
            cbcd_vecs(&H, &prev, out, in, n, nr);
            in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
        });
    }
    HWC_REST(blocks / HWC_L, n, {
        cbcd_vecs(&K, &prev, out, in, n, nr);
        in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
    });
    if (HWC_W > 128 && blocks) {
        hwc_xkeys X;
        xkeys_from(&X, &K);
        cbcd_tail(&X, &prev, out, in, blocks, nr);
    }
    hwc_x86_st(iv, prev);
}

HWC_SIZED(cbc_dec, (const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t blocks),
          cbc_dec_n(k, iv, out, in, blocks, nr, bulk))

static void cbc_dec(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
    HWC_BY_SIZE(cbc_dec, blocks, (k, iv, out, in, blocks));
}

/* ---- CTR: 128-bit big-endian counter ----------------------------------------- */
/* Fastest path (all but about one batch in 256/(n L)): while the counter's
   last byte does not carry inside the batch, each block is the big-endian
   counter block plus its index added in byte 15 (one 64-bit lane add per
   vector, no byte reversal: VPSHUFB takes an AES slot on Zen 5). Otherwise
   the counter is kept little-endian in each lane (qword 0 = low 64 bits) and
   byte-reversed into a counter block just before round 0: 64-bit lane adds
   when the low 64 bits cannot wrap inside the batch, else the batch's
   counters are built with the full 128-bit carry (slow path, at most once
   per 2^64 blocks). Branches depend on the counter only (public). */
HWC_X86_INLINE __m128i bswap128(__m128i v) {
    return _mm_shuffle_epi8(v, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

HWC_X86_INLINE __m128i ctr_block(uint64_t hi, uint64_t lo) {
    return bswap128(_mm_set_epi64x((long long)hi, (long long)lo));
}

/* n single blocks (a constant, at most 3) of key stream XORed into in,
   counters from (hi, lo) on with the full 128-bit carry. */
HWC_X86_INLINE void ctr_xn(hwc_xkeys *X, uint64_t *hi, uint64_t *lo, uint8_t *out, const uint8_t *in,
                           const int n, const unsigned nr) {
    keys_fresh(X);
    __m128i x[3];
    HWC_UNROLL for (int i = 0; i < n; i++) {
        x[i] = _mm_xor_si128(ctr_block(*hi, *lo), xkey(X, 0));
        *hi += ++*lo == 0;
    }
    xrounds_mid_n(x, n, X, nr, 0);
    HWC_UNROLL for (int i = 0; i < n; i++)
        hwc_x86_st(out + 16 * i, _mm_aesenclast_si128(x[i], _mm_xor_si128(xkey(X, nr), hwc_x86_ld(in + 16 * i))));
}

HWC_X86_INLINE void ctr_tail(hwc_xkeys *X, uint64_t *hi, uint64_t *lo, uint8_t *out,
                             const uint8_t *in, size_t blocks, const unsigned nr) {
    HWC_XREST(blocks, n, {
        ctr_xn(X, hi, lo, out, in, n, nr);
        in += 16 * n; out += 16 * n; blocks -= (size_t)n;
    });
}

/* Lane j of vector i: L i + j in the top byte of qword 1 (byte 15 of a
   big-endian counter block). */
HWC_X86_INLINE hwc_v ctr_be_add(const int i) {
#define HWC_BE(j) ((long long)((uint64_t)(HWC_L * i + (j)) << 56))
#if HWC_L == 1
    return _mm_set_epi64x(HWC_BE(0), 0);
#elif HWC_L == 2
    return _mm256_set_epi64x(HWC_BE(1), 0, HWC_BE(0), 0);
#else
    return _mm512_set_epi64(HWC_BE(3), 0, HWC_BE(2), 0, HWC_BE(1), 0, HWC_BE(0), 0);
#endif
#undef HWC_BE
}

/* n vectors (a constant) of key stream XORed into in, counters from
   (hi, lo) on; a carry out of the low 64 bits inside them only when wrap
   (a constant) is set. */
HWC_X86_INLINE void ctr_vecs(hwc_keys *K, uint64_t *hi, uint64_t *lo, uint8_t *out, const uint8_t *in,
                             const int n, const unsigned nr, const int wrap) {
    const hwc_v rev = V_BC(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
#if HWC_L == 1
    const hwc_v lane = _mm_setzero_si128();
#elif HWC_L == 2
    const hwc_v lane = _mm256_set_epi64x(0, 1, 0, 0);
#else
    const hwc_v lane = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0);
#endif
    const hwc_v stepL = V_BC(_mm_set_epi64x(0, HWC_L));
    keys_fresh(K);
    hwc_v x[HWC_WIDE_NB], c;
    if ((*lo & 0xff) <= 0x100 - (uint64_t)n * HWC_L) {
        /* no carry out of the counter's last byte inside these blocks: each
           block is the big-endian counter block plus its index in byte 15,
           the top byte of qword 1 (no byte reversal per vector) */
        c = V_BC(_mm_set_epi64x((long long)__builtin_bswap64(*lo), (long long)__builtin_bswap64(*hi)));
        HWC_UNROLL for (int i = 0; i < n; i++)   /* constants: depth one */
            x[i] = V_XOR(V_ADD64(c, ctr_be_add(i)), vkey(K, 0));
    } else if (!wrap || *lo <= UINT64_MAX - ((uint64_t)n * HWC_L - 1)) {
        c = V_ADD64(V_BC(_mm_set_epi64x((long long)*hi, (long long)*lo)), lane);
        HWC_UNROLL for (int i = 0; i < n; i++) {
            x[i] = V_XOR(V_SHUF8(c, rev), vkey(K, 0));
            c = V_ADD64(c, stepL);
        }
    } else {
        uint8_t tmp[HWC_WIDE_NB * HWC_L * 16];
        uint64_t l = *lo, h = *hi;
        for (int j = 0; j < n * HWC_L; j++) {
            hwc_x86_st(tmp + 16 * j, ctr_block(h, l));
            h += ++l == 0;
        }
        HWC_UNROLL for (int i = 0; i < n; i++) x[i] = V_XOR(V_LD(tmp + 16 * HWC_L * i), vkey(K, 0));
    }
    *hi += (*lo + (uint64_t)n * HWC_L) < *lo;
    *lo += (uint64_t)n * HWC_L;
    rounds_mid(x, n, K, nr, 0);
    /* the last key read once for the n stores (a store to out could alias
       the schedule: read after it, the key would be loaded per vector) */
    const hwc_v kl = vkey(K, nr);
    HWC_UNROLL for (int i = 0; i < n; i++)
        V_ST(out + 16 * HWC_L * i, V_ENCL(x[i], V_XOR(kl, V_LD(in + 16 * HWC_L * i))));
}

HWC_X86_INLINE void ctr_n(const hwc_aes_key *k, uint8_t ctrb[16], uint8_t *out, const uint8_t *in,
                          size_t blocks, const unsigned nr, const int bulk) {
    const __m128i c0 = bswap128(hwc_x86_ld(ctrb));
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(c0), hi = (uint64_t)_mm_extract_epi64(c0, 1);
    /* The counter after the call is stored first (ctrb overlaps no data,
       internal/kernel.h): a chained call's counter then waits on this short
       chain, not on the loops, and ctrb needs no register through them. */
    hwc_x86_st(ctrb, ctr_block(hi + (lo + blocks < lo), lo + blocks));
    if (xmm_only(blocks)) {
        hwc_xkeys X;
        load_xkeys(&X, k->sched, nr);
        ctr_tail(&X, &hi, &lo, out, in, blocks, nr);
        return;
    }
    hwc_keys K;
    load_keys(&K, k->sched, nr);
    if (bulk && blocks >= HWC_NB * HWC_L) {   /* keys held for this loop only */
        hwc_keys H = K;
        hold_keys(&H, nr);
        HWC_BULK(blocks, n, {
            ctr_vecs(&H, &hi, &lo, out, in, n, nr, 1);
            in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
        });
    }
    /* groups while no carry can leave the low 64 bits inside one, then
       single blocks on xmm (with the full carry) */
    HWC_REST(blocks / HWC_L, n, if (lo <= UINT64_MAX - ((uint64_t)n * HWC_L - 1)) {
        ctr_vecs(&K, &hi, &lo, out, in, n, nr, 0);
        in += 16 * HWC_L * n; out += 16 * HWC_L * n; blocks -= (size_t)HWC_L * n;
    });
    if (blocks) {
        hwc_xkeys X;
        xkeys_from(&X, &K);
        ctr_tail(&X, &hi, &lo, out, in, blocks, nr);
    }
}

HWC_SIZED(ctr, (const hwc_aes_key *k, uint8_t ctrb[16], uint8_t *out, const uint8_t *in, size_t blocks),
          ctr_n(k, ctrb, out, in, blocks, nr, bulk))

static void ctr(const hwc_aes_key *k, uint8_t ctrb[16], uint8_t *out, const uint8_t *in,
                size_t blocks) {
    HWC_BY_SIZE(ctr, blocks, (k, ctrb, out, in, blocks));
}

#include "aes_x86_xts.h"

#include "aes_x86_lanes.h"

enum { x86_chain_lanes = HWC_NB * HWC_L };

/* The template's exports: the mode slots of the kernel table, for the
   kernel file's initialiser (with the GCM slots of impl/x86/aes_gcm_x86.h),
   and the slot groups whose frames hold no key material (round keys are
   read where they are used, above). */
#define HWC_X86_AES_CLEAN (HWC_CLEAN_SETKEY | HWC_CLEAN_MODES | HWC_CLEAN_LANES)
#define HWC_X86_AES_MODE_SLOTS_WITH(step)                                       \
    .setkey = hwc_x86_setkey, .ecb_encrypt = ecb_enc, .ecb_decrypt = ecb_dec,  \
    .cbc_encrypt = cbc_enc, .cbc_decrypt = cbc_dec, .ctr = ctr,                \
    .xts_encrypt = xts_enc, .xts_decrypt = xts_dec, .cmac_chain = cmac_chain,  \
    .chain_step = step, .chain_lanes = x86_chain_lanes,                        \
    .xts_encrypt_units = xts_enc_units, .xts_decrypt_units = xts_dec_units
#define HWC_X86_AES_MODE_SLOTS HWC_X86_AES_MODE_SLOTS_WITH(chain_step)

/* Nothing of the template leaks into the kernel file after it. */
#undef HWC_NB
#undef HWC_L
#undef HWC_UNROLL
#undef HWC_BY_ROUNDS
#undef HWC_REST
#undef HWC_WIDE_NB
#undef HWC_BULK
#undef HWC_SIZED
#undef HWC_BY_SIZE
#undef HWC_XREST
#undef HWC_GF_MULX_BYTES
#undef HWC_XTS_STEP2
#undef HWC_XTS_STEP2_Q
#undef HWC_XTS_WIDE_BLOCKS
#undef V_LD
#undef V_ST
#undef V_BC
#undef V_LOW
#undef V_TOP
#undef V_ENC
#undef V_ENCL
#undef V_DEC
#undef V_DECL
#undef V_XOR
#undef V_XOR3
#undef V_ADD64
#undef V_SHUF8
#undef V_SLLI64
#undef V_SRLI64
#undef V_CLMUL_LO_LO
#undef V_CLMUL_HI_LO
#undef V_LO_UP
#undef V_PREV
#undef V_BSLLI
#undef V_BSRLI

#endif
