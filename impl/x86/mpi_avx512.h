/* mpi kernel "avx512": the radix-2^52 pieces its single-modulus domain
 * (mpi_avx512.c) and its 8-lane domain (mpi_avx512_lanes.c) share; the
 * conversions and the masked table read are in mpi_avx512_radix52.c. */
#ifndef HWC_IMPL_MPI_AVX512_H
#define HWC_IMPL_MPI_AVX512_H

#include "internal/kernel.h"

#define MASK52 0xFFFFFFFFFFFFFull

/* Conversions and the masked table read of internal/kernel.h's domain
   slots, for one lane (digits in consecutive words, padded to a multiple
   of 8) or 8 lanes (digit k of lane l at word c->aux[1] + 8k + l). */
void hwc_ifma_to52(uint64_t *d, const hwc_limb *x, size_t lane, const hwc_mpi_mont *c);
void hwc_ifma_from52(hwc_limb *x, const uint64_t *d, size_t lane, const hwc_mpi_mont *c);
void hwc_ifma_select(uint64_t *out, const uint64_t *table, size_t entries, const size_t *idx,
                     const hwc_mpi_mont *c);

/* The 8-lane domain (c->lanes == 8) for moduli of 1..64 limbs. */
int hwc_ifma_domain_lanes(hwc_mpi_mont *c);

#endif
