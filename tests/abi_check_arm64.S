/* Test-only AArch64 ABI harness (tests/test_arm64_abi.c).
 *
 *   uint64_t hwc_abi_call(const hwc_abi_regs *in, hwc_abi_regs *out,
 *                         void (*fn)(void), const uint64_t args[8]);
 *
 * Loads the callee-saved registers x19-x28 and d8-d15 (AAPCS64 6.1.1, 6.1.2)
 * with in->x[] / in->d[], passes args[0..7] in x0-x7, calls fn, then stores
 * what x19-x28, d8-d15, sp and x29 hold after the call into *out (with sp and
 * x29 as they were before the call), and returns fn's x0. The caller's own
 * callee-saved registers are restored whatever fn did, and sp is taken from a
 * saved copy, so a broken fn is reported rather than crashing the test.
 *
 * hwc_abi_regs: x[10] @0, d[8] @80, sp_before @144, sp_after @152,
 *               fp_before @160, fp_after @168 (176 bytes).
 *
 * Three deliberately broken functions let the test prove it can fail:
 * hwc_abi_bad_x (changes x23), hwc_abi_bad_d (changes d13),
 * hwc_abi_bad_sp (returns with sp 16 bytes lower).
 */
	.text
	.p2align 4
	.globl	hwc_abi_call
	.type	hwc_abi_call, %function
hwc_abi_call:
	.cfi_startproc
	stp	x29, x30, [sp, #-176]!
	.cfi_def_cfa_offset 176
	.cfi_offset x29, -176
	.cfi_offset x30, -168
	mov	x29, sp
	.cfi_def_cfa_register x29
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	.cfi_offset x19, -160
	.cfi_offset x20, -152
	.cfi_offset x21, -144
	.cfi_offset x22, -136
	.cfi_offset x23, -128
	.cfi_offset x24, -120
	.cfi_offset x25, -112
	.cfi_offset x26, -104
	.cfi_offset x27, -96
	.cfi_offset x28, -88
	.cfi_offset d8, -80
	.cfi_offset d9, -72
	.cfi_offset d10, -64
	.cfi_offset d11, -56
	.cfi_offset d12, -48
	.cfi_offset d13, -40
	.cfi_offset d14, -32
	.cfi_offset d15, -24
	str	x1, [sp, #160]		// out
	// sp and x29 as fn must leave them
	adrp	x9, hwc_abi_saved_sp
	mov	x10, sp
	str	x10, [x9, :lo12:hwc_abi_saved_sp]
	str	x10, [x1, #144]		// out->sp_before
	str	x29, [x1, #160]		// out->fp_before
	// the values fn must preserve
	ldp	x19, x20, [x0, #0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	d8, d9, [x0, #80]
	ldp	d10, d11, [x0, #96]
	ldp	d12, d13, [x0, #112]
	ldp	d14, d15, [x0, #128]
	mov	x16, x2
	mov	x17, x3
	ldp	x0, x1, [x17, #0]
	ldp	x2, x3, [x17, #16]
	ldp	x4, x5, [x17, #32]
	ldp	x6, x7, [x17, #48]
	blr	x16
	// x0 = result; record sp and x29, then get our own frame back
	mov	x10, sp
	mov	x12, x29
	adrp	x9, hwc_abi_saved_sp
	ldr	x9, [x9, :lo12:hwc_abi_saved_sp]
	mov	sp, x9
	mov	x29, x9
	ldr	x11, [sp, #160]		// out
	stp	x19, x20, [x11, #0]
	stp	x21, x22, [x11, #16]
	stp	x23, x24, [x11, #32]
	stp	x25, x26, [x11, #48]
	stp	x27, x28, [x11, #64]
	stp	d8, d9, [x11, #80]
	stp	d10, d11, [x11, #96]
	stp	d12, d13, [x11, #112]
	stp	d14, d15, [x11, #128]
	str	x10, [x11, #152]	// out->sp_after
	str	x12, [x11, #168]	// out->fp_after
	// restore the caller's registers
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x29, x30, [sp], #176
	.cfi_def_cfa sp, 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	hwc_abi_call, .-hwc_abi_call

/* Negative controls: each breaks exactly one rule. */
	.p2align 4
	.globl	hwc_abi_bad_x
	.type	hwc_abi_bad_x, %function
hwc_abi_bad_x:
	.cfi_startproc
	eor	x23, x23, #1
	ret
	.cfi_endproc
	.size	hwc_abi_bad_x, .-hwc_abi_bad_x

	.p2align 4
	.globl	hwc_abi_bad_d
	.type	hwc_abi_bad_d, %function
hwc_abi_bad_d:
	.cfi_startproc
	movi	d13, #0
	ret
	.cfi_endproc
	.size	hwc_abi_bad_d, .-hwc_abi_bad_d

	.p2align 4
	.globl	hwc_abi_bad_sp
	.type	hwc_abi_bad_sp, %function
hwc_abi_bad_sp:
	.cfi_startproc
	sub	sp, sp, #16
	ret
	.cfi_endproc
	.size	hwc_abi_bad_sp, .-hwc_abi_bad_sp

	.bss
	.p2align 3
hwc_abi_saved_sp:
	.zero	8

	.section .note.GNU-stack, "", %progbits
