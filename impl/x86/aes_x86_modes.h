/* Width-generic AES mode loops for the x86 kernels (aesni: xmm, vaes-avx2:
 * ymm, avx512: zmm). A kernel file defines HWC_W (128, 256 or 512) and
 * HWC_AES_TABLE (the table's name), then includes this header once: the
 * loops below are written once and compiled at that vector width with the
 * kernel's own target flags.
 *
 * Shape of every parallel mode: NB vectors of L = HWC_W/128 blocks in flight
 * (8 x 4 = 32 blocks on zmm), round keys broadcast once per call and held in
 * registers, then a one-vector loop, then single blocks on xmm; a message
 * shorter than one vector stays on xmm. Each mode is instantiated per key
 * size (10/12/14 rounds), so only the keys in use take registers. The last
 * XOR of each block is folded into the last round: AESENCLAST(a, k ^ b) =
 * AESENCLAST(a, k) ^ b. CBC encryption and the CMAC chain are one AESENC
 * chain per call with the next message block folded into the previous
 * block's last round key (latency bound: rounds x AESENC latency / 16 c/B).
 *
 * Standards: FIPS-197 (cipher, equivalent inverse cipher), SP 800-38A (ECB,
 * CBC, CTR), IEEE 1619-2018 / SP 800-38E (XTS), SP 800-38B (CMAC).
 * Constant time: AES-NI/VAES have no data-dependent timing; the only branches
 * are on lengths and on the (public) counter value. */
#ifndef HWC_IMPL_X86_AES_X86_MODES_H
#define HWC_IMPL_X86_AES_X86_MODES_H

#include "aes_x86_keysched.h"

/* HWC_AES_TABLE: the kernel table to define here. Or HWC_AES_XTS_ONLY with
   HWC_XTS_ENC_NAME / HWC_XTS_DEC_NAME: only the XTS loops, as external
   functions (a sibling file compiled with extra flags, e.g. VPCLMULQDQ). Or
   HWC_AES_CUSTOM_TABLE: every loop, the kernel file defines the table. */
#if !defined(HWC_W) || \
    (!defined(HWC_AES_TABLE) && !defined(HWC_AES_XTS_ONLY) && !defined(HWC_AES_CUSTOM_TABLE))
#error "define HWC_W and HWC_AES_TABLE (or HWC_AES_XTS_ONLY / HWC_AES_CUSTOM_TABLE) first"
#endif

/* Vectors in flight: covers AESENC latency x issue rate (3-4 cycles x 2 per
   cycle on Zen 4/5 and Intel ymm; 1 per cycle for zmm on Intel). */
#define NB 8

/* ---- vector primitives at width HWC_W -------------------------------------- */
#if HWC_W == 128
typedef __m128i V;
#define L 1
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
/* lanes [c, v0, ..., v(L-2)]: the block before each block of v */
#define V_PREV(c, v) (c)
#elif HWC_W == 256
typedef __m256i V;
#define L 2
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
#define V_PREV(c, v) _mm256_permute2x128_si256(_mm256_castsi128_si256(c), v, 0x20)
#elif HWC_W == 512
typedef __m512i V;
#define L 4
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
#define V_PREV(c, v) _mm512_alignr_epi64(v, _mm512_broadcast_i32x4(c), 6)
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
#if defined(__AVX512VL__)
#define X_XOR3(a, b, c) _mm_ternarylogic_epi32(a, b, c, 0x96)
#else
#define X_XOR3(a, b, c) _mm_xor_si128(_mm_xor_si128(a, b), c)
#endif

#define UNROLL _Pragma("GCC unroll 16")

/* Round keys of one direction, broadcast to every lane, for the whole call.
   k[r] for r < rounds; last = k[rounds] (kept apart so that every index
   below is a constant and the array lives in registers). */
typedef struct { V k[14]; V last; } hwc_keys;

HWC_X86_INLINE void load_keys(hwc_keys *K, const uint8_t *s, unsigned rounds) {
    /* An opaque pointer keeps the compiler from merging these loads with xmm
       loads of the same keys on other paths: a broadcast from memory uses a
       load port only, a register broadcast takes a shuffle-port slot. */
    __asm__("" : "+r"(s));
    UNROLL for (int r = 0; r < 14; r++)
        K->k[r] = r < (int)rounds ? V_BC(hwc_x86_ld(s + 16 * r)) : V_BC(_mm_setzero_si128());
    K->last = V_BC(hwc_x86_ld(s + 16 * rounds));
}

/* Middle rounds 1..rounds-1 on n vectors (n a constant after inlining). */
#define ROUNDS_MID(OP, x, n, K, rounds) do { \
        UNROLL for (int r_ = 1; r_ < 10; r_++) \
            UNROLL for (int i_ = 0; i_ < (n); i_++) (x)[i_] = OP((x)[i_], (K)->k[r_]); \
        if ((rounds) > 10) { \
            UNROLL for (int r_ = 10; r_ < 12; r_++) \
                UNROLL for (int i_ = 0; i_ < (n); i_++) (x)[i_] = OP((x)[i_], (K)->k[r_]); \
            if ((rounds) > 12) { \
                UNROLL for (int r_ = 12; r_ < 14; r_++) \
                    UNROLL for (int i_ = 0; i_ < (n); i_++) (x)[i_] = OP((x)[i_], (K)->k[r_]); \
            } \
        } \
    } while (0)

/* ---- single blocks on xmm (short messages and tails) -------------------------- */
typedef struct { __m128i k[14]; __m128i last; } hwc_xkeys;

HWC_X86_INLINE void load_xkeys(hwc_xkeys *X, const uint8_t *s, unsigned rounds) {
    UNROLL for (int r = 0; r < 14; r++)
        X->k[r] = r < (int)rounds ? hwc_x86_ld(s + 16 * r) : _mm_setzero_si128();
    X->last = hwc_x86_ld(s + 16 * rounds);
}

/* Lane 0 of the broadcast keys: no memory traffic. */
HWC_X86_INLINE void xkeys_from(hwc_xkeys *X, const hwc_keys *K) {
    UNROLL for (int r = 0; r < 14; r++) X->k[r] = V_LOW(K->k[r]);
    X->last = V_LOW(K->last);
}

#define XROUNDS_MID(OP, x, X, rounds) do { \
        UNROLL for (int r_ = 1; r_ < 10; r_++) x = OP(x, (X)->k[r_]); \
        if ((rounds) > 10) { \
            x = OP(x, (X)->k[10]); x = OP(x, (X)->k[11]); \
            if ((rounds) > 12) { x = OP(x, (X)->k[12]); x = OP(x, (X)->k[13]); } \
        } \
    } while (0)

#define V_ENC_X _mm_aesenc_si128
#define V_ENCL_X _mm_aesenclast_si128
#define V_DEC_X _mm_aesdec_si128
#define V_DECL_X _mm_aesdeclast_si128

/* A message shorter than one vector never touches the wide registers (no
   broadcasts, no 512-bit power-up): xmm keys straight from the schedule. */
#define SHORT_PATH(off, TAIL) do { \
        if (HWC_W > 128 && blocks < L) { \
            hwc_xkeys X; \
            load_xkeys(&X, k->sched + (off), nr); \
            TAIL; \
            return; \
        } \
    } while (0)

/* Every mode is compiled once per key size, so that only the round keys in
   use occupy registers and every round count is a constant. */
#define BY_ROUNDS(C) do { \
        if (k->rounds == 10) C(10); \
        else if (k->rounds == 12) C(12); \
        else C(14); \
    } while (0)

#ifndef HWC_AES_XTS_ONLY
/* ---- ECB --------------------------------------------------------------------- */
#define ECB_TAIL(XOP, XOPL) do { \
        for (; blocks; blocks--, in += 16, out += 16) { \
            __m128i y = _mm_xor_si128(hwc_x86_ld(in), X.k[0]); \
            XROUNDS_MID(XOP, y, &X, nr); \
            hwc_x86_st(out, XOPL(y, X.last)); \
        } \
    } while (0)

#define ECB_BODY(OP, OPL, off) do { \
        SHORT_PATH(off, ECB_TAIL(OP##_X, OPL##_X)); \
        hwc_keys K; \
        load_keys(&K, k->sched + (off), nr); \
        while (blocks >= NB * L) { \
            V x[NB]; \
            UNROLL for (int i = 0; i < NB; i++) x[i] = V_XOR(V_LD(in + 16 * L * i), K.k[0]); \
            ROUNDS_MID(OP, x, NB, &K, nr); \
            UNROLL for (int i = 0; i < NB; i++) V_ST(out + 16 * L * i, OPL(x[i], K.last)); \
            in += 16 * L * NB; out += 16 * L * NB; blocks -= L * NB; \
        } \
        while (blocks >= L) { \
            V x[1] = {V_XOR(V_LD(in), K.k[0])}; \
            ROUNDS_MID(OP, x, 1, &K, nr); \
            V_ST(out, OPL(x[0], K.last)); \
            in += 16 * L; out += 16 * L; blocks -= L; \
        } \
        if (HWC_W > 128 && blocks) { \
            hwc_xkeys X; \
            xkeys_from(&X, &K); \
            ECB_TAIL(OP##_X, OPL##_X); \
        } \
    } while (0)

HWC_X86_INLINE void ecb_enc_n(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks,
                              const unsigned nr) {
    ECB_BODY(V_ENC, V_ENCL, 0);
}

HWC_X86_INLINE void ecb_dec_n(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks,
                              const unsigned nr) {
    ECB_BODY(V_DEC, V_DECL, HWC_X86_DEC_OFF);
}

static void ecb_enc(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
#define C(n) ecb_enc_n(k, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

static void ecb_dec(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
#define C(n) ecb_dec_n(k, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

/* ---- CBC encryption and the CMAC chain (one block at a time: xmm) ------------ */
/* state = E(state ^ block) over the blocks; with out != NULL each state is
   also written (CBC). The chain is AESENC only: block i+1 ^ k0 is folded into
   block i's AESENCLAST key, and the ciphertext is recovered off the chain. */
HWC_X86_INLINE void chain(const hwc_aes_key *k, uint8_t st[16], uint8_t *out, const uint8_t *in,
                          size_t blocks, const unsigned nr) {
    hwc_xkeys X;
    load_xkeys(&X, k->sched, nr);
    __m128i x = X_XOR3(hwc_x86_ld(st), hwc_x86_ld(in), X.k[0]);
    for (; blocks > 1; blocks--) {
        in += 16;
        const __m128i m = _mm_xor_si128(hwc_x86_ld(in), X.k[0]);
        const __m128i kl = _mm_xor_si128(X.last, m);
        XROUNDS_MID(_mm_aesenc_si128, x, &X, nr);
        x = _mm_aesenclast_si128(x, kl);   /* = C_i ^ P_{i+1} ^ k0 */
        if (out) {
            hwc_x86_st(out, _mm_xor_si128(x, m));
            out += 16;
        }
    }
    XROUNDS_MID(_mm_aesenc_si128, x, &X, nr);
    x = _mm_aesenclast_si128(x, X.last);
    if (out) hwc_x86_st(out, x);
    hwc_x86_st(st, x);
}

static void cbc_enc(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
#define C(n) chain(k, iv, out, in, blocks, n)
    if (blocks) BY_ROUNDS(C);
#undef C
}

static void cmac_chain(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks) {
#define C(n) chain(k, state, NULL, in, blocks, n)
    if (blocks) BY_ROUNDS(C);
#undef C
}

/* ---- CBC decryption: parallel; P_i = D(C_i) ^ C_{i-1} ------------------------ */
#define CBCD_TAIL() do { \
        for (; blocks; blocks--, in += 16, out += 16) { \
            const __m128i c = hwc_x86_ld(in); \
            const __m128i kl = _mm_xor_si128(prev, X.last); \
            prev = c; \
            __m128i y = _mm_xor_si128(c, X.k[0]); \
            XROUNDS_MID(_mm_aesdec_si128, y, &X, nr); \
            hwc_x86_st(out, _mm_aesdeclast_si128(y, kl)); \
        } \
    } while (0)

HWC_X86_INLINE void cbc_dec_n(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                              size_t blocks, const unsigned nr) {
    __m128i prev = hwc_x86_ld(iv);   /* C_{-1}; kept in a register (in place) */
    if (HWC_W > 128 && blocks < L) {
        hwc_xkeys X;
        load_xkeys(&X, k->sched + HWC_X86_DEC_OFF, nr);
        CBCD_TAIL();
        hwc_x86_st(iv, prev);
        return;
    }
    hwc_keys K;
    load_keys(&K, k->sched + HWC_X86_DEC_OFF, nr);
    while (blocks >= NB * L) {
        V x[NB];
        UNROLL for (int i = 0; i < NB; i++) x[i] = V_XOR(V_LD(in + 16 * L * i), K.k[0]);
        ROUNDS_MID(V_DEC, x, NB, &K, nr);
        /* previous ciphertexts loaded late (fewer live registers), all before
           any store (out may equal in) */
        const __m128i next = hwc_x86_ld(in + 16 * L * NB - 16);
        x[0] = V_DECL(x[0], V_XOR(V_PREV(prev, V_LD(in)), K.last));
        UNROLL for (int i = 1; i < NB; i++)
            x[i] = V_DECL(x[i], V_XOR(V_LD(in + 16 * L * i - 16), K.last));
        UNROLL for (int i = 0; i < NB; i++) V_ST(out + 16 * L * i, x[i]);
        prev = next;
        in += 16 * L * NB; out += 16 * L * NB; blocks -= L * NB;
    }
    while (blocks >= L) {
        V c = V_LD(in);
        V p = V_XOR(V_PREV(prev, c), K.last);
        prev = V_TOP(c);
        V x[1] = {V_XOR(c, K.k[0])};
        ROUNDS_MID(V_DEC, x, 1, &K, nr);
        V_ST(out, V_DECL(x[0], p));
        in += 16 * L; out += 16 * L; blocks -= L;
    }
    if (HWC_W > 128 && blocks) {
        hwc_xkeys X;
        xkeys_from(&X, &K);
        CBCD_TAIL();
    }
    hwc_x86_st(iv, prev);
}

static void cbc_dec(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
#define C(n) cbc_dec_n(k, iv, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

/* ---- CTR: 128-bit big-endian counter ----------------------------------------- */
/* The counter is kept little-endian in each lane (qword 0 = low 64 bits) and
   byte-reversed into a counter block just before round 0. Fast path: 64-bit
   lane adds when the low 64 bits cannot wrap inside the batch; otherwise the
   batch's counters are built with the full 128-bit carry (slow path, at most
   once per 2^64 blocks). Branches depend on the counter only (public). */
HWC_X86_INLINE __m128i bswap128(__m128i v) {
    return _mm_shuffle_epi8(v, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

#define CTR_TAIL() do { \
        for (; blocks; blocks--, in += 16, out += 16) { \
            __m128i y = _mm_xor_si128(bswap128(_mm_set_epi64x((long long)hi, (long long)lo)), X.k[0]); \
            hi += ++lo == 0; \
            XROUNDS_MID(_mm_aesenc_si128, y, &X, nr); \
            hwc_x86_st(out, _mm_aesenclast_si128(y, _mm_xor_si128(X.last, hwc_x86_ld(in)))); \
        } \
    } while (0)

HWC_X86_INLINE void ctr_n(const hwc_aes_key *k, uint8_t ctrb[16], uint8_t *out, const uint8_t *in,
                          size_t blocks, const unsigned nr) {
    const __m128i c0 = bswap128(hwc_x86_ld(ctrb));
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(c0), hi = (uint64_t)_mm_extract_epi64(c0, 1);
    if (HWC_W > 128 && blocks < L) {
        hwc_xkeys X;
        load_xkeys(&X, k->sched, nr);
        CTR_TAIL();
        hwc_x86_st(ctrb, bswap128(_mm_set_epi64x((long long)hi, (long long)lo)));
        return;
    }
    hwc_keys K;
    load_keys(&K, k->sched, nr);
    const V rev = V_BC(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
#if L == 1
    const V lane = _mm_setzero_si128();
#elif L == 2
    const V lane = _mm256_set_epi64x(0, 1, 0, 0);
#else
    const V lane = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0);
#endif
    const V stepL = V_BC(_mm_set_epi64x(0, L));
    while (blocks >= NB * L) {
        V x[NB], c;
        if (lo <= UINT64_MAX - (NB * L - 1)) {
            c = V_ADD64(V_BC(_mm_set_epi64x((long long)hi, (long long)lo)), lane);
            UNROLL for (int i = 0; i < NB; i++) {
                x[i] = V_XOR(V_SHUF8(c, rev), K.k[0]);
                c = V_ADD64(c, stepL);
            }
        } else {
            uint8_t tmp[NB * L * 16];
            uint64_t l = lo, h = hi;
            for (int j = 0; j < NB * L; j++) {
                hwc_x86_st(tmp + 16 * j, bswap128(_mm_set_epi64x((long long)h, (long long)l)));
                h += ++l == 0;
            }
            UNROLL for (int i = 0; i < NB; i++) x[i] = V_XOR(V_LD(tmp + 16 * L * i), K.k[0]);
        }
        hi += (lo + NB * L) < lo;
        lo += NB * L;
        ROUNDS_MID(V_ENC, x, NB, &K, nr);
        UNROLL for (int i = 0; i < NB; i++)
            V_ST(out + 16 * L * i, V_ENCL(x[i], V_XOR(K.last, V_LD(in + 16 * L * i))));
        in += 16 * L * NB; out += 16 * L * NB; blocks -= L * NB;
    }
    /* fewer than NB * L blocks left: one vector at a time while no carry can
       leave the low 64 bits, then single blocks on xmm */
    while (blocks >= L && lo <= UINT64_MAX - (L - 1)) {
        const V c = V_ADD64(V_BC(_mm_set_epi64x((long long)hi, (long long)lo)), lane);
        V x[1] = {V_XOR(V_SHUF8(c, rev), K.k[0])};
        hi += (lo + L) < lo;
        lo += L;
        ROUNDS_MID(V_ENC, x, 1, &K, nr);
        V_ST(out, V_ENCL(x[0], V_XOR(K.last, V_LD(in))));
        in += 16 * L; out += 16 * L; blocks -= L;
    }
    if (blocks) {
        hwc_xkeys X;
        xkeys_from(&X, &K);
        CTR_TAIL();
    }
    hwc_x86_st(ctrb, bswap128(_mm_set_epi64x((long long)hi, (long long)lo)));
}

static void ctr(const hwc_aes_key *k, uint8_t ctrb[16], uint8_t *out, const uint8_t *in,
                size_t blocks) {
#define C(n) ctr_n(k, ctrb, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

#endif /* !HWC_AES_XTS_ONLY */

/* ---- XTS (IEEE 1619 5.3.1/5.4.1 over whole blocks) ---------------------------- */
/* Tweaks are 128-bit little-endian polynomials (bit i = x^i), x^128 = x^7 +
   x^2 + x + 1. Multiplying every lane by x^(8b), 1 <= b <= 4, is a byte shift
   of the lane plus the reduction of the b bytes shifted out: one carry-less
   multiply by 0x87 (no 64-bit shifts: those share the AES port on Intel).
   Branch-free. */
#if HWC_W == 128
#define V_BSLLI(v, b) _mm_slli_si128(v, b)
#define V_BSRLI(v, b) _mm_srli_si128(v, b)
#elif HWC_W == 256
#define V_BSLLI(v, b) _mm256_bslli_epi128(v, b)
#define V_BSRLI(v, b) _mm256_bsrli_epi128(v, b)
#else
#define V_BSLLI(v, b) _mm512_bslli_epi128(v, b)
#define V_BSRLI(v, b) _mm512_bsrli_epi128(v, b)
#endif

#if HWC_W == 128 || defined(__VPCLMULQDQ__)
#define GF_MULX_BYTES(v, b, P) V_XOR(V_BSLLI(v, b), V_CLMUL_LO_LO(V_BSRLI(v, 16 - (b)), P))
#else
/* No VPCLMULQDQ (vaes-avx2 also runs where VAES comes without it, e.g. qemu
   -cpu max): h * 0x87 = h ^ h << 1 ^ h << 2 ^ h << 7 for h < 2^(8b), b <= 2. */
#define GF_MULX_BYTES(v, b, P) ((void)(P), gf_mulx_bytes_noclmul(v, V_BSRLI(v, 16 - (b)), b))
#define gf_mulx_bytes_noclmul(v, h, b) \
    V_XOR(V_XOR3(V_BSLLI(v, b), h, V_SLLI64(h, 1)), V_XOR(V_SLLI64(h, 2), V_SLLI64(h, 7)))
#endif

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
HWC_X86_INLINE V tweak_vec(V tb, unsigned i, V P) {
#if HWC_W == 128
    const __m128i s = _mm_cvtsi32_si128((int)i);
    const __m128i a = _mm_sll_epi64(tb, s);
    const __m128i h = _mm_srl_epi64(tb, _mm_sub_epi64(_mm_cvtsi32_si128(64), s));
#else
#if HWC_W == 256
    const V s = _mm256_add_epi64(_mm256_set_epi64x(1, 1, 0, 0), _mm256_set1_epi64x((long long)(L * i)));
    const V a = _mm256_sllv_epi64(tb, s);
    const V h = _mm256_srlv_epi64(tb, _mm256_sub_epi64(_mm256_set1_epi64x(64), s));
#else
    const V s = _mm512_add_epi64(_mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0), _mm512_set1_epi64((long long)(L * i)));
    const V a = _mm512_sllv_epi64(tb, s);
    const V h = _mm512_srlv_epi64(tb, _mm512_sub_epi64(_mm512_set1_epi64(64), s));
#endif
#endif
    /* h: per qword the bits shifted out; low qword's go up, high qword's reduce */
#if HWC_W == 128 || defined(__VPCLMULQDQ__)
    return V_XOR3(a, V_BSLLI(h, 8), V_CLMUL_LO_LO(V_BSRLI(h, 8), P));
#else
    (void)P;
    const V r = V_BSRLI(h, 8);
    return V_XOR(V_XOR3(a, V_BSLLI(h, 8), r), V_XOR3(V_SLLI64(r, 1), V_SLLI64(r, 2), V_SLLI64(r, 7)));
#endif
}

/* The NB tweak vectors of the first batch with little depth: the first 8/L
   from T by tweak_vec, the others by whole-byte shifts (x^8 per byte) of
   those (clang needs literal byte counts, hence one line per vector). */
#if L == 4
#define FIRST_TWEAKS(tv, tb, P) do { \
        tv[0] = tweak_vec(tb, 0, P); tv[1] = tweak_vec(tb, 1, P); \
        tv[2] = GF_MULX_BYTES(tv[0], 1, P); tv[3] = GF_MULX_BYTES(tv[1], 1, P); \
        tv[4] = GF_MULX_BYTES(tv[0], 2, P); tv[5] = GF_MULX_BYTES(tv[1], 2, P); \
        tv[6] = GF_MULX_BYTES(tv[0], 3, P); tv[7] = GF_MULX_BYTES(tv[1], 3, P); \
    } while (0)
#elif L == 2
#define FIRST_TWEAKS(tv, tb, P) do { \
        UNROLL for (int i = 0; i < 4; i++) tv[i] = tweak_vec(tb, (unsigned)i, P); \
        UNROLL for (int i = 4; i < 8; i++) tv[i] = GF_MULX_BYTES(tv[i - 4], 1, P); \
    } while (0)
#else
#define FIRST_TWEAKS(tv, tb, P) do { \
        UNROLL for (int i = 0; i < NB; i++) tv[i] = tweak_vec(tb, (unsigned)i, P); \
    } while (0)
#endif

#define XTS_TAIL(XOP, XOPL) do { \
        for (; blocks; blocks--, in += 16, out += 16) { \
            __m128i y = X_XOR3(hwc_x86_ld(in), tx, X.k[0]); \
            const __m128i kl = _mm_xor_si128(X.last, tx); \
            tx = xmulx1(tx); \
            XROUNDS_MID(XOP, y, &X, nr); \
            hwc_x86_st(out, XOPL(y, kl)); \
        } \
    } while (0)

#define XTS_BODY(OP, OPL, off) do { \
        __m128i tx = hwc_x86_ld(t); \
        if (HWC_W > 128 && blocks < L) { \
            hwc_xkeys X; \
            load_xkeys(&X, k->sched + (off), nr); \
            XTS_TAIL(OP##_X, OPL##_X); \
            hwc_x86_st(t, tx); \
            return; \
        } \
        hwc_keys K; \
        load_keys(&K, k->sched + (off), nr); \
        const V P = V_BC(_mm_cvtsi32_si128(0x87)); \
        if (blocks >= NB * L) { \
            const V tb = V_BC(tx);   /* T, every lane */ \
            V tv[NB]; \
            FIRST_TWEAKS(tv, tb, P); \
            for (;;) { \
                V x[NB]; \
                UNROLL for (int i = 0; i < NB; i++) x[i] = V_XOR3(V_LD(in + 16 * L * i), tv[i], K.k[0]); \
                ROUNDS_MID(OP, x, NB, &K, nr); \
                UNROLL for (int i = 0; i < NB; i++) \
                    V_ST(out + 16 * L * i, OPL(x[i], V_XOR(K.last, tv[i]))); \
                in += 16 * L * NB; out += 16 * L * NB; blocks -= L * NB; \
                if (blocks < NB * L) break; \
                /* next batch's tweaks: x^(8 L) = L bytes; they overlap this \
                   batch's rounds in the out-of-order window */ \
                UNROLL for (int i = 0; i < NB; i++) tv[i] = GF_MULX_BYTES(tv[i], L, P); \
            } \
            /* T x^(blocks done): lane 0 of the next batch's first vector */ \
            tx = _mm_xor_si128(_mm_slli_si128(V_LOW(tv[0]), L), \
                               _mm_clmulepi64_si128(_mm_srli_si128(V_LOW(tv[0]), 16 - L), \
                                                    V_LOW(P), 0x00)); \
        } \
        if (blocks >= L) { \
            const V tb = V_BC(tx); \
            unsigned r = 0; \
            for (; blocks >= L; r++) { \
                const V tw = tweak_vec(tb, r, P); \
                V x[1] = {V_XOR3(V_LD(in), tw, K.k[0])}; \
                const V kl = V_XOR(K.last, tw); \
                ROUNDS_MID(OP, x, 1, &K, nr); \
                V_ST(out, OPL(x[0], kl)); \
                in += 16 * L; out += 16 * L; blocks -= L; \
            } \
            tx = V_LOW(tweak_vec(tb, r, P)); \
        } \
        if (HWC_W > 128 && blocks) { \
            hwc_xkeys X; \
            xkeys_from(&X, &K); \
            XTS_TAIL(OP##_X, OPL##_X); \
        } \
        hwc_x86_st(t, tx); \
    } while (0)

HWC_X86_INLINE void xts_enc_n(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                              size_t blocks, const unsigned nr) {
    XTS_BODY(V_ENC, V_ENCL, 0);
}

HWC_X86_INLINE void xts_dec_n(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                              size_t blocks, const unsigned nr) {
    XTS_BODY(V_DEC, V_DECL, HWC_X86_DEC_OFF);
}

#ifdef HWC_AES_XTS_ONLY
#define xts_enc HWC_XTS_ENC_NAME
#define xts_dec HWC_XTS_DEC_NAME
#define HWC_XTS_LINKAGE
void xts_enc(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t blocks);
void xts_dec(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t blocks);
#else
#define HWC_XTS_LINKAGE static
#endif

HWC_XTS_LINKAGE void xts_enc(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
#define C(n) xts_enc_n(k, t, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

HWC_XTS_LINKAGE void xts_dec(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
#define C(n) xts_dec_n(k, t, out, in, blocks, n)
    BY_ROUNDS(C);
#undef C
}

#ifdef HWC_AES_TABLE
const hwc_aes_impl HWC_AES_TABLE = {
    .setkey = hwc_x86_setkey,
    .ecb_encrypt = ecb_enc,
    .ecb_decrypt = ecb_dec,
    .cbc_encrypt = cbc_enc,
    .cbc_decrypt = cbc_dec,
    .ctr = ctr,
    .xts_encrypt = xts_enc,
    .xts_decrypt = xts_dec,
    .cmac_chain = cmac_chain,
};
#endif

#endif
