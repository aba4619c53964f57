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
 * LPS over the fused table (impl/generic/streebog_tables.h):
 *   LPS(w)[c] = XOR_r table[r][byte c of w[r]].
 * E(K, m) (section 8.1): X_0 = m, X_j = LPS(X_{j-1} ^ K_j) and
 * K_{j+1} = LPS(K_j ^ C_j) for j = 1..12. Both need only K_j, so round j
 * runs the two LPS interleaved: table row r feeds the 8 key accumulators and
 * the 8 state accumulators from independent loads, two dependency chains
 * for the core to overlap. K_1 = LPS(h ^ N) runs alone first; at the end
 * h ^= X_12 ^ K_13 ^ m.
 *
 * Schedule inside a row (software pipelined for in-order cores too): step s
 * extracts the two index bytes s (ubfx), loads the two table words of byte
 * s-1 and XORs those of byte s-2, so no instruction waits for the one just
 * before it; a row's last two steps overlap the next row's first two, and
 * the next row's input words are loaded in the middle of the current row.
 * Between rounds the frame holds K_j ^ C_j (KBUF) and X_{j-1} ^ K_j (SBUF),
 * the two LPS inputs, so a row needs just two loads of input.
 *
 * Registers: x19-x26 key accumulators, x27-x30, x0-x2, x9 state
 * accumulators, x3 table row pointer, x4 round constant pointer, x7/x8 and
 * x5/x6 the input words of even/odd rows, x10-x17 byte indices and loaded
 * values. Frame (256 bytes): x29/x30, x19-x28, KBUF (sp+96), SBUF (sp+160),
 * h and m pointers, round counter. No SIMD/FP register is touched (d8-d15
 * trivially preserved). Immediates are written without '#' (cpp would take
 * it for its stringizing operator; GNU as and LLVM accept both forms).
 * NOT constant time: table loads are indexed by secret bytes (as generic). */

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define BTI_C hint 34
#else
#define BTI_C
#endif

#define KBUF 96
#define SBUF 160
#define HPTR 224
#define MPTR 232
#define CNT 240
#define FRAME 256

/* byte c: index registers, loaded values, accumulators (key, state) */
#define IK_0 x10
#define IS_0 x11
#define VK_0 x12
#define VS_0 x13
#define IK_1 x14
#define IS_1 x15
#define VK_1 x16
#define VS_1 x17
#define IK_2 IK_0
#define IS_2 IS_0
#define VK_2 VK_0
#define VS_2 VS_0
#define IK_3 IK_1
#define IS_3 IS_1
#define VK_3 VK_1
#define VS_3 VS_1
#define IK_4 IK_0
#define IS_4 IS_0
#define VK_4 VK_0
#define VS_4 VS_0
#define IK_5 IK_1
#define IS_5 IS_1
#define VK_5 VK_1
#define VS_5 VS_1
#define IK_6 IK_0
#define IS_6 IS_0
#define VK_6 VK_0
#define VS_6 VS_0
#define IK_7 IK_1
#define IS_7 IS_1
#define VK_7 VK_1
#define VS_7 VS_1
#define AK_0 x19
#define AK_1 x20
#define AK_2 x21
#define AK_3 x22
#define AK_4 x23
#define AK_5 x24
#define AK_6 x25
#define AK_7 x26
#define AS_0 x27
#define AS_1 x28
#define AS_2 x29
#define AS_3 x30
#define AS_4 x0
#define AS_5 x1
#define AS_6 x2
#define AS_7 x9

/* U: extract byte c of the key word wk and the state word ws.
   L: load their table words (row x3). LF: same, straight into the
   accumulators (first row of a round). E: accumulate. */
#define U(c, wk, ws) U_##c(wk, ws)
#define U_X(c, wk, ws) ubfx IK_##c, wk, 8 * c, 8 ; ubfx IS_##c, ws, 8 * c, 8 ;
#define U_0(wk, ws) and IK_0, wk, 0xff ; and IS_0, ws, 0xff ;
#define U_1(wk, ws) U_X(1, wk, ws)
#define U_2(wk, ws) U_X(2, wk, ws)
#define U_3(wk, ws) U_X(3, wk, ws)
#define U_4(wk, ws) U_X(4, wk, ws)
#define U_5(wk, ws) U_X(5, wk, ws)
#define U_6(wk, ws) U_X(6, wk, ws)
#define U_7(wk, ws) lsr IK_7, wk, 56 ; lsr IS_7, ws, 56 ;
#define L(c) ldr VK_##c, [x3, IK_##c, lsl 3] ; ldr VS_##c, [x3, IS_##c, lsl 3] ;
#define LF(c) ldr AK_##c, [x3, IK_##c, lsl 3] ; ldr AS_##c, [x3, IS_##c, lsl 3] ;
#define E(c) eor AK_##c, AK_##c, VK_##c ; eor AS_##c, AS_##c, VS_##c ;
/* next row's input words */
#define PRE(r, wk, ws) ldr wk, [sp, KBUF + 8 * (r)] ; ldr ws, [sp, SBUF + 8 * (r)] ;
#define NEXTROW add x3, x3, 2048 ;

/* Row 0 of a round (loads straight into the accumulators); its last two
   steps are emitted by the next row. */
#define ROW_FIRST(wk, ws, nwk, nws) \
	U(0, wk, ws) \
	U(1, wk, ws) LF(0) \
	U(2, wk, ws) LF(1) \
	U(3, wk, ws) LF(2) PRE(1, nwk, nws) \
	U(4, wk, ws) LF(3) \
	U(5, wk, ws) LF(4) \
	U(6, wk, ws) LF(5) \
	U(7, wk, ws) LF(6)

/* Row r >= 1: first the previous row's tail (its byte 7 load and byte 6,
   7 XORs; LAST7 is LF(7) after row 0, else L(7) E(6)), then this row. */
#define ROW(r, wk, ws, nwk, nws, LAST7, LASTE) \
	LAST7 NEXTROW \
	U(0, wk, ws) LASTE \
	U(1, wk, ws) L(0) \
	U(2, wk, ws) L(1) E(0) \
	U(3, wk, ws) L(2) E(1) PRE(r + 1, nwk, nws) \
	U(4, wk, ws) L(3) E(2) \
	U(5, wk, ws) L(4) E(3) \
	U(6, wk, ws) L(5) E(4) \
	U(7, wk, ws) L(6) E(5)

#define NOP_
#define TAIL_AFTER_FIRST LF(7)
#define TAIL L(7) E(6)

/* key-only LPS (K_1 = LPS(h ^ N)), plain order: byte c of x7, row x3 */
#define B1(c, first) ubfx IK_##c, x7, 8 * c, 8 ; \
	.if first ; ldr AK_##c, [x3, IK_##c, lsl 3] ; \
	.else ; ldr VK_##c, [x3, IK_##c, lsl 3] ; eor AK_##c, AK_##c, VK_##c ; .endif ;
#define ROW1(r, first) ldr x7, [x0, 8 * r] ; ldr x8, [x1, 8 * r] ; eor x7, x7, x8 ; \
	B1(0, first) B1(1, first) B1(2, first) B1(3, first) \
	B1(4, first) B1(5, first) B1(6, first) B1(7, first) NEXTROW

	.text
	.p2align 4
	.globl	hwc_sb_arm64_ilps_compress
	.hidden	hwc_sb_arm64_ilps_compress
	.type	hwc_sb_arm64_ilps_compress, %function
hwc_sb_arm64_ilps_compress:
	.cfi_startproc
	BTI_C
	stp	x29, x30, [sp, -FRAME]!
	.cfi_def_cfa_offset FRAME
	.cfi_offset x29, -FRAME
	.cfi_offset x30, -(FRAME - 8)
	stp	x19, x20, [sp, 16]
	.cfi_offset x19, -(FRAME - 16)
	.cfi_offset x20, -(FRAME - 24)
	stp	x21, x22, [sp, 32]
	.cfi_offset x21, -(FRAME - 32)
	.cfi_offset x22, -(FRAME - 40)
	stp	x23, x24, [sp, 48]
	.cfi_offset x23, -(FRAME - 48)
	.cfi_offset x24, -(FRAME - 56)
	stp	x25, x26, [sp, 64]
	.cfi_offset x25, -(FRAME - 64)
	.cfi_offset x26, -(FRAME - 72)
	stp	x27, x28, [sp, 80]
	.cfi_offset x27, -(FRAME - 80)
	.cfi_offset x28, -(FRAME - 88)
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
	ldr	x2, [sp, MPTR]
	mov	x5, 12
	str	x5, [sp, CNT]
	ldp	x10, x11, [x2, 0]
	ldp	x12, x13, [x2, 16]
	ldp	x14, x15, [x2, 32]
	ldp	x16, x17, [x2, 48]
	eor	x10, x10, x19
	eor	x11, x11, x20
	eor	x12, x12, x21
	eor	x13, x13, x22
	eor	x14, x14, x23
	eor	x15, x15, x24
	eor	x16, x16, x25
	eor	x17, x17, x26
	stp	x10, x11, [sp, SBUF + 0]
	stp	x12, x13, [sp, SBUF + 16]
	stp	x14, x15, [sp, SBUF + 32]
	stp	x16, x17, [sp, SBUF + 48]
	mov	x8, x10
	b	3f

	/* round j: X_j = LPS(X_{j-1} ^ K_j), K_{j+1} = LPS(K_j ^ C_j) */
1:
	ROW_FIRST(x7, x8, x5, x6)
	ROW(1, x5, x6, x7, x8, TAIL_AFTER_FIRST, NOP_)
	ROW(2, x7, x8, x5, x6, TAIL, E(7))
	ROW(3, x5, x6, x7, x8, TAIL, E(7))
	ROW(4, x7, x8, x5, x6, TAIL, E(7))
	ROW(5, x5, x6, x7, x8, TAIL, E(7))
	ROW(6, x7, x8, x5, x6, TAIL, E(7))
	/* row 7: like ROW but nothing to preload */
	TAIL NEXTROW
	U(0, x5, x6) E(7)
	U(1, x5, x6) L(0)
	U(2, x5, x6) L(1) E(0)
	U(3, x5, x6) L(2) E(1)
	U(4, x5, x6) L(3) E(2)
	U(5, x5, x6) L(4) E(3)
	U(6, x5, x6) L(5) E(4)
	U(7, x5, x6) L(6) E(5)
	L(7) E(6) NEXTROW
	E(7)
	sub	x3, x3, 4, lsl 12		// back to row 0 (8 x 2048)

	/* SBUF = X_j ^ K_{j+1} (after round 12: X_12 ^ K_13) */
	eor	AS_0, AS_0, AK_0
	eor	AS_1, AS_1, AK_1
	eor	AS_2, AS_2, AK_2
	eor	AS_3, AS_3, AK_3
	eor	AS_4, AS_4, AK_4
	eor	AS_5, AS_5, AK_5
	eor	AS_6, AS_6, AK_6
	eor	AS_7, AS_7, AK_7
	stp	AS_0, AS_1, [sp, SBUF + 0]
	stp	AS_2, AS_3, [sp, SBUF + 16]
	stp	AS_4, AS_5, [sp, SBUF + 32]
	stp	AS_6, AS_7, [sp, SBUF + 48]
	mov	x8, AS_0
	ldr	x10, [sp, CNT]
	subs	x10, x10, 1
	str	x10, [sp, CNT]
	b.eq	4f
	add	x4, x4, 64
3:
	/* KBUF = K_{j+1} ^ C_{j+1} (x4 = C_{j+1}); x7, x8 = row 0 inputs */
	ldp	x10, x11, [x4, 0]
	ldp	x12, x13, [x4, 16]
	ldp	x14, x15, [x4, 32]
	ldp	x16, x17, [x4, 48]
	eor	x10, x10, AK_0
	eor	x11, x11, AK_1
	eor	x12, x12, AK_2
	eor	x13, x13, AK_3
	eor	x14, x14, AK_4
	eor	x15, x15, AK_5
	eor	x16, x16, AK_6
	eor	x17, x17, AK_7
	stp	x10, x11, [sp, KBUF + 0]
	stp	x12, x13, [sp, KBUF + 16]
	stp	x14, x15, [sp, KBUF + 32]
	stp	x16, x17, [sp, KBUF + 48]
	mov	x7, x10
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
	/* the frame held key material: wipe it (h holds the result) */
	.irp	o, KBUF, KBUF + 16, KBUF + 32, KBUF + 48, SBUF, SBUF + 16, SBUF + 32, SBUF + 48
	stp	xzr, xzr, [sp, \o]
	.endr

	ldp	x19, x20, [sp, 16]
	ldp	x21, x22, [sp, 32]
	ldp	x23, x24, [sp, 48]
	ldp	x25, x26, [sp, 64]
	ldp	x27, x28, [sp, 80]
	ldp	x29, x30, [sp], FRAME
	.cfi_restore x29
	.cfi_restore x30
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_restore x25
	.cfi_restore x26
	.cfi_restore x27
	.cfi_restore x28
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	hwc_sb_arm64_ilps_compress, .-hwc_sb_arm64_ilps_compress

	.section .note.GNU-stack, "", %progbits
