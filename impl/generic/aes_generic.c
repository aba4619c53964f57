/* Generic AES kernel (FIPS-197): bitsliced, constant time, portable C.
 *
 * Eight blocks are processed at once. The state is 8 bit planes q[0..7]
 * (plane j = bit j of every state byte); a plane is a 128-bit vector of two
 * 64-bit lanes, lane L holding blocks 4L..4L+3, and bit 16r + 4c + b of a lane
 * holding byte (row r, column c) of block 4L + b. With that layout:
 *   SubBytes   = a Boolean circuit on the 8 planes (no table, no branch);
 *   ShiftRows  = two delta swaps per plane (rotating the nibbles of each row);
 *   MixColumns = 16-bit and 32-bit rotations inside each lane plus XORs.
 * Nothing indexes memory or branches on key or data; lengths and block counts
 * are the only things that steer control flow.
 *
 * The S-box constant 0x63 is folded into round keys 1..Nr (ShiftRows,
 * MixColumns and InvMixColumns map the all-0x63 state to itself), so both
 * circuits below run without NOT gates and one schedule serves both
 * directions. Round key i, plane j is one 64-bit word sched[8i + j] (replicated
 * to both lanes when used): (Nr + 1) * 64 <= 960 bytes.
 *
 * GCM: the counter blocks go through the bitsliced cipher eight at a time;
 * GHASH is the portable constant-time one (internal/ghash_portable.h).
 *
 * Needs a little-endian target (x86-64, AArch64) and GCC/clang vector
 * extensions; SSE2 / AdvSIMD suffice. */
#include <string.h>
#include "internal/bytes.h"
#include "internal/wipe.h"
#include "internal/kernel.h"
#include "internal/ghash_portable.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "aes_generic.c assumes a little-endian target"
#endif

typedef uint64_t bs_t __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint16_t u16x8 __attribute__((vector_size(16)));

#define BATCH 8                 /* blocks per bitsliced batch */
#define BATCH_BYTES (16 * BATCH)

/* ---- bit permutations ----------------------------------------------------- */

/* Swap bits p and p + s of x for every p set in m (a "delta swap"). */
#define DSWAP(x, m, s)                                      \
    do {                                                    \
        bs_t t_ = (((x) >> (s)) ^ (x)) & (bs_t){(m), (m)};  \
        (x) ^= t_ ^ (t_ << (s));                            \
    } while (0)

/* Swap bit p + s of a with bit p of b for every p set in m. */
#define SWAPMOVE(a, b, m, s)                                \
    do {                                                    \
        bs_t t_ = (((a) >> (s)) ^ (b)) & (bs_t){(m), (m)};  \
        (b) ^= t_;                                          \
        (a) ^= t_ << (s);                                   \
    } while (0)

/* One step of the transpose: SWAPMOVE(q[i], q[i + d], m, d) for every i
   with bit d clear (d = 1, 2, 4; constant once inlined, so it unrolls). */
static inline void swapmove_step(bs_t q[8], uint64_t m, int d) {
    for (int i = 0; i < 8; i++)
        if (!(i & d)) SWAPMOVE(q[i], q[i + d], m, d);
}

/* 8x8 bit-matrix transpose inside every byte position: bit j of byte k of
   q[i] <-> bit i of byte k of q[j]. An involution. */
static inline void transpose(bs_t q[8]) {
    swapmove_step(q, 0x5555555555555555ull, 1);
    swapmove_step(q, 0x3333333333333333ull, 2);
    swapmove_step(q, 0x0F0F0F0F0F0F0F0Full, 4);
}

/* Block (columns 0..3, 4 bytes each) -> {interleave(col0, col2),
   interleave(col1, col3)}: byte 2r + h of lane c0 = byte (r, 2h + c0). */
static inline bs_t block_in(const uint8_t *p) {
    u32x4 v;
    memcpy(&v, p, 16);
    bs_t w = (bs_t)__builtin_shufflevector(v, v, 0, 2, 1, 3);
    DSWAP(w, 0x00000000FFFF0000ull, 16);
    DSWAP(w, 0x0000FF000000FF00ull, 8);
    return w;
}

static inline void block_out(uint8_t *p, bs_t w) {
    DSWAP(w, 0x0000FF000000FF00ull, 8);
    DSWAP(w, 0x00000000FFFF0000ull, 16);
    u32x4 v = (u32x4)w;
    v = __builtin_shufflevector(v, v, 0, 2, 1, 3);
    memcpy(p, &v, 16);
}

/* 8 blocks (128 bytes) -> bit planes. After block_in, word i = 4*c0 + b of a
   lane has byte 2r + h = byte (r, 2h + c0) of block b; the transpose puts bit
   j of it at bit 8(2r + h) + 4*c0 + b = 16r + 4c + b of plane j. */
static inline void load8(bs_t q[8], const uint8_t *in) {
    bs_t u[8];
    for (int b = 0; b < 8; b++) u[b] = block_in(in + 16 * b);
    for (int b = 0; b < 4; b++) {
        q[b] = __builtin_shufflevector(u[b], u[b + 4], 0, 2);
        q[b + 4] = __builtin_shufflevector(u[b], u[b + 4], 1, 3);
    }
    transpose(q);
}

static inline void store8(uint8_t *out, bs_t q[8]) {
    transpose(q);
    for (int b = 0; b < 4; b++) {
        bs_t lo = __builtin_shufflevector(q[b], q[b + 4], 0, 2);
        bs_t hi = __builtin_shufflevector(q[b], q[b + 4], 1, 3);
        block_out(out + 16 * b, lo);
        block_out(out + 16 * (b + 4), hi);
    }
}

/* ---- round functions ------------------------------------------------------ */

/* SubBytes without its affine constant: q = S(q) ^ 0x63 per byte. Circuit:
   Boyar, Peralta, Calik, 113-gate straight-line program for the AES S-box
   ("SLP_AES_113", Yale Circuit Minimization Team; J. Boyar, R. Peralta, "A new
   combinational logic minimization technique with applications to
   cryptology", SEA 2010), with its three XNORs as XORs. U0 is the most
   significant bit. */
static inline void sub_bytes(bs_t q[8]) {
    const bs_t U0 = q[7], U1 = q[6], U2 = q[5], U3 = q[4];
    const bs_t U4 = q[3], U5 = q[2], U6 = q[1], U7 = q[0];
    /* top linear layer */
    bs_t y14 = U3 ^ U5, y13 = U0 ^ U6, y9 = U0 ^ U3, y8 = U0 ^ U5, t0 = U1 ^ U2;
    bs_t y1 = t0 ^ U7, y4 = y1 ^ U3, y12 = y13 ^ y14, y2 = y1 ^ U0, y5 = y1 ^ U6;
    bs_t y3 = y5 ^ y8, t1 = U4 ^ y12, y15 = t1 ^ U5, y20 = t1 ^ U1, y6 = y15 ^ U7;
    bs_t y10 = y15 ^ t0, y11 = y20 ^ y9, y7 = U7 ^ y11, y17 = y10 ^ y11;
    bs_t y19 = y10 ^ y8, y16 = t0 ^ y11, y21 = y13 ^ y16, y18 = U0 ^ y16;
    /* shared non-linear middle (GF(2^4) inversion) */
    bs_t t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2, t5 = y4 & U7, t6 = t5 ^ t2;
    bs_t t7 = y13 & y16, t8 = y5 & y1, t9 = t8 ^ t7, t10 = y2 & y7, t11 = t10 ^ t7;
    bs_t t12 = y9 & y11, t13 = y14 & y17, t14 = t13 ^ t12, t15 = y8 & y10;
    bs_t t16 = t15 ^ t12, t17 = t4 ^ y20, t18 = t6 ^ t16, t19 = t9 ^ t14;
    bs_t t20 = t11 ^ t16, t21 = t17 ^ t14, t22 = t18 ^ y19, t23 = t19 ^ y21;
    bs_t t24 = t20 ^ y18, t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26;
    bs_t t28 = t25 & t27, t29 = t28 ^ t22, t30 = t23 ^ t24, t31 = t22 ^ t26;
    bs_t t32 = t31 & t30, t33 = t32 ^ t24, t34 = t23 ^ t33, t35 = t27 ^ t33;
    bs_t t36 = t24 & t35, t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38;
    bs_t t40 = t25 ^ t39, t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40;
    bs_t t44 = t33 ^ t37, t45 = t42 ^ t41;
    bs_t z0 = t44 & y15, z1 = t37 & y6, z2 = t33 & U7, z3 = t43 & y16, z4 = t40 & y1;
    bs_t z5 = t29 & y7, z6 = t42 & y11, z7 = t45 & y17, z8 = t41 & y10, z9 = t44 & y12;
    bs_t z10 = t37 & y3, z11 = t33 & y4, z12 = t43 & y13, z13 = t40 & y5;
    bs_t z14 = t29 & y2, z15 = t42 & y9, z16 = t45 & y14, z17 = t41 & y8;
    /* bottom linear layer */
    bs_t tc1 = z15 ^ z16, tc2 = z10 ^ tc1, tc3 = z9 ^ tc2, tc4 = z0 ^ z2, tc5 = z1 ^ z0;
    bs_t tc6 = z3 ^ z4, tc7 = z12 ^ tc4, tc8 = z7 ^ tc6, tc9 = z8 ^ tc7;
    bs_t tc10 = tc8 ^ tc9, tc11 = tc6 ^ tc5, tc12 = z3 ^ z5, tc13 = z13 ^ tc1;
    bs_t tc14 = tc4 ^ tc12, S3 = tc3 ^ tc11, tc16 = z6 ^ tc8, tc17 = z14 ^ tc10;
    bs_t tc18 = tc13 ^ tc14, S7 = z12 ^ tc18, tc20 = z15 ^ tc16, tc21 = tc2 ^ z11;
    bs_t S0 = tc3 ^ tc16, S6 = tc10 ^ tc18, S4 = tc14 ^ S3, S1 = S3 ^ tc16;
    bs_t tc26 = tc17 ^ tc20, S2 = tc26 ^ z17, S5 = tc21 ^ tc17;
    q[7] = S0; q[6] = S1; q[5] = S2; q[4] = S3;
    q[3] = S4; q[2] = S5; q[1] = S6; q[0] = S7;
}

/* InvSubBytes of (q ^ 0x63): 121-gate inverse S-box circuit of the Yale
   Circuit Minimization Team ("Sinv"), its four XNORs taken as XORs, which
   is exactly an input offset of 0x63. Both circuits, without their NOTs,
   were checked for all 256 inputs against S-box tables computed from the
   FIPS-197 5.1.1 definition; the KATs and OpenSSL cross-checks in
   tests/test_aes.c exercise them on every kernel run. */
static inline void inv_sub_bytes(bs_t q[8]) {
    const bs_t U0 = q[7], U1 = q[6], U2 = q[5], U3 = q[4];
    const bs_t U4 = q[3], U5 = q[2], U6 = q[1], U7 = q[0];
    bs_t Y0 = U0 ^ U3, Y2 = U1 ^ U3, Y4 = U0 ^ Y2, R0 = U6 ^ U7, Y1 = Y2 ^ R0;
    bs_t Y7 = U2 ^ Y1, R1 = U3 ^ U4, Y6 = U7 ^ R1, Y3 = Y1 ^ R1, R2 = U0 ^ U2;
    bs_t Y5 = U5 ^ R2;
    bs_t sa1 = Y0 ^ Y2, sa0 = Y1 ^ Y3, sb1 = Y4 ^ Y6, sb0 = Y5 ^ Y7, ah = Y0 ^ Y1;
    bs_t al = Y2 ^ Y3, aa = sa0 ^ sa1, bh = Y4 ^ Y5, bl = Y6 ^ Y7, bb = sb0 ^ sb1;
    bs_t ab20 = sa0 ^ sb0, ab22 = al ^ bl, ab23 = Y3 ^ Y7, ab21 = sa1 ^ sb1;
    bs_t abcd1 = ah & bh, rr1 = Y0 & Y4, ph11 = ab20 ^ abcd1, t01 = Y1 & Y5;
    bs_t ph01 = t01 ^ abcd1, abcd2 = al & bl, r1 = Y2 & Y6, pl11 = ab22 ^ abcd2;
    bs_t r2 = Y3 & Y7, pl01 = r2 ^ abcd2, r3 = sa0 & sb0, vr1 = aa & bb;
    bs_t pr1 = vr1 ^ r3, wr1 = sa1 & sb1, qr1 = wr1 ^ r3, ab0 = ph11 ^ rr1;
    bs_t ab1 = ph01 ^ ab21, ab2 = pl11 ^ r1, ab3 = pl01 ^ qr1, cp1 = ab0 ^ pr1;
    bs_t cp2 = ab1 ^ qr1, cp3 = ab2 ^ pr1, cp4 = ab3 ^ ab23;
    /* GF(2^4) inversion */
    bs_t ti1 = cp3 ^ cp4, ti2 = cp3 & cp1, ti3 = cp2 ^ ti2, ti4 = cp1 ^ cp2;
    bs_t ti5 = cp4 ^ ti2, ti6 = ti5 & ti4, ti7 = ti3 & ti1, d2 = cp4 ^ ti7;
    bs_t d0 = cp2 ^ ti6, ti8 = cp1 & cp4, ti9 = ti4 & ti8, ti10 = ti4 ^ ti2;
    bs_t d1 = ti9 ^ ti10, ti11 = cp2 & cp3, ti12 = ti1 & ti11, ti13 = ti1 ^ ti2;
    bs_t d3 = ti12 ^ ti13;
    bs_t sd1 = d1 ^ d3, sd0 = d0 ^ d2, dl = d0 ^ d1, dh = d2 ^ d3, dd = sd0 ^ sd1;
    bs_t abcd3 = dh & bh, rr2 = d3 & Y4, t02 = d2 & Y5, abcd4 = dl & bl;
    bs_t r4 = d1 & Y6, r5 = d0 & Y7, r6 = sd0 & sb0, vr2 = dd & bb, wr2 = sd1 & sb1;
    bs_t abcd5 = dh & ah, r7 = d3 & Y0, r8 = d2 & Y1, abcd6 = dl & al, r9 = d1 & Y2;
    bs_t r10 = d0 & Y3, r11 = sd0 & sa0, vr3 = dd & aa, wr3 = sd1 & sa1;
    bs_t ph12 = rr2 ^ abcd3, ph02 = t02 ^ abcd3, pl12 = r4 ^ abcd4, pl02 = r5 ^ abcd4;
    bs_t pr2 = vr2 ^ r6, qr2 = wr2 ^ r6, p0 = ph12 ^ pr2, p1 = ph02 ^ qr2;
    bs_t p2 = pl12 ^ pr2, p3 = pl02 ^ qr2, ph13 = r7 ^ abcd5, ph03 = r8 ^ abcd5;
    bs_t pl13 = r9 ^ abcd6, pl03 = r10 ^ abcd6, pr3 = vr3 ^ r11, qr3 = wr3 ^ r11;
    bs_t p4 = ph13 ^ pr3, S7 = ph03 ^ qr3, p6 = pl13 ^ pr3, p7 = pl03 ^ qr3;
    bs_t S3 = p1 ^ p6, S6 = p2 ^ p6, S0 = p3 ^ p6, X11 = p0 ^ p2, S5 = S0 ^ X11;
    bs_t X13 = p4 ^ p7, X14 = X11 ^ X13, S1 = S3 ^ X14, X16 = p1 ^ S7;
    bs_t S2 = X14 ^ X16, X18 = p0 ^ p4, X19 = S5 ^ X16, S4 = X18 ^ X19;
    q[7] = S0; q[6] = S1; q[5] = S2; q[4] = S3;
    q[3] = S4; q[2] = S5; q[1] = S6; q[0] = S7;
}

/* ShiftRows (FIPS-197 5.1.2): row r of every block rotates left by r
   columns, i.e. nibble c of the row's 16-bit group takes nibble c + r.
   Step 1 swaps nibbles (0,1),(2,3) of rows 1 and 3; step 2 swaps nibbles
   (1,3) of row 1, (0,2),(1,3) of row 2 and (0,2) of row 3. */
static inline void shift_rows(bs_t q[8]) {
    for (int j = 0; j < 8; j++) {
        DSWAP(q[j], 0x0F0F00000F0F0000ull, 4);
        DSWAP(q[j], 0x000F00FF00F00000ull, 8);
    }
}

static inline void inv_shift_rows(bs_t q[8]) {
    for (int j = 0; j < 8; j++) {
        DSWAP(q[j], 0x000F00FF00F00000ull, 8);
        DSWAP(q[j], 0x0F0F00000F0F0000ull, 4);
    }
}

/* Row r <- row r+1 (mod 4) inside each column, and row r <- row r+2. */
static inline bs_t rot_row1(bs_t x) {
    u16x8 v = (u16x8)x;
    return (bs_t)__builtin_shufflevector(v, v, 1, 2, 3, 0, 5, 6, 7, 4);
}

static inline bs_t rot_row2(bs_t x) {
    u32x4 v = (u32x4)x;
    return (bs_t)__builtin_shufflevector(v, v, 1, 0, 3, 2);
}

/* MixColumns (FIPS-197 5.1.3): out_r = 2a_r ^ 3a_{r+1} ^ a_{r+2} ^ a_{r+3}
   = 2s_r ^ a_{r+1} ^ s_{r+2} with s_r = a_r ^ a_{r+1}. Multiplying planes by
   2 (xtime) shifts plane j to j+1 and folds plane 7 into planes 0,1,3,4
   (0x1b). */
static inline void mix_columns(bs_t q[8]) {
    bs_t b[8], s[8];
    for (int j = 0; j < 8; j++) {
        b[j] = rot_row1(q[j]);
        s[j] = q[j] ^ b[j];
    }
    q[0] = s[7] ^ b[0] ^ rot_row2(s[0]);
    q[1] = s[0] ^ s[7] ^ b[1] ^ rot_row2(s[1]);
    q[2] = s[1] ^ b[2] ^ rot_row2(s[2]);
    q[3] = s[2] ^ s[7] ^ b[3] ^ rot_row2(s[3]);
    q[4] = s[3] ^ s[7] ^ b[4] ^ rot_row2(s[4]);
    q[5] = s[4] ^ b[5] ^ rot_row2(s[5]);
    q[6] = s[5] ^ b[6] ^ rot_row2(s[6]);
    q[7] = s[6] ^ b[7] ^ rot_row2(s[7]);
}

/* InvMixColumns (FIPS-197 5.3.3) as MixColumns after the circulant
   (05 00 04 00): a_r ^ 4(a_r ^ a_{r+2}); (02 03 01 01)(05 00 04 00) =
   (0e 0b 0d 09). 4u: plane j takes u_{j-2}, planes 6 and 7 fold in 0x1b and
   0x36. */
static inline void inv_mix_columns(bs_t q[8]) {
    bs_t u[8];
    for (int j = 0; j < 8; j++) u[j] = q[j] ^ rot_row2(q[j]);
    q[0] ^= u[6];
    q[1] ^= u[6] ^ u[7];
    q[2] ^= u[0] ^ u[7];
    q[3] ^= u[1] ^ u[6];
    q[4] ^= u[2] ^ u[6] ^ u[7];
    q[5] ^= u[3] ^ u[7];
    q[6] ^= u[4];
    q[7] ^= u[5];
    mix_columns(q);
}

static inline void add_round_key(bs_t q[8], const unsigned char *rk) {
    for (int j = 0; j < 8; j++) {
        uint64_t w;
        memcpy(&w, rk + 8 * j, 8);
        q[j] ^= (bs_t){w, w};
    }
}

/* Encrypts the batch q; after middle round r (1 <= r <= nh <= 8) the GHASH
   step of block r - 1 at hin runs (GCM, internal/ghash_portable.h): the
   bitsliced rounds keep the vector units busy, the hash the integer
   multiplier, so the core overlaps them. nh = 0: AES alone. */
static inline __attribute__((always_inline)) void encrypt8_hashing(const hwc_aes_key *k, bs_t q[8],
                                                                   const unsigned char *htab, uint64_t x[2],
                                                                   const uint8_t *hin, size_t nh) {
    const unsigned char *rk = k->sched;
    unsigned nr = k->rounds;
    add_round_key(q, rk);
    for (unsigned r = 1; r < nr; r++) {
        sub_bytes(q);
        shift_rows(q);
        mix_columns(q);
        add_round_key(q, rk + 64 * r);
        if (r <= nh) hwc_ghash_portable_step(htab, x, hin + 16 * (r - 1));
    }
    sub_bytes(q);
    shift_rows(q);
    add_round_key(q, rk + 64 * nr);
}

static void encrypt8(const hwc_aes_key *k, bs_t q[8]) {
    encrypt8_hashing(k, q, NULL, NULL, NULL, 0);
}

static void decrypt8(const hwc_aes_key *k, bs_t q[8]) {
    const unsigned char *rk = k->sched;
    unsigned nr = k->rounds;
    add_round_key(q, rk + 64 * nr);
    for (unsigned r = nr - 1; r > 0; r--) {
        inv_shift_rows(q);
        inv_sub_bytes(q);
        add_round_key(q, rk + 64 * r);
        inv_mix_columns(q);
    }
    inv_shift_rows(q);
    inv_sub_bytes(q);
    add_round_key(q, rk);
}

/* n (1..8) blocks from in to out through the cipher; out == in allowed. */
static void crypt_n(const hwc_aes_key *k, int dec, uint8_t *out, const uint8_t *in, size_t n) {
    bs_t q[8];
    if (n == BATCH) {
        load8(q, in);
        if (dec) decrypt8(k, q); else encrypt8(k, q);
        store8(out, q);
        return;
    }
    if (n == 1) {   /* one block: lanes of the other seven stay zero */
        bs_t u = block_in(in);
        for (int j = 0; j < 8; j++) q[j] = (bs_t){0, 0};
        q[0] = __builtin_shufflevector(u, q[1], 0, 2);
        q[4] = __builtin_shufflevector(u, q[1], 1, 3);
        transpose(q);
        if (dec) decrypt8(k, q); else encrypt8(k, q);
        transpose(q);
        block_out(out, __builtin_shufflevector(q[0], q[4], 0, 2));
        return;
    }
    uint8_t buf[BATCH_BYTES];
    memset(buf, 0, sizeof buf);
    memcpy(buf, in, 16 * n);
    load8(q, buf);
    if (dec) decrypt8(k, q); else encrypt8(k, q);
    store8(buf, q);
    memcpy(out, buf, 16 * n);
    hwc_wipe_inline(buf, sizeof buf);
}

static inline void xor16(uint8_t *out, const uint8_t *a, const uint8_t *b) {
    bs_t x, y;
    memcpy(&x, a, 16);
    memcpy(&y, b, 16);
    x ^= y;
    memcpy(out, &x, 16);
}

/* ---- key schedule (FIPS-197 5.2) ------------------------------------------ */

/* SubWord on the 4 bytes of w (byte i in bits 8i..8i+7), through the same
   circuit: no table, no branch on key bytes. */
static uint32_t sub_word(uint32_t w) {
    bs_t q[8];
    for (int j = 0; j < 8; j++) {
        uint64_t p = 0;
        for (int i = 0; i < 4; i++) p |= (uint64_t)((w >> (8 * i + j)) & 1) << i;
        q[j] = (bs_t){p, 0};
    }
    sub_bytes(q);
    uint32_t r = 0;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 4; i++) r |= (uint32_t)((q[j][0] >> i) & 1) << (8 * i + j);
    return r ^ 0x63636363u;
}

static inline uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void gen_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    unsigned nk = (unsigned)(key_len / 4), nr = k->rounds, total = 4 * (nr + 1);
    uint8_t w[240];
    uint8_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = le32(w + 4 * (i - 1));
        if (i % nk == 0) {
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;   /* RotWord, SubWord, Rcon */
            rcon = (uint8_t)((rcon << 1) ^ (0x1b & (0u - (rcon >> 7))));
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        t ^= le32(w + 4 * (i - nk));
        for (int b = 0; b < 4; b++) w[4 * i + b] = (uint8_t)(t >> (8 * b));
    }
    /* Round key i, plane j: bit 16r + 4c + b = bit j of byte 4c + r. */
    memset(k->sched, 0, sizeof k->sched);
    for (unsigned i = 0; i <= nr; i++) {
        const uint8_t *kb = w + 16 * i;
        for (int j = 0; j < 8; j++) {
            uint64_t p = 0;
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++)
                    p |= ((uint64_t)((kb[4 * c + r] >> j) & 1) * 0xF) << (16 * r + 4 * c);
            if (i > 0 && ((0x63 >> j) & 1)) p = ~p;   /* folded S-box constant */
            memcpy(k->sched + 64 * i + 8 * j, &p, 8);
        }
    }
    hwc_wipe_inline(w, sizeof w);
}

/* ---- modes (whole blocks; core/ checks arguments) ------------------------- */

/* Loops over the blocks a batch at a time: n = 1..BATCH blocks of this batch,
   in and out advance past them after the body. */
#define EACH_BATCH(n, blocks, in, out)                                  \
    for (size_t n; (n = (blocks) < BATCH ? (blocks) : BATCH) != 0;     \
         (in) += 16 * n, (out) += 16 * n, (blocks) -= n)

/* out = a ^ b over n blocks */
static inline void xor_blocks(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) xor16(out + 16 * i, a + 16 * i, b + 16 * i);
}

/* ks = E(ks) for a full batch of counter blocks, then out = in ^ ks over the
   first n (SP 800-38A 6.5, SP 800-38D 6.5). Always inlined into the CTR and
   GCM batch loops (clang would otherwise call it once per batch). */
static inline __attribute__((always_inline)) void keystream_xor(const hwc_aes_key *k,
                                                                uint8_t ks[BATCH_BYTES], uint8_t *out,
                                                                const uint8_t *in, size_t n) {
    bs_t q[8];
    load8(q, ks);
    encrypt8(k, q);
    store8(ks, q);
    xor_blocks(out, in, ks, n);
}

static void ecb_blocks(const hwc_aes_key *k, int dec, uint8_t *out, const uint8_t *in, size_t blocks) {
    EACH_BATCH(n, blocks, in, out) crypt_n(k, dec, out, in, n);
}

static void gen_ecb_encrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
    ecb_blocks(k, 0, out, in, blocks);
}

static void gen_ecb_decrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks) {
    ecb_blocks(k, 1, out, in, blocks);
}

/* SP 800-38A 6.2: one block at a time (each block needs the previous one). */
static void gen_cbc_encrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t blocks) {
    uint8_t x[16];
    memcpy(x, iv, 16);
    for (size_t i = 0; i < blocks; i++) {
        xor16(x, x, in + 16 * i);
        crypt_n(k, 0, x, x, 1);
        memcpy(out + 16 * i, x, 16);
    }
    memcpy(iv, x, 16);
}

static void gen_cbc_decrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t blocks) {
    uint8_t c[BATCH_BYTES], p[BATCH_BYTES], prev[16];
    memcpy(prev, iv, 16);
    EACH_BATCH(n, blocks, in, out) {
        memcpy(c, in, 16 * n);          /* keep the ciphertext: out may be in */
        crypt_n(k, 1, p, c, n);
        xor16(out, p, prev);
        xor_blocks(out + 16, p + 16, c, n - 1);
        memcpy(prev, c + 16 * (n - 1), 16);
    }
    memcpy(iv, prev, 16);
    hwc_wipe_inline(p, sizeof p);
}

/* SP 800-38A 6.5 with a 128-bit big-endian counter, wrapping mod 2^128. */
static void gen_ctr(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                    size_t blocks) {
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    uint8_t ks[BATCH_BYTES];
    EACH_BATCH(n, blocks, in, out) {
        for (size_t i = 0; i < BATCH; i++) {
            hwc_store_be64(ks + 16 * i, hi);
            hwc_store_be64(ks + 16 * i + 8, lo);
            if (i < n) {
                lo++;
                hi += (lo == 0);
            }
        }
        keystream_xor(k, ks, out, in, n);
    }
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
    hwc_wipe_inline(ks, sizeof ks);
}

/* IEEE 1619-2007 5.3.1 / 5.4.1 over whole blocks: block j uses t * x^j
   (byte 0 least significant, x^128 = x^7 + x^2 + x + 1), branch-free. */
static void xts_blocks(const hwc_aes_key *k, int dec, uint8_t t[16], uint8_t *out,
                       const uint8_t *in, size_t blocks) {
    uint64_t t0 = hwc_load_le64(t), t1 = hwc_load_le64(t + 8);
    uint8_t tw[BATCH_BYTES], x[BATCH_BYTES];
    EACH_BATCH(n, blocks, in, out) {
        for (size_t i = 0; i < n; i++) {
            hwc_store_le64(tw + 16 * i, t0);
            hwc_store_le64(tw + 16 * i + 8, t1);
            uint64_t carry = t1 >> 63;
            t1 = (t1 << 1) | (t0 >> 63);
            t0 = (t0 << 1) ^ (0x87 & (0 - carry));
        }
        xor_blocks(x, in, tw, n);
        crypt_n(k, dec, x, x, n);
        xor_blocks(out, x, tw, n);
    }
    hwc_store_le64(t, t0);
    hwc_store_le64(t + 8, t1);
    hwc_wipe_inline(tw, sizeof tw);
    hwc_wipe_inline(x, sizeof x);
}

static void gen_xts_encrypt(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                            size_t blocks) {
    xts_blocks(k, 0, t, out, in, blocks);
}

static void gen_xts_decrypt(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                            size_t blocks) {
    xts_blocks(k, 1, t, out, in, blocks);
}

/* SP 800-38B 6.2 steps 5-6: state = E(state ^ block), one block at a time. */
static void gen_cmac_chain(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks) {
    for (size_t i = 0; i < blocks; i++) {
        xor16(state, state, in + 16 * i);
        crypt_n(k, 0, state, state, 1);
    }
}

/* Lane step (chain_step in internal/kernel.h): CBC / CBC-MAC chains of 8
   different messages are the 8 blocks of one bitsliced batch, so 8 chains
   cost what one does. Every lane's block is read before any output of the
   same block index is written. */
static void gen_chain_step(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks) {
    const hwc_aes_chain *l[BATCH];
    hwc_aes_lane_fill(l, lane, busy, BATCH);
    uint8_t x[BATCH_BYTES];
    for (int j = 0; j < BATCH; j++) memcpy(x + 16 * j, l[j]->st, 16);
    for (size_t i = 0; i < blocks; i++) {
        for (int j = 0; j < BATCH; j++) xor16(x + 16 * j, x + 16 * j, l[j]->in + 16 * i);
        crypt_n(k, 0, x, x, BATCH);
        if (lane[0].out)
            for (int j = 0; j < BATCH; j++) memcpy(l[j]->out + 16 * i, x + 16 * j, 16);
    }
    for (int j = 0; j < BATCH; j++) memcpy(l[j]->st, x + 16 * j, 16);
    hwc_wipe_inline(x, sizeof x);
}

/* GHASH inside the round loop (encrypt8_hashing) where it was measured to
   pay (docs/gcm.md) and leaves no key material in the frame with gcc and
   clang: x86-64. clang for AArch64 spills round-key vectors around the
   inlined hash; there it runs before the cipher pass. */
#if defined(__x86_64__)
#define GCM_STITCH 1
#else
#define GCM_STITCH 0
#endif

/* SP 800-38D 6.5 GCTR over whole blocks (inc32 counters, eight per cipher
   pass) and 6.4 GHASH of the ciphertext, hashed during a cipher pass
   (encrypt8_hashing) or just before it: decryption hashes the pass's own
   input (before out is written: in place works), encryption the previous
   pass's output and the last pass's after the loop. */
static void gcm_blocks(const hwc_aes_key *k, const unsigned char *htab, int dec, uint8_t ctr[16],
                       uint8_t xb[16], uint8_t *out, const uint8_t *in, size_t blocks) {
    uint32_t c32 = (uint32_t)hwc_load_be64(ctr + 8);
    uint64_t x[2] = {hwc_load_be64(xb), hwc_load_be64(xb + 8)};
    uint8_t ks[BATCH_BYTES];
    const uint8_t *pending = NULL;   /* encryption: output not hashed yet */
    size_t npending = 0;
    EACH_BATCH(n, blocks, in, out) {
        for (size_t i = 0; i < BATCH; i++) {
            uint32_t v = c32 + (uint32_t)i;
            uint8_t *p = ks + 16 * i + 12;
            memcpy(ks + 16 * i, ctr, 12);
            p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
        }
        c32 += (uint32_t)n;
        const uint8_t *hin = dec ? in : pending;
        const size_t nh = dec ? n : npending;
        bs_t q[8];
        load8(q, ks);
        if (GCM_STITCH) {
            encrypt8_hashing(k, q, htab, x, hin, nh);
        } else {
            for (size_t i = 0; i < nh; i++) hwc_ghash_portable_step(htab, x, hin + 16 * i);
            encrypt8(k, q);
        }
        store8(ks, q);
        xor_blocks(out, in, ks, n);
        pending = out;
        npending = n;
    }
    for (size_t i = 0; !dec && i < npending; i++) hwc_ghash_portable_step(htab, x, pending + 16 * i);
    hwc_store_be64(xb, x[0]);
    hwc_store_be64(xb + 8, x[1]);
    hwc_store_be64(ctr + 8, (hwc_load_be64(ctr + 8) & 0xffffffff00000000ull) | c32);
    hwc_wipe_inline(ks, sizeof ks);
}

static void gen_gcm_encrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                            uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
    gcm_blocks(k, htab, 0, ctr, x, out, in, blocks);
}

static void gen_gcm_decrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                            uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks) {
    gcm_blocks(k, htab, 1, ctr, x, out, in, blocks);
}

const hwc_aes_impl hwc_aes_generic = {
    .setkey = gen_setkey,
    .ecb_encrypt = gen_ecb_encrypt,
    .ecb_decrypt = gen_ecb_decrypt,
    .cbc_encrypt = gen_cbc_encrypt,
    .cbc_decrypt = gen_cbc_decrypt,
    .ctr = gen_ctr,
    .xts_encrypt = gen_xts_encrypt,
    .xts_decrypt = gen_xts_decrypt,
    .cmac_chain = gen_cmac_chain,
    .ghash_init = hwc_ghash_portable_init,
    .ghash = hwc_ghash_portable,
    .gcm_encrypt = gen_gcm_encrypt,
    .gcm_decrypt = gen_gcm_decrypt,
    .chain_step = gen_chain_step,
    .chain_lanes = BATCH,
    /* bitsliced state and schedule copies are wiped where they are made */
    .clean_frames = HWC_CLEAN_SETKEY | HWC_CLEAN_MODES | HWC_CLEAN_LANES | HWC_CLEAN_GCM,
};
