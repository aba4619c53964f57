/* AES (FIPS-197) with the ARMv8 Crypto Extensions: bulk loops for ECB, CBC,
 * CTR (SP 800-38A), XTS (IEEE 1619-2018), the CMAC CBC-MAC chain
 * (SP 800-38B) and GCM (SP 800-38D: GCTR with PMULL/PMULL2 GHASH). core/aes.c,
 * core/cmac.c and core/gcm.c do checks, stealing, padding and tags.
 *
 * Built with -march=armv8-a+crypto on this file only; dispatch runs it only
 * where HWCAP reports asimd, aes and pmull. No EOR3 (SHA3 extension) is used,
 * so the cortex-a53 class needs nothing more.
 *
 * Constant time: AESE/AESD/AESMC/AESIMC and PMULL have data-independent timing; there
 * is no table and no branch or address that depends on key or data. Loops and
 * branches depend only on the block count, the key size and the CPU model.
 *
 * Each AESE/AESMC (AESD/AESIMC) pair is one asm statement on one register, so
 * the two instructions stay adjacent and cores that fuse them do. Parallel
 * modes interleave 8 or 4 independent blocks: two tables, hwc_aes_neon and
 * hwc_aes_neon_narrow, differ only in that width (their chain_lanes, read
 * from the table a key is bound to, k->impl); dispatch/ picks one per CPU
 * model (dispatch/cpu.c). */
#include <arm_neon.h>
#include <string.h>
#include "internal/bytes.h"
#include "internal/wipe.h"
#include "internal/kernel.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "aes_neon.c assumes little-endian AArch64 (tweak and lane layout)"
#endif

/* k->sched layout: encryption round keys ek[0..nr] at 0, decryption round
   keys of the equivalent inverse cipher (FIPS-197 5.3.5) dk[0..nr] at 256;
   nothing else (every 16 bytes of it are key material). */
#define SCHED_DEC 256

/* Interleave width 8 or 4: the lane count of the table the key is bound to
   (hwc_aes_neon or hwc_aes_neon_narrow below). */
#define WIDTH8(k) (((const hwc_aes_impl *)(k)->impl)->chain_lanes == 8)

#define HWC_INLINE static inline __attribute__((always_inline))
/* EACH(i, n, stmt...): stmt for i = 0, 1, ..., n-1 (n <= 15), written out with
   i an enum constant. n is a constant once the always-inline helpers below
   are inlined, so the ifs fold away and round keys and blocks stay in
   registers; no compiler has to decide to unroll a loop (clang 14 does not
   fully unroll these even under a pragma). */
#define EACH(i, n, ...)                                                     \
    do {                                                                    \
        EACH1_(i, 0, n, __VA_ARGS__) EACH1_(i, 1, n, __VA_ARGS__)           \
        EACH1_(i, 2, n, __VA_ARGS__) EACH1_(i, 3, n, __VA_ARGS__)           \
        EACH1_(i, 4, n, __VA_ARGS__) EACH1_(i, 5, n, __VA_ARGS__)           \
        EACH1_(i, 6, n, __VA_ARGS__) EACH1_(i, 7, n, __VA_ARGS__)           \
        EACH1_(i, 8, n, __VA_ARGS__) EACH1_(i, 9, n, __VA_ARGS__)           \
        EACH1_(i, 10, n, __VA_ARGS__) EACH1_(i, 11, n, __VA_ARGS__)         \
        EACH1_(i, 12, n, __VA_ARGS__) EACH1_(i, 13, n, __VA_ARGS__)         \
        EACH1_(i, 14, n, __VA_ARGS__)                                       \
    } while (0)
#define EACH1_(i, v, n, ...)                                                \
    if ((v) < (n)) {                                                        \
        enum { i = v };                                                     \
        __VA_ARGS__;                                                        \
    }

/* One full round without AddRoundKey of the next round: b = MC(SR(SB(b ^ k))). */
#define AESE_MC(b, k) __asm__("aese %0.16b, %1.16b\n\taesmc %0.16b, %0.16b" : "+w"(b) : "w"(k))
/* b = IMC(ISR(ISB(b ^ k))) */
#define AESD_IMC(b, k) __asm__("aesd %0.16b, %1.16b\n\taesimc %0.16b, %0.16b" : "+w"(b) : "w"(k))

/* ---- key schedule (FIPS-197 5.2, 5.3.5) -------------------------------------- */
/* SubWord through AESE with a zero key: with the word in all four columns,
   ShiftRows only moves equal bytes, so lane 0 is S-box(each byte). */
static uint32_t sub_word(uint32_t w) {
    uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    v = vaeseq_u8(v, vdupq_n_u8(0));
    return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

static void neon_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    const unsigned nk = (unsigned)key_len / 4, nr = nk + 6, total = 4 * (nr + 1);
    uint32_t w[60];              /* words little-endian: byte 0 in bits 0..7 */
    memcpy(w, key, key_len);
    uint32_t rcon = 1;
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {       /* SubWord(RotWord(t)) ^ Rcon[i/Nk] */
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ (0x11bu & (0u - (rcon >> 7)));
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memcpy(k->sched, w, 16 * (nr + 1));
    /* Equivalent inverse cipher: dk[0] = ek[nr], dk[i] = InvMixColumns(ek[nr-i]),
       dk[nr] = ek[0]. */
    uint8_t *dk = k->sched + SCHED_DEC;
    vst1q_u8(dk, vld1q_u8(k->sched + 16 * nr));
    for (unsigned i = 1; i < nr; i++)
        vst1q_u8(dk + 16 * i, vaesimcq_u8(vld1q_u8(k->sched + 16 * (nr - i))));
    vst1q_u8(dk + 16 * nr, vld1q_u8(k->sched));
    hwc_wipe_inline(w, sizeof w);
}

/* ---- the cipher on w blocks in parallel ---------------------------------------- */
HWC_INLINE void load_keys(uint8x16_t *rk, const uint8_t *s, const int nr) {
    EACH(r, nr + 1, rk[r] = vld1q_u8(s + 16 * r));
}

/* b[j] = E(b[j]) without the final AddRoundKey (caller XORs rk[nr], usually
   together with something else). */
HWC_INLINE void enc_w(uint8x16_t *b, const int w, const uint8x16_t *rk, const int nr) {
    EACH(r, nr - 1, EACH(j, w, AESE_MC(b[j], rk[r])));
    EACH(j, w, b[j] = vaeseq_u8(b[j], rk[nr - 1]));
}

HWC_INLINE void dec_w(uint8x16_t *b, const int w, const uint8x16_t *dk, const int nr) {
    EACH(r, nr - 1, EACH(j, w, AESD_IMC(b[j], dk[r])));
    EACH(j, w, b[j] = vaesdq_u8(b[j], dk[nr - 1]));
}

/* enc_w, or dec_w with the decryption keys in rk */
HWC_INLINE void crypt_w(uint8x16_t *b, const int w, const uint8x16_t *rk, const int nr,
                        const int decrypt) {
    if (decrypt) dec_w(b, w, rk, nr); else enc_w(b, w, rk, nr);
}

/* Runs BODY(w) over all blocks: 8 at a time if the key's table says so,
   then 4, then 1. BODY advances in/out and decrements nothing itself. */
#define OVER_BLOCKS(k, blocks, BODY)                                     \
    do {                                                                 \
        if (WIDTH8(k))                                                   \
            for (; (blocks) >= 8; (blocks) -= 8) { BODY(8); }            \
        for (; (blocks) >= 4; (blocks) -= 4) { BODY(4); }                \
        for (; (blocks) > 0; (blocks) -= 1) { BODY(1); }                 \
    } while (0)

/* Instantiates fn for the three key sizes (nr is a constant inside, so the
   round loops unroll and the round keys stay in registers). */
#define BY_ROUNDS(k, CALL)                  \
    switch ((k)->rounds) {                  \
    case 10: CALL(10); break;               \
    case 12: CALL(12); break;               \
    default: CALL(14); break;               \
    }

/* ---- ECB ------------------------------------------------------------------------ */
HWC_INLINE void ecb_nr(const hwc_aes_key *k, uint8_t *out, const uint8_t *in,
                       size_t blocks, const int nr, const int decrypt) {
    uint8x16_t rk[15];
    load_keys(rk, k->sched + (decrypt ? SCHED_DEC : 0), nr);
#define ECB(w)                                                                 \
    uint8x16_t b[w];                                                           \
    EACH(j, w, b[j] = vld1q_u8(in + 16 * j));                                  \
    crypt_w(b, w, rk, nr, decrypt);                                            \
    EACH(j, w, vst1q_u8(out + 16 * j, veorq_u8(b[j], rk[nr])));                \
    in += 16 * w;                                                              \
    out += 16 * w;
    OVER_BLOCKS(k, blocks, ECB);
#undef ECB
}

static void neon_ecb_encrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
#define CALL(nr) ecb_nr(k, out, in, blocks, nr, 0)
    BY_ROUNDS(k, CALL)
#undef CALL
}

static void neon_ecb_decrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
#define CALL(nr) ecb_nr(k, out, in, blocks, nr, 1)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- CBC encrypt and the CMAC chain: one dependent chain ------------------------- */
/* With t = c ^ ek[nr] (the last AESE output), the next block's first round is
   AESE(c ^ p, ek[0]) = AESE(t, p ^ ek[0] ^ ek[nr]): the key-side XOR is off the
   chain, which is then just nr AESE + nr-1 AESMC. */
HWC_INLINE uint8x16_t chain_nr(const uint8x16_t *rk, uint8x16_t c, uint8_t *out,
                               const uint8_t *in, size_t blocks, const int nr, const int store) {
    const uint8x16_t k0n = veorq_u8(rk[0], rk[nr]);
    uint8x16_t t = veorq_u8(c, rk[nr]);
    for (size_t i = 0; i < blocks; i++) {
        const uint8x16_t kp = veorq_u8(vld1q_u8(in + 16 * i), k0n);
        AESE_MC(t, kp);
        EACH(r, nr - 2, AESE_MC(t, rk[r + 1]));
        t = vaeseq_u8(t, rk[nr - 1]);
        if (store) vst1q_u8(out + 16 * i, veorq_u8(t, rk[nr]));
    }
    return veorq_u8(t, rk[nr]);
}

HWC_INLINE void cbc_enc_nr(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out,
                           const uint8_t *in, size_t blocks, const int nr) {
    uint8x16_t rk[15];
    load_keys(rk, k->sched, nr);
    vst1q_u8(iv, chain_nr(rk, vld1q_u8(iv), out, in, blocks, nr, 1));
}

HWC_INLINE void cmac_nr(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in,
                        size_t blocks, const int nr) {
    uint8x16_t rk[15];
    load_keys(rk, k->sched, nr);
    vst1q_u8(state, chain_nr(rk, vld1q_u8(state), NULL, in, blocks, nr, 0));
}

static void neon_cbc_encrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out,
                             const uint8_t *in, size_t blocks) {
#define CALL(nr) cbc_enc_nr(k, iv, out, in, blocks, nr)
    BY_ROUNDS(k, CALL)
#undef CALL
}

static void neon_cmac_chain(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in,
                            size_t blocks) {
#define CALL(nr) cmac_nr(k, state, in, blocks, nr)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- CBC decrypt: blocks independent ----------------------------------------------- */
HWC_INLINE void cbc_dec_nr(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out,
                           const uint8_t *in, size_t blocks, const int nr) {
    uint8x16_t dk[15];
    load_keys(dk, k->sched + SCHED_DEC, nr);
    uint8x16_t prev = vld1q_u8(iv);
    /* All ciphertext of a group is loaded before any plaintext is stored
       (in place: out == in). */
#define CBC_DEC(w)                                                             \
    uint8x16_t c[w], b[w];                                                     \
    EACH(j, w, b[j] = c[j] = vld1q_u8(in + 16 * j));                           \
    dec_w(b, w, dk, nr);                                                       \
    vst1q_u8(out, veorq_u8(b[0], veorq_u8(dk[nr], prev)));                     \
    EACH(j, w - 1,                                                             \
         vst1q_u8(out + 16 * (j + 1), veorq_u8(b[j + 1], veorq_u8(dk[nr], c[j])))); \
    prev = c[w - 1];                                                           \
    in += 16 * w;                                                              \
    out += 16 * w;
    OVER_BLOCKS(k, blocks, CBC_DEC);
#undef CBC_DEC
    vst1q_u8(iv, prev);
}

static void neon_cbc_decrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out,
                             const uint8_t *in, size_t blocks) {
#define CALL(nr) cbc_dec_nr(k, iv, out, in, blocks, nr)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- CTR: 128-bit big-endian counter (SP 800-38A B.1, wraps mod 2^128) ----------- */

/* The counter lives in a vector as two native 64-bit lanes {hi, lo}. Adding
   j < 2^64 to the 128-bit value: lane add, then a carry into hi exactly when
   the new lo is below j (unsigned compare, moved to lane 0 and subtracted as
   -1). REV64 per lane gives the big-endian block. All in vector registers:
   built from general registers (fmov + ins) the blocks would be partial
   register writes, which serialise them on some cores and in llvm-mca. */
HWC_INLINE uint64x2_t ctr_add(uint64x2_t c, uint64x2_t inc) {
    const uint64x2_t s = vaddq_u64(c, inc);
    const uint64x2_t carry = vcltq_u64(s, inc);          /* lane 1 meaningful */
    return vsubq_u64(s, vextq_u64(carry, vdupq_n_u64(0), 1));
}

HWC_INLINE void ctr_nr(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out,
                       const uint8_t *in, size_t blocks, const int nr) {
    uint8x16_t rk[15];
    load_keys(rk, k->sched, nr);
    uint64x2_t c = vcombine_u64(vcreate_u64(hwc_load_be64(ctr)), vcreate_u64(hwc_load_be64(ctr + 8)));
#define CTR(w)                                                                 \
    uint8x16_t b[w];                                                           \
    b[0] = vrev64q_u8(vreinterpretq_u8_u64(c));                                \
    EACH(j, w - 1,                                                             \
         b[j + 1] = vrev64q_u8(vreinterpretq_u8_u64(                           \
             ctr_add(c, vcombine_u64(vcreate_u64(0), vcreate_u64(j + 1)))))); \
    c = ctr_add(c, vcombine_u64(vcreate_u64(0), vcreate_u64((uint64_t)w)));    \
    enc_w(b, w, rk, nr);                                                       \
    EACH(j, w,                                                                 \
         vst1q_u8(out + 16 * j, veorq_u8(vld1q_u8(in + 16 * j), veorq_u8(b[j], rk[nr])))); \
    in += 16 * w;                                                              \
    out += 16 * w;
    OVER_BLOCKS(k, blocks, CTR);
#undef CTR
    hwc_store_be64(ctr, vgetq_lane_u64(c, 0));
    hwc_store_be64(ctr + 8, vgetq_lane_u64(c, 1));
}

static void neon_ctr(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                     size_t blocks) {
#define CALL(nr) ctr_nr(k, ctr, out, in, blocks, nr)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- round keys from memory (XTS, GCM) ------------------------------------------- */
/* No key material in these slots' frames (HWC_CLEAN_XTS and HWC_CLEAN_GCM
   below, checked by tests/test_stack_scan.c): round keys and hash-key
   powers are loaded where they are used, each round key just before its
   round, through pointers made opaque at the top of every group (OPAQUE:
   volatile, so the asm is not hoisted either). The compiler can neither
   keep them across a loop iteration nor spill them. */
#define OPAQUE(p) __asm__ __volatile__("" : "+r"(p))

/* crypt_w with each round key read from the schedule s (encryption keys,
   or the decryption keys at SCHED_DEC) just before its round. */
HWC_INLINE void crypt_mem(uint8x16_t *b, const int w, const uint8_t *s, const int nr, const int decrypt) {
    EACH(r, nr - 1, const uint8x16_t kr = vld1q_u8(s + 16 * r);
         if (decrypt) EACH(j, w, AESD_IMC(b[j], kr)); else EACH(j, w, AESE_MC(b[j], kr)));
    const uint8x16_t kp = vld1q_u8(s + 16 * (nr - 1));
    if (decrypt) EACH(j, w, b[j] = vaesdq_u8(b[j], kp));
    else EACH(j, w, b[j] = vaeseq_u8(b[j], kp));
}

/* The last AddRoundKey in asm: the compiler cannot reassociate it with the
   data or tweak XOR that follows (data ^ k_nr, T ^ k_nr: key material). */
HWC_INLINE void last_key(uint8x16_t *b, const int w, const uint8_t *s, const int nr) {
    const uint8x16_t kl = vld1q_u8(s + 16 * nr);
    EACH(j, w, __asm__("eor %0.16b, %0.16b, %1.16b" : "+w"(b[j]) : "w"(kl)));
}

/* b[j] = E_K(b[j]), all rounds. */
HWC_INLINE void enc_mem(uint8x16_t *b, const int w, const uint8_t *s, const int nr) {
    crypt_mem(b, w, s, nr, 0);
    last_key(b, w, s, nr);
}

/* ---- XTS (IEEE 1619-2018 5.3.1/5.4.1) ------------------------------------------------ */
/* The tweak is a 128-bit little-endian number (byte 0 least significant);
   multiplying by x = shift left one bit, and if bit 127 fell out, XOR 0x87
   into byte 0. Shift-and-XOR in general registers, branch-free. */
typedef struct { uint64_t lo, hi; } tweak128;

HWC_INLINE tweak128 xts_double(tweak128 t) {
    const uint64_t carry = 0 - (t.hi >> 63);
    tweak128 r;
    r.hi = (t.hi << 1) | (t.lo >> 63);
    r.lo = (t.lo << 1) ^ (carry & 0x87);
    return r;
}

/* DUP (a full register write) then INS: no merge with a stale register value,
   which fmov d + ins can cause (a false dependency between blocks). */
HWC_INLINE uint8x16_t tweak_vec(tweak128 t) {
    return vreinterpretq_u8_u64(vsetq_lane_u64(t.lo, vdupq_n_u64(t.hi), 0));
}

/* Each group loads its round keys where it uses them (crypt_mem, through a
   pointer made opaque per group) and holds only its blocks and tweaks: with
   15 keys held as well, AES-256 had no register left and clang spilled a
   tweak. The last AddRoundKey is an asm EOR, so k_nr is never folded into a
   tweak (T ^ k_nr is key material). */
HWC_INLINE void xts_nr(const hwc_aes_key *k, uint8_t tw[16], uint8_t *out, const uint8_t *in,
                       size_t blocks, const int nr, const int decrypt) {
    const uint8_t *s = k->sched + (decrypt ? SCHED_DEC : 0);
    tweak128 t;
    memcpy(&t.lo, tw, 8);        /* AArch64 Linux is little-endian */
    memcpy(&t.hi, tw + 8, 8);
#define XTS(w)                                                                 \
    uint8x16_t b[w], tv[w];                                                    \
    OPAQUE(s);                                                                 \
    EACH(j, w, tv[j] = tweak_vec(t); t = xts_double(t);                        \
         b[j] = veorq_u8(vld1q_u8(in + 16 * j), tv[j]));                       \
    crypt_mem(b, w, s, nr, decrypt);                                           \
    last_key(b, w, s, nr);                                                     \
    EACH(j, w, vst1q_u8(out + 16 * j, veorq_u8(b[j], tv[j])));                 \
    in += 16 * w;                                                              \
    out += 16 * w;
    OVER_BLOCKS(k, blocks, XTS);
#undef XTS
    memcpy(tw, &t.lo, 8);
    memcpy(tw + 8, &t.hi, 8);
}

static void neon_xts_encrypt(const hwc_aes_key *k, uint8_t t[16], uint8_t *out,
                             const uint8_t *in, size_t blocks) {
#define CALL(nr) xts_nr(k, t, out, in, blocks, nr, 0)
    BY_ROUNDS(k, CALL)
#undef CALL
}

static void neon_xts_decrypt(const hwc_aes_key *k, uint8_t t[16], uint8_t *out,
                             const uint8_t *in, size_t blocks) {
#define CALL(nr) xts_nr(k, t, out, in, blocks, nr, 1)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- GCM (SP 800-38D) ------------------------------------------------------------- */
/* GHASH in integer form: a block read big-endian as a 128-bit integer (byte 0
   most significant, lane 1 = high word) has the coefficient of x^i of the
   standard's bit-reflected polynomial at bit 127 - i. The carry-less product
   of two such integers, read as 256 bits with x^k at bit 255 - k, is the
   field product times x. So each power of H is stored twisted, Ht^i =
   H^i * x^-1 mod P ("H << 1 mod P": x^-1 = x^127 + x^6 + x + 1), and
   clmul(X, Ht^i) needs no shift. Eight blocks are multiplied by H^8..H^1
   (Karatsuba, three PMULL each), summed, and reduced once.
   htab: for i = 1..8 at 32 (i - 1): Ht^i, then both lanes = its two halves
   XORed (the Karatsuba middle operand). */
#define GCM_POWERS 8

HWC_INLINE uint64x2_t clmul_lo(uint64x2_t a, uint64x2_t b) {
    return vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), 0),
                                            vgetq_lane_p64(vreinterpretq_p64_u64(b), 0)));
}

HWC_INLINE uint64x2_t clmul_hi(uint64x2_t a, uint64x2_t b) {
    return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

/* Block bytes <-> the integer form (one TBL). */
static const uint8_t bswap_idx[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
HWC_INLINE uint64x2_t bswap128(uint8x16_t b) {
    return vreinterpretq_u64_u8(vqtbl1q_u8(b, vld1q_u8(bswap_idx)));
}

/* Unreduced 256-bit sum of products: lo + mid x^64 + hi x^128 in integers. */
typedef struct { uint64x2_t lo, mid, hi; } clmul256;

/* z = the products (first) or z + them */
HWC_INLINE void clmul_add(clmul256 *z, uint64x2_t lo, uint64x2_t hi, uint64x2_t mid, const int first) {
    z->lo = first ? lo : veorq_u64(z->lo, lo);
    z->hi = first ? hi : veorq_u64(z->hi, hi);
    z->mid = first ? mid : veorq_u64(z->mid, mid);
}

HWC_INLINE void clmul_acc(clmul256 *z, uint64x2_t x, const unsigned char *hp, const int first) {
    const uint64x2_t h = vld1q_u64((const uint64_t *)hp), hk = vld1q_u64((const uint64_t *)(hp + 16));
    const uint64x2_t xk = veorq_u64(x, vextq_u64(x, x, 1));
    const uint64x2_t lo = clmul_lo(x, h), hi = clmul_hi(x, h), mid = clmul_lo(xk, hk);
    clmul_add(z, lo, hi, mid, first);
}

/* clmul_acc of two blocks a, b (powers at ha, hb): their Karatsuba middle
   operands side by side, [a0 ^ a1, b0 ^ b1], from one TRN1, one TRN2 and one
   EOR (2 EXT and 2 EOR one by one); the halves in both lanes of the table
   let PMULL2 take b's. */
HWC_INLINE void clmul_acc2(clmul256 *z, uint64x2_t a, const unsigned char *ha, uint64x2_t b,
                           const unsigned char *hb, const int first) {
    const uint64x2_t h = vld1q_u64((const uint64_t *)ha), hk = vld1q_u64((const uint64_t *)(ha + 16));
    const uint64x2_t g = vld1q_u64((const uint64_t *)hb), gk = vld1q_u64((const uint64_t *)(hb + 16));
    const uint64x2_t t = veorq_u64(vtrn1q_u64(a, b), vtrn2q_u64(a, b));
    const uint64x2_t lo = veorq_u64(clmul_lo(a, h), clmul_lo(b, g));
    const uint64x2_t hi = veorq_u64(clmul_hi(a, h), clmul_hi(b, g));
    const uint64x2_t mid = veorq_u64(clmul_lo(t, hk), clmul_hi(t, gk));
    clmul_add(z, lo, hi, mid, first);
}

/* Z mod P for Z = [Z3 Z2 Z1 Z0] (x^k at bit 255 - k; lo = [l1 l0], mid =
   [m1 m0], hi = [h1 h0]: Z0 = l0, Z1 = l1 ^ m0, Z2 = h0 ^ m1, Z3 = h1):
   x^(128+m) = x^m (1 + x + x^2 + x^7) folds word Z0 as Z2 ^= Z0 and
   [Z2 Z1] ^= Z0 * 0xc2<<56 (carry-less), then Z1 the same way one word up.
   Both folds work on whole vectors: the first gives [Z2 ^ h0, Z1] as
   mid ^ (lo with its words swapped) ^ l0 * c, the second adds that, swapped,
   and its low word times c to hi (2 EXT and 6 EOR beside the 2 PMULL). */
HWC_INLINE uint64x2_t gcm_reduce(clmul256 z) {
    const uint64x2_t c = vcombine_u64(vcreate_u64(0xc200000000000000ull), vcreate_u64(0));
    const uint64x2_t mid = veorq_u64(z.mid, veorq_u64(z.lo, z.hi));   /* Karatsuba */
    const uint64x2_t m = veorq_u64(veorq_u64(mid, vextq_u64(z.lo, z.lo, 1)), clmul_lo(z.lo, c));
    return veorq_u64(veorq_u64(z.hi, vextq_u64(m, m, 1)), clmul_lo(m, c));
}

/* acc = (acc ^ X0) H^n ^ X1 H^(n-1) ^ ... ^ X(n-1) H, n = 1..GCM_POWERS. The
   block that depends on acc is multiplied last, so the chain from one call
   to the next is one product and the reduction. */
HWC_INLINE uint64x2_t ghash_n(const unsigned char *htab, uint64x2_t acc, const uint8x16_t *blk, const int n) {
    clmul256 z;
#define GH_BLOCK(j) ((j) == 0 ? veorq_u64(acc, bswap128(blk[0])) : bswap128(blk[j]))
    /* block n - 1 - i on power n - i, two at a time (clmul_acc2) */
    EACH(i, n, if (i % 2 == 0 && i + 1 < n)
                   clmul_acc2(&z, GH_BLOCK(n - 1 - i), htab + 32 * i, GH_BLOCK(n - 2 - i), htab + 32 * (i + 1), i == 0);
               else if (i % 2 == 0) clmul_acc(&z, GH_BLOCK(n - 1 - i), htab + 32 * i, i == 0));
#undef GH_BLOCK
    return gcm_reduce(z);
}

HWC_INLINE uint64x2_t gmul(uint64x2_t a, const unsigned char *hp) {
    clmul256 z;
    clmul_acc(&z, a, hp, 1);
    return gcm_reduce(z);
}

static void neon_ghash_init(unsigned char *htab, const uint8_t h[16]) {
    /* Ht = H x^-1: the integer shifted left by one, and if bit 127 fell out,
       x^-1 = bits 127, 126, 121 and 0 added (branch-free). */
    uint64x2_t hv = bswap128(vld1q_u8(h));
    const uint64_t hi = vgetq_lane_u64(hv, 1), lo = vgetq_lane_u64(hv, 0), m = 0 - (hi >> 63);
    const uint64_t thi = ((hi << 1) | (lo >> 63)) ^ (m & 0xc200000000000000ull), tlo = (lo << 1) ^ (m & 1);
    uint64x2_t t = vcombine_u64(vcreate_u64(tlo), vcreate_u64(thi));
    for (int i = 0; i < GCM_POWERS; i++) {
        unsigned char *p = htab + 32 * i;
        if (i) t = gmul(t, htab);                   /* Ht^(i+1) = Ht^i * H */
        vst1q_u64((uint64_t *)p, t);
        vst1q_u64((uint64_t *)(p + 16), vdupq_n_u64(vgetq_lane_u64(t, 0) ^ vgetq_lane_u64(t, 1)));
    }
}

static void neon_ghash(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks) {
    uint64x2_t acc = bswap128(vld1q_u8(x));
#define GHASH(w)                                                               \
    uint8x16_t b[w];                                                           \
    OPAQUE(htab);                                                              \
    EACH(j, w, b[j] = vld1q_u8(in + 16 * j));                                  \
    acc = ghash_n(htab, acc, b, w);                                            \
    in += 16 * w;
    for (; blocks >= 8; blocks -= 8) { GHASH(8); }
    for (; blocks > 0; blocks -= 1) { GHASH(1); }
#undef GHASH
    vst1q_u8(x, vreinterpretq_u8_u64(bswap128(vreinterpretq_u8_u64(acc))));
}

/* Word 3 = v, the others 0: adds v to the counter word of a REV32 block
   (v = 0..8 from a table: loads, not vectors built on the stack). */
static const uint32_t ctr_inc[9][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 3}, {0, 0, 0, 4},
                                       {0, 0, 0, 5}, {0, 0, 0, 6}, {0, 0, 0, 7}, {0, 0, 0, 8}};
#define ctr_word(v) vld1q_u32(ctr_inc[v])
/* SP 800-38D 6.5 GCTR + 6.4 GHASH over whole blocks. The counter block *cp
   is kept word-byte-swapped (REV32), so its last word is a native integer:
   + j per block wraps mod 2^32 (inc32), and REV32 gives the block back.
   Decrypt hashes the input blocks (loaded before anything is stored: in
   place works), encrypt the ciphertext it has just computed. */
HWC_INLINE void gcm_blocks(const hwc_aes_key *k, const unsigned char *htab, uint32x4_t *cp,
                           uint64x2_t *accp, uint8_t *out, const uint8_t *in, size_t blocks,
                           const int nr, const int dec) {
    uint32x4_t c = *cp;
    uint64x2_t acc = *accp;
    const uint8_t *s = k->sched;
#define GCM(w)                                                                 \
    uint8x16_t b[w], d[w];                                                     \
    OPAQUE(s);                                                                 \
    OPAQUE(htab);                                                              \
    EACH(j, w, b[j] = vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(c, ctr_word(j))))); \
    c = vaddq_u32(c, ctr_word(w));                                             \
    if (dec) {                                                                 \
        EACH(j, w, d[j] = vld1q_u8(in + 16 * j));                              \
        acc = ghash_n(htab, acc, d, w);                                        \
        EACH(j, w, __asm__("" : "+w"(b[j]) : "w"(acc)));                       \
    }                                                                          \
    enc_mem(b, w, s, nr);                                                      \
    /* the data read for the XOR only after the rounds (the compiler sees   \
       in depend on the last block): no block is live across them */        \
    __asm__("" : "+r"(in) : "w"(b[w - 1]));                                    \
    EACH(j, w, d[j] = veorq_u8(vld1q_u8(in + 16 * j), b[j]); vst1q_u8(out + 16 * j, d[j])); \
    if (!dec) acc = ghash_n(htab, acc, d, w);                                  \
    in += 16 * w;                                                              \
    out += 16 * w;
    OVER_BLOCKS(k, blocks, GCM);
#undef GCM
    *cp = c;
    *accp = acc;
}

HWC_INLINE void gcm_nr(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],
                       uint8_t *out, const uint8_t *in, size_t blocks, const int nr, const int dec) {
    uint32x4_t c = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr)));
    uint64x2_t acc = bswap128(vld1q_u8(x));
    gcm_blocks(k, htab, &c, &acc, out, in, blocks, nr, dec);
    vst1q_u8(ctr, vrev32q_u8(vreinterpretq_u8_u32(c)));
    vst1q_u8(x, vreinterpretq_u8_u64(bswap128(vreinterpretq_u8_u64(acc))));
}

/* gcm_oneshot (internal/kernel.h), sections 7.1 steps 3-6 and 7.2 steps 3-7
   in one call: the whole blocks as gcm_nr, E_K(J0) computed before them and
   kept in tag[] (the caller's buffer, not this frame) while they run; the
   keystream of the final partial block from the counter they leave (beside
   E_K(J0) when there are no whole blocks); then one GHASH group over the
   zero-padded partial block and the length block. The partial block goes
   through a 16-byte frame buffer (read before out is written: in place
   works), wiped after. */
static const uint8_t part_mask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

HWC_INLINE void gcm_oneshot_nr(const hwc_aes_key *k, const unsigned char *htab, const uint8_t j0[16],
                               const uint8_t xb[16], uint8_t *out, const uint8_t *in, size_t len,
                               const uint8_t lens[16], const int dec, uint8_t tag[16], const int nr) {
    const size_t full = len / 16, rem = len % 16;
    const uint8x16_t jv = vld1q_u8(j0);
    uint32x4_t c = vaddq_u32(vreinterpretq_u32_u8(vrev32q_u8(jv)), ctr_word(1));
    uint64x2_t acc = bswap128(vld1q_u8(xb));
    /* e[0]: E_K(J0); e[1]: the partial block's keystream, from the counter
       the whole blocks leave in c (nothing but c and acc lives across them) */
    uint8x16_t e[2] = {jv, jv};
    if (full) {
        enc_mem(e, 1, k->sched, nr);
        vst1q_u8(tag, e[0]);
        gcm_blocks(k, htab, &c, &acc, out, in, full, nr, dec);
        out += 16 * full;
        in += 16 * full;
        e[1] = vrev32q_u8(vreinterpretq_u8_u32(c));
        if (rem) enc_mem(e + 1, 1, k->sched, nr);
        e[0] = vld1q_u8(tag);
    } else if (rem) {
        e[1] = vrev32q_u8(vreinterpretq_u8_u32(c));
        enc_mem(e, 2, k->sched, nr);
    } else {
        enc_mem(e, 1, k->sched, nr);
    }
    uint8x16_t g[2];
    if (rem) {
        uint8_t buf[16] = {0};
        hwc_copy_short(buf, in, rem);
        const uint8x16_t p = vld1q_u8(buf);
        const uint8x16_t o = vandq_u8(veorq_u8(p, e[1]), vld1q_u8(part_mask + 16 - rem));
        g[0] = dec ? p : o;
        g[1] = vld1q_u8(lens);
        acc = ghash_n(htab, acc, g, 2);
        vst1q_u8(buf, o);
        hwc_copy_short(out, buf, rem);
        hwc_wipe_inline(buf, sizeof buf);
    } else {
        g[0] = vld1q_u8(lens);
        acc = ghash_n(htab, acc, g, 1);
    }
    vst1q_u8(tag, veorq_u8(vreinterpretq_u8_u64(bswap128(vreinterpretq_u8_u64(acc))), e[0]));
}

static void neon_gcm_oneshot(const hwc_aes_key *k, const unsigned char *htab, const uint8_t j0[16],
                             const uint8_t x[16], uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t lens[16], int dec, int iv12, uint8_t tag[16]) {
    (void)iv12;   /* the counter form does not depend on it here */
#define CALL(nr)                                                               \
    if (dec) gcm_oneshot_nr(k, htab, j0, x, out, in, len, lens, 1, tag, nr);   \
    else gcm_oneshot_nr(k, htab, j0, x, out, in, len, lens, 0, tag, nr);
    BY_ROUNDS(k, CALL)
#undef CALL
}

static void neon_gcm_encrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                             uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
#define CALL(nr) gcm_nr(k, htab, ctr, x, out, in, blocks, nr, 0)
    BY_ROUNDS(k, CALL)
#undef CALL
}

static void neon_gcm_decrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                             uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
#define CALL(nr) gcm_nr(k, htab, ctr, x, out, in, blocks, nr, 1)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* ---- lane step: w chains of different messages (chain_step, internal/kernel.h) -- */
/* CBC encryption / CBC-MAC of w messages side by side, one block of every
   lane per pass: w independent AESE chains as in ECB. Every lane's block is
   read before any output of that block index is written. */
HWC_INLINE void chain_lanes_nr(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks,
                               const int nr, const int w, const int store) {
    uint8x16_t rk[15], x[15];   /* EACH indexes up to 14 in dead branches */
    const hwc_aes_chain *l[15];
    hwc_aes_lane_fill(l, lane, busy, (size_t)w);
    load_keys(rk, k->sched, nr);
    EACH(j, w, x[j] = vld1q_u8(l[j]->st));
    for (size_t i = 0; i < blocks; i++) {
        EACH(j, w, x[j] = veorq_u8(x[j], vld1q_u8(l[j]->in + 16 * i)));
        enc_w(x, w, rk, nr);
        EACH(j, w, x[j] = veorq_u8(x[j], rk[nr]));
        if (store) EACH(j, w, vst1q_u8(l[j]->out + 16 * i, x[j]));
    }
    EACH(j, w, vst1q_u8(l[j]->st, x[j]));
}

static void neon_chain_step4(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks) {
#define CALL(nr) chain_lanes_nr(k, lane, busy, blocks, nr, 4, lane[0].out != NULL)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* Four busy lanes or fewer: the 4-lane step (the same latency per block,
   half the AES work). */
static void neon_chain_step8(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks) {
    if (busy <= 4) {
        neon_chain_step4(k, lane, busy, blocks);
        return;
    }
#define CALL(nr) chain_lanes_nr(k, lane, busy, blocks, nr, 8, lane[0].out != NULL)
    BY_ROUNDS(k, CALL)
#undef CALL
}

/* Round keys stay in the 32 vector registers or the schedule; the GCM
   slots load them where they are used (OPAQUE above). */
#define NEON_CLEAN (HWC_CLEAN_SETKEY | HWC_CLEAN_MODES | HWC_CLEAN_LANES | HWC_CLEAN_GCM | HWC_CLEAN_XTS)
#define NEON_TABLE(chain_fn, lanes)       \
    {                                     \
        .setkey = neon_setkey,            \
        .ecb_encrypt = neon_ecb_encrypt,  \
        .ecb_decrypt = neon_ecb_decrypt,  \
        .cbc_encrypt = neon_cbc_encrypt,  \
        .cbc_decrypt = neon_cbc_decrypt,  \
        .ctr = neon_ctr,                  \
        .xts_encrypt = neon_xts_encrypt,  \
        .xts_decrypt = neon_xts_decrypt,  \
        .cmac_chain = neon_cmac_chain,    \
        .ghash_init = neon_ghash_init,    \
        .ghash = neon_ghash,              \
        .gcm_encrypt = neon_gcm_encrypt,  \
        .gcm_decrypt = neon_gcm_decrypt,  \
        .gcm_oneshot = neon_gcm_oneshot,  \
        .chain_step = chain_fn,           \
        .chain_lanes = lanes,             \
        .clean_frames = NEON_CLEAN,       \
    }
const hwc_aes_impl hwc_aes_neon = NEON_TABLE(neon_chain_step8, 8);
const hwc_aes_impl hwc_aes_neon_narrow = NEON_TABLE(neon_chain_step4, 4);
