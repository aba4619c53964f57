/* mpi internals shared by core/mpi*.c, the mpi kernels (impl/) and the
 * tests (which link the static library and may call these hidden symbols). */
#ifndef HWC_CORE_MPI_INTERNAL_H
#define HWC_CORE_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "internal/kernel.h"
#include "internal/ct.h"

typedef hwc_limb (*hwc_muladd_fn)(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);

/* Montgomery product r = a*b*2^(-64n) mod m built from a kernel's muladd
   (separated operand scanning, one row of a*b[i] then one row of q*m per
   limb). Same contract as hwc_mpi_impl.montmul: a, b < m gives r < m;
   constant time; scratch 2n+2 limbs; r may alias a or b. */
void hwc_mpi_montmul_muladd(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a,
                            const hwc_limb *b, const hwc_limb *m, size_t n, hwc_limb minv,
                            hwc_limb *scratch);

/* Montgomery square r = a^2 * 2^(-64n) mod m from muladd (squaring
   method, ~3/4 of the work of the product). Same contract as above. */
void hwc_mpi_montsqr_muladd(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a,
                            const hwc_limb *m, size_t n, hwc_limb minv, hwc_limb *scratch);

/* The bodies of hwc_mpi_mul and hwc_mpi_modexp after the argument checks,
   on an explicit kernel table / muladd (the tests also run them on the
   portable muladd). Return HWC_OK or HWC_ERR_NO_MEMORY (r untouched).
   modexp_mont runs the ladder in the kernel's domain when it covers n,
   else in radix 2^64 with impl->montmul (or one built from impl->muladd). */
int hwc_mpi_mul_with(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, size_t an,
                     const hwc_limb *b, size_t bn);
int hwc_mpi_modexp_mont(const hwc_mpi_impl *impl, hwc_limb *r, const hwc_limb *base,
                        const hwc_limb *exp, size_t exp_n, const hwc_limb *mod, size_t n);
/* The body of hwc_mpi_modexp_many after the argument checks (cnt >= 1), on
   an explicit kernel table: groups of impl->lanes moduli through its lane
   domain where it covers the size, the rest lane after lane. HWC_OK or
   HWC_ERR_NO_MEMORY (nothing written). */
int hwc_mpi_modexp_many_with(const hwc_mpi_impl *impl, size_t cnt, hwc_limb *const r[],
                             const hwc_limb *const base[], const hwc_limb *const exp[],
                             size_t exp_n, const hwc_limb *const mod[], size_t n);

/* The generic kernel's two muladd bodies, exported for the tests: the
   unsigned __int128 one (only where the compiler has the type) and the
   portable one built from 32 x 32 -> 64-bit half products (always built,
   used by the table when __int128 is missing). */
#if defined(__SIZEOF_INT128__)
#define HWC_MPI_HAVE_U128 1
hwc_limb hwc_mpi_generic_muladd_u128(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);
#endif
hwc_limb hwc_mpi_generic_muladd_half32(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);

/* Schoolbook/Karatsuba crossover of hwc_mpi_mul (limbs of the shorter
   operand), exported so the tests can probe threshold +-1. 48 is at or near
   the best for the generic and adx kernels (measurements: docs/bench.md). */
#ifndef HWC_MPI_KARATSUBA_THRESHOLD
#define HWC_MPI_KARATSUBA_THRESHOLD 48
#endif


/* ---- the shared pieces (one of each for core/ and every kernel) ---------- */

/* Do limb ranges [x, x+xn) and [y, y+yn) share any byte? */
static inline int hwc_mpi_overlaps(const hwc_limb *x, size_t xn, const hwc_limb *y, size_t yn) {
    uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
    return xa < ya + yn * sizeof(hwc_limb) && ya < xa + xn * sizeof(hwc_limb);
}

/* r[0..n) = a - b, returns the borrow (0/1), branch-free. r may equal a or b.
   One SBB chain on x86-64 (no feature flag needed; DEC leaves CF alone, so
   the loop control does not break the chain: about 1 cycle a limb, where
   _subborrow_u64 in a loop compiles to SETB/ADD round trips of 3 cycles),
   comparisons elsewhere and in MSan builds (MSan cannot follow the secret
   data through the asm, internal/ct.h). */
static inline hwc_limb hwc_mpi_sub_n(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, size_t n) {
#if defined(__x86_64__) && !defined(HWC_CT_MSAN)
    if (n == 0) return 0;
    hwc_limb x, bw;
    size_t i = 0;
    __asm__ volatile(
        "xorl %k[x], %k[x]\n" /* CF = 0 */
        "1:\n\t"
        "movq (%[a],%[i],8), %[x]\n\t"
        "sbbq (%[b],%[i],8), %[x]\n\t"
        "movq %[x], (%[r],%[i],8)\n\t"
        "leaq 1(%[i]), %[i]\n\t"
        "decq %[n]\n\t"
        "jnz 1b\n\t"
        "sbbq %[bw], %[bw]\n\t" /* -borrow */
        : [x] "=&r"(x), [i] "+r"(i), [n] "+r"(n), [bw] "=r"(bw)
        : [r] "r"(r), [a] "r"(a), [b] "r"(b)
        : "cc", "memory");
    return bw & 1;
#else
    hwc_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb x = a[i], y = b[i];
        hwc_limb s = x - y;
        hwc_limb b1 = x < y;
        r[i] = s - borrow;
        borrow = b1 | (s < borrow);
    }
    return borrow;
#endif
}

/* t[0..len) += c, the carry carried through all of t (fixed work, no early
   exit); returns the carry out. */
static inline hwc_limb hwc_mpi_add_1(hwc_limb *t, size_t len, hwc_limb c) {
    for (size_t i = 0; i < len; i++) {
        hwc_limb v = t[i] + c;
        c = v < c;
        t[i] = v;
    }
    return c;
}

/* The masked final subtraction of Montgomery arithmetic: r = u - m if
   u >= m, else u, for u = top * 2^(64n) + u[0..n) < 2m (top 0 or 1).
   u >= m iff top is set or u[0..n) - m does not borrow. d: n limbs of
   scratch, disjoint from u; r may equal u. No branch on the values. */
static inline void hwc_mpi_final_sub(hwc_limb *r, const hwc_limb *u, hwc_limb top,
                                     const hwc_limb *m, size_t n, hwc_limb *d) {
    hwc_limb borrow = hwc_mpi_sub_n(d, u, m, n);
    hwc_limb md = hwc_ct_barrier(0 - ((top | (borrow ^ 1)) & 1)), mu = ~md;
    for (size_t i = 0; i < n; i++) r[i] = (d[i] & md) | (u[i] & mu);
}

#endif
