/* Shared by the AArch64 assembly kernels (#include from a .S file, which cpp
 * runs first): the BTI landing pad, function start and end, saving and
 * restoring register pairs on the stack with the CFI notes an unwinder needs,
 * and one macro applied to a list of operand pairs. Assembler macros (not
 * cpp), so an argument may be a cpp constant expression; registers go in
 * pairs (stp/ldp), the frame size is a multiple of 16 (AAPCS64 6.4.5.1: sp
 * stays 16-byte aligned). GNU as and LLVM's assembler both take them. */
#ifndef HWC_IMPL_ARM64_ASM_MACROS_H
#define HWC_IMPL_ARM64_ASM_MACROS_H

/* BTI c at every entry point when the build enables branch protection. */
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define BTI_C hint 34
#define HWC_BTI_NOTE 1
#else
#define BTI_C
#define HWC_BTI_NOTE 0
#endif

/* func_begin name: a hidden global function, 16-byte aligned, CFI open. */
	.macro	func_begin name
	.text
	.p2align 4
	.globl	\name
	.hidden	\name
	.type	\name, %function
\name:
	.cfi_startproc
	BTI_C
	.endm

	.macro	func_end name
	.cfi_endproc
	.size	\name, .-\name
	.endm

/* each_pair m, a, b[, c, d ...]: the macro m on (a, b), then on (c, d), ... */
	.macro	each_pair m, a, b, rest:vararg
	\m	\a, \b
	.ifnb	\rest
	each_pair \m, \rest
	.endif
	.endm

/* save_pairs off, frame, a, b[, c, d ...]: stp a, b at sp + off, the next
   pair at off + 16, ...; CFI for a frame of `frame` bytes (CFA = sp + frame). */
	.macro	save_pairs off, frame, a, b, rest:vararg
	stp	\a, \b, [sp, \off]
	.cfi_offset \a, \off - (\frame)
	.cfi_offset \b, \off + 8 - (\frame)
	.ifnb	\rest
	save_pairs (\off + 16), \frame, \rest
	.endif
	.endm

/* restore_pairs off, a, b[, c, d ...]: the loads matching save_pairs. */
	.macro	restore_pairs off, a, b, rest:vararg
	ldp	\a, \b, [sp, \off]
	.cfi_restore \a
	.cfi_restore \b
	.ifnb	\rest
	restore_pairs (\off + 16), \rest
	.endif
	.endm

/* push_regs frame, a, b[, c, d ...]: sp -= frame, then the registers from
   sp + 0 up (a, b at the bottom). */
	.macro	push_regs frame, a, b, rest:vararg
	stp	\a, \b, [sp, -(\frame)]!
	.cfi_def_cfa_offset \frame
	.cfi_offset \a, -(\frame)
	.cfi_offset \b, 8 - (\frame)
	.ifnb	\rest
	save_pairs 16, \frame, \rest
	.endif
	.endm

/* pop_regs frame, a, b[, c, d ...]: undoes push_regs with the same list. */
	.macro	pop_regs frame, a, b, rest:vararg
	.ifnb	\rest
	restore_pairs 16, \rest
	.endif
	ldp	\a, \b, [sp], \frame
	.cfi_restore \a
	.cfi_restore \b
	.cfi_def_cfa_offset 0
	.endm

#endif
