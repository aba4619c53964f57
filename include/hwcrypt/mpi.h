/* hwcrypt: multi-precision integer core. Reference: docs/API.md. */
#ifndef HWCRYPT_MPI_H
#define HWCRYPT_MPI_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t hwc_limb;   /* numbers are arrays of limbs, least significant first */
#define HWC_MPI_MAX_LIMBS 256
#define HWC_MPI_MAX_EXP_LIMBS 256   /* longest exponent of hwc_mpi_modexp: 16384 bits */

/* d[0..n) += s[0..n) * b; returns the carry-out limb. n == 0 returns 0.
   d and s must not overlap. */
HWC_API hwc_limb hwc_mpi_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);
/* r[0..an+bn) = a * b; r must not overlap a or b; 1 <= an, bn <= 256 */
HWC_API int hwc_mpi_mul(hwc_limb *r, const hwc_limb *a, size_t an, const hwc_limb *b, size_t bn);
/* r[0..n) = base^exp mod m; m odd and > 1, base < m, 1 <= n <= 256,
   1 <= exp_n <= HWC_MPI_MAX_EXP_LIMBS (else HWC_ERR_BAD_ARGUMENT). Constant
   time in base and exp (the time depends on exp_n, not on exp's value).
   r must not overlap any input. exp == 0 gives 1. */
HWC_API int hwc_mpi_modexp(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                   const hwc_limb *mod, size_t n);

#ifdef __cplusplus
}
#endif
#endif
