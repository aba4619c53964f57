/* arm64-ilps Streebog kernel: the compression g_N of GOST R 34.11-2012
 * (RFC 6986 section 8) in AArch64 assembly.
 *
 *   void hwc_sb_arm64_ilps_compress(uint64_t h[8], const uint64_t n[8],
 *                                   const uint64_t m[8],
 *                                   const uint64_t table[8][256],
 *                                   const uint64_t c[12][8]);
 *   AAPCS64: x0 = h, x1 = n, x2 = m, x3 = table (hwc_streebog_lps_table),
 *            x4 = c (hwc_streebog_C). h = g_N(h, m).
 *
 * LPS over the fused table (internal/streebog_constants.h):
 *   LPS(w)[c] = XOR_r table[r][byte c of w[r]].
 * E(K, m) (section 8.1): X_0 = m, X_j = LPS(X_{j-1} ^ K_j) and
 * K_{j+1} = LPS(K_j ^ C_j) for j = 1..12. Both need only K_j, so round j
 * runs the two LPS interleaved: table row r feeds the 8 key accumulators and
 * the 8 state accumulators from independent loads, two dependency chains
 * for the core to overlap. K_1 = LPS(h ^ N) runs alone first; at the end
 * h ^= X_12 ^ K_13 ^ m.
 *
 * Accumulators in two register files: output words ("columns") 0-1 of both
 * LPS accumulate in SIMD registers (ldr d + eor v.8b), columns 2-7 in
 * general registers. Cores that send every register-register eor and every
 * register-offset load through a small set of integer pipes (the Cyclone
 * model of apple-m1: two units, a 64-bit eor occupies one for two cycles)
 * are bound by those pipes with all-general accumulators; moving a quarter
 * of the XORs to the SIMD pipes relieves them, while in-order cores (the
 * SIMD eor has a long latency there) and cores that split SIMD loads into
 * more micro-ops pay little for one pair. KIND_c below selects G or N per
 * pair of columns; docs/streebog-arm64.md gives the figures.
 *
 * Schedule (software pipelined, for in-order cores too): step s of a row
 * extracts the two index bytes s (and/ubfx/lsr), loads the two table words
 * of byte s - 1, XORs those of byte s - 2 into G columns and those of byte
 * s - 3 into N columns (longer SIMD load latency); the last steps of a row
 * overlap the next row's first ones, and the next row's input words are
 * loaded in the middle of the current row. Between rounds the frame holds
 * K_j ^ C_j (KBUF) and X_{j-1} ^ K_j (SBUF), the two LPS inputs, so a row
 * needs just two loads of input.
 *
 * Registers: x10/x14 (key) and x11/x15 (state) byte indices; x12/x16,
 * x13/x17 loaded words of G columns, v0-v7 of N columns; G accumulators
 * x19-x26 (key) and x27-x30, x0-x2, x9 (state) for the columns that are G;
 * N accumulators v16-v23 (key), v24-v31 (state); x3 table row pointer, x4
 * round constant pointer, x7/x8 and x5/x6 the input words of even/odd
 * rows. Frame (256 bytes): x29/x30, x19-x28, KBUF (sp+96), SBUF (sp+160),
 * h and m pointers, round counter. SIMD registers used: v0-v7, v16-v31
 * only (caller-saved; d8-d15 are never touched), zeroed before return.
 * Immediates are written without '#' (cpp would take it for its
 * stringizing operator; GNU as and LLVM accept both forms).
 * NOT constant time: table loads are indexed by secret bytes (as generic). */

#include "impl/arm64/asm_macros.h"

#define KBUF 96
#define SBUF 160
#define HPTR 224
#define MPTR 232
#define CNT 240
#define FRAME 256

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define D_(n) d##n
#define D(n) D_(n)
#define V8_(n) v##n.8b
#define V8(n) V8_(n)

/* Where column c (the accumulators of output word c, key and state) lives:
   G = general registers, N = SIMD registers (low 64 bits). Columns go in
   pairs of the same kind; any choice is correct (the default is the one
   measured in docs/streebog-arm64.md). */
#ifndef KIND_0
#define KIND_0 N
#define KIND_1 N
#define KIND_2 G
#define KIND_3 G
#define KIND_4 G
#define KIND_5 G
#define KIND_6 G
#define KIND_7 G
#endif

/* byte c: index registers; loaded values (x for G, v for N columns) */
#define IK_0 x10
#define IS_0 x11
#define IK_1 x14
#define IS_1 x15
#define XK_0 x12
#define XS_0 x13
#define XK_1 x16
#define XS_1 x17
#define NK_0 0
#define NS_0 1
#define NK_1 2
#define NS_1 3
#define NK_2 4
#define NS_2 5
#define NK_3 6
#define NS_3 7
#define NK_4 0
#define NS_4 1
#define NK_5 2
#define NS_5 3
#define NK_6 4
#define NS_6 5
#define NK_7 6
#define NS_7 7
#define IK_2 IK_0
#define IS_2 IS_0
#define XK_2 XK_0
#define XS_2 XS_0
#define IK_3 IK_1
#define IS_3 IS_1
#define XK_3 XK_1
#define XS_3 XS_1
#define IK_4 IK_0
#define IS_4 IS_0
#define XK_4 XK_0
#define XS_4 XS_0
#define IK_5 IK_1
#define IS_5 IS_1
#define XK_5 XK_1
#define XS_5 XS_1
#define IK_6 IK_0
#define IS_6 IS_0
#define XK_6 XK_0
#define XS_6 XS_0
#define IK_7 IK_1
#define IS_7 IS_1
#define XK_7 XK_1
#define XS_7 XS_1
/* accumulators: G columns x19-x26 (key), x27-x30, x0-x2, x9 (state);
   N columns v16-v23 (key), v24-v31 (state) */
#define AXK_0 x19
#define AXK_1 x20
#define AXK_2 x21
#define AXK_3 x22
#define AXK_4 x23
#define AXK_5 x24
#define AXK_6 x25
#define AXK_7 x26
#define AXS_0 x27
#define AXS_1 x28
#define AXS_2 x29
#define AXS_3 x30
#define AXS_4 x0
#define AXS_5 x1
#define AXS_6 x2
#define AXS_7 x9
#define ANK_0 16
#define ANK_1 17
#define ANK_2 18
#define ANK_3 19
#define ANK_4 20
#define ANK_5 21
#define ANK_6 22
#define ANK_7 23
#define ANS_0 24
#define ANS_1 25
#define ANS_2 26
#define ANS_3 27
#define ANS_4 28
#define ANS_5 29
#define ANS_6 30
#define ANS_7 31

/* U: extract byte c of the key word wk and the state word ws.
   LK/LS: load the key's / the state's table word of byte c (row x3);
   LFK/LFS: the same straight into the accumulators (first row of a round);
   EGK/EGS, ENK/ENS: accumulate byte c if column c is G, resp. N (else
   nothing). Column X stands for "none" (pipeline fill and drain). */
#define KIND_X Z
#define U(c, wk, ws) U_##c(wk, ws)
#define U_B(c, wk, ws) ubfx IK_##c, wk, 8 * c, 8 ; ubfx IS_##c, ws, 8 * c, 8 ;
#define U_0(wk, ws) and IK_0, wk, 0xff ; and IS_0, ws, 0xff ;
#define U_1(wk, ws) U_B(1, wk, ws)
#define U_2(wk, ws) U_B(2, wk, ws)
#define U_3(wk, ws) U_B(3, wk, ws)
#define U_4(wk, ws) U_B(4, wk, ws)
#define U_5(wk, ws) U_B(5, wk, ws)
#define U_6(wk, ws) U_B(6, wk, ws)
#define U_7(wk, ws) lsr IK_7, wk, 56 ; lsr IS_7, ws, 56 ;
#define U_X(wk, ws)
#define LK_G(c) ldr XK_##c, [x3, IK_##c, lsl 3] ;
#define LK_N(c) ldr D(NK_##c), [x3, IK_##c, lsl 3] ;
#define LS_G(c) ldr XS_##c, [x3, IS_##c, lsl 3] ;
#define LS_N(c) ldr D(NS_##c), [x3, IS_##c, lsl 3] ;
#define LFK_G(c) ldr AXK_##c, [x3, IK_##c, lsl 3] ;
#define LFK_N(c) ldr D(ANK_##c), [x3, IK_##c, lsl 3] ;
#define LFS_G(c) ldr AXS_##c, [x3, IS_##c, lsl 3] ;
#define LFS_N(c) ldr D(ANS_##c), [x3, IS_##c, lsl 3] ;
#define EGK_G(c) eor AXK_##c, AXK_##c, XK_##c ;
#define EGS_G(c) eor AXS_##c, AXS_##c, XS_##c ;
#define ENK_N(c) eor V8(ANK_##c), V8(ANK_##c), V8(NK_##c) ;
#define ENS_N(c) eor V8(ANS_##c), V8(ANS_##c), V8(NS_##c) ;
#define EGK_N(c)
#define EGS_N(c)
#define ENK_G(c)
#define ENS_G(c)
#define LK_Z(c)
#define LS_Z(c)
#define LFK_Z(c)
#define LFS_Z(c)
#define EGK_Z(c)
#define EGS_Z(c)
#define ENK_Z(c)
#define ENS_Z(c)
#define SEL(m, c) CAT(m##_, KIND_##c)(c)

/* One pipeline step: extract byte u, load byte l (key, then state),
   accumulate byte n (N columns) and byte g (G columns). The order inside a
   step was chosen with llvm-mca over all core models (issue order matters
   to the in-order A53/A55 and to ThunderX2). LD = L or LF. */
#define STEPX(LD, wk, ws, u, l, g, n) U(u, wk, ws) SEL(LD##K, l) \
	SEL(ENK, n) SEL(ENS, n) SEL(LD##S, l) SEL(EGK, g) SEL(EGS, g)
#define STEP(wk, ws, u, l, g, n) STEPX(L, wk, ws, u, l, g, n)

/* Temporaries for the per-round XORs of column c */
#define TX_0 x10
#define TX_1 x11
#define TX_2 x12
#define TX_3 x13
#define TX_4 x14
#define TX_5 x15
#define TX_6 x16
#define TX_7 x17
/* Pairs of columns c, c + 1 (same kind).
   XL/XE/XS: [sp + dst + 8c] = [base + 8c] ^ key accumulators (load, XOR,
   store). SE/SS: state accumulators ^= key accumulators, stored at
   [sp + SBUF + 8c]. */
#define XL_G(c, c1, base) ldp TX_##c, TX_##c1, [base, 8 * c] ;
#define XL_N(c, c1, base) ldp D(c), D(c1), [base, 8 * c] ;
#define XE_G(c, c1) eor TX_##c, TX_##c, AXK_##c ; eor TX_##c1, TX_##c1, AXK_##c1 ;
#define XE_N(c, c1) eor V8(c), V8(c), V8(ANK_##c) ; eor V8(c1), V8(c1), V8(ANK_##c1) ;
#define XS_G(c, c1, dst) stp TX_##c, TX_##c1, [sp, dst + 8 * c] ;
#define XS_N(c, c1, dst) stp D(c), D(c1), [sp, dst + 8 * c] ;
#define SE_G(c, c1) eor AXS_##c, AXS_##c, AXK_##c ; eor AXS_##c1, AXS_##c1, AXK_##c1 ;
#define SE_N(c, c1) eor V8(ANS_##c), V8(ANS_##c), V8(ANK_##c) ; \
	eor V8(ANS_##c1), V8(ANS_##c1), V8(ANK_##c1) ;
#define SS_G(c, c1) stp AXS_##c, AXS_##c1, [sp, SBUF + 8 * c] ;
#define SS_N(c, c1) stp D(ANS_##c), D(ANS_##c1), [sp, SBUF + 8 * c] ;
#define PAIRS(m, ...) CAT(m##_, KIND_0)(0, 1, ##__VA_ARGS__) CAT(m##_, KIND_2)(2, 3, ##__VA_ARGS__) \
	CAT(m##_, KIND_4)(4, 5, ##__VA_ARGS__) CAT(m##_, KIND_6)(6, 7, ##__VA_ARGS__)
/* the XORs of G pairs first, then those of N pairs (in-order cores must
   not follow a long-latency SIMD eor with short-latency integer ones) */
#define XE_GG XE_G
#define XE_NN XE_N
#define XS_GG XS_G
#define XS_NN XS_N
#define SE_GG SE_G
#define SE_NN SE_N
#define SS_GG SS_G
#define SS_NN SS_N
#define XE_GN(c, c1)
#define XE_NG(c, c1)
#define XS_GN(c, c1, dst)
#define XS_NG(c, c1, dst)
#define SE_GN(c, c1)
#define SE_NG(c, c1)
#define SS_GN(c, c1)
#define SS_NG(c, c1)
#define PAIRS_PASS(m, pass, ...) CAT(CAT(m##_, KIND_0), pass)(0, 1, ##__VA_ARGS__) \
	CAT(CAT(m##_, KIND_2), pass)(2, 3, ##__VA_ARGS__) \
	CAT(CAT(m##_, KIND_4), pass)(4, 5, ##__VA_ARGS__) \
	CAT(CAT(m##_, KIND_6), pass)(6, 7, ##__VA_ARGS__)
#define XALL(base, dst) PAIRS(XL, base) PAIRS_PASS(XE, G) PAIRS_PASS(XE, N) \
	PAIRS_PASS(XS, G, dst) PAIRS_PASS(XS, N, dst)

/* row 0 inputs from column 0's registers: MOV0S after SALL, MOV0K after
   XALL */
#define MOV0S_G(r) mov r, AXS_0 ;
#define MOV0S_N(r) fmov r, D(ANS_0) ;
#define MOV0K_G(r) mov r, TX_0 ;
#define MOV0K_N(r) fmov r, d0 ;
#define MOV0S(r) CAT(MOV0S_, KIND_0)(r)
#define MOV0K(r) CAT(MOV0K_, KIND_0)(r)

/* next row's input words */
#define PRE(r, wk, ws) ldr wk, [sp, KBUF + 8 * (r)] ; ldr ws, [sp, SBUF + 8 * (r)] ;
#define NEXTROW add x3, x3, 2048 ;

/* Row 0 of a round (loads straight into the accumulators); its last load
   is emitted by the next row. */
#define ROW_FIRST(wk, ws, nwk, nws) \
	STEPX(LF, wk, ws, 0, X, X, X) \
	STEPX(LF, wk, ws, 1, 0, X, X) \
	STEPX(LF, wk, ws, 2, 1, X, X) \
	STEPX(LF, wk, ws, 3, 2, X, X) PRE(1, nwk, nws) \
	STEPX(LF, wk, ws, 4, 3, X, X) \
	STEPX(LF, wk, ws, 5, 4, X, X) \
	STEPX(LF, wk, ws, 6, 5, X, X) \
	STEPX(LF, wk, ws, 7, 6, X, X)

/* Row r >= 1. Step s extracts byte s, loads byte s - 1, XORs byte s - 2
   into G columns and byte s - 3 into N columns (SIMD loads have the longer
   latency); the first steps finish the previous row (LD: its byte 7 load,
   LF after row 0; g6 n5 g7 n6 n7: its XORs, X after row 0). */
#define ROW(r, wk, ws, nwk, nws, LD, g6, n5, g7, n6, n7) \
	STEPX(LD, wk, ws, 0, 7, g6, n5) NEXTROW \
	STEP(wk, ws, 1, 0, g7, n6) \
	STEP(wk, ws, 2, 1, 0, n7) \
	STEP(wk, ws, 3, 2, 1, 0) PRE(r + 1, nwk, nws) \
	STEP(wk, ws, 4, 3, 2, 1) \
	STEP(wk, ws, 5, 4, 3, 2) \
	STEP(wk, ws, 6, 5, 4, 3) \
	STEP(wk, ws, 7, 6, 5, 4)
#define ROWT(r, wk, ws, nwk, nws) ROW(r, wk, ws, nwk, nws, L, 6, 5, 7, 6, 7)

/* key-only LPS (K_1 = LPS(h ^ N)), plain order: byte c of x7, row x3 */
#define B1(c, first) ubfx IK_##c, x7, 8 * c, 8 ; \
	.if first ; SEL(LFK, c) .else ; SEL(LK, c) SEL(EGK, c) SEL(ENK, c) .endif ;
#define ROW1(r, first) ldr x7, [x0, 8 * r] ; ldr x8, [x1, 8 * r] ; eor x7, x7, x8 ; \
	B1(0, first) B1(1, first) B1(2, first) B1(3, first) \
	B1(4, first) B1(5, first) B1(6, first) B1(7, first) NEXTROW

	func_begin hwc_sb_arm64_ilps_compress
	push_regs FRAME, x29, x30, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28
	stp	x0, x2, [sp, HPTR]

	/* K_1 = LPS(h ^ N) */
	ROW1(0, 1)
	ROW1(1, 0)
	ROW1(2, 0)
	ROW1(3, 0)
	ROW1(4, 0)
	ROW1(5, 0)
	ROW1(6, 0)
	ROW1(7, 0)
	sub	x3, x3, 4, lsl 12		// back to row 0 (8 x 2048)
	/* SBUF = m ^ K_1; then KBUF = K_1 ^ C_1 at 3: */
	mov	x5, 12
	str	x5, [sp, CNT]
	XALL(x2, SBUF)
	MOV0K(x8)
	b	3f

	/* round j: X_j = LPS(X_{j-1} ^ K_j), K_{j+1} = LPS(K_j ^ C_j) */
1:
	ROW_FIRST(x7, x8, x5, x6)
	ROW(1, x5, x6, x7, x8, LF, X, X, X, X, X)
	ROWT(2, x7, x8, x5, x6)
	ROWT(3, x5, x6, x7, x8)
	ROWT(4, x7, x8, x5, x6)
	ROWT(5, x5, x6, x7, x8)
	ROWT(6, x7, x8, x5, x6)
	/* row 7: nothing to preload */
	STEP(x5, x6, 0, 7, 6, 5) NEXTROW
	STEP(x5, x6, 1, 0, 7, 6)
	STEP(x5, x6, 2, 1, 0, 7)
	STEP(x5, x6, 3, 2, 1, 0)
	STEP(x5, x6, 4, 3, 2, 1)
	STEP(x5, x6, 5, 4, 3, 2)
	STEP(x5, x6, 6, 5, 4, 3)
	STEP(x5, x6, 7, 6, 5, 4)
	STEP(x5, x6, X, 7, 6, 5) NEXTROW
	STEP(x5, x6, X, X, 7, 6)
	STEP(x5, x6, X, X, X, 7)
	sub	x3, x3, 4, lsl 12		// back to row 0 (8 x 2048)

	/* SBUF = X_j ^ K_{j+1} (after round 12: X_12 ^ K_13) */
	ldr	x6, [sp, CNT]
	add	x4, x4, 64			// C_{j+1} (not read after round 12)
	PAIRS_PASS(SE, G)
	subs	x6, x6, 1
	PAIRS_PASS(SE, N)
	PAIRS_PASS(SS, G)
	str	x6, [sp, CNT]
	PAIRS_PASS(SS, N)
	MOV0S(x8)
	b.eq	4f
3:
	/* KBUF = K_{j+1} ^ C_{j+1} (x4 = C_{j+1}); x7, x8 = row 0 inputs */
	XALL(x4, KBUF)
	MOV0K(x7)
	b	1b

4:
	/* h ^= X_12 ^ K_13 ^ m */
	ldp	x0, x2, [sp, HPTR]
	.irp	o, 0, 16, 32, 48
	ldp	x10, x11, [x0, \o]
	ldp	x12, x13, [sp, SBUF + \o]
	ldp	x16, x17, [x2, \o]
	eor	x10, x10, x12
	eor	x11, x11, x13
	eor	x10, x10, x16
	eor	x11, x11, x17
	stp	x10, x11, [x0, \o]
	.endr
	/* the frame and the SIMD registers held key material: wipe them
	   (h holds the result; v8-v15 are never touched) */
	.irp	o, KBUF, KBUF + 16, KBUF + 32, KBUF + 48, SBUF, SBUF + 16, SBUF + 32, SBUF + 48
	stp	xzr, xzr, [sp, \o]
	.endr
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\r\().2d, 0
	.endr

	pop_regs FRAME, x29, x30, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28
	ret
	func_end hwc_sb_arm64_ilps_compress

	.section .note.GNU-stack, "", %progbits
