/* Streebog (GOST R 34.11-2012, RFC 6986) compression g_N with AVX-512
 * (F/BW/VL + VBMI + GFNI). Table-free and constant time: no branch and no
 * memory index depends on the message, the chaining value, N or Sigma.
 *
 * The 512-bit state is one zmm, lane r = word r (core/kernel.h order).
 * LPS (RFC 6986 section 7) of a state x in that form:
 *   S: pi (section 6.1) lives in four zmm constants; two vpermi2b look up
 *      the low 7 index bits in each 128-byte half; the index's top bit,
 *      spread over its byte by vgf2p8affineqb, muxes the halves
 *      (vpternlogq).
 *   P, L: output word c, byte k = XOR_r M[k][r](S(x)[r] byte c), where
 *      M[k][r](b) = byte k of l(b << 8r) is GF(2)-linear in the byte b
 *      (l is multiplication by the matrix A of section 6.3), i.e. an 8x8
 *      bit matrix for vgf2p8affineqb. Rotating the lanes by d (valignq)
 *      gives lane k the word (k+d) mod 8, so each of the 8 terms is one
 *      vgf2p8affineqb with a per-lane matrix (G[d] below, derived from A);
 *      the XOR of the terms is the result with bytes transposed (lane k
 *      holds byte k of every output word); one vpermb (tau, section 6.2)
 *      restores the word form. XORs run as 3-input vpternlogq, and the
 *      XOR with the round key / constant that follows each LPS is folded
 *      into that tree (applied before the transpose, on the transposed key).
 * The key schedule chain K_{i+1} = LPS(K_i ^ C_i) and the state chain
 * run interleaved (two independent dependency chains per round).
 * N and Sigma (section 8.2) are added with a branch-free vector carry
 * look-ahead on lane masks.
 * Cost: an LPS is ~28 uops, all on ports 0 and 5 (vpermi2b is 3 uops);
 * ~7.9 core cycles/byte on the Sapphire Rapids VM this was tuned on, with
 * the two chains not fully hiding each other's latency. Tried and not
 * faster there: GF2P8MULB in the AES field (through the field isomorphism
 * from 0x11D that sends x to 0x03) with lane-local rotations; the row
 * broadcast from memory as the vgf2p8affineqb matrix operand (store-forward
 * latency); four vpermb instead of two vpermi2b. */
#include <immintrin.h>
#include <stdint.h>
#include "core/kernel.h"
#include "impl/generic/streebog_tables.h"

/* G[d][k]: vgf2p8affineqb matrix for lane k of term d: b -> byte k of
   l(b << 8r), r = (k + d) mod 8. Row i (byte 7-i of the qword) has bit t set
   when bit 8k+i of A[63-8r-t] is set (A: RFC 6986 section 6.3). Generated
   from hwc_streebog_A; any error shows in the test vectors. */
static const uint64_t G[8][8] __attribute__((aligned(64))) = {
    {0x63c7ecba162c58b1ull, 0x56ac0f49c58a152bull, 0x18317aecc183060cull, 0x3060f0d193264c98ull,
     0x82048b95a850a041ull, 0x9224db25d9b264c9ull, 0xba7551188b172e5dull, 0x63c7ecba162c58b1ull},
    {0x3060f0d193264c98ull, 0x9d3beb4a0913274eull, 0x102050b071e2c488ull, 0xdab5b0bbad5bb66dull,
     0x4b96668744891225ull, 0xe1c3672fbe7cf8f0ull, 0x050b132240800102ull, 0x0c183d76e0c18306ull},
    {0xa85008b9dab56ad4ull, 0x4a94628f54a952a5ull, 0x73e7bc0a67ce9c39ull, 0x18317aecc183060cull,
     0x0102040810204080ull, 0x43874cdbf4e8d0a1ull, 0x70e0b11357ae5cb8ull, 0x2a54832c72e5ca95ull},
    {0x122559a151a24489ull, 0x274eba5282040913ull, 0x428548d3e4c89021ull, 0xb06172551b366cd8ull,
     0xc183c74e5cb870e0ull, 0x9932fc6059b366ccull, 0x43874cdbf4e8d0a1ull, 0x9f3ee25b2953a74full},
    {0xb8705809ab57ae5cull, 0xc386ce5f7cf8f0e1ull, 0x63c7ecba162c58b1ull, 0xfaf510da4f9f3e7dull,
     0x65cbf28166cc9932ull, 0x050b132240800102ull, 0x3d7ac9af63c78f1eull, 0x75eba231172e5dbaull},
    {0xd4a884dc6ddab56aull, 0xd2a49ae71d3a74e9ull, 0x0409172a50a04182ull, 0x29538e3542850a14ull,
     0x254bb343a2448912ull, 0x2245a970c2840811ull, 0xc081c3464c983060ull, 0x8103868c983060c0ull},
    {0x0205091120408001ull, 0x2347ad78d2a44891ull, 0x0205091120408001ull, 0x122559a151a24489ull,
     0x172e4a831122458bull, 0x82048b95a850a041ull, 0x8912acd02851a244ull, 0x0a14234d90214285ull},
    {0x0c183d76e0c18306ull, 0xae5c1682aa55ab57ull, 0xfffe03f80f1f3f7full, 0x428548d3e4c89021ull,
     0x0d1a397ef0e1c386ull, 0x0d1a397ef0e1c386ull, 0x468c5ff9b468d1a3ull, 0x0409172a50a04182ull},
};

typedef struct {
    __m512i pi0, pi1, pi2, pi3;   /* pi[0..63], [64..127], [128..191], [192..255] */
    __m512i tau;                  /* byte transpose index (section 6.2) */
    __m512i g[8];
} consts;

static inline __attribute__((always_inline)) void load_consts(consts *c) {
    c->pi0 = _mm512_loadu_si512((const void *)(hwc_streebog_pi + 0));
    c->pi1 = _mm512_loadu_si512((const void *)(hwc_streebog_pi + 64));
    c->pi2 = _mm512_loadu_si512((const void *)(hwc_streebog_pi + 128));
    c->pi3 = _mm512_loadu_si512((const void *)(hwc_streebog_pi + 192));
    c->tau = _mm512_loadu_si512((const void *)hwc_streebog_tau);
    for (int d = 0; d < 8; d++) c->g[d] = _mm512_load_si512((const void *)G[d]);
}

/* S: pi on every byte, by register permutes only. The index's top bit,
   spread over its byte by vgf2p8affineqb (every matrix row selects bit 7),
   muxes the two 128-entry halves bitwise. */
static inline __attribute__((always_inline)) __m512i sbox(const consts *c, __m512i x) {
    __m512i lo = _mm512_permutex2var_epi8(c->pi0, x, c->pi1);
    __m512i hi = _mm512_permutex2var_epi8(c->pi2, x, c->pi3);
    __m512i top = _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)0x8080808080808080ull), 0);
    return _mm512_ternarylogic_epi64(top, hi, lo, 0xca);   /* top ? hi : lo */
}

#define XOR3(a, b, e) _mm512_ternarylogic_epi64((a), (b), (e), 0x96)
#define TERM(t, d) _mm512_gf2p8affine_epi64_epi8(_mm512_alignr_epi64((t), (t), (d)), c->g[d], 0)

/* L(P(t)) in transposed form, XORed with e (also in transposed form). */
static inline __attribute__((always_inline)) __m512i lp_t(const consts *c, __m512i t, __m512i e) {
    __m512i a = XOR3(_mm512_gf2p8affine_epi64_epi8(t, c->g[0], 0), TERM(t, 1), TERM(t, 2));
    __m512i b = XOR3(TERM(t, 3), TERM(t, 4), TERM(t, 5));
    __m512i d = XOR3(TERM(t, 6), TERM(t, 7), e);
    return XOR3(a, b, d);
}

static inline __attribute__((always_inline)) __m512i transpose(const consts *c, __m512i v) {
    return _mm512_permutexvar_epi8(c->tau, v);
}

/* h' = E(K = LPS(h ^ N), m) ^ h ^ m (RFC 6986 section 8.1). */
static inline __attribute__((always_inline)) __m512i g_core(const consts *c, __m512i h, __m512i n,
                                                            __m512i m) {
    const __m512i zero = _mm512_setzero_si512();
    /* kt: K_i in transposed form; xk, xs: the next LPS inputs (word form). */
    __m512i kt = lp_t(c, sbox(c, _mm512_xor_si512(h, n)), zero);
    __m512i xs = transpose(c, _mm512_xor_si512(transpose(c, m), kt));
    __m512i ct = transpose(c, _mm512_loadu_si512((const void *)hwc_streebog_C[0]));
    __m512i xk = transpose(c, _mm512_xor_si512(kt, ct));
    for (int i = 0; i < 12; i++) {
        __m512i sk = sbox(c, xk);
        __m512i ss = sbox(c, xs);
        kt = lp_t(c, sk, zero);          /* K_{i+2} */
        xs = transpose(c, lp_t(c, ss, kt));
        if (i < 11) {                     /* loop counter only: not secret */
            ct = transpose(c, _mm512_loadu_si512((const void *)hwc_streebog_C[i + 1]));
            xk = transpose(c, _mm512_xor_si512(kt, ct));
        }
    }
    return XOR3(xs, h, m);
}

/* a + b mod 2^512, lane i = word i. Carries: lane i receives one when lane
   i-1 overflowed (g) or was all-ones (p) and received one; the carry-in mask
   is ((g << 1) + p) ^ p (integer addition does the look-ahead). */
static inline __attribute__((always_inline)) __m512i add512(__m512i a, __m512i b) {
    __m512i s = _mm512_add_epi64(a, b);
    unsigned g = _mm512_cmplt_epu64_mask(s, a);
    unsigned p = _mm512_cmpeq_epi64_mask(s, _mm512_set1_epi64(-1));
    __mmask8 cin = (__mmask8)((((g << 1) + p) ^ p) & 0xff);
    return _mm512_mask_sub_epi64(s, cin, s, _mm512_set1_epi64(-1));
}

static void sb_g(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]) {
    consts c;
    load_consts(&c);
    __m512i r = g_core(&c, _mm512_loadu_si512((const void *)h), _mm512_loadu_si512((const void *)n),
                       _mm512_loadu_si512((const void *)m));
    _mm512_storeu_si512((void *)h, r);
}

static void sb_blocks(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data,
                      size_t nblocks) {
    consts c;
    load_consts(&c);
    const __m512i n512 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, 512);
    __m512i vh = _mm512_loadu_si512((const void *)h);
    __m512i vn = _mm512_loadu_si512((const void *)n);
    __m512i vs = _mm512_loadu_si512((const void *)sigma);
    for (size_t b = 0; b < nblocks; b++) {
        __m512i m = _mm512_loadu_si512((const void *)(data + 64 * b));
        vh = g_core(&c, vh, vn, m);
        vn = add512(vn, n512);
        vs = add512(vs, m);
    }
    _mm512_storeu_si512((void *)h, vh);
    _mm512_storeu_si512((void *)n, vn);
    _mm512_storeu_si512((void *)sigma, vs);
}

const hwc_streebog_impl hwc_streebog_avx512 = {sb_g, sb_blocks};
