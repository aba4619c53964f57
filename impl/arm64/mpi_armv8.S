/* armv8-asm mpi kernel: d[0..n) += s[0..n) * b, returns the carry-out limb.
 *
 *   hwc_limb hwc_mpi_armv8_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b)
 *   AAPCS64: x0 = d, x1 = s, x2 = n, x3 = b; result in x0.
 *
 * Main loop: 8 limbs per iteration (4 ldp of s), then all 16 mul/umulh, then
 * two add chains:
 *   1  P = (lo0 + c) + 2^64 (lo1 + hi0) + ... + 2^448 (lo7 + hi6) + 2^512 hi7
 *        = s[i..i+8) * b + c, where c is the carry limb coming in (merged
 *        here, once per iteration); hi7 + carry cannot overflow since
 *        hi7 <= 2^64 - 2.
 *   2  D + P (d loaded with 4 ldp, stored with 4 stp); <= 2^576 - 1, so the
 *        new carry limb cannot overflow.
 * Chain 2 only needs the first result of chain 1 and then trails it by one
 * operation, so the loop-carried path is about 10 additions per 8 limbs while
 * the loads and multiplies of the next iteration overlap it.
 * Then one 4-limb step (same scheme) if n & 4, and the last n & 3 limbs one
 * at a time.
 *
 * Constant time: no branch depends on data; the branches and trip counts
 * depend on n only.
 * Registers: x0-x17 and x19-x24; x19-x24 are callee-saved (AAPCS64 6.1.1)
 * and restored from a 48-byte frame described by CFI. No other callee-saved
 * register (x25-x28, x29, x30, d8-d15) is touched. */

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define BTI_C hint #34
#define HWC_BTI_NOTE 1
#else
#define BTI_C
#define HWC_BTI_NOTE 0
#endif

	.text
	.p2align 4
	.globl	hwc_mpi_armv8_muladd
	.hidden	hwc_mpi_armv8_muladd
	.type	hwc_mpi_armv8_muladd, %function
hwc_mpi_armv8_muladd:
	.cfi_startproc
	BTI_C
	stp	x19, x20, [sp, #-48]!
	.cfi_def_cfa_offset 48
	.cfi_offset x19, -48
	.cfi_offset x20, -40
	stp	x21, x22, [sp, #16]
	.cfi_offset x21, -32
	.cfi_offset x22, -24
	stp	x23, x24, [sp, #32]
	.cfi_offset x23, -16
	.cfi_offset x24, -8
	mov	x4, xzr			// carry limb
	lsr	x5, x2, #3		// 8-limb groups
	and	x2, x2, #7		// limbs left after them
	cbz	x5, 2f
1:
	ldp	x6, x7, [x1]		// s0..s7
	ldp	x8, x9, [x1, #16]
	ldp	x10, x11, [x1, #32]
	ldp	x12, x13, [x1, #48]
	add	x1, x1, #64
	mul	x14, x6, x3		// lo0
	umulh	x6, x6, x3		// hi0
	mul	x15, x7, x3
	umulh	x7, x7, x3
	mul	x16, x8, x3
	umulh	x8, x8, x3
	mul	x17, x9, x3
	umulh	x9, x9, x3
	mul	x19, x10, x3
	umulh	x10, x10, x3
	mul	x20, x11, x3
	umulh	x11, x11, x3
	mul	x21, x12, x3
	umulh	x12, x12, x3
	mul	x22, x13, x3		// lo7
	umulh	x13, x13, x3		// hi7
	// 1: P = s * b + c as 9 limbs x14, x15, x16, x17, x19, x20, x21, x22, x13
	adds	x14, x14, x4
	adcs	x15, x15, x6
	adcs	x16, x16, x7
	adcs	x17, x17, x8
	adcs	x19, x19, x9
	adcs	x20, x20, x10
	adcs	x21, x21, x11
	adcs	x22, x22, x12
	adc	x13, x13, xzr
	// 2: D + P; the top limb is the next carry
	ldp	x6, x7, [x0]		// d0..d7
	ldp	x8, x9, [x0, #16]
	ldp	x10, x11, [x0, #32]
	ldp	x23, x24, [x0, #48]
	adds	x6, x6, x14
	adcs	x7, x7, x15
	adcs	x8, x8, x16
	adcs	x9, x9, x17
	adcs	x10, x10, x19
	adcs	x11, x11, x20
	adcs	x23, x23, x21
	adcs	x24, x24, x22
	adc	x4, x13, xzr
	stp	x6, x7, [x0]
	stp	x8, x9, [x0, #16]
	stp	x10, x11, [x0, #32]
	stp	x23, x24, [x0, #48]
	add	x0, x0, #64
	sub	x5, x5, #1
	cbnz	x5, 1b
2:
	tbz	x2, #2, 3f		// n & 4: one 4-limb step
	ldp	x6, x7, [x1]
	ldp	x8, x9, [x1, #16]
	ldp	x10, x11, [x0]
	ldp	x12, x13, [x0, #16]
	add	x1, x1, #32
	mul	x14, x6, x3
	umulh	x6, x6, x3
	mul	x15, x7, x3
	umulh	x7, x7, x3
	mul	x16, x8, x3
	umulh	x8, x8, x3
	mul	x17, x9, x3
	umulh	x9, x9, x3
	adds	x14, x14, x4
	adcs	x15, x15, x6
	adcs	x16, x16, x7
	adcs	x17, x17, x8
	adc	x9, x9, xzr
	adds	x10, x10, x14
	adcs	x11, x11, x15
	adcs	x12, x12, x16
	adcs	x13, x13, x17
	adc	x4, x9, xzr
	stp	x10, x11, [x0]
	stp	x12, x13, [x0, #16]
	add	x0, x0, #32
3:
	ands	x2, x2, #3		// last limbs, one at a time
	b.eq	5f
4:
	ldr	x6, [x1], #8
	ldr	x10, [x0]
	mul	x14, x6, x3
	umulh	x6, x6, x3
	adds	x14, x14, x4		// lo + carry
	adc	x6, x6, xzr		// hi <= 2^64 - 2: no overflow
	adds	x10, x10, x14		// + d
	adc	x4, x6, xzr
	str	x10, [x0], #8
	sub	x2, x2, #1
	cbnz	x2, 4b
5:
	mov	x0, x4
	ldp	x23, x24, [sp, #32]
	ldp	x21, x22, [sp, #16]
	ldp	x19, x20, [sp], #48
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	hwc_mpi_armv8_muladd, .-hwc_mpi_armv8_muladd

#if HWC_BTI_NOTE
/* GNU property note: this object is BTI compatible (and PAC: no return
   address is ever stored). */
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.word	4			// name size
	.word	16			// descriptor size
	.word	5			// NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
	.word	0xc0000000		// GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.word	4
	.word	3			// BTI | PAC
	.word	0
	.popsection
#endif

	.section .note.GNU-stack, "", %progbits
