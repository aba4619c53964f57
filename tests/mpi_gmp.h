/* GMP reference for the mpi tests (test_mpi.c, test_mpi_many.c): r = base^exp
 * mod m through mpz_powm, or through the constant-time mpz_powm_sec (which
 * needs exp > 0; exp == 0 gives 1 here). Only where the build found GMP. */
#ifndef HWC_TESTS_MPI_GMP_H
#define HWC_TESTS_MPI_GMP_H
#ifdef HWC_TEST_HAVE_GMP
#include <string.h>
#include <gmp.h>
#include "hwcrypt/mpi.h"

static inline void gmp_powm_limbs(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t en,
                                  const hwc_limb *m, size_t n, int sec) {
    mpz_t b, e, mo, res;
    mpz_inits(b, e, mo, res, NULL);
    mpz_import(b, n, -1, sizeof(hwc_limb), 0, 0, base);
    mpz_import(e, en, -1, sizeof(hwc_limb), 0, 0, exp);
    mpz_import(mo, n, -1, sizeof(hwc_limb), 0, 0, m);
    if (sec && mpz_sgn(e) == 0)
        mpz_set_ui(res, 1);
    else if (sec)
        mpz_powm_sec(res, b, e, mo);
    else
        mpz_powm(res, b, e, mo);
    memset(r, 0, n * sizeof(hwc_limb));
    mpz_export(r, NULL, -1, sizeof(hwc_limb), 0, 0, res);
    mpz_clears(b, e, mo, res, NULL);
}
#endif
#endif
