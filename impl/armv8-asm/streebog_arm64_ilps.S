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
 * K_{j+1} = LPS(K_j ^ C_j) for j = 1..12; both need only K_j, so each round
 * runs the two LPS interleaved instruction by instruction: every table row
 * r (one base pointer for both) feeds the key's 8 accumulators and the
 * state's 8 accumulators from independent loads, giving the core two
 * dependency chains to overlap. K_1 = LPS(h ^ N) runs alone first;
 * at the end h ^= X_12 ^ K_13 ^ m.
 *
 * Registers: x19-x26 key accumulators, x27-x30/x0-x2/x9 state accumulators,
 * x3 table, x4 round constant, x5 round counter, x6 row pointer, x7/x8 the
 * key/state input word, x10-x17 byte indices and loaded values.
 * Frame (240 bytes): x29/x30, x19-x28, K_j (sp+96), X_j (sp+160), h and m
 * pointers (sp+224). d8-d15 and all SIMD registers are not touched.
 * NOT constant time: table loads are indexed by secret bytes (as generic). */

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define BTI_C hint #34
#else
#define BTI_C
#endif

#define KBUF 96
#define SBUF 160
#define HPTR 224
#define MPTR 232

/* byte c of both input words through row x6: the first row loads straight
   into the accumulators, later rows XOR into them. Two temp sets (ik, is,
   vk, vs) alternate between bytes so in-order cores can pair them. */
	.macro	BYTE2 c, ak, as, ik, is, vk, vs, first
	ubfx	\ik, x7, #(8*\c), #8
	ubfx	\is, x8, #(8*\c), #8
	.if \first
	ldr	\ak, [x6, \ik, lsl #3]
	ldr	\as, [x6, \is, lsl #3]
	.else
	ldr	\vk, [x6, \ik, lsl #3]
	ldr	\vs, [x6, \is, lsl #3]
	eor	\ak, \ak, \vk
	eor	\as, \as, \vs
	.endif
	.endm

/* row r of the key LPS and the state LPS: x7 = K_j[r] ^ C_j[r],
   x8 = X_{j-1}[r] ^ K_j[r]. */
	.macro	ROW2 r, first
	ldr	x7, [sp, #(KBUF + 8*\r)]
	ldr	x8, [sp, #(SBUF + 8*\r)]
	ldr	x10, [x4, #(8*\r)]
	.if \r
	add	x6, x6, #2048
	.else
	mov	x6, x3
	.endif
	eor	x8, x8, x7
	eor	x7, x7, x10
	BYTE2	0, x19, x27, x10, x11, x12, x13, \first
	BYTE2	1, x20, x28, x14, x15, x16, x17, \first
	BYTE2	2, x21, x29, x10, x11, x12, x13, \first
	BYTE2	3, x22, x30, x14, x15, x16, x17, \first
	BYTE2	4, x23, x0,  x10, x11, x12, x13, \first
	BYTE2	5, x24, x1,  x14, x15, x16, x17, \first
	BYTE2	6, x25, x2,  x10, x11, x12, x13, \first
	BYTE2	7, x26, x9,  x14, x15, x16, x17, \first
	.endm

/* key-only LPS (K_1): byte c of x7 through row x6. */
	.macro	BYTE1 c, ak, ik, vk, first
	ubfx	\ik, x7, #(8*\c), #8
	.if \first
	ldr	\ak, [x6, \ik, lsl #3]
	.else
	ldr	\vk, [x6, \ik, lsl #3]
	eor	\ak, \ak, \vk
	.endif
	.endm

/* row r of K_1 = LPS(h ^ N): x0 = h, x1 = n. */
	.macro	ROW1 r, first
	ldr	x7, [x0, #(8*\r)]
	ldr	x8, [x1, #(8*\r)]
	.if \r
	add	x6, x6, #2048
	.else
	mov	x6, x3
	.endif
	eor	x7, x7, x8
	BYTE1	0, x19, x10, x12, \first
	BYTE1	1, x20, x11, x13, \first
	BYTE1	2, x21, x14, x16, \first
	BYTE1	3, x22, x15, x17, \first
	BYTE1	4, x23, x10, x12, \first
	BYTE1	5, x24, x11, x13, \first
	BYTE1	6, x25, x14, x16, \first
	BYTE1	7, x26, x15, x17, \first
	.endm

	.text
	.p2align 4
	.globl	hwc_sb_arm64_ilps_compress
	.hidden	hwc_sb_arm64_ilps_compress
	.type	hwc_sb_arm64_ilps_compress, %function
hwc_sb_arm64_ilps_compress:
	.cfi_startproc
	BTI_C
	stp	x29, x30, [sp, #-240]!
	.cfi_def_cfa_offset 240
	.cfi_offset x29, -240
	.cfi_offset x30, -232
	stp	x19, x20, [sp, #16]
	.cfi_offset x19, -224
	.cfi_offset x20, -216
	stp	x21, x22, [sp, #32]
	.cfi_offset x21, -208
	.cfi_offset x22, -200
	stp	x23, x24, [sp, #48]
	.cfi_offset x23, -192
	.cfi_offset x24, -184
	stp	x25, x26, [sp, #64]
	.cfi_offset x25, -176
	.cfi_offset x26, -168
	stp	x27, x28, [sp, #80]
	.cfi_offset x27, -160
	.cfi_offset x28, -152
	stp	x0, x2, [sp, #HPTR]

	/* K_1 = LPS(h ^ N) */
	ROW1	0, 1
	ROW1	1, 0
	ROW1	2, 0
	ROW1	3, 0
	ROW1	4, 0
	ROW1	5, 0
	ROW1	6, 0
	ROW1	7, 0
	stp	x19, x20, [sp, #(KBUF + 0)]
	stp	x21, x22, [sp, #(KBUF + 16)]
	stp	x23, x24, [sp, #(KBUF + 32)]
	stp	x25, x26, [sp, #(KBUF + 48)]
	/* X_0 = m */
	ldp	x10, x11, [x2, #0]
	ldp	x12, x13, [x2, #16]
	ldp	x14, x15, [x2, #32]
	ldp	x16, x17, [x2, #48]
	stp	x10, x11, [sp, #(SBUF + 0)]
	stp	x12, x13, [sp, #(SBUF + 16)]
	stp	x14, x15, [sp, #(SBUF + 32)]
	stp	x16, x17, [sp, #(SBUF + 48)]

	mov	x5, #12
	/* round j: X_j = LPS(X_{j-1} ^ K_j) and K_{j+1} = LPS(K_j ^ C_j) */
1:
	ROW2	0, 1
	ROW2	1, 0
	ROW2	2, 0
	ROW2	3, 0
	ROW2	4, 0
	ROW2	5, 0
	ROW2	6, 0
	ROW2	7, 0
	stp	x19, x20, [sp, #(KBUF + 0)]
	stp	x27, x28, [sp, #(SBUF + 0)]
	stp	x21, x22, [sp, #(KBUF + 16)]
	stp	x29, x30, [sp, #(SBUF + 16)]
	stp	x23, x24, [sp, #(KBUF + 32)]
	stp	x0, x1, [sp, #(SBUF + 32)]
	stp	x25, x26, [sp, #(KBUF + 48)]
	stp	x2, x9, [sp, #(SBUF + 48)]
	add	x4, x4, #64
	subs	x5, x5, #1
	b.ne	1b

	/* h ^= X_12 ^ K_13 ^ m, two words at a time */
	ldp	x0, x2, [sp, #HPTR]
	.irp	o, 0, 16, 32, 48
	ldp	x10, x11, [x0, #\o]
	ldp	x12, x13, [sp, #(KBUF + \o)]
	ldp	x14, x15, [sp, #(SBUF + \o)]
	ldp	x16, x17, [x2, #\o]
	eor	x10, x10, x12
	eor	x11, x11, x13
	eor	x14, x14, x16
	eor	x15, x15, x17
	eor	x10, x10, x14
	eor	x11, x11, x15
	stp	x10, x11, [x0, #\o]
	.endr

	/* K_13 and X_12 stay in the frame: wipe them (h holds the result). */
	stp	xzr, xzr, [sp, #(KBUF + 0)]
	stp	xzr, xzr, [sp, #(KBUF + 16)]
	stp	xzr, xzr, [sp, #(KBUF + 32)]
	stp	xzr, xzr, [sp, #(KBUF + 48)]
	stp	xzr, xzr, [sp, #(SBUF + 0)]
	stp	xzr, xzr, [sp, #(SBUF + 16)]
	stp	xzr, xzr, [sp, #(SBUF + 32)]
	stp	xzr, xzr, [sp, #(SBUF + 48)]

	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #240
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
