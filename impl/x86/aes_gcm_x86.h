/* Width-generic AES-GCM for the x86 kernels (NIST SP 800-38D): GCTR with
 * AES-NI/VAES and GHASH with PCLMULQDQ/VPCLMULQDQ, stitched in one loop.
 * A kernel file defines HWC_GCM_W (128: xmm, 256: ymm, 512: zmm) and
 * includes this header once, after impl/x86/aes_x86_modes.h; with its parts
 * aes_gcm_x86_ghash.h (GHASH arithmetic, the hash-key table) and
 * aes_gcm_x86_msg.h (one whole message), which it includes, it defines the
 * static slot functions gcm_ghash_init, gcm_ghash, gcm_encrypt, gcm_decrypt,
 * gcm_oneshot and HWC_X86_GCM_SLOTS, their part of the kernel table's
 * initialiser. The hash-key table has one layout at every width.
 *
 * GHASH representation. A block B is byte-reversed into a 128-bit integer U
 * (bit i of U = coefficient of x^(127-i) of the standard's polynomial).
 * Read as a polynomial with bit i = x^i, U is the reversal of the block's
 * polynomial, and products of reversed polynomials live in GF(2)[x] modulo
 * the reversed field polynomial g* = x^128 + x^127 + x^126 + x^121 + 1.
 * PCLMULQDQ multiplies such polynomials directly. Multiplication is done the
 * Montgomery way: mont(A, B) = A B x^-128 mod g*, the 256-bit product
 * reduced by folding its low 64-bit halves with one carry-less multiply by
 * x^63 + x^62 + x^57 each. The table holds P_n = H^n x (H^n in the block
 * representation times x), so mont(U, P_n) is exactly U H^n in the block
 * representation: mont(P_n, P_1) = P_(n+1) builds the powers.
 *
 * Aggregated reduction: n blocks C_1..C_n and the accumulator X give
 * X' = (X ^ C_1) H^n ^ C_2 H^(n-1) ^ ... ^ C_n H: n Karatsuba products
 * (3 carry-less multiplies each, the (h0 ^ h1) halves precomputed) summed
 * unreduced, then one reduction.
 *
 * Table (HWC_GCM_HTAB_BYTES = 2048): entry e (0..31) at 16e is P_(32-e);
 * at 512 + 16e the XOR of its two 64-bit halves, in both halves. A group of
 * n <= 32 blocks uses entries 32-n..31, contiguous, in block order. zmm
 * only: P_(64-e) at 1024 + 16e and its halves at 1536 + 16e, the powers of
 * the first batch of a 64-block group (gcm_run's pairs of batches); the
 * other widths leave those bytes zero.
 *
 * Counter: the counter block with its last 32-bit word byte-reversed, so
 * that a 32-bit lane add is GCM's inc32 (wrapping mod 2^32); one byte
 * shuffle per vector restores the block, at every width and whatever the
 * counter's value (zmm AES-128: counter words in lanes and a word permute,
 * gcm_batch; with a 12-byte IV, whose counters are public, a base block and
 * constants, gcm_ctr12_init).
 *
 * Constant time: AES-NI/VAES and carry-less multiplies have no
 * data-dependent timing; branches and addresses depend on lengths only,
 * never on the counter (secret for IVs other than 12 bytes: J0 is then
 * GHASH_H of the IV, SP 800-38D 7.1). */
#ifndef HWC_IMPL_X86_AES_GCM_X86_H
#define HWC_IMPL_X86_AES_GCM_X86_H

#include "aes_x86_keysched.h"
#include "internal/bytes.h"

#if !defined(HWC_GCM_W)
#error "define HWC_GCM_W (128, 256 or 512) first"
#endif

/* ---- primitives at the GHASH/AES width ---------------------------------------- */
#if HWC_GCM_W == 128
typedef __m128i GV;
#define GL 1         /* blocks per vector */
#define GNV 8        /* vectors per stitched iteration */
#define G_LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define G_ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define G_BC(x) (x)
#define G_LANE0(x) (x)
#define G_ZERO _mm_setzero_si128
#define G_LOW(v) (v)
#define G_XOR _mm_xor_si128
#define G_ADD32 _mm_add_epi32
#define G_SHUF8 _mm_shuffle_epi8
#define G_SWAPQ(v) _mm_shuffle_epi32(v, 0x4e)
#define G_UNPLO _mm_unpacklo_epi64
#define G_UNPHI _mm_unpackhi_epi64
#define G_CLMUL(a, b, i) _mm_clmulepi64_si128(a, b, i)
#define G_ENC _mm_aesenc_si128
#define G_ENCL _mm_aesenclast_si128
#define G_LANE_INC _mm_setzero_si128()
#elif HWC_GCM_W == 256
typedef __m256i GV;
#define GL 2
#define GNV 8
#define G_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define G_ST(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define G_BC(x) _mm256_broadcastsi128_si256(x)
#define G_LANE0(x) _mm256_zextsi128_si256(x)
#define G_ZERO _mm256_setzero_si256
#define G_LOW(v) _mm256_castsi256_si128(v)
#define G_XOR _mm256_xor_si256
#define G_ADD32 _mm256_add_epi32
#define G_SHUF8 _mm256_shuffle_epi8
#define G_SWAPQ(v) _mm256_shuffle_epi32(v, 0x4e)
#define G_UNPLO _mm256_unpacklo_epi64
#define G_UNPHI _mm256_unpackhi_epi64
#define G_CLMUL(a, b, i) _mm256_clmulepi64_epi128(a, b, i)
#define G_ENC _mm256_aesenc_epi128
#define G_ENCL _mm256_aesenclast_epi128
#define G_LANE_INC _mm256_set_epi32(1, 0, 0, 0, 0, 0, 0, 0)
#elif HWC_GCM_W == 512
typedef __m512i GV;
#define GL 4
#define GNV 8
#define G_LD(p) _mm512_loadu_si512((const void *)(p))
#define G_ST(p, v) _mm512_storeu_si512((void *)(p), v)
#define G_BC(x) _mm512_broadcast_i32x4(x)
#define G_LANE0(x) _mm512_zextsi128_si512(x)
#define G_ZERO _mm512_setzero_si512
#define G_LOW(v) _mm512_castsi512_si128(v)
#define G_XOR _mm512_xor_si512
#define G_ADD32 _mm512_add_epi32
#define G_SHUF8 _mm512_shuffle_epi8
#define G_SWAPQ(v) _mm512_shuffle_epi32(v, _MM_PERM_BADC)
#define G_UNPLO _mm512_unpacklo_epi64
#define G_UNPHI _mm512_unpackhi_epi64
#define G_CLMUL(a, b, i) _mm512_clmulepi64_epi128(a, b, i)
#define G_ENC _mm512_aesenc_epi128
#define G_ENCL _mm512_aesenclast_epi128
#define G_LANE_INC _mm512_set_epi32(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)
#else
#error "HWC_GCM_W must be 128, 256 or 512"
#endif

#if HWC_GCM_W == 512
#define G_XOR3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
#define G_PAIRS 1
#else
#define G_XOR3(a, b, c) G_XOR(G_XOR(a, b), c)
#define G_PAIRS 0
#endif

#define GB (GNV * GL)          /* blocks per stitched iteration */
#if defined(__clang__)
#define G_UNROLL _Pragma("clang loop unroll(full)")   /* clang leaves GCC unroll 16 loops rolled */
#else
#define G_UNROLL _Pragma("GCC unroll 16")
#endif

/* No key material in the frames. Nothing is held in locals for a whole
   call where the compiler could spill it: round keys and hash-key powers are
   read from memory where they are used. G_OPAQUE at the top of every loop
   iteration hides a pointer's value from the compiler (volatile: the asm is
   not hoisted either), so the loads through it cannot be moved out of the
   loop and kept (spilled) there. Round keys come from the schedule (xmm:
   an aligned memory operand; ymm/zmm: a broadcast just before each round)
   or, for calls of G_TABLE_BLOCKS blocks and more on ymm/zmm, from a table
   of the keys broadcast to every lane, filled once per call in the
   kernel's frame and wiped before it returns (gcm_n): a 128-bit broadcast
   takes a VAESENC slot on cores that share those pipes (docs/bench.md),
   which long calls repay, short ones do not. */
#define G_OPAQUE(p) __asm__ __volatile__("" : "+r"(p))
/* Round key r in every lane, and on xmm for single blocks, from rk: the
   table of broadcast keys (wide) or the schedule itself. */
#define G_RK(rk, r) ((wide) ? G_LDK((rk) + 16 * GL * (r)) : G_BC(gcm_ldk((rk) + 16 * (r))))
#define G_RK1(rk, r) gcm_ldk((rk) + ((wide) ? 16 * GL : 16) * (r))
/* Key material (schedule, hash-key table: both 64-byte aligned in the key
   structures; the broadcast table: vector-aligned) by aligned 16-byte loads
   on xmm, so that even legacy-SSE AESENC and PCLMULQDQ take it as a memory
   operand instead of a register; wider loads stay unaligned (VEX and EVEX
   fold those, and a hash-key group may start at any entry). */
#define gcm_ldk(p) _mm_load_si128((const __m128i *)(const void *)(p))
#if HWC_GCM_W == 128
#define G_LDK gcm_ldk
#else
#define G_LDK G_LD
#endif

#include "aes_gcm_x86_ghash.h"

/* ---- GCTR --------------------------------------------------------------------- */
/* CTR of nv vectors (a constant, at most 4) from the lane counter cv,
   round by round: each round key is read (ymm/zmm: broadcast) once for all
   of them. */
HWC_X86_INLINE void gcm_ctr_group(const uint8_t *s, const int wide, const GV cv, uint8_t *out,
                                  const uint8_t *in, const unsigned nv, const unsigned nr) {
    const GV cmv = G_BC(gcm_ctr_mask());
    const GV step = G_BC(_mm_set_epi32(GL, 0, 0, 0));
    GV a[4], c = cv;
    G_OPAQUE(s);
    const GV k0 = G_RK(s, 0);
    for (unsigned i = 0; i < nv; i++) {
        a[i] = G_XOR(G_SHUF8(c, cmv), k0);
        c = G_ADD32(c, step);
    }
    G_UNROLL for (unsigned r = 1; r < nr; r++) {
        G_OPAQUE(s);
        const GV kr = G_RK(s, r);
        for (unsigned i = 0; i < nv; i++) a[i] = G_ENC(a[i], kr);
    }
    G_OPAQUE(s);
    const GV kl = G_RK(s, nr);
    for (unsigned i = 0; i < nv; i++) G_ST(out + 16 * GL * i, G_ENCL(a[i], G_XOR(kl, G_LD(in + 16 * GL * i))));
}

/* n blocks of CTR (n < GB): vectors in groups of 4, 2 and 1 (gcm_ctr_group),
   then single blocks on xmm. s: the round key table (above); c: lane
   counter (see the top), advanced by n. */
HWC_X86_INLINE void gcm_ctr_tail(const uint8_t *s, const int wide, __m128i *c, uint8_t *out,
                                 const uint8_t *in, size_t n, const unsigned nr) {
    const __m128i cm = gcm_ctr_mask();
    GV cv = G_ADD32(G_BC(*c), G_LANE_INC);
    /* a group of g vectors when n / GL has bit g (g a constant) */
#define G_CTR_GROUP(g) \
    if ((n / GL) & (g)) { \
        gcm_ctr_group(s, wide, cv, out, in, g, nr); \
        cv = G_ADD32(cv, G_BC(_mm_set_epi32(GL * (g), 0, 0, 0))); \
        in += 16 * GL * (g); \
        out += 16 * GL * (g); \
    }
    if (GL > 1) {
        G_CTR_GROUP(4) G_CTR_GROUP(2) G_CTR_GROUP(1)
        n %= GL;
    }
#undef G_CTR_GROUP
    __m128i c1 = G_LOW(cv);
    for (; n; n--, in += 16, out += 16) {
        G_OPAQUE(s);
        __m128i x = _mm_xor_si128(_mm_shuffle_epi8(c1, cm), G_RK1(s, 0));
        c1 = _mm_add_epi32(c1, _mm_set_epi32(1, 0, 0, 0));
        G_UNROLL for (unsigned r = 1; r < nr; r++) x = _mm_aesenc_si128(x, G_RK1(s, r));
        hwc_x86_st(out, _mm_aesenclast_si128(x, _mm_xor_si128(G_RK1(s, nr), hwc_x86_ld(in))));
    }
    *c = c1;
}

/* Scheduling fence (xmm and ymm): the compiler must have the listed vectors
   in registers here and may not move their computation across it. It keeps
   one GHASH product per AES round (in program order; the core overlaps
   them) instead of all products first with their sums spilled to the stack
   (16 vector registers). With 32 zmm registers the compiler's own order
   measured faster. MemorySanitizer builds (internal/ct.h) leave it out: MSan
   checks asm operands as if they were branch conditions. */
#if HWC_GCM_W == 512 || defined(HWC_CT_MSAN)
#define G_FENCE(a, v, lo, hi, mid) ((void)0)
#else
#define G_FENCE(a, v, lo, hi, mid) \
    __asm__("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]), "+x"(a[5]), \
            "+x"(a[6]), "+x"(a[7]), "+x"(v), "+x"(lo), "+x"(hi), "+x"(mid))
#endif
#if GNV != 8
#error "G_FENCE lists 8 vectors"
#endif

/* The length block lb folded into a call's last batch (gcm_oneshot, zmm,
   messages of whole batches): that group hashes GB + 1 = 33 blocks, the
   data on P_33..P_2 (the table's entries one place on: sh = 16 bytes; P_33
   from the zmm part of the table) and lb on P_1, so the message ends in one reduction, not
   two. The 16-register kernels do not fold: there gcc and clang 19 spilled
   round keys or hash-key powers around it (the stack scan), and it gained
   no more than 5% at 256 bytes (docs/gcm.md). */
typedef struct {
    const uint8_t *lens;  /* lb as a block (public) */
    const uint8_t *p33;   /* P_33 in the zmm table (entry 31 at 1024), its Karatsuba halves 512 on */
} gh_fold;
#define G_FOLD_SH(f) ((f) ? 16u : 0u)

#if HWC_GCM_W == 512
/* At the close of the folded group (pw: its table, htab on zmm): vector 0's
   powers [P_33, P_32, P_31, P_30] and their Karatsuba halves into *p0, *k0,
   and lb's products into lane 0 of the sums. Built here from memory, not
   carried through the batches in registers: there gcc spilled the powers
   (the stack scan) and, for lb, kept x in the frame through the decryption
   loop; P_33 computed here was on the chain to the tag (1 KiB took as long
   as without the fold). */
HWC_X86_INLINE void gh_fold_close(const unsigned char *pw, const gh_fold *f, GV *p0, GV *k0, GV *lo, GV *hi,
                                  GV *mid) {
    __m128i l = _mm_setzero_si128(), h = l, m = l;   /* lb P_1 */
    gh_acc1(_mm_shuffle_epi8(hwc_x86_ld(f->lens), gcm_bswap_mask()), gcm_ldk(pw + 16 * 31),
            gcm_ldk(pw + 512 + 16 * 31), &l, &h, &m);
    /* entries 0..2 one lane up, P_33 in lane 0; read from the table through
       an opaque pointer: else gcc kept P_33 in a register from its product
       on and spilled it (the stack scan) */
    const uint8_t *p33 = f->p33;
    G_OPAQUE(p33);
    *p0 = _mm512_alignr_epi64(G_LD(pw), G_BC(gcm_ldk(p33)), 6);
    *k0 = _mm512_alignr_epi64(G_LD(pw + 512), G_BC(gcm_ldk(p33 + 512)), 6);
    *lo = G_XOR(*lo, G_LANE0(l));
    *hi = G_XOR(*hi, G_LANE0(h));
    *mid = G_XOR(*mid, G_LANE0(m));
}
#define G_FOLD_CLOSE(pw, f, p0, k0, lo, hi, mid) \
    do { if (f) gh_fold_close(pw, f, p0, k0, lo, hi, mid); } while (0)
#else
/* zmm only (gcm_oneshot) */
#define G_FOLD_CLOSE(pw, f, p0, k0, lo, hi, mid) ((void)0)
#endif

/* GHASH products of vectors v and v + 1 of the batch at gsrc (pw: the
   batch's hash-key powers, their Karatsuba halves 512 bytes on; v >= 1
   reads them sh bytes before: gh_fold), summed into lo, hi, mid. */
HWC_X86_INLINE void gh_batch_pair(const uint8_t *gsrc, const unsigned char *pw, const unsigned v,
                                  const unsigned sh, GV *lo, GV *hi, GV *mid) {
    const GV bswv = G_BC(gcm_bswap_mask());
    const unsigned char *kt = pw + 512;
    const GV d = G_SHUF8(G_LD(gsrc + 16 * GL * v), bswv);
    const GV e = G_SHUF8(G_LD(gsrc + 16 * GL * (v + 1)), bswv);
    gh_acc2(d, G_LDK(pw + 16 * GL * v - sh), G_LDK(kt + 16 * GL * v - sh), e,
            G_LDK(pw + 16 * GL * (v + 1) - sh), G_LDK(kt + 16 * GL * (v + 1) - sh), lo, hi, mid);
}

/* The end of a batch's sums: unreduced into acc when more batches of its
   group follow, else reduced, lanes summed, into *x. */
HWC_X86_INLINE void gh_sums_end(GV *acc, GV lo, GV hi, GV mid, __m128i *x) {
    if (acc) {
        acc[0] = lo;
        acc[1] = hi;
        acc[2] = mid;
    } else {
        *x = gh_lanes_xor(gh_reduce(lo, hi, mid));
    }
}

/* The batch's last pair: vector 0, which takes x, with vector GNV - 1; then
   the reduction and the lane sum into *x. The chain from one batch's x to
   the next is one product, one reduction and the lane sum (cheaper than
   carrying lane partials times H^GB: the carry-less multiplies, not the
   lane sum, bound the loop). acc (first batch of a group, gcm_run's pairs):
   the sums go there unreduced instead; first: vector 0 takes x (a group's
   later batches do not). */
HWC_X86_INLINE void gh_batch_close(const uint8_t *gsrc, const unsigned char *pw, __m128i *x, GV lo, GV hi,
                                   GV mid, const gh_fold *f, GV *acc, const int first) {
    const GV bswv = G_BC(gcm_bswap_mask());
    const unsigned char *kt = pw + 512;
    const unsigned sh = G_FOLD_SH(f);
    GV p0 = G_LDK(pw), k0 = G_LDK(kt);
    G_FOLD_CLOSE(pw, f, &p0, &k0, &lo, &hi, &mid);
    GV d = G_SHUF8(G_LD(gsrc), bswv);
    if (first) d = G_XOR(d, G_LANE0(*x));
    const GV e = G_SHUF8(G_LD(gsrc + 16 * GL * (GNV - 1)), bswv);
    gh_acc2(d, p0, k0, e, G_LDK(pw + 16 * GL * (GNV - 1) - sh),
            G_LDK(kt + 16 * GL * (GNV - 1) - sh), &lo, &hi, &mid);
    gh_sums_end(acc, lo, hi, mid, x);
}

/* The close of a batch held in registers as GHASH integers (v): vector 0,
   which takes x unless !first, with the last vector, then the reduction
   into *x, or the sums unreduced into acc (as gh_batch_close). */
HWC_X86_INLINE void gh_regs_close(const unsigned char *pw, const unsigned char *kt, const GV *v, __m128i *x,
                                  GV lo, GV hi, GV mid, const gh_fold *f, GV *acc, const int first) {
    const unsigned sh = G_FOLD_SH(f);
    GV p0 = G_LDK(pw), k0 = G_LDK(kt);
    G_FOLD_CLOSE(pw, f, &p0, &k0, &lo, &hi, &mid);
    gh_acc2(first ? G_XOR(v[0], G_LANE0(*x)) : v[0], p0, k0, v[GNV - 1],
            G_LDK(pw + 16 * GL * (GNV - 1) - sh), G_LDK(kt + 16 * GL * (GNV - 1) - sh), &lo, &hi, &mid);
    gh_sums_end(acc, lo, hi, mid, x);
}

#if HWC_GCM_W == 512
/* GHASH of a batch held in registers (v) into x: the pairs and the close of
   gcm_batch's register form, with no AES beside them. */
HWC_X86_INLINE __m128i gh_regs(const unsigned char *htab, const GV *v, __m128i x, const gh_fold *f) {
    G_OPAQUE(htab);
    const unsigned char *pw = htab + 16 * (32 - GB), *kt = pw + 512;
    const unsigned sh = G_FOLD_SH(f);
    GV lo = G_ZERO(), hi = lo, mid = lo;
    for (unsigned i = 1; i + 1 < GNV; i += 2)
        gh_acc2(v[i], G_LDK(pw + 16 * GL * i - sh), G_LDK(kt + 16 * GL * i - sh), v[i + 1],
                G_LDK(pw + 16 * GL * (i + 1) - sh), G_LDK(kt + 16 * GL * (i + 1) - sh), &lo, &hi, &mid);
    gh_regs_close(pw, kt, v, &x, lo, hi, mid, f, NULL, 1);
    return x;
}
#endif

#if HWC_GCM_W == 512
/* Counter blocks of a 12-byte IV (zmm AES-128, gcm_oneshot): J0 is
   IV || 0^31 || 1 (SP 800-38D 7.1), so a message's blocks take counters 2,
   3, ... and every batch of GB = 32 blocks starts at 2 mod 32: public. Block
   j of batch q (counter 32q + 2 + j) is B_q ^ (2 + j) in byte 15 for j < 30
   and B_q+1 ^ (j - 30) for j = 30, 31, B_q being the counter block of 32q
   with round key 0 folded in. So one XOR with a constant per vector (two for
   the last), and per batch one add, one byte shuffle and one XOR for the
   next base: no permutes (gcm_ctr_vectors' general form takes 10 shuffle-
   unit instructions per batch; docs/gcm.md). Layout of cv (gcm_run):
   B_q, B_q+1, 32(q + 1) in word 3 of every lane, the IV's words with k_0
   (key material, in registers only). */
#define G_C12(i, l) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (2 + 4 * (i) + (l)) % 32
#define G_C12V(i) G_C12(i, 0), G_C12(i, 1), G_C12(i, 2), G_C12(i, 3)
static const uint8_t gcm_ctr12_offsets[GNV][64] __attribute__((aligned(64))) = {
    {G_C12V(0)}, {G_C12V(1)}, {G_C12V(2)}, {G_C12V(3)}, {G_C12V(4)}, {G_C12V(5)}, {G_C12V(6)}, {G_C12V(7)},
};
#undef G_C12V
#undef G_C12

/* cv[2] advanced by one batch and cv[1] its base block. */
HWC_X86_INLINE void gcm_ctr12_step(GV *cv) {
    cv[2] = G_ADD32(cv[2], G_BC(_mm_set_epi32(GB, 0, 0, 0)));
    cv[1] = G_XOR(G_SHUF8(cv[2], G_BC(gcm_ctr_mask())), cv[3]);
}

/* cv from the lane counter c (its word 3 = 2 mod 32) and round key 0. */
HWC_X86_INLINE void gcm_ctr12_init(const uint8_t *s, const int wide, const __m128i c, GV *cv) {
    const __m128i z = _mm_setzero_si128();
    cv[3] = G_XOR(G_BC(_mm_blend_epi32(_mm_shuffle_epi8(c, gcm_ctr_mask()), z, 8)), G_RK(s, 0));
    cv[2] = G_BC(_mm_blend_epi32(z, _mm_sub_epi32(c, _mm_set_epi32(2, 0, 0, 0)), 8));
    cv[0] = G_XOR(G_SHUF8(cv[2], G_BC(gcm_ctr_mask())), cv[3]);
    gcm_ctr12_step(cv);
}

/* The lane counter of the next block. */
HWC_X86_INLINE __m128i gcm_ctr12_next(const GV *cv, const __m128i c) {
    return _mm_blend_epi32(c, _mm_sub_epi32(G_LOW(cv[2]), _mm_set_epi32(GB - 2, 0, 0, 0)), 8);
}
#endif

/* The counter blocks of the next GB blocks, XORed with round key 0, into
   a[]; the counters cv (layout: gcm_run; c12: gcm_ctr12_init's) advanced. */
HWC_X86_INLINE void gcm_ctr_vectors(const uint8_t *s, const int wide, GV *cv, GV *a, const unsigned nr,
                                    const int c12) {
    const GV cmv = G_BC(gcm_ctr_mask());
    const GV step = G_BC(_mm_set_epi32(GL, 0, 0, 0));
    (void)nr;
    (void)c12;
#if HWC_GCM_W == 512
    if (c12) {
        const uint8_t *t = gcm_ctr12_offsets[0];
        G_OPAQUE(t);   /* the offsets as memory operands, not held (spilled) */
        G_UNROLL for (int i = 0; i < GNV - 1; i++) a[i] = G_XOR(cv[0], G_LD(t + 64 * i));
        a[GNV - 1] = _mm512_mask_xor_epi32(G_XOR(cv[0], G_LD(t + 64 * (GNV - 1))), 0xff00, cv[1],
                                           G_LD(t + 64 * (GNV - 1)));
        cv[0] = cv[1];
        gcm_ctr12_step(cv);
        return;
    }
#endif
    /* No branch on the counter: it is secret when the IV is not 12 bytes
       (J0 = GHASH_H(IV || 0 || len(IV)), SP 800-38D 7.1). */
#if HWC_GCM_W == 512
    if (nr == 10) {
        /* cv[0], cv[1]: the next 32 counter words (inc32: 32-bit lane adds),
           one per lane; cv[2]: the counter block in every lane. A block is
           words 0-2 of cv[2] ^ rk0 and word 3 = bswap32(counter) ^ rk0's
           word 3, put together by a two-table word permute (shuffle unit):
           2 adds, 2 byte shuffles, 3 XORs, a VPSHUFD and 8 permutes per 32 blocks
           instead of 8 adds, 8 byte shuffles and 8 XORs, fewer instructions
           on the vector ALUs, which bound this loop with the carry-less
           multiplies (docs/gcm.md). AES-192/256, whose loop the AES units
           bound, keep one shuffle per vector (measured faster there). */
        const GV k0 = G_RK(s, 0);
        const GV ivk = G_XOR(cv[2], k0);
        const GV kw = _mm512_shuffle_epi32(k0, _MM_PERM_DDDD);
        const GV bsw32 = G_BC(_mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
        const GV t0 = G_XOR(G_SHUF8(cv[0], bsw32), kw), t1 = G_XOR(G_SHUF8(cv[1], bsw32), kw);
        const GV inc = _mm512_set1_epi32(GB);
        cv[0] = G_ADD32(cv[0], inc);
        cv[1] = G_ADD32(cv[1], inc);
        G_UNROLL for (int i = 0; i < GNV; i++) {
            const int b = 4 * (i % 4);
            const GV idx = _mm512_set_epi32(b + 3, 16 + 14, 16 + 13, 16 + 12, b + 2, 16 + 10, 16 + 9, 16 + 8,
                                            b + 1, 16 + 6, 16 + 5, 16 + 4, b, 16 + 2, 16 + 1, 16 + 0);
            a[i] = _mm512_permutex2var_epi32(i < 4 ? t0 : t1, idx, ivk);
        }
    } else
#endif
    {
        /* cv[0]: lane counters (the top); one byte shuffle per vector */
        G_UNROLL for (int i = 0; i < GNV; i++) {
            a[i] = G_XOR(G_SHUF8(*cv, cmv), G_RK(s, 0));
            *cv = G_ADD32(*cv, step);
        }
    }
}

/* One iteration: GB blocks of CTR (round key table s) from the counters cv (advanced; the
   layout is gcm_run's), and, when hash (a constant) is set, GHASH of the GB blocks at gsrc
   into *x, spread over the AES rounds. gsrc is read before out is written (decryption in
   place). zmm encryption, pv and pvo non-null (constants): the GHASH input is pv, the
   previous batch's output as GHASH integers (ciphertext: public), and this batch's output
   goes to pvo in that form (pvo == pv in a loop); gsrc is not read. Read back from memory,
   a batch just stored keeps the hash waiting for its stores (3% slower at 16-64 KiB,
   docs/gcm.md). f (a constant): the length block folded into this batch's
   hash (gh_fold). acc, first, left (constants; xmm/ymm, gcm_group): the
   batch is one of a group that ends left - 1 batches on; unless first, its
   sums start from acc[], and unless last (left == 1), they go back there
   unreduced and *x stays as it was. */
HWC_X86_INLINE void gcm_batch_part(const uint8_t *s, const int wide, const unsigned char *htab, GV *cv,
                                   __m128i *x, const int hash, const uint8_t *gsrc, const GV *pv, GV *pvo,
                                   uint8_t *out, const uint8_t *in, const gh_fold *f, GV *acc, const int first,
                                   const unsigned left, const unsigned nr, const int c12) {
    const GV bswv = G_BC(gcm_bswap_mask());
    G_OPAQUE(s);
    G_OPAQUE(htab);
    /* the powers left GB..(left - 1) GB + 1 (gcm_group; zmm: P_64..P_33
       at 1024 for the first of two batches) */
    const unsigned char *pw = HWC_GCM_W == 512 && left == 2 ? htab + 1024 : htab + 16 * (32 - left * GB);
    const unsigned char *kt = pw + 512;
    const unsigned sh = G_FOLD_SH(f);
    GV a[GNV];
    GV lo = G_ZERO(), hi = lo, mid = lo;
    if (!first) {
        lo = acc[0];
        hi = acc[1];
        mid = acc[2];
    }
    /* GHASH input from memory: encryption hashes the previous batch's
       output, which the compiler would otherwise keep (and spill) from the
       stores before */
    if (hash) __asm__("" : "+r"(gsrc));
    gcm_ctr_vectors(s, wide, cv, a, nr, c12);
    const int pairs = G_PAIRS;
    const unsigned sp = 3;   /* rounds from one pair to the next */
    /* zmm: the pairs after rounds 1, 4 and 7, the close (vector 0 with x,
       the reduction) after round cr: AES-128 after round 8 (Zen 5, from
       16 KiB: encryption 0.92-0.96x, decryption 0.96-1.0x the time of pairs
       after rounds 1, 2, 3 and the close after 5, which Zen 4 preferred;
       docs/gcm.md), AES-192/256 after the last full round (8 or 10
       measured the same). */
    const unsigned cr = nr == 10 ? 8 : nr - 1;
    G_UNROLL for (unsigned r = 1; r < nr; r++) {
        if (!wide) G_OPAQUE(s);   /* a broadcast just before its round, never all at once */
        const GV kr = G_RK(s, r);
        G_UNROLL for (int i = 0; i < GNV; i++) a[i] = G_ENC(a[i], kr);
        /* zmm: two products at a time (three-way XORs sum them), every sp
           rounds (measured for AES-192/256: pairs after every round were 2-4%
           slower than one product per round, pairs every third round 2-3%
           faster); xmm/ymm: one product after each round */
        if (hash && pairs && (r - 1) % sp == 0 && 2 * ((r - 1) / sp + 1) < GNV) {
            /* pair j = (r - 1) / sp: vectors v = 2j + 1 and v + 1 */
            const unsigned v = 2 * ((r - 1) / sp) + 1;
            if (pv)
                gh_acc2(pv[v], G_LDK(pw + 16 * GL * v - sh), G_LDK(kt + 16 * GL * v - sh), pv[v + 1],
                        G_LDK(pw + 16 * GL * (v + 1) - sh), G_LDK(kt + 16 * GL * (v + 1) - sh), &lo, &hi, &mid);
            else
                gh_batch_pair(gsrc, pw, v, sh, &lo, &hi, &mid);
        } else if (hash && !pairs && r < GNV) {
            /* vector r after round r */
            GV d = G_SHUF8(G_LD(gsrc + 16 * GL * r), bswv);
            G_FENCE(a, d, lo, hi, mid);
            gh_acc(d, G_LDK(pw + 16 * GL * r - sh), G_LDK(kt + 16 * GL * r - sh), &lo, &hi, &mid);
        }
        if (hash && pairs && r == cr) {
            if (pv) gh_regs_close(pw, kt, pv, x, lo, hi, mid, f, left > 1 ? acc : NULL, first);
            else gh_batch_close(gsrc, pw, x, lo, hi, mid, f, left > 1 ? acc : NULL, first);
        }
    }
    if (hash && !pairs) {
        /* vector 0, which takes x, last (gh_batch_close) */
        GV p0 = G_LDK(pw), k0 = G_LDK(kt);
        G_FOLD_CLOSE(pw, f, &p0, &k0, &lo, &hi, &mid);
        GV d0 = G_SHUF8(G_LD(gsrc), bswv);
        if (first) d0 = G_XOR(d0, G_LANE0(*x));
        gh_acc(d0, p0, k0, &lo, &hi, &mid);
        gh_sums_end(left > 1 ? acc : NULL, lo, hi, mid, x);
    }
    const GV kl = G_RK(s, nr);
    G_UNROLL for (int i = 0; i < GNV; i++) {
        const GV o = G_ENCL(a[i], G_XOR(kl, G_LD(in + 16 * GL * i)));
        G_ST(out + 16 * GL * i, o);
        if (pvo) pvo[i] = G_SHUF8(o, bswv);
    }
}

/* One batch of its own: x in, reduced into x. */
HWC_X86_INLINE void gcm_batch(const uint8_t *s, const int wide, const unsigned char *htab, GV *cv,
                              __m128i *x, const int hash, const uint8_t *gsrc, const GV *pv, GV *pvo,
                              uint8_t *out, const uint8_t *in, const gh_fold *f, const unsigned nr,
                              const int c12) {
    gcm_batch_part(s, wide, htab, cv, x, hash, gsrc, pv, pvo, out, in, f, NULL, 1, 1, nr, c12);
}

#if HWC_GCM_W == 256 || (HWC_GCM_W == 128 && !defined(__clang__))
/* G_GROUP batches (32 blocks: the table's powers) with one reduction (ymm;
   xmm built by gcc: clang spilled round keys around the second batch, the
   stack scan's finding): each batch adds its GHASH input's products on its
   share of the powers to unreduced sums (x in the first block of the first),
   and the last reduces once. The reduction sits on the chain from one x to
   the next; one per 32 blocks instead of one per batch (docs/gcm.md). Each
   batch hashes its own input (dec) or the output of the batch before (the
   first: gsrc). */
#define G_GROUP (32 / GB)
HWC_X86_INLINE void gcm_group(const uint8_t *s, const int wide, const unsigned char *htab, GV *cv, __m128i *x,
                              const uint8_t *gsrc, uint8_t *out, const uint8_t *in, const int dec,
                              const unsigned nr) {
    GV acc[3];
    G_UNROLL for (unsigned j = 0; j < G_GROUP; j++) {
        const uint8_t *g = dec ? in + 16 * GB * j : j ? out + 16 * GB * (j - 1) : gsrc;
        gcm_batch_part(s, wide, htab, cv, x, 1, g, NULL, NULL, out + 16 * GB * j, in + 16 * GB * j, NULL, acc,
                       j == 0, G_GROUP - j, nr, 0);
    }
}
#endif

#if HWC_GCM_W == 512 && !defined(__clang__)
#define G_SKEW 1
/* zmm built by gcc: batches overlapped in program order (32 registers hold
   two; clang spills in this loop and its batch loop measured faster). A
   step finishes the AES rounds
   nr/2+1..nr of one batch (a[], its first half done by the step before) and
   runs rounds 1..nr/2 of the next (when more is set), round by round, with
   the batch's GHASH spread over it. The core then never waits for eight new
   dependency chains to start at a batch boundary. */
HWC_X86_INLINE void gcm_skew_first(const uint8_t *s, const int wide, GV *cv, GV *a, const unsigned nr) {
    G_OPAQUE(s);
    gcm_ctr_vectors(s, wide, cv, a, nr, 0);
    G_UNROLL for (unsigned r = 1; r <= nr / 2; r++) {
        if (!wide) G_OPAQUE(s);
        const GV kr = G_RK(s, r);
        G_UNROLL for (int i = 0; i < GNV; i++) a[i] = G_ENC(a[i], kr);
    }
}

/* Step j (< nr / 2) of gcm_skew_step: round nr/2 + 1 + j of a[] (the last
   round and the output when j is the last step), round 1 + j of n[], and
   the GHASH pairs (1,2), (3,4), (5,6) in steps 0, 2 and 4, then (0,7) with
   x and the reduction in step 5 on zmm (ymm: steps 0-2, then 3; zmm ran
   those too, which Zen 4 preferred; Zen 5 measures 0.92-0.99x the time
   from 16 KiB with these; docs/gcm.md), every hash load before the stores
   of the last step. */
HWC_X86_INLINE void gcm_skew_sub(const uint8_t *s, const int wide, const unsigned char *pw, GV *a, GV *n,
                                 __m128i *x, GV *lo, GV *hi, GV *mid, const int hash, const int more,
                                 const uint8_t *gsrc, uint8_t *out, const uint8_t *in, const unsigned nr,
                                 const unsigned j) {
    const unsigned h = nr / 2, pe = HWC_GCM_W == 512 ? 2 : 1;   /* steps from one pair to the next */
    if (!wide) G_OPAQUE(s);
    if (hash && j % pe == 0 && j / pe < 3) gh_batch_pair(gsrc, pw, 2 * (j / pe) + 1, 0, lo, hi, mid);
    if (hash && j == 2 * pe + 1) gh_batch_close(gsrc, pw, x, *lo, *hi, *mid, NULL, NULL, 1);
    if (j + 1 < h) {
        const GV ko = G_RK(s, h + 1 + j);
        G_UNROLL for (int i = 0; i < GNV; i++) a[i] = G_ENC(a[i], ko);
    } else {
        const GV kl = G_RK(s, nr);
        G_UNROLL for (int i = 0; i < GNV; i++)
            G_ST(out + 16 * GL * i, G_ENCL(a[i], G_XOR(kl, G_LD(in + 16 * GL * i))));
    }
    if (more) {
        const GV kn = G_RK(s, 1 + j);
        G_UNROLL for (int i = 0; i < GNV; i++) n[i] = G_ENC(n[i], kn);
    }
}

HWC_X86_INLINE void gcm_skew_step(const uint8_t *s, const int wide, const unsigned char *htab, GV *cv,
                                  GV *a, __m128i *x, const int hash, const int more, const uint8_t *gsrc,
                                  uint8_t *out, const uint8_t *in, const unsigned nr) {
    G_OPAQUE(s);
    G_OPAQUE(htab);
    const unsigned char *pw = htab + 16 * (32 - GB);
    GV n[GNV];
    GV lo = G_ZERO(), hi = lo, mid = lo;
    if (hash) __asm__("" : "+r"(gsrc));
    if (more) gcm_ctr_vectors(s, wide, cv, n, nr, 0);
    /* steps 0 .. nr/2 - 1, written out (clang does not unroll the loop) */
#define G_SKEW_SUB(j) \
    if ((j) < nr / 2) gcm_skew_sub(s, wide, pw, a, n, x, &lo, &hi, &mid, hash, more, gsrc, out, in, nr, j)
    G_SKEW_SUB(0); G_SKEW_SUB(1); G_SKEW_SUB(2); G_SKEW_SUB(3);
    G_SKEW_SUB(4); G_SKEW_SUB(5); G_SKEW_SUB(6);
#undef G_SKEW_SUB
    if (more) {
        G_UNROLL for (int i = 0; i < GNV; i++) a[i] = n[i];
    }
}

/* The whole batches of a call (blocks >= GB) in overlapped steps; *out,
   *in and *blocks advanced past them. */
HWC_X86_INLINE void gcm_skew_run(const uint8_t *s, const int wide, const unsigned char *htab, GV *cv,
                                 __m128i *x, uint8_t **outp, const uint8_t **inp, size_t *blocksp,
                                 const int dec, const unsigned nr) {
    uint8_t *out = *outp;
    const uint8_t *in = *inp;
    size_t blocks = *blocksp;
    GV a[GNV];
    gcm_skew_first(s, wide, cv, a, nr);
    int first = !dec;   /* encryption hashes the batch before: none yet */
    if (first && blocks >= 2 * GB) {
        gcm_skew_step(s, wide, htab, cv, a, x, 0, 1, NULL, out, in, nr);
        first = 0;
        in += 16 * GB; out += 16 * GB; blocks -= GB;
    }
    while (blocks >= 2 * GB) {
        gcm_skew_step(s, wide, htab, cv, a, x, 1, 1, dec ? in : out - 16 * GB, out, in, nr);
        in += 16 * GB; out += 16 * GB; blocks -= GB;
    }
    if (first) gcm_skew_step(s, wide, htab, cv, a, x, 0, 0, NULL, out, in, nr);
    else gcm_skew_step(s, wide, htab, cv, a, x, 1, 0, dec ? in : out - 16 * GB, out, in, nr);
    *outp = out + 16 * GB;
    *inp = in + 16 * GB;
    *blocksp = blocks - GB;
}
#endif

#if HWC_GCM_W == 256 && !defined(__clang__)
/* ymm built by gcc: the tail's CTR out of line, so that a batch loop's
   register allocation (16 vector registers) does not depend on that code:
   inlined, it made gcc spill 9-15 vectors in the ymm loops, and a change to
   it alone once made the AES-128 loops 8% slower; out of line, no ymm loop
   spills (AES-128 0.94-0.95x the time at 16-64 KiB, AES-256 encryption
   1.05-1.07x, decryption unchanged). The xmm loops spilled 2-4 vectors more
   out of line, and clang spills round keys of the broadcast table in it:
   both keep it inline. */
static __attribute__((noinline)) void gcm_ctr_tail_call(const uint8_t *s, const int wide, __m128i *c, uint8_t *out,
                                                        const uint8_t *in, size_t blocks, const unsigned nr) {
#define T(n) (wide ? gcm_ctr_tail(s, 1, c, out, in, blocks, n) : gcm_ctr_tail(s, 0, c, out, in, blocks, n))
    if (nr == 10) T(10);
    else if (nr == 12) T(12);
    else T(14);
#undef T
}
#define G_CTR_TAIL(s, wide, c, out, in, blocks, nr) \
    do { if (blocks) gcm_ctr_tail_call(s, wide, c, out, in, blocks, nr); } while (0)
#else
#define G_CTR_TAIL gcm_ctr_tail
#endif

/* The blocks after the whole batches (fewer than GB): CTR and the GHASH of
   what the batches left unhashed (encryption: from hashed_to on). */
HWC_X86_INLINE void gcm_tail(const uint8_t *s, const int wide, const unsigned char *htab, __m128i *x, __m128i *c,
                             uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t *hashed_to,
                             const int dec, const unsigned nr) {
    if (dec) {
        *x = gh_blocks(htab, *x, in, blocks);
        G_CTR_TAIL(s, wide, c, out, in, blocks, nr);
    } else {
        G_CTR_TAIL(s, wide, c, out, in, blocks, nr);
        *x = gh_blocks(htab, *x, hashed_to, (size_t)(out + 16 * blocks - hashed_to) / 16);
    }
}

/* The whole-block part of a call with round keys from s (wide: a table of
   broadcast keys; else the schedule). f (a constant; blocks then a multiple
   of GB): the length block folded into the last batch's hash (gh_fold). */
HWC_X86_INLINE void gcm_run(const uint8_t *s, const int wide, const unsigned char *htab, __m128i *xp,
                            __m128i *cp, uint8_t *out, const uint8_t *in, size_t blocks, const int dec,
                            const gh_fold *f, const unsigned nr, const int ctr12) {
    __m128i x = *xp, c = *cp;
    /* the 12-byte IV's counter form (gcm_ctr12_init): zmm AES-128 */
    const int c12 = HWC_GCM_W == 512 && nr == 10 && ctr12;
    const uint8_t *hashed_to = dec ? in : out;   /* GHASH done up to here */
    int all_hashed = 0;   /* zmm encryption of two batches: the last one hashed from registers */
    if (blocks >= GB) {
        GV cv[4];   /* the counters: below, or gcm_ctr12_init's */
#if HWC_GCM_W == 512
        if (c12) {
            gcm_ctr12_init(s, wide, c, cv);
        } else if (nr == 10) {
        cv[0] = _mm512_add_epi32(_mm512_set1_epi32(_mm_extract_epi32(c, 3)),
                                 _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
        cv[1] = _mm512_add_epi32(cv[0], _mm512_set1_epi32(16));
        cv[2] = G_BC(_mm_shuffle_epi8(c, gcm_ctr_mask()));
        } else
#endif
        cv[0] = G_ADD32(G_BC(c), G_LANE_INC);
        /* zmm AES-192/256 (bound by the AES units) in overlapped steps,
           from G_TABLE_BLOCKS blocks on; AES-128 (bound by the carry-less
           multiplies) and short calls measured faster a batch at a time
           (docs/gcm.md) */
#ifdef G_SKEW
        if (nr != 10 && wide && !f) {
            gcm_skew_run(s, wide, htab, cv, &x, &out, &in, &blocks, dec, nr);
        } else
#endif
#if HWC_GCM_W == 512
        /* zmm encryption, the hash input in registers: AES-128 from two
           batches on, AES-192/256 for calls of two batches (longer ones
           have the overlapped steps or the batch loop) */
        if (!dec && blocks >= 2 * GB && (nr == 10 || blocks < 3 * GB)) {
            GV pv[GNV];
            gcm_batch(s, wide, htab, cv, &x, 0, NULL, pv, pv, out, in, NULL, nr, c12);
            in += 16 * GB; out += 16 * GB; blocks -= GB;
            if (blocks < 2 * GB) {
                /* two batches (1-1.5 KiB): the second, then its own output
                   from the registers, not read back after the loop (5-8%
                   faster at 1 KiB). Longer calls keep the loop as it was:
                   with pv live after it, gcc copies the 8 vectors in it. */
                GV pl[GNV];
                gcm_batch(s, wide, htab, cv, &x, 1, NULL, pv, pl, out, in, NULL, nr, c12);
                in += 16 * GB; out += 16 * GB; blocks -= GB;
                x = gh_regs(htab, pl, x, f);
                all_hashed = 1;
            }
            if (c12) {
                /* with the 12-byte IV's counters, pairs of batches (one
                   reduction per 64 blocks): Zen 5 0.95-0.98x the time of
                   single batches from 4 KiB; with gcm_ctr_vectors' general
                   counters pairs were 1.02-1.05x (docs/gcm.md) */
                GV acc[3];
                for (; blocks >= 2 * GB; in += 32 * GB, out += 32 * GB, blocks -= 2 * GB) {
                    gcm_batch_part(s, wide, htab, cv, &x, 1, NULL, pv, pv, out, in, NULL, acc, 1, 2, nr, c12);
                    gcm_batch_part(s, wide, htab, cv, &x, 1, NULL, pv, pv, out + 16 * GB, in + 16 * GB, NULL,
                                   acc, 0, 1, nr, c12);
                }
            }
            while (blocks >= GB) {
                gcm_batch(s, wide, htab, cv, &x, 1, NULL, pv, pv, out, in, NULL, nr, c12);
                in += 16 * GB; out += 16 * GB; blocks -= GB;
            }
        } else
#endif
        {
            if (!dec) {
                gcm_batch(s, wide, htab, cv, &x, 0, NULL, NULL, NULL, out, in, NULL, nr, c12);
                in += 16 * GB; out += 16 * GB; blocks -= GB;
            }
#ifdef G_GROUP
            while (blocks >= G_GROUP * GB) {
                gcm_group(s, wide, htab, cv, &x, dec ? in : out - 16 * GB, out, in, dec, nr);
                in += 16 * G_GROUP * GB; out += 16 * G_GROUP * GB; blocks -= G_GROUP * GB;
            }
#endif
#if HWC_GCM_W == 512
            /* zmm AES-128 decryption: pairs of batches, one reduction per
               64 blocks (26 carry-less multiplies per batch bound this loop;
               the pair has 50). Encryption measured slower so (docs/gcm.md). */
            if (dec && nr == 10 && !f) {
                GV acc[3];
                for (; blocks >= 2 * GB; in += 32 * GB, out += 32 * GB, blocks -= 2 * GB) {
                    gcm_batch_part(s, wide, htab, cv, &x, 1, in, NULL, NULL, out, in, NULL, acc, 1, 2, nr, c12);
                    gcm_batch_part(s, wide, htab, cv, &x, 1, in + 16 * GB, NULL, NULL, out + 16 * GB,
                                   in + 16 * GB, NULL, acc, 0, 1, nr, c12);
                }
            }
#endif
            while (blocks >= (f && dec ? 2 * GB : GB)) {
                gcm_batch(s, wide, htab, cv, &x, 1, dec ? in : out - 16 * GB, NULL, NULL, out, in, NULL, nr, c12);
                in += 16 * GB; out += 16 * GB; blocks -= GB;
            }
            if (f && dec) {   /* the last batch, with the length block */
                gcm_batch(s, wide, htab, cv, &x, 1, in, NULL, NULL, out, in, f, nr, c12);
                in += 16 * GB; out += 16 * GB; blocks -= GB;
            }
        }
#if HWC_GCM_W == 512
        if (c12) c = gcm_ctr12_next(cv, c);
        else if (nr == 10) c = _mm_insert_epi32(c, _mm_cvtsi128_si32(G_LOW(cv[0])), 3);
        else
#endif
        c = G_LOW(cv[0]);
        hashed_to = dec ? in : all_hashed ? out : out - 16 * GB;
    }
#if HWC_GCM_W == 512
    if (f) {   /* blocks == 0; encryption: the last batch from out, with the length block */
        if (hashed_to != (dec ? in : out)) {
            const GV bswv = G_BC(gcm_bswap_mask());
            GV v[GNV];
            G_UNROLL for (int i = 0; i < GNV; i++) v[i] = G_SHUF8(G_LD(hashed_to + 16 * GL * i), bswv);
            x = gh_regs(htab, v, x, f);
        }
    } else
#endif
    gcm_tail(s, wide, htab, &x, &c, out, in, blocks, hashed_to, dec, nr);
    *xp = x;
    *cp = c;
}

/* ymm/zmm: from this many blocks on, the keys are broadcast once into a
   table in this frame (wiped on return) and read as full-width loads;
   below, a broadcast per use costs less than filling and wiping it. */
#define G_TABLE_BLOCKS 128

/* zmm: gcm_oneshot's messages of whole batches up to this many blocks take
   gcm_whole_* (the length block folded into the last batch's hash, keys
   broadcast per use): Zen 5, in-process A/B, 2 KiB 0.80-0.87x and 4 KiB
   0.90-0.98x the time of the key table without the fold; 8 KiB the same;
   the fold for every size: 1 MiB 1.04-1.06x (docs/gcm.md). */
#define G_WHOLE_BLOCKS 256

/* f (a constant): gcm_run's fold, for gcm_oneshot's calls of at most
   G_WHOLE_BLOCKS blocks (no key table with it). ctr12 (a constant): the
   12-byte IV's counter form (gcm_ctr12_init), ctrb[] then the counter block
   of a message's first block. */
HWC_X86_INLINE void gcm_n(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctrb[16],
                          uint8_t xb[16], uint8_t *out, const uint8_t *in, size_t blocks,
                          const int dec, const gh_fold *f, const unsigned nr, const int ctr12) {
    const __m128i bsw = gcm_bswap_mask(), cm = gcm_ctr_mask();
    __m128i x = _mm_shuffle_epi8(hwc_x86_ld(xb), bsw);
    __m128i c = _mm_shuffle_epi8(hwc_x86_ld(ctrb), cm);
    if (HWC_GCM_W > 128 && !f && blocks >= G_TABLE_BLOCKS) {
        GV keys[15];   /* the round keys in every lane: wiped below */
        G_UNROLL for (unsigned r = 0; r <= nr; r++) keys[r] = G_BC(hwc_x86_ld(k->sched + 16 * r));
        gcm_run((const uint8_t *)keys, 1, htab, &x, &c, out, in, blocks, dec, f, nr, ctr12);
        hwc_wipe_inline(keys, sizeof(GV) * (nr + 1));
    } else {
        gcm_run(k->sched, 0, htab, &x, &c, out, in, blocks, dec, f, nr, ctr12);
    }
    hwc_x86_st(xb, _mm_shuffle_epi8(x, bsw));
    hwc_x86_st(ctrb, _mm_shuffle_epi8(c, cm));
}

#define GCM_BY_ROUNDS(C) do { \
        if (k->rounds == 10) C(10); \
        else if (k->rounds == 12) C(12); \
        else C(14); \
    } while (0)

static void gcm_encrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                                            uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
#define C(n) gcm_n(k, htab, ctr, x, out, in, blocks, 0, NULL, n, 0)
    GCM_BY_ROUNDS(C);
#undef C
}

static void gcm_decrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                                            uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
#define C(n) gcm_n(k, htab, ctr, x, out, in, blocks, 1, NULL, n, 0)
    GCM_BY_ROUNDS(C);
#undef C
}

#if HWC_GCM_W == 512
/* gcm_oneshot's messages of whole batches: gcm_n with the length block lens
   folded into the last batch's hash (gh_fold), so x[] ends as S. One
   function per direction: with both in one, gcc kept x in the frame
   through the decryption loop (2-4% slower at 64 KiB). */
HWC_X86_INLINE void gcm_whole_n(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],
                                uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t lens[16],
                                const int dec, const int ctr12) {
    const gh_fold f = {lens, htab + 1024 + 16 * 31};
    if (ctr12) {
        gcm_n(k, htab, ctr, x, out, in, blocks, dec, &f, 10, 1);
        return;
    }
#define C(n) gcm_n(k, htab, ctr, x, out, in, blocks, dec, &f, n, 0)
    GCM_BY_ROUNDS(C);
#undef C
}
/* One function per direction (above), and for AES-128 with a 12-byte IV
   (ctr12: gcm_ctr12_init's counters) one more per direction. */
#define G_WHOLE_FN(name, dec, ctr12)                                                                        \
    static void name(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],     \
                     uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t lens[16]) {            \
        gcm_whole_n(k, htab, ctr, x, out, in, blocks, lens, dec, ctr12);                                   \
    }
G_WHOLE_FN(gcm_whole_enc, 0, 0)
G_WHOLE_FN(gcm_whole_dec, 1, 0)
G_WHOLE_FN(gcm_whole_enc12, 0, 1)
G_WHOLE_FN(gcm_whole_dec12, 1, 1)
#undef G_WHOLE_FN
/* AES-128 encryption with a 12-byte IV, messages of any length (gcm_oneshot) */
static void gcm_encrypt12(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],
                          uint8_t *out, const uint8_t *in, size_t blocks) {
    gcm_n(k, htab, ctr, x, out, in, blocks, 0, NULL, 10, 1);
}
#define G_WHOLE 1
#else
#define G_WHOLE 0
#endif

#include "aes_gcm_x86_msg.h"

/* The GCM slots of the kernel table, for the kernel file's initialiser. */
#define HWC_X86_GCM_SLOTS                                                     \
    .ghash_init = gcm_ghash_init, .ghash = gcm_ghash,                          \
    .gcm_encrypt = gcm_encrypt, .gcm_decrypt = gcm_decrypt, .gcm_oneshot = gcm_oneshot
/* No key material in the slots' frames (the section "No key material in the
   frames" above; the broadcast key table is wiped): core/ skips the scrub.
   Except ymm built by clang after 14: clang 19 spills two hash-key powers
   in the decryption group loop (tests/test_stack_scan.c, 512-1039 bytes;
   gcc 12 and clang 14 spill none), so core/ scrubs after those calls. */
#if HWC_GCM_W == 256 && defined(__clang__) && __clang_major__ > 14
#define HWC_X86_GCM_CLEAN 0
#else
#define HWC_X86_GCM_CLEAN HWC_CLEAN_GCM
#endif

#endif
