/* adx mpi kernel: products and Montgomery reduction 8 rows at a time, the
 * running window in registers (x86-64 BMI2 MULX, ADX ADCX/ADOX). SysV ABI.
 *
 *   hwc_mpi_adx_redc8(t, m, n8, minv)  t[n..2n] = (T + Q m) / 2^(64n) < 2m for
 *                                      T = t[0..2n) < m 2^(64n) (t[2n] the top
 *                                      word, 0 or 1; t[0..n) garbage)
 *   hwc_mpi_adx_sqr8(t, a, n8)         t[0..2n) = cross products of a (zero in)
 *   hwc_mpi_adx_mul8(t, a, b, n8)      t[0..2n) = a * b (zero in)
 *
 * n = 8 n8 limbs. Separated operand scanning (Koc, Acar, Kaliski,
 * "Analyzing and comparing Montgomery multiplication algorithms", 1996)
 * with the rows taken 8 at a time: the blocking of OpenSSL's published
 * mulx4x/sqrx8x code, written here from the description below.
 *
 *   block (8 rows, multipliers q_0..q_7 kept on the stack), base tb:
 *     first chunk: r8..r15 = the 8 words at the window; row i adds
 *              q_i * (8 limbs of the multiplicand) at its place; the lowest
 *              word is final and leaves the window, the row's top word
 *              enters it (register names rotate; the 8 rows are unrolled).
 *              redc8: q_i = lowest word * minv (that word becomes zero).
 *              sqr8: the diagonal chunk, row i times a_{8b+i+1..8b+8) only.
 *     chunk c: window += the next 8 memory words + cin (carry chain, carry
 *              out kept in cin for the next chunk); the 8 rows again, each
 *              storing its final word.
 *     last:    window += the memory words above + cin + topc; stored; topc =
 *              the carry out, which lands on the first of those words for
 *              the next block (the top word t[2n] after the last block).
 *
 * A row is the muladd of impl/x86/mpi_adx.c on registers: per limb MULX,
 * ADCX adds the previous high half to the low half (CF chain), ADOX adds the
 * low half into the window word (OF chain); the row's top word is
 * hi7 + CF + OF (window + q * 8 limbs < 2^576: no overflow). The eight rows
 * of a chunk depend on each other only through the window, so their chains
 * overlap in the out-of-order window (docs/mpi-squaring.md).
 *
 * Constant time: no branch or memory index depends on data; the loops run
 * on n only. The frame's copies of operand limbs, quotients and carry are
 * cleared before return. Registers: rax rbx rcx rdx rsi rdi rbp r8-r15;
 * rbx, rbp, r12-r15 saved and restored (CFI kept exact). 136-byte stack
 * frame: */
#define Q(i)   (8*(i))(%rsp)   /* 0..56: the block's multipliers */
#define MINV   64(%rsp)        /* redc8: minv */
#define BEND   64(%rsp)        /* mul8: b + n */
#define TOPC   80(%rsp)        /* carry out of the last step */
#define BACK   88(%rsp)        /* redc8: 8n - 64 bytes */
#define DIAG   88(%rsp)        /* sqr8: t + 16b */
#define TB     88(%rsp)        /* mul8: t + 8k */
#define MBASE  96(%rsp)        /* redc8: m */
#define ABLK   96(%rsp)        /* sqr8: a + 8b */
#define ABASE  96(%rsp)        /* mul8: a */
#define TEND   104(%rsp)       /* redc8: t + n */
#define BBLK   104(%rsp)       /* mul8: b + 8k */
#define ZERO   112(%rsp)       /* 0 */
#define END    120(%rsp)       /* the multiplicand's end: m + n, a + n */
#define TTOP   128(%rsp)       /* &t[2n] */

/* One limb of a row: window word w += low half of rdx * (%rsi)[j] (OF
   chain) plus the previous limb's high half hp (CF chain, none at the row's
   first limb); the high half to h. Nothing for j < start. */
.macro STEP j, start, w, h, hp
.if \j >= \start
	mulxq	(8*\j)(%rsi), %rax, \h
.if \j > \start
	adcxq	\hp, %rax
.endif
	adoxq	%rax, \w
.endif
.endm

/* Window words w0..w7 (w0 lowest) += rdx * (%rsi)[start..8) at their
   places; the top word ends in w0's register. STORE: where w0 goes before
   its register is reused (nothing in the reduction's first chunk, where w0
   is zero). START: the first limb, 0 but in the square's diagonal chunk
   (8: no limb, the top word is 0). */
.macro ROW w0, w1, w2, w3, w4, w5, w6, w7, store=, start=0
	xorl	%eax, %eax		/* CF = OF = 0 */
	STEP	0, \start, \w0, %rbx
	STEP	1, \start, \w1, %rbp, %rbx
	STEP	2, \start, \w2, %rbx, %rbp
	STEP	3, \start, \w3, %rbp, %rbx
	STEP	4, \start, \w4, %rbx, %rbp
	STEP	5, \start, \w5, %rbp, %rbx
	STEP	6, \start, \w6, %rbx, %rbp
.ifnb \store
	movq	\w0, \store
.endif
.if \start < 8
	STEP	7, \start, \w7, \w0, %rbx
	adcxq	ZERO, \w0
	adoxq	ZERO, \w0
.else
	movq	$0, \w0
.endif
.endm

/* The 8 rows of a chunk, register names rotating: row i's window starts
   at r(8+i mod 8). RM is the row macro, called as RM i, w0, ..., w7. */
.macro ROWS8 RM
	\RM	0, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
	\RM	1, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r8
	\RM	2, %r10, %r11, %r12, %r13, %r14, %r15, %r8, %r9
	\RM	3, %r11, %r12, %r13, %r14, %r15, %r8, %r9, %r10
	\RM	4, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
	\RM	5, %r13, %r14, %r15, %r8, %r9, %r10, %r11, %r12
	\RM	6, %r14, %r15, %r8, %r9, %r10, %r11, %r12, %r13
	\RM	7, %r15, %r8, %r9, %r10, %r11, %r12, %r13, %r14
.endm

/* Reduction, first chunk, row i: q_i from the lowest window word, kept in
   Q(i). */
.macro ROW_REDC0 i, w0, w1, w2, w3, w4, w5, w6, w7
	movq	\w0, %rdx
	imulq	MINV, %rdx
	movq	%rdx, Q(\i)
	ROW	\w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7
.endm

/* Square, the diagonal chunk, row i: multiplier a_i = (%rsi)[i] (kept in
   Q(i)) times (%rsi)[i+1..8); the final word to (%rdi)[i]. */
.macro ROW_DIAG i, w0, w1, w2, w3, w4, w5, w6, w7
	movq	(8*\i)(%rsi), %rdx
	movq	%rdx, Q(\i)
	ROW	\w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, (8*\i)(%rdi), \i+1
.endm

/* Later chunks, row i: multiplier Q(i); the final word to (%rdi)[i]. */
.macro ROW_CHUNK i, w0, w1, w2, w3, w4, w5, w6, w7
	movq	Q(\i), %rdx
	ROW	\w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, (8*\i)(%rdi)
.endm

/* M off, reg, x for the 8 window registers: reg = r8..r15 with its word
   at off(%rdi); x = %rax for the lowest, %rbp for the others (the last
   step's OF-chain addends: topc, then zero). */
.macro EACH8 M
	\M	0, %r8, %rax
	\M	8, %r9, %rbp
	\M	16, %r10, %rbp
	\M	24, %r11, %rbp
	\M	32, %r12, %rbp
	\M	40, %r13, %rbp
	\M	48, %r14, %rbp
	\M	56, %r15, %rbp
.endm
.macro LOADW off, r, x
	movq	\off(%rdi), \r
.endm
.macro ADDW off, r, x			/* CF chain */
	adcq	\off(%rdi), \r
.endm
.macro LASTW off, r, x			/* CF: memory word, OF: x */
	adcxq	\off(%rdi), \r
	adoxq	\x, \r
.endm
.macro STOREW off, r, x
	movq	\r, \off(%rdi)
.endm

/* The rest of a block after its first chunk (%rsi, %rdi moved past it,
   cin = ecx = 0): the chunks up to %rsi == END, then the last step; leaves
   topc in rax and TOPC, %rdi at the last step's words. */
.macro CHUNKS_LAST
	cmpq	END, %rsi
	je	3f
2:	movq	%rcx, %rbx
	negq	%rbx			/* CF = cin */
	EACH8	ADDW
	setc	%cl
	ROWS8	ROW_CHUNK
	addq	$64, %rsi
	addq	$64, %rdi
	cmpq	END, %rsi
	jne	2b
3:	/* window += (%rdi)[0..8) + cin (CF chain) + topc (OF chain) */
	xorl	%ebp, %ebp		/* zero; CF = OF = 0 */
	movq	$-1, %rbx
	adcxq	%rcx, %rbx		/* CF = cin, OF still 0 */
	movq	TOPC, %rax
	EACH8	LASTW
	EACH8	STOREW
	movl	$0, %eax
	adcxq	%rbp, %rax
	adoxq	%rbp, %rax
	movq	%rax, TOPC
.endm

/* One block from its window at %rdi (8 words loaded), multiplicand at
   %rsi: the first chunk with row macro RM, then CHUNKS_LAST. */
.macro BLOCK RM
	xorl	%ecx, %ecx		/* cin = 0 */
	EACH8	LOADW
	ROWS8	\RM
	addq	$64, %rsi
	addq	$64, %rdi
	CHUNKS_LAST
.endm

/* Save rbx, rbp, r12-r15 and open the 136-byte frame (CFI kept exact). */
.macro ENTER name
	.text
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 5
\name:
	.cfi_startproc
	endbr64
.irp r, rbx, rbp, r12, r13, r14, r15
	pushq	%\r
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset \r, 0
.endr
	subq	$136, %rsp
	.cfi_adjust_cfa_offset 136
	movq	$0, ZERO
	movq	$0, TOPC
.endm

/* N = n8 becomes 8n bytes; END = %rsi + 8n, TTOP = %rdi + 16n. */
.macro SIZES N
	shlq	$6, \N
	leaq	(%rsi,\N), %rax
	movq	%rax, END
	leaq	(%rdi,\N,2), %rax
	movq	%rax, TTOP
.endm

/* t[2n] = topc (rax); the multipliers and the carry, which derive from
   the operands, cleared from the frame; restore, return. */
.macro LEAVE name
	movq	TTOP, %rbx
	movq	%rax, (%rbx)		/* t[2n] = topc (zero for sqr8, mul8) */
	xorl	%eax, %eax
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	movq	%rax, Q(\i)
.endr
	movq	%rax, TOPC
	addq	$136, %rsp
	.cfi_adjust_cfa_offset -136
.irp r, r15, r14, r13, r12, rbp, rbx
	popq	%\r
	.cfi_adjust_cfa_offset -8
	.cfi_restore \r
.endr
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

/* void hwc_mpi_adx_redc8(hwc_limb *t, const hwc_limb *m, size_t n8, hwc_limb minv) */
	ENTER	hwc_mpi_adx_redc8
	movq	%rcx, MINV
	SIZES	%rdx
	leaq	(%rdi,%rdx), %rax
	movq	%rax, TEND
	leaq	-64(%rdx), %rax
	movq	%rax, BACK
	movq	%rsi, MBASE
1:	BLOCK	ROW_REDC0
	subq	BACK, %rdi		/* next block: tb + 8 */
	movq	MBASE, %rsi
	cmpq	TEND, %rdi
	jne	1b
	LEAVE	hwc_mpi_adx_redc8

/* void hwc_mpi_adx_sqr8(hwc_limb *t, const hwc_limb *a, size_t n8): t[0..2n)
   (zero on entry) = the cross products sum_{i<j} a_i a_j 2^(64(i+j)), n = 8 n8,
   t[2n] = 0. Block b: rows a_{8b..8b+8), the diagonal chunk (row i times
   a_{8b+i+1..8b+8), window at t + 16b) then chunks c > b of the
   reduction's shape (window at t + 8b + 8c). */
	ENTER	hwc_mpi_adx_sqr8
	SIZES	%rdx
	movq	%rdi, DIAG
	movq	%rsi, ABLK
1:	BLOCK	ROW_DIAG
	movq	DIAG, %rdi		/* next block */
	addq	$128, %rdi
	movq	%rdi, DIAG
	movq	ABLK, %rsi
	addq	$64, %rsi
	movq	%rsi, ABLK
	cmpq	END, %rsi
	jne	1b
	LEAVE	hwc_mpi_adx_sqr8

/* void hwc_mpi_adx_mul8(hwc_limb *t, const hwc_limb *a, const hwc_limb *b, size_t n8):
   t[0..2n) (zero on entry) = a * b, n = 8 n8; t[2n] = 0. Block k: rows
   b_{8k..8k+8), window at t + 8k + 8c for chunk c of a; the first chunk
   loads its window, the others add theirs (the reduction's shape). */
	ENTER	hwc_mpi_adx_mul8
	SIZES	%rcx
	leaq	(%rdx,%rcx), %rax
	movq	%rax, BEND
	movq	%rdi, TB
	movq	%rsi, ABASE
	movq	%rdx, BBLK
1:	movq	BBLK, %rax		/* Q(0..8) = b_{8k..8k+8) */
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	movq	(8*\i)(%rax), %rbx
	movq	%rbx, Q(\i)
.endr
	movq	TB, %rdi
	movq	ABASE, %rsi
	BLOCK	ROW_CHUNK
	addq	$64, TB			/* next block */
	movq	BBLK, %rbx
	addq	$64, %rbx
	movq	%rbx, BBLK
	cmpq	BEND, %rbx
	jne	1b
	LEAVE	hwc_mpi_adx_mul8

#if defined(__CET__)
/* GNU property note when the C code is built with -fcf-protection: these
   functions start with ENDBR64 (IBT) and return normally (shadow stack). */
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.long	4			/* name size */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	(__CET__ & 3)		/* IBT, SHSTK */
	.long	0
	.popsection
#endif

	.section .note.GNU-stack, "", @progbits
