/* mpi internals shared by core/mpi.c, core/mpi_mont.c, impl/generic and the
 * tests (which link the static library and may call these hidden symbols). */
#ifndef HWC_CORE_MPI_INTERNAL_H
#define HWC_CORE_MPI_INTERNAL_H

#include <stddef.h>
#include "internal/kernel.h"
#include "internal/ct.h"

/* Hide a mask's value from the optimiser: without it clang 14 recognises
   ((d | -d) >> 63) - 1 as "i == idx" and turns the masked table scan into
   a branch on the secret index (caught by tests/ct_modexp.c). */
static inline hwc_limb hwc_ct_barrier(hwc_limb x) {
    HWC_CT_OPAQUE(x);
    return x;
}

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
   modexp_mont uses impl->montmul, or builds it from impl->muladd; it
   ignores impl->modexp. */
int hwc_mpi_mul_with(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a, size_t an,
                     const hwc_limb *b, size_t bn);
int hwc_mpi_modexp_mont(const hwc_mpi_impl *impl, hwc_limb *r, const hwc_limb *base,
                        const hwc_limb *exp, size_t exp_n, const hwc_limb *mod, size_t n);

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
   operand), exported so the tests can probe threshold +-1. Measured on
   this machine (Xeon, Sapphire Rapids class, gcc 12 -O3), balanced
   n x n product in ns, generic / adx kernel:
     threshold   n=32      n=64       n=128      n=256
     none        518/372   2257/1531  10102/6375 40416/27015
     24          612/535   2149/1838  6882/6515  22507/21175
     32          686/553   2372/1968  7786/6429  25070/20527
     48          557/394   1966/1543  6945/5528  21715/17935
     64          551/381   1941/1553  6842/5368  21910/16696
   (2 shared cores, +-5% noise): 48 is at or near the best for both. */
#ifndef HWC_MPI_KARATSUBA_THRESHOLD
#define HWC_MPI_KARATSUBA_THRESHOLD 48
#endif


/* r[0..n) = a - b, returns the borrow (0/1), branch-free. r may equal a or b. */
static inline hwc_limb hwc_mpi_sub_n(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, size_t n) {
    hwc_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb x = a[i], y = b[i];
        hwc_limb s = x - y;
        hwc_limb b1 = x < y;
        r[i] = s - borrow;
        borrow = b1 | (s < borrow);
    }
    return borrow;
}

#endif
