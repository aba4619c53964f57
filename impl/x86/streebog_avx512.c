/* Streebog (GOST R 34.11-2012, RFC 6986) compression g_N with AVX-512
 * (F/BW/VL + VBMI + GFNI), one message or 2-4 independent ones side by side
 * (the lane steps of internal/kernel.h). Table-free and constant time: no
 * branch and no memory index depends on the message, the chaining value, N
 * or Sigma.
 *
 * Notation: a state word r (internal/kernel.h order) is lane r; a[r][c] is byte c
 * of word r. LPS (RFC 6986 section 7): out[c][k] = XOR_r A_kr(pi(a[r][c])),
 * where A_kr(v) = byte k of l(v << 8r) (l: section 6.3) is multiplication by a
 * constant c_kr of GF(2^8) with polynomial x^8+x^4+x^3+x^2+1 (0x11D).
 *
 * Field: the whole compression runs in the AES field GF(2^8)/0x11B through
 * the isomorphism phi: x -> 0x03 (a root of 0x11D there), a GF(2)-linear byte
 * map applied with one vgf2p8affineqb. Then every c_kr is a vgf2p8mulb
 * operand, the S-box table holds phi(pi(phi^-1(y))), the round constants
 * are phi(C_i); g() maps h, N, m in and h out (phi happens to be an
 * involution as a bit matrix), blocks() keeps h in the phi domain from the
 * first block to the last.
 *
 * Two layouts, alternating between rounds, so that P costs nothing:
 *   word form   lane r = word r (bytes c);
 *   transposed  lane k = byte k of every word (byte c of lane k = a[c][k]).
 * L is summed over r = k ^ d, d = 0..7 (term d pairs output k with input
 * k ^ d, multiplied by c_{k,k^d}):
 * Type A LPS (word form in, transposed out): term d is S(x) with its lanes
 *   swapped k <-> k ^ d, times fa[d] (one constant per lane); the XOR of the
 *   8 terms is out in transposed form.
 * Type B LPS (transposed in, word form out): after S, lane c holds word c of
 *   P(S(a)), so L runs inside each lane: term d swaps bytes k <-> k ^ d in
 *   every lane, times fb[d].
 * The swaps are built from the XOR structure of d, most on the 4-wide
 * XOR/shuffle ports of recent cores (docs/bench.md): type A, vshufi64x2 for the
 * 128-bit block part (d & 6) and vpshufd for d & 1 after it; type B,
 * vpshufb for d = 1 and 3, vpshuflw + vpshufhw for 2, vpshufd (dword swap)
 * after those for d >= 4. So an LPS issues 13-14 instructions on the two
 * shuffle/GF2P8 ports (2 vpermi2b, 1 spread, 8 vgf2p8mulb, 2-3 swaps) with
 * a short dependency chain (swap, multiply, two XOR3 levels).
 * Round i of E (section 8.1) is type A for odd i, B for even i, for the state
 * and the key schedule K_{i+1} = LPS(K_i ^ C_i) alike (K_1 = LPS(h ^ N) is
 * type B on the transposed h ^ N); C_i is stored in the layout of K_i.
 * The key chain carries K_i ^ C_i (the constant XOR sits in its L tree); the
 * state tree XORs that and C_i back. The key chain's S step of round i+1 is
 * issued before the state's L step of round i (software skew).
 *
 * S (section 6.1): two vpermi2b look up the low 7 index bits in each
 * 128-byte half of the table; the index's top bit, spread over its byte by
 * vgf2p8affineqb, selects the half (vpternlogq).
 * One message is a latency chain (key and state LPS of each round); L
 * messages interleave L such chains and fill the ports instead.
 * N and Sigma (section 8.2) are added with a branch-free vector carry
 * look-ahead on lane masks.
 *
 * The constant tables are derived at first use from hwc_streebog_pi, _A and
 * _C (internal/streebog_constants.h) by the rules above; any error shows in
 * the known-answer and cross-kernel tests. */
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "internal/kernel.h"
#include "internal/streebog_constants.h"

/* phi (and phi^-1): GF(2^8)/0x11D -> GF(2^8)/0x11B, x -> 0x03, as a
   vgf2p8affineqb matrix. */
#define PHI_MATRIX 0xffaacc88f0a0c080ull

/* The kernel's constants, derived at first use from pi, A and C
   (internal/streebog_constants.c) by the rules above. */
typedef struct {
    uint8_t sp[256];     /* sp[y] = phi(pi(phi^-1(y))) */
    uint8_t fa[8][64];   /* lane k, every byte = phi(c_{k,k^d}) (type A term d) */
    uint8_t fb[8][64];   /* byte k of every lane = phi(c_{k,k^d}) (type B term d) */
    uint8_t ck[12][64];  /* phi(C_i): word form for odd i, transposed for even i */
    uint8_t swap1[64];   /* vpshufb index: byte k of each qword <- byte k ^ 1 */
    uint8_t swap3[64];   /* vpshufb index: byte k of each qword <- byte k ^ 3 */
} sb_consts;

static _Alignas(64) sb_consts K;

/* Product in GF(2^8) modulo the polynomial poly (0x11B or 0x11D). */
static uint8_t gf_mul(uint8_t a, uint8_t b, unsigned poly) {
    unsigned r = 0, x = a;
    for (int i = 0; i < 8; i++, x <<= 1) {
        if (x & 0x100) x ^= poly;
        if (b >> i & 1) r ^= x;
    }
    return (uint8_t)r;
}

/* phi(v) = sum of 0x03^i over the bits i of v, in GF(2^8)/0x11B. */
static uint8_t phi(uint8_t v) {
    uint8_t r = 0, p = 1;
    for (int i = 0; i < 8; i++, p = gf_mul(p, 0x03, 0x11B))
        if (v >> i & 1) r ^= p;
    return r;
}

static void build_consts(void) {
    uint8_t inv[256];
    for (int v = 0; v < 256; v++) inv[phi((uint8_t)v)] = (uint8_t)v;
    for (int y = 0; y < 256; y++) K.sp[y] = phi(hwc_streebog_pi[inv[y]]);
    /* c_kr = byte k of l(1 << 8r): A_kr(v) = byte k of l(v << 8r) = c_kr * v. */
    uint8_t c[8][8];
    for (int r = 0; r < 8; r++) {
        uint64_t col = hwc_streebog_l(1ull << (8 * r));
        for (int k = 0; k < 8; k++) c[k][r] = phi((uint8_t)(col >> (8 * k)));
    }
    for (int d = 0; d < 8; d++)
        for (int p = 0; p < 64; p++) {
            K.fa[d][p] = c[p / 8][p / 8 ^ d];
            K.fb[d][p] = c[p % 8][p % 8 ^ d];
        }
    for (int p = 0; p < 64; p++) {
        K.swap1[p] = (uint8_t)((p & 15) ^ 1);
        K.swap3[p] = (uint8_t)((p & 15) ^ 3);
    }
    for (int i = 0; i < 12; i++)
        for (int r = 0; r < 8; r++)
            for (int b = 0; b < 8; b++) {
                uint8_t v = phi((uint8_t)(hwc_streebog_C[i][r] >> (8 * b)));
                if (i % 2 == 0) K.ck[i][8 * r + b] = v;   /* C_{i+1}, i+1 odd: word form */
                else K.ck[i][8 * b + r] = v;              /* transposed */
            }
}

static pthread_once_t g_consts_once = PTHREAD_ONCE_INIT;
static atomic_int g_consts_ready;

static void consts_once(void) {
    build_consts();
    atomic_store_explicit(&g_consts_ready, 1, memory_order_release);
}

static void consts_init(void) {
    if (!atomic_load_explicit(&g_consts_ready, memory_order_acquire))
        pthread_once(&g_consts_once, consts_once);
}

#define LD(p) _mm512_load_si512((const void *)(p))
#define XOR3(a, b, e) _mm512_ternarylogic_epi64((a), (b), (e), 0x96)
#define MUL(a, d, M) _mm512_gf2p8mul_epi8((a), LD(K.M[d]))

typedef struct {
    __m512i s0, s1, s2, s3;   /* sp[0..63], [64..127], [128..191], [192..255] */
} sbox_t;

/* S on every byte (phi domain), by register permutes only. */
static inline __attribute__((always_inline)) __m512i sub(const sbox_t *s, __m512i x) {
    __m512i lo = _mm512_permutex2var_epi8(s->s0, x, s->s1);
    __m512i hi = _mm512_permutex2var_epi8(s->s2, x, s->s3);
    __m512i top = _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)0x8080808080808080ull), 0);
    return _mm512_ternarylogic_epi64(top, hi, lo, 0xca);   /* top ? hi : lo */
}

#define SW64(t, d) _mm512_shuffle_i64x2((t), (t), (d) == 2 ? 0xB1 : (d) == 4 ? 0x4E : 0x1B)
#define QSW(t) _mm512_shuffle_epi32((t), 0x4E)   /* qwords k <-> k ^ 1 */
#define DSW(t) _mm512_shuffle_epi32((t), 0xB1)   /* bytes k <-> k ^ 4 in each qword */

/* L(P(.)) of an S output t, type A (word form in, transposed out), XOR e. */
static inline __attribute__((always_inline)) __m512i lp_a(__m512i t, __m512i e) {
    __m512i t2 = SW64(t, 2), t4 = SW64(t, 4), t6 = SW64(t, 6);
    __m512i a = XOR3(MUL(t, 0, fa), MUL(QSW(t), 1, fa), MUL(t2, 2, fa));
    __m512i b = XOR3(MUL(QSW(t2), 3, fa), MUL(t4, 4, fa), MUL(QSW(t4), 5, fa));
    __m512i c = XOR3(MUL(t6, 6, fa), MUL(QSW(t6), 7, fa), e);
    return XOR3(a, b, c);
}

/* Type B (transposed in, word form out), XOR e. */
static inline __attribute__((always_inline)) __m512i lp_b(__m512i t, __m512i e) {
    __m512i t1 = _mm512_shuffle_epi8(t, LD(K.swap1)), t3 = _mm512_shuffle_epi8(t, LD(K.swap3));
    __m512i t2 = _mm512_shufflehi_epi16(_mm512_shufflelo_epi16(t, 0xB1), 0xB1);
    __m512i a = XOR3(MUL(t, 0, fb), MUL(t1, 1, fb), MUL(t2, 2, fb));
    __m512i b = XOR3(MUL(t3, 3, fb), MUL(DSW(t), 4, fb), MUL(DSW(t1), 5, fb));
    __m512i c = XOR3(MUL(DSW(t2), 6, fb), MUL(DSW(t3), 7, fb), e);
    return XOR3(a, b, c);
}

/* For each lane l < L: h[l]' = E(K = LPS(h ^ N), m) ^ h ^ m (RFC 6986
   section 8.1); hx[l] = h[l] ^ N[l], passed in so that blocks() forms it as
   soon as h' is known. All inputs and the results in the phi domain (word
   form). The L chains are independent: each step is issued for every lane
   before the next, so the core overlaps them (L = 1 is the single path). */
#define EACH(l) _Pragma("GCC unroll 4") for (int l = 0; l < L; l++)
static inline __attribute__((always_inline)) void g_phi(const sbox_t *s, int L, __m512i h[],
                                                        const __m512i hx[], const __m512i m[]) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i tau = _mm512_loadu_si512((const void *)hwc_streebog_tau);
    __m512i ts[HWC_SB_MAX_LANES], kc[HWC_SB_MAX_LANES], tk[HWC_SB_MAX_LANES], x[HWC_SB_MAX_LANES];
    EACH(l) kc[l] = lp_b(sub(s, _mm512_permutexvar_epi8(tau, hx[l])), LD(K.ck[0])); /* K1 ^ C1 */
    EACH(l) ts[l] = sub(s, XOR3(m[l], kc[l], LD(K.ck[0])));                        /* S(m ^ K1) */
    EACH(l) kc[l] = lp_a(sub(s, kc[l]), LD(K.ck[1]));                              /* K2 ^ C2 */
    /* Entering round i = 2j+1: ts = S(state ^ K_i), kc = K_{i+1} ^ C_{i+1}. */
    for (int j = 0; j < 6; j++) {
        EACH(l) {
            tk[l] = sub(s, kc[l]);                                          /* key, round i+1 */
            x[l] = _mm512_xor_si512(lp_a(ts[l], kc[l]), LD(K.ck[2 * j + 1])); /* state ^ K_{i+1} */
        }
        EACH(l) kc[l] = lp_b(tk[l], j < 5 ? LD(K.ck[2 * j + 2]) : zero);    /* K_{i+2} ^ C_{i+2}; K_13 */
        EACH(l) ts[l] = sub(s, x[l]);
        if (j < 5) {
            EACH(l) {
                tk[l] = sub(s, kc[l]);                                      /* key, round i+2 */
                x[l] = _mm512_xor_si512(lp_b(ts[l], kc[l]), LD(K.ck[2 * j + 2]));
            }
            EACH(l) kc[l] = lp_a(tk[l], LD(K.ck[2 * j + 3]));
            EACH(l) ts[l] = sub(s, x[l]);
        } else {
            EACH(l) ts[l] = lp_b(ts[l], kc[l]);                             /* E(K, m) */
        }
    }
    EACH(l) h[l] = XOR3(ts[l], h[l], m[l]);
}

#define PHI(v) _mm512_gf2p8affine_epi64_epi8((v), _mm512_set1_epi64((long long)PHI_MATRIX), 0)

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

static inline __attribute__((always_inline)) void load_sbox(sbox_t *s) {
    consts_init();
    s->s0 = LD(K.sp);
    s->s1 = LD(K.sp + 64);
    s->s2 = LD(K.sp + 128);
    s->s3 = LD(K.sp + 192);
}

/* The lane step of width L (internal/kernel.h): h stays in the phi domain,
   N and Sigma in vector registers from the first block to the last. */
static inline __attribute__((always_inline)) void g_lanes(int L, const hwc_sb_lane *a, size_t nblocks) {
    const __m512i n512 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, 512);
    sbox_t s;
    __m512i vh[HWC_SB_MAX_LANES], hx[HWC_SB_MAX_LANES], vm[HWC_SB_MAX_LANES];
    __m512i vn[HWC_SB_MAX_LANES], vs[HWC_SB_MAX_LANES];
    load_sbox(&s);
    EACH(l) {
        vh[l] = PHI(_mm512_loadu_si512((const void *)a[l].h_in));
        vn[l] = _mm512_loadu_si512((const void *)a[l].n);
        vs[l] = a[l].sigma ? _mm512_loadu_si512((const void *)a[l].sigma) : _mm512_setzero_si512();
        hx[l] = _mm512_xor_si512(vh[l], PHI(vn[l]));
    }
    for (size_t b = 0; b < nblocks; b++) {
        EACH(l) vm[l] = PHI(_mm512_loadu_si512((const void *)(a[l].m + 64 * b)));
        g_phi(&s, L, vh, hx, vm);
        EACH(l) {
            if (a[l].sigma) {
                vn[l] = add512(vn[l], n512);
                vs[l] = add512(vs[l], _mm512_loadu_si512((const void *)(a[l].m + 64 * b)));
            }
            hx[l] = _mm512_xor_si512(vh[l], PHI(vn[l]));
        }
    }
    EACH(l) {
        _mm512_storeu_si512((void *)a[l].h, PHI(vh[l]));   /* phi^-1 = phi */
        if (a[l].sigma) {
            _mm512_storeu_si512((void *)a[l].n, vn[l]);
            _mm512_storeu_si512((void *)a[l].sigma, vs[l]);
        }
    }
}

static void sb_g(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]) {
    hwc_sb_lane a = {h, h, (uint64_t *)(uintptr_t)n, NULL, (const uint8_t *)m};   /* x86: words = bytes */
    g_lanes(1, &a, 1);
}

static void sb_blocks(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data,
                      size_t nblocks) {
    hwc_sb_lane a = {h, h, n, sigma, data};
    if (nblocks) g_lanes(1, &a, nblocks);
}

static void sb_g1(const hwc_sb_lane *a, size_t nb) { g_lanes(1, a, nb); }
static void sb_g2(const hwc_sb_lane *a, size_t nb) { g_lanes(2, a, nb); }
static void sb_g3(const hwc_sb_lane *a, size_t nb) { g_lanes(3, a, nb); }
static void sb_g4(const hwc_sb_lane *a, size_t nb) { g_lanes(4, a, nb); }

const hwc_streebog_impl hwc_streebog_avx512 = {
    .g = sb_g,
    .blocks = sb_blocks,
    .g_lanes = {[1] = sb_g1, [2] = sb_g2, [3] = sb_g3, [4] = sb_g4},
    .clean_frames = HWC_CLEAN_HASH,   /* state in registers, tables constant */
};
