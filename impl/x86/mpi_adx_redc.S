/* adx mpi kernel: Montgomery reduction of a double-length value, 8 rows at
 * a time with the running window in registers (x86-64 BMI2 MULX, ADX).
 *
 *   void hwc_mpi_adx_redc8(hwc_limb *t, const hwc_limb *m, size_t n8, hwc_limb minv)
 *   SysV: rdi = t, rsi = m, rdx = n8 (n = 8 n8 limbs), rcx = minv = -m^-1 mod 2^64.
 *
 * In:  t[0..2n) = T < m 2^(64n). Out: t[n..2n] = (T + Q m) / 2^(64n) < 2m
 * (t[2n] the top word, 0 or 1), t[0..n) garbage. Separated operand scanning
 * (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996) with the rows taken 8 at a time, the blocking of
 * OpenSSL's published sqrx8x/mulx4x reductions (own code):
 *
 *   block b (rows 8b..8b+7), tb = t + 8b:
 *     chunk 0: r8..r15 = tb[0..8); row i: q_i = (lowest window word) * minv,
 *              window += q_i * m[0..8); the zero word leaves the window and
 *              the row's top word enters it (register names rotate, the 8
 *              rows are unrolled). q_0..q_7 are kept on the stack.
 *     chunk c = 1..n8-1: window += tb[8c..8c+8) + cin (carry chain, carry
 *              out kept in cin for the next chunk); row i: window +=
 *              q_i * m[8c..8c+8), the lowest word is final and stored to
 *              tb[8c+i].
 *     last:    window += tb[n..n+8) + cin + topc; stored; topc = the carry
 *              out of position n+8 (of block b), which is position n of
 *              block b+1. t[2n] = topc after the last block.
 *
 * A row is the muladd of impl/x86/mpi_adx.c on registers: per limb MULX,
 * ADCX adds the previous high half to the low half (CF chain), ADOX adds the
 * low half into the window word (OF chain); the row's top word is
 * hi7 + CF + OF (window + q * 8 limbs < 2^576: no overflow). The eight rows
 * of a chunk are independent but for the window, so their chains overlap.
 *
 * Constant time: no branch or memory index depends on data; the loops run
 * on n only. Registers: rax rbx rcx rdx rsi rdi rbp r8-r15; rbx, rbp,
 * r12-r15 saved and restored (CFI below). Stack frame (136 bytes):
 *   0..56 q_0..q_7, 64 minv, 80 topc, 88 8n-64, 96 m, 104 t+n,
 *   112 zero, 120 m+n, 128 &t[2n]. */

#define Q(i)   (8*(i))(%rsp)
#define MINV   64(%rsp)
#define TOPC   80(%rsp)
#define BACK   88(%rsp)
#define MBASE  96(%rsp)
#define TEND   104(%rsp)
#define ZERO   112(%rsp)
#define MEND   120(%rsp)
#define TTOP   128(%rsp)

/* Window words w0..w7 (w0 lowest) += rdx * m[0..8) at (%rsi); the top word
   ends in w0's register. STORE: where w0 goes before its register is reused
   (chunks after the first), or nothing (the first chunk: w0 is zero). */
.macro ROW w0, w1, w2, w3, w4, w5, w6, w7, store=
	xorl	%eax, %eax		/* CF = OF = 0 */
	mulxq	0(%rsi), %rax, %rbx
	adoxq	%rax, \w0
	mulxq	8(%rsi), %rax, %rbp
	adcxq	%rbx, %rax
	adoxq	%rax, \w1
	mulxq	16(%rsi), %rax, %rbx
	adcxq	%rbp, %rax
	adoxq	%rax, \w2
	mulxq	24(%rsi), %rax, %rbp
	adcxq	%rbx, %rax
	adoxq	%rax, \w3
	mulxq	32(%rsi), %rax, %rbx
	adcxq	%rbp, %rax
	adoxq	%rax, \w4
	mulxq	40(%rsi), %rax, %rbp
	adcxq	%rbx, %rax
	adoxq	%rax, \w5
	mulxq	48(%rsi), %rax, %rbx
	adcxq	%rbp, %rax
	adoxq	%rax, \w6
.ifnb \store
	movq	\w0, \store
.endif
	mulxq	56(%rsi), %rax, \w0
	adcxq	%rbx, %rax
	adoxq	%rax, \w7
	adcxq	ZERO, \w0
	adoxq	ZERO, \w0
.endm

/* First chunk, row i: q_i from the lowest window word, kept in Q(i). */
.macro ROWQ i, w0, w1, w2, w3, w4, w5, w6, w7
	movq	\w0, %rdx
	imulq	MINV, %rdx
	movq	%rdx, Q(\i)
	ROW	\w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
.endm

/* Later chunks, row i: q_i from Q(i); the final word to tb[8c+i]. */
.macro ROWS i, w0, w1, w2, w3, w4, w5, w6, w7
	movq	Q(\i), %rdx
	ROW	\w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, (8*\i)(%rdi)
.endm

/* r8..r15 += (%rdi)[0..8) with CF in and out */
.macro ADD_MEM8
	adcq	0(%rdi), %r8
	adcq	8(%rdi), %r9
	adcq	16(%rdi), %r10
	adcq	24(%rdi), %r11
	adcq	32(%rdi), %r12
	adcq	40(%rdi), %r13
	adcq	48(%rdi), %r14
	adcq	56(%rdi), %r15
.endm

	.text
	.globl	hwc_mpi_adx_redc8
	.hidden	hwc_mpi_adx_redc8
	.type	hwc_mpi_adx_redc8, @function
	.p2align 5
hwc_mpi_adx_redc8:
	.cfi_startproc
	endbr64
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbx, 0
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbp, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r15, 0
	subq	$136, %rsp
	.cfi_adjust_cfa_offset 136

	movq	%rcx, MINV
	shlq	$6, %rdx		/* 8n bytes */
	leaq	(%rdi,%rdx), %rax
	movq	%rax, TEND
	leaq	(%rsi,%rdx), %rax
	movq	%rax, MEND
	leaq	-64(%rdx), %rax
	movq	%rax, BACK
	leaq	(%rdi,%rdx,2), %rax
	movq	%rax, TTOP
	movq	%rsi, MBASE
	movq	$0, ZERO
	movq	$0, TOPC

1:	/* block: chunk 0 */
	xorl	%ecx, %ecx		/* cin = 0 */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movq	24(%rdi), %r11
	movq	32(%rdi), %r12
	movq	40(%rdi), %r13
	movq	48(%rdi), %r14
	movq	56(%rdi), %r15
	ROWQ	0, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
	ROWQ	1, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r8
	ROWQ	2, %r10, %r11, %r12, %r13, %r14, %r15, %r8, %r9
	ROWQ	3, %r11, %r12, %r13, %r14, %r15, %r8, %r9, %r10
	ROWQ	4, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
	ROWQ	5, %r13, %r14, %r15, %r8, %r9, %r10, %r11, %r12
	ROWQ	6, %r14, %r15, %r8, %r9, %r10, %r11, %r12, %r13
	ROWQ	7, %r15, %r8, %r9, %r10, %r11, %r12, %r13, %r14
	addq	$64, %rsi
	addq	$64, %rdi
	cmpq	MEND, %rsi
	je	3f

2:	/* chunk c >= 1 */
	movq	%rcx, %rbx
	negq	%rbx			/* CF = cin */
	ADD_MEM8
	setc	%cl
	ROWS	0, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
	ROWS	1, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r8
	ROWS	2, %r10, %r11, %r12, %r13, %r14, %r15, %r8, %r9
	ROWS	3, %r11, %r12, %r13, %r14, %r15, %r8, %r9, %r10
	ROWS	4, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
	ROWS	5, %r13, %r14, %r15, %r8, %r9, %r10, %r11, %r12
	ROWS	6, %r14, %r15, %r8, %r9, %r10, %r11, %r12, %r13
	ROWS	7, %r15, %r8, %r9, %r10, %r11, %r12, %r13, %r14
	addq	$64, %rsi
	addq	$64, %rdi
	cmpq	MEND, %rsi
	jne	2b

3:	/* last: window += tb[n..n+8) + cin (CF chain) + topc (OF chain) */
	xorl	%ebp, %ebp		/* zero; CF = OF = 0 */
	movq	$-1, %rbx
	adcxq	%rcx, %rbx		/* CF = cin, OF still 0 */
	movq	TOPC, %rax
	adcxq	0(%rdi), %r8
	adoxq	%rax, %r8
	adcxq	8(%rdi), %r9
	adoxq	%rbp, %r9
	adcxq	16(%rdi), %r10
	adoxq	%rbp, %r10
	adcxq	24(%rdi), %r11
	adoxq	%rbp, %r11
	adcxq	32(%rdi), %r12
	adoxq	%rbp, %r12
	adcxq	40(%rdi), %r13
	adoxq	%rbp, %r13
	adcxq	48(%rdi), %r14
	adoxq	%rbp, %r14
	adcxq	56(%rdi), %r15
	adoxq	%rbp, %r15
	movq	%r8, 0(%rdi)
	movq	%r9, 8(%rdi)
	movq	%r10, 16(%rdi)
	movq	%r11, 24(%rdi)
	movq	%r12, 32(%rdi)
	movq	%r13, 40(%rdi)
	movq	%r14, 48(%rdi)
	movq	%r15, 56(%rdi)
	movl	$0, %eax
	adcxq	%rbp, %rax
	adoxq	%rbp, %rax
	movq	%rax, TOPC
	subq	BACK, %rdi		/* next block: tb + 8 */
	movq	MBASE, %rsi
	cmpq	TEND, %rdi
	jne	1b

	movq	TTOP, %rbx
	movq	%rax, (%rbx)		/* t[2n] = topc */
	addq	$136, %rsp
	.cfi_adjust_cfa_offset -136
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore r12
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbx
	ret
	.cfi_endproc
	.size	hwc_mpi_adx_redc8, .-hwc_mpi_adx_redc8

	.section .note.GNU-stack, "", @progbits
