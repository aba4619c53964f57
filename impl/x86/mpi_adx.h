/* adx mpi kernel entry points shared with the avx512 mpi kernel (which uses
 * them for muladd and for the sizes its radix-2^52 code does not cover). */
#ifndef HWC_IMPL_MPI_ADX_H
#define HWC_IMPL_MPI_ADX_H

#include "internal/kernel.h"

hwc_limb hwc_mpi_adx_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);
void hwc_mpi_adx_montmul(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, const hwc_limb *m,
                         size_t n, hwc_limb minv, hwc_limb *scratch);
void hwc_mpi_adx_montsqr(hwc_limb *r, const hwc_limb *a, const hwc_limb *m, size_t n,
                         hwc_limb minv, hwc_limb *scratch);

/* t[n..2n] = Montgomery reduction of t[0..2n) for n = 8*n8 (t[2n] the top
   word); impl/x86/mpi_adx_rows8.S. */
void hwc_mpi_adx_redc8(hwc_limb *t, const hwc_limb *m, size_t n8, hwc_limb minv);
/* t[0..2n) (zero on entry) = the cross products of a[0..n) (each pair
   once), n = 8*n8; t[2n] = 0. Same file. */
void hwc_mpi_adx_sqr8(hwc_limb *t, const hwc_limb *a, size_t n8);
/* t[0..2n) (zero on entry) = a * b, n = 8*n8; t[2n] = 0. Same file. */
void hwc_mpi_adx_mul8(hwc_limb *t, const hwc_limb *a, const hwc_limb *b, size_t n8);
#endif
