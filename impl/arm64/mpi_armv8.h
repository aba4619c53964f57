/* armv8-asm mpi kernel: assembly entry points (mpi_armv8.S). */
#ifndef HWC_IMPL_MPI_ARMV8_H
#define HWC_IMPL_MPI_ARMV8_H

#include <stddef.h>
#include "hwcrypt/mpi.h"

/* d[0..n) += s[0..n) * b; returns the carry-out limb. Any n (0 returns 0);
   d and s must not overlap. Timing depends on n only. */
hwc_limb hwc_mpi_armv8_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);

#endif
