/* mpi kernel "adx": x86-64 BMI2 MULX + ADX ADCX/ADOX.
 *
 * muladd: d += s*b with two independent carry chains per limb (Intel white
 * paper "New Instructions Supporting Large Integer Arithmetic on Intel
 * Architecture Processors", 2012): ADCX (CF) adds the previous high half to
 * the low half, ADOX (OF) adds d[i]. Rows of 8, 16 and 32 limbs run
 * straight-line, rows of 32k limbs a 32-limb loop, other rows of 8k limbs a
 * 16-limb loop, each storing a pair of limbs after the next pair is
 * computed; n % 8 != 0 takes an 8-limb loop entered part-way through a jump
 * table (the pair rows swap the two chains: CF adds d[i]). Loop control
 * uses LEA/JRCXZ, which leave CF and OF alone (docs/mpi-muladd.md has the
 * figures).
 *
 * montmul / montsqr: Montgomery multiplication and squaring, separated
 * operand scanning (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
 * multiplication algorithms", 1996): the product (the square: cross
 * products once, doubled, plus the diagonal), then the reduction. For
 * n % 8 == 0 both halves run 8 rows at a time with the running window in
 * registers (impl/x86/mpi_adx_rows8.S; docs/mpi-squaring.md); other sizes
 * take row-by-row loops built on the muladd row (coarsely integrated for
 * the product). Constant time: no branch or index on the values; final
 * subtraction by mask. */
#include <string.h>
#include <x86intrin.h>
#include "internal/kernel.h"
#include "impl/x86/mpi_adx.h"
#include "core/mpi_internal.h"

/* One MULX/ADCX/ADOX step: limb K, previous high half in register PH, this
   limb's high half into NH. */
#define ADX_STEP(K, PH, NH)                                  \
    "mulxq " #K "*8(%[s]), %[lo], %[" NH "]\n\t"            \
    "adcxq %[" PH "], %[lo]\n\t"                             \
    "adoxq " #K "*8(%[d]), %[lo]\n\t"                        \
    "movq %[lo], " #K "*8(%[d])\n\t"

/* d[0..L) += s[0..L) * rdx for a row whose step count rcx = ceil(L/8) and
   entry step k = (-L) & 7 are set: pointers moved back k limbs, the jump
   table (ADX_JUMP_TABLE, label 90) enters the 8-step loop part-way (Duff's
   device); ends at label 88 with the high half in hi and CF/OF pending.
   Shared by muladd and the squaring's triangle. */
#define ADX_ROW_8X                                                         \
    "leaq (,%[k],8), %[x]\n\t"                                            \
    "subq %[x], %[s]\n\t"                                                 \
    "subq %[x], %[d]\n\t"                                                 \
    "leaq 90f(%%rip), %[x]\n\t"                                           \
    "movslq (%[x],%[k],4), %[k]\n\t"                                      \
    "addq %[x], %[k]\n\t"                                                 \
    "xorl %k[hi], %k[hi]\n\t"                                             \
    "xorl %k[h1], %k[h1]\n\t"                                             \
    "xorl %k[h2], %k[h2]\n\t" /* CF = OF = 0 */                           \
    "jmp *%[k]\n"                                                         \
    ".p2align 5\n" /* the loop from a 32-byte boundary: its speed must not   \
                      depend on where the linker puts it; padding never runs */ \
    "80:\n\t" ADX_STEP(0, "hi", "h1")                                      \
    "81:\n\t" ADX_STEP(1, "h1", "h2")                                      \
    "82:\n\t" ADX_STEP(2, "h2", "h1")                                      \
    "83:\n\t" ADX_STEP(3, "h1", "h2")                                      \
    "84:\n\t" ADX_STEP(4, "h2", "h1")                                      \
    "85:\n\t" ADX_STEP(5, "h1", "h2")                                      \
    "86:\n\t" ADX_STEP(6, "h2", "h1")                                      \
    "87:\n\t" ADX_STEP(7, "h1", "hi")                                      \
    "leaq 64(%[s]), %[s]\n\t"                                             \
    "leaq 64(%[d]), %[d]\n\t"                                             \
    "leaq -1(%%rcx), %%rcx\n\t"                                           \
    "jrcxz 88f\n\t"                                                       \
    "jmp 80b\n"                                                           \
    "88:\n\t"

#define ADX_JUMP_TABLE                                                     \
    ".p2align 2\n"                                                        \
    "90:\n\t"                                                             \
    ".long 80b-90b, 81b-90b, 82b-90b, 83b-90b, 84b-90b, 85b-90b, 86b-90b, 87b-90b\n"

/* The 8-limb loop over s = %[s], d = %[d], %%rcx blocks, rdx the multiplier,
   CF = OF = 0 and %[hi] = 0 on entry; leaves the carry limb in %[hi] and
   %[d] at the end of the row. */
#define ADX_LOOP8(L)                                                              \
    #L ":\n\t"                                                                    \
    ADX_STEP(0, "hi", "h1") ADX_STEP(1, "h1", "h2") ADX_STEP(2, "h2", "h1")       \
    ADX_STEP(3, "h1", "h2") ADX_STEP(4, "h2", "h1") ADX_STEP(5, "h1", "h2")       \
    ADX_STEP(6, "h2", "h1") ADX_STEP(7, "h1", "hi")                               \
    "leaq 64(%[s]), %[s]\n\t"                                                     \
    "leaq 64(%[d]), %[d]\n\t"                                                     \
    "leaq -1(%%rcx), %%rcx\n\t"                                                   \
    "jrcxz " #L "f\n\t"                                                           \
    "jmp " #L "b\n"                                                               \
    #L ":\n\t"                                                                    \
    "movl $0, %k[lo]\n\t"                                                         \
    "adcxq %[lo], %[hi]\n\t"                                                      \
    "adoxq %[lo], %[hi]\n\t"


/* d[0..n) += s[0..n) * b for n % 8 != 0: the loop entered part-way through
   the jump table. */
static inline __attribute__((always_inline)) hwc_limb addmul_any(hwc_limb *d, const hwc_limb *s,
                                                                 size_t n, hwc_limb b) {
    hwc_limb hi, lo, h1, h2, x, k;
    size_t c;
    /* n % 8 handled by entering the 8-limb loop at step (-n) & 7 through a
       jump table (Duff's device); the pointers start that many limbs early
       (never dereferenced there). JMP and JRCXZ read no flag. */
    __asm__ volatile(
        "movq %%rcx, %[k]\n\t"
        "negq %[k]\n\t"
        "andq $7, %[k]\n\t"             /* entry step */
        "addq $7, %%rcx\n\t"
        "shrq $3, %%rcx\n\t"            /* ceil(n / 8) passes */
        ADX_ROW_8X
 /* carry out = hi + CF + OF (cannot overflow) */
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[hi]\n\t"
        "adoxq %[lo], %[hi]\n\t"
        "jmp 99f\n\t"
        ADX_JUMP_TABLE

        "99:\n\t"
        : [hi] "=&r"(hi), [lo] "=&r"(lo), [h1] "=&r"(h1), [h2] "=&r"(h2), [x] "=&r"(x),
          [k] "=&r"(k), [d] "+r"(d), [s] "+r"(s), "=c"(c)
        : "d"(b), "8"(n)
        : "cc", "memory");
    (void)c;
    return hi;
}

/* d[0..8*n8) += s * b, n8 >= 1: the 8-limb loop entered at its top, from a
   32-byte boundary (the NOPs before it run once per call). No jump table:
   its address arithmetic and indirect jump cost about 4 cycles a call. */
static inline __attribute__((always_inline)) hwc_limb addmul8(hwc_limb *d, const hwc_limb *s,
                                                              size_t n8, hwc_limb b) {
    hwc_limb hi, lo, h1, h2;
    __asm__ volatile(
        "xorl %k[hi], %k[hi]\n" /* CF = OF = 0 */
        ".p2align 5\n\t"
        ADX_LOOP8(1)
        : [hi] "=&r"(hi), [lo] "=&r"(lo), [h1] "=&r"(h1), [h2] "=&r"(h2), [d] "+r"(d),
          [s] "+r"(s), "+c"(n8)
        : "d"(b)
        : "cc", "memory");
    return hi;
}

/* d[0..n) += s[0..n) * b, returns the carry limb; n >= 1 (a public size:
   the branch reveals only n % 8). */
static inline __attribute__((always_inline)) hwc_limb addmul(hwc_limb *d, const hwc_limb *s,
                                                             size_t n, hwc_limb b) {
    if ((n & 7) == 0) return addmul8(d, s, n / 8, b);
    return addmul_any(d, s, n, b);
}

/* t[0..2n) = 2*t + diagonal a[i]^2: the doubling runs on CF (ADCX x, x),
   the diagonal on OF (ADOX). t < a^2 / 2, so no carry leaves the top. */
static inline void double_add_diag(hwc_limb *t, const hwc_limb *a, size_t n) {
    hwc_limb lo, hi, x0, x1, ad;
    size_t c;
    __asm__ volatile(
        "xorl %k[lo], %k[lo]\n"
        "1:\n\t"
        "movq (%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq (%[t]), %[x0]\n\t"
        "movq 8(%[t]), %[x1]\n\t"
        "adcxq %[x0], %[x0]\n\t"
        "adcxq %[x1], %[x1]\n\t"
        "adoxq %[lo], %[x0]\n\t"
        "adoxq %[hi], %[x1]\n\t"
        "movq %[x0], (%[t])\n\t"
        "movq %[x1], 8(%[t])\n\t"
        "leaq 8(%[a]), %[a]\n\t"
        "leaq 16(%[t]), %[t]\n\t"
        "leaq -1(%%rcx), %%rcx\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n"
        "2:\n\t"
        : [lo] "=&r"(lo), [hi] "=&r"(hi), [x0] "=&r"(x0), [x1] "=&r"(x1), "=&d"(ad), [t] "+r"(t),
          [a] "+r"(a), "=c"(c)
        : "7"(n)
        : "cc", "memory");
    (void)c;
    (void)ad;
}

/* Rows of 8, 16 and 32 limbs (docs/mpi-muladd.md, "Stores after the next
   pair"): per limb MULX, ADCX (CF) adds d[K], ADOX (OF) adds the previous
   high half; the sums of two limbs stay in registers while the next pair is
   computed, then are stored. Limb K's sum goes to register LO; the previous
   high half is in h1 for even K, h0 for odd K. */
#define MA_LIMB(K, LO, PH, NH)                              \
    "mulxq 8*" #K "(%[s]), %[" LO "], %[" NH "]\n\t"       \
    "adcxq 8*" #K "(%[d]), %[" LO "]\n\t"                  \
    "adoxq %[" PH "], %[" LO "]\n\t"
#define MA_PAIR(K0, K1, LA, LB) MA_LIMB(K0, LA, "h1", "h0") MA_LIMB(K1, LB, "h0", "h1")
#define MA_STORE(K0, K1, LA, LB)                            \
    "movq %[" LA "], 8*" #K0 "(%[d])\n\t"                  \
    "movq %[" LB "], 8*" #K1 "(%[d])\n\t"
/* Limbs K0..K3, then the store of the pair P0, P1 before them. */
#define MA_QUAD(P0, P1, K0, K1, K2, K3)                     \
    MA_PAIR(K0, K1, "l0", "l1") MA_STORE(P0, P1, "l2", "l3") \
    MA_PAIR(K2, K3, "l2", "l3") MA_STORE(K0, K1, "l0", "l1")
/* Limbs 0..7, 0..15, 0..31 of the row at d, s (CF = OF = 0, h1 = 0 on
   entry); the last two are left in l2, l3 for MA_LAST. */
#define MA_ROW8                                             \
    MA_PAIR(0, 1, "l0", "l1") MA_PAIR(2, 3, "l2", "l3")       \
    MA_STORE(0, 1, "l0", "l1") MA_QUAD(2, 3, 4, 5, 6, 7)
#define MA_ROW16 MA_ROW8 MA_QUAD(6, 7, 8, 9, 10, 11) MA_QUAD(10, 11, 12, 13, 14, 15)
#define MA_ROW32                                                                   \
    MA_ROW16 MA_QUAD(14, 15, 16, 17, 18, 19) MA_QUAD(18, 19, 20, 21, 22, 23)        \
    MA_QUAD(22, 23, 24, 25, 26, 27) MA_QUAD(26, 27, 28, 29, 30, 31)
#define MA_LAST(K0, K1) MA_STORE(K0, K1, "l2", "l3")
/* carry out = h1 + CF + OF (cannot overflow) */
#define MA_CARRY                                            \
    "movl $0, %k[l0]\n\t"                                   \
    "adcxq %[l0], %[h1]\n\t"                                \
    "adoxq %[l0], %[h1]\n\t"
#define MA_OUTPUTS                                                                 \
    [l0] "=&r"(l0), [l1] "=&r"(l1), [l2] "=&r"(l2), [l3] "=&r"(l3), [h0] "=&r"(h0), \
        [h1] "=&r"(h1)

/* d[0..L) += s * b for a fixed L of 8, 16 or 32, straight-line (no loop
   control): function NAME runs ROW, then stores limbs K0, K1. */
#define MA_STRAIGHT(NAME, ROW, K0, K1)                                                      \
    static inline __attribute__((always_inline)) hwc_limb NAME(hwc_limb *d, const hwc_limb *s, \
                                                               hwc_limb b) {                \
        hwc_limb l0, l1, l2, l3, h0, h1;                                                    \
        __asm__ volatile("xorl %k[h1], %k[h1]\n\t" /* CF = OF = 0 */                       \
                         ROW MA_LAST(K0, K1) MA_CARRY                                       \
                         : MA_OUTPUTS                                                       \
                         : [d] "r"(d), [s] "r"(s), "d"(b)                                   \
                         : "cc", "memory");                                                 \
        return h1;                                                                          \
    }
MA_STRAIGHT(addmul_row8, MA_ROW8, 6, 7)
MA_STRAIGHT(addmul_row16, MA_ROW16, 14, 15)
MA_STRAIGHT(addmul_row32, MA_ROW32, 30, 31)

/* End of a loop pass of BYTES bytes (loop top at label 1): next pass or,
   when %rcx reaches 0, the carry out. LEA and JRCXZ leave CF and OF alone. */
#define MA_NEXT_PASS(BYTES)                                 \
    "leaq " #BYTES "(%[s]), %[s]\n\t"                       \
    "leaq " #BYTES "(%[d]), %[d]\n\t"                       \
    "leaq -1(%%rcx), %%rcx\n\t"                             \
    "jrcxz 2f\n\t"                                          \
    "jmp 1b\n"                                               \
    "2:\n\t" MA_CARRY
/* The loops' operands: N passes in %rcx, pointers advanced. */
#define MA_LOOP_OPERANDS(N) \
    : MA_OUTPUTS, [d] "+r"(d), [s] "+r"(s), "+c"(N) : "d"(b) : "cc", "memory"

/* d[0..32*n32) += s * b, n32 >= 1: 32 limbs per pass, LEA/JRCXZ loop
   control (CF and OF untouched). Not inlined: it needs a callee-saved
   register, which the other rows would then save too. */
static __attribute__((noinline)) hwc_limb addmul_rows32(hwc_limb *d, const hwc_limb *s, size_t n32,
                                                        hwc_limb b) {
    hwc_limb l0, l1, l2, l3, h0, h1;
    __asm__ volatile("xorl %k[h1], %k[h1]\n" /* CF = OF = 0 */
                     ".p2align 5\n"
                     "1:\n\t" MA_ROW32 MA_LAST(30, 31)
                     MA_NEXT_PASS(256)
                     MA_LOOP_OPERANDS(n32));
    return h1;
}

/* d[0..8*n8) += s * b, n8 >= 2: 16 limbs per pass, after one 8-limb row
   when n8 is odd (which falls into the loop). Out of line like the above. */
static __attribute__((noinline)) hwc_limb addmul_rows16(hwc_limb *d, const hwc_limb *s, size_t n8,
                                                        hwc_limb b) {
    hwc_limb l0, l1, l2, l3, h0, h1;
    __asm__ volatile("shrq $1, %%rcx\n\t" /* passes; CF = n8 odd */
                     "jc 3f\n\t"
                     "xorl %k[h1], %k[h1]\n\t" /* CF = OF = 0 */
                     "jmp 1f\n"
                     "3:\n\t"
                     "xorl %k[h1], %k[h1]\n\t" /* CF = OF = 0 */
                     MA_ROW8 MA_LAST(6, 7)
                     "leaq 64(%[s]), %[s]\n\t"
                     "leaq 64(%[d]), %[d]\n"
                     ".p2align 5\n"
                     "1:\n\t" MA_ROW16 MA_LAST(14, 15)
                     MA_NEXT_PASS(128)
                     MA_LOOP_OPERANDS(n8));
    return h1;
}

/* n % 8 != 0, out of line for the same reason. */
static __attribute__((noinline)) hwc_limb addmul_rows_any(hwc_limb *d, const hwc_limb *s, size_t n,
                                                          hwc_limb b) {
    return addmul_any(d, s, n, b);
}

/* The public row: branches on the public size only. */
hwc_limb hwc_mpi_adx_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    if ((n & 7) != 0) return addmul_rows_any(d, s, n, b);
    if (n == 32) return addmul_row32(d, s, b);
    if (n == 8) return addmul_row8(d, s, b);
    if (n == 16) return addmul_row16(d, s, b);
    if ((n & 31) == 0) return addmul_rows32(d, s, n / 32, b);
    return addmul_rows16(d, s, n / 8, b);
}

/* Cross products of a square, one asm loop over the rows (n >= 2): row i
   adds a[i] * a[i+1..n) into t[2i+1..i+n) and stores its carry in t[i+n].
   A row of L limbs enters the 8-limb loop at step (-L) & 7 through a jump
   table (Duff's device), so there is no separate remainder code; the entry
   depends only on n. t[1..n] must be zero. */
static void triangle(hwc_limb *t, const hwc_limb *a, size_t n) {
    hwc_limb lo, hi, h1, h2, x, k, *d, *tp = t + 1;
    const hwc_limb *s, *ap = a;
    size_t c, len = n - 1;
    __asm__ volatile(
        "70:\n\t"
        "movq (%[ap]), %%rdx\n\t"
        "movq %[len], %%rcx\n\t"
        "movq %%rcx, %[k]\n\t"
        "negq %[k]\n\t"
        "andq $7, %[k]\n\t"             /* entry step */
        "addq $7, %%rcx\n\t"
        "shrq $3, %%rcx\n\t"            /* ceil(L / 8) passes */
        "leaq 8(%[ap]), %[s]\n\t"
        "movq %[tp], %[d]\n\t"
        ADX_ROW_8X

        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[hi]\n\t"
        "adoxq %[lo], %[hi]\n\t"
        "movq %[hi], (%[d])\n\t"        /* t[i+n] = carry */
        "leaq 8(%[ap]), %[ap]\n\t"
        "leaq 16(%[tp]), %[tp]\n\t"
        "decq %[len]\n\t"
        "jnz 70b\n\t"
        "jmp 99f\n\t"
        ADX_JUMP_TABLE

        "99:\n\t"
        : [lo] "=&r"(lo), [hi] "=&r"(hi), [h1] "=&r"(h1), [h2] "=&r"(h2), [x] "=&r"(x),
          [k] "=&r"(k), [d] "=&r"(d), [s] "=&r"(s), [ap] "+r"(ap), [tp] "+r"(tp),
          [len] "+rm"(len), "=&c"(c)
        :
        : "rdx", "cc", "memory");
    (void)c;
}

/* t[0..2n) = a^2: cross products a[i]*a[j] (i < j) once, doubled, plus the
   diagonal a[i]^2 (Menezes et al., Handbook of Applied Cryptography, 14.16). */
static void sqr(hwc_limb *t, const hwc_limb *a, size_t n) {
    for (size_t i = 0; i <= n; i++) t[i] = 0;
    triangle(t, a, n);
    t[2 * n - 1] = 0;
    double_add_diag(t, a, n);
}

/* r = t[n..2n] mod m for t[n..2n] < 2m (t[2n] the top word; t[0..n) is
   free by now and serves as scratch). */
static void final_sub(hwc_limb *r, hwc_limb *t, const hwc_limb *m, size_t n) {
    hwc_mpi_final_sub(r, t + n, t[2 * n], m, n, t);
}

/* Square then reduce (separated operand scanning), 8 rows at a time for
   n % 8 == 0; n < 4 takes the product. */
void hwc_mpi_adx_montsqr(hwc_limb *r, const hwc_limb *a, const hwc_limb *m, size_t n,
                         hwc_limb minv, hwc_limb *t) {
    if (n < 4) {
        hwc_mpi_adx_montmul(r, a, a, m, n, minv, t);
        return;
    }
    if ((n & 7) == 0) {
        for (size_t i = 0; i < 2 * n; i++) t[i] = 0;
        hwc_mpi_adx_sqr8(t, a, n / 8);
        double_add_diag(t, a, n);
        hwc_mpi_adx_redc8(t, m, n / 8, minv);
    } else {
        sqr(t, a, n);
        hwc_limb hi = 0;
        for (size_t i = 0; i < n; i++) {
            hwc_limb c = addmul(t + i, m, n, t[i] * minv);
            unsigned __int128 s = (unsigned __int128)t[i + n] + c + hi;
            t[i + n] = (hwc_limb)s;
            hi = (hwc_limb)(s >> 64);
        }
        t[2 * n] = hi;
    }
    final_sub(r, t, m, n);
}

/* n % 8 == 0: the product 8 rows at a time, then the reduction; other
   sizes coarsely integrated: row i adds a*b[i] and q*m into t[i..i+n],
   t[i+n] holding the running top word. */
void hwc_mpi_adx_montmul(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, const hwc_limb *m,
                         size_t n, hwc_limb minv, hwc_limb *t) {
    if ((n & 7) == 0) {
        for (size_t i = 0; i < 2 * n; i++) t[i] = 0;
        hwc_mpi_adx_mul8(t, a, b, n / 8);
        hwc_mpi_adx_redc8(t, m, n / 8, minv);
    } else {
        for (size_t i = 0; i <= n; i++) t[i] = 0;
        for (size_t i = 0; i < n; i++) {
            hwc_limb c1 = addmul(t + i, a, n, b[i]);
            hwc_limb c2 = addmul(t + i, m, n, t[i] * minv);
            unsigned __int128 s = (unsigned __int128)t[i + n] + c1 + c2;
            t[i + n] = (hwc_limb)s;
            t[i + n + 1] = (hwc_limb)(s >> 64);
        }
    }
    final_sub(r, t, m, n);
}

const hwc_mpi_impl hwc_mpi_adx = {
    .muladd = hwc_mpi_adx_muladd,
    .montmul = hwc_mpi_adx_montmul,
    .montsqr = hwc_mpi_adx_montsqr,
    .domain = NULL,
};
