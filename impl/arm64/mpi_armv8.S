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

#include "impl/arm64/asm_macros.h"

/* hi:lo = s * b (b in x3); s is overwritten with hi */
	.macro	mul_limb s, lo
	mul	\lo, \s, x3
	umulh	\s, \s, x3
	.endm
	.macro	adcs_limb d, s
	adcs	\d, \d, \s
	.endm
/* add_chain d0, s0, d1, s1, ...: d += s as one carry chain (adds, adcs...) */
	.macro	add_chain d, s, rest:vararg
	adds	\d, \d, \s
	each_pair adcs_limb, \rest
	.endm

	func_begin hwc_mpi_armv8_muladd
	push_regs 48, x19, x20, x21, x22, x23, x24
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
	// lo0..lo7 in x14-x17, x19-x22; hi0..hi7 in x6-x13
	each_pair mul_limb, x6, x14, x7, x15, x8, x16, x9, x17, x10, x19, x11, x20, x12, x21, x13, x22
	// 1: P = s * b + c as 9 limbs x14, x15, x16, x17, x19, x20, x21, x22, x13
	add_chain x14, x4, x15, x6, x16, x7, x17, x8, x19, x9, x20, x10, x21, x11, x22, x12
	adc	x13, x13, xzr
	// 2: D + P; the top limb is the next carry
	ldp	x6, x7, [x0]		// d0..d7
	ldp	x8, x9, [x0, #16]
	ldp	x10, x11, [x0, #32]
	ldp	x23, x24, [x0, #48]
	add_chain x6, x14, x7, x15, x8, x16, x9, x17, x10, x19, x11, x20, x23, x21, x24, x22
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
	each_pair mul_limb, x6, x14, x7, x15, x8, x16, x9, x17
	add_chain x14, x4, x15, x6, x16, x7, x17, x8
	adc	x9, x9, xzr
	add_chain x10, x14, x11, x15, x12, x16, x13, x17
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
	mul_limb x6, x14
	adds	x14, x14, x4		// lo + carry
	adc	x6, x6, xzr		// hi <= 2^64 - 2: no overflow
	adds	x10, x10, x14		// + d
	adc	x4, x6, xzr
	str	x10, [x0], #8
	sub	x2, x2, #1
	cbnz	x2, 4b
5:
	mov	x0, x4
	pop_regs 48, x19, x20, x21, x22, x23, x24
	ret
	func_end hwc_mpi_armv8_muladd

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
