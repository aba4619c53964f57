/* Differential fuzzing of hwc_mpi_modexp (and hwc_mpi_mul): every usable mpi
 * kernel against generic and GMP's mpz_powm / mpz_mul. The input chooses the
 * sizes (modulus 1-32 limbs, exponent 1-4 limbs), the modulus (made odd and
 * > 1), a base reduced below it, and the exponent; a base >= m must be refused. */
#include <stdint.h>
#include <gmp.h>
#include "fuzz_common.h"

enum { MAX_N = 32, MAX_E = 4 };

static fz_kernels kernels;

static void to_mpz(mpz_t z, const hwc_limb *a, size_t n) { mpz_import(z, n, -1, 8, 0, 0, a); }
static void from_mpz(hwc_limb *a, size_t n, const mpz_t z) {
    size_t count = 0;
    memset(a, 0, n * 8);
    mpz_export(a, &count, -1, 8, 0, 0, z);
    FZ_CHECK(count <= n, "mpz_export size");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) fz_usable("mpi", &kernels);
    fz_in in = {data, size};
    size_t n = 1 + fz_byte(&in) % MAX_N, en = 1 + fz_byte(&in) % MAX_E;
    int unreduced = (fz_byte(&in) & 15) == 0;   /* now and then a base that may be >= m */
    hwc_limb m[MAX_N], b[MAX_N], e[MAX_E], r[MAX_N], ref[MAX_N], prod[2 * MAX_N], ref_prod[2 * MAX_N];
    fz_bytes(&in, m, n * 8);
    fz_bytes(&in, b, n * 8);
    fz_bytes(&in, e, en * 8);
    m[0] |= 1;
    mpz_t zm, zb, ze, zr;
    mpz_inits(zm, zb, ze, zr, NULL);
    to_mpz(zm, m, n), to_mpz(zb, b, n), to_mpz(ze, e, en);
    if (!unreduced) {
        mpz_mod(zb, zb, zm);
        from_mpz(b, n, zb);
    }
    int args_ok = mpz_cmp(zb, zm) < 0 && mpz_cmp_ui(zm, 1) > 0;
    mpz_mul(zr, zb, zb);
    from_mpz(ref_prod, 2 * n, zr);
    mpz_powm(zr, zb, ze, zm);
    from_mpz(ref, n, zr);
    for (size_t i = kernels.n; i-- > 0;) {   /* generic first */
        const char *kern = kernels.name[i];
        fz_select("mpi", kern);
        FZ_CHECK(hwc_mpi_mul(prod, b, n, b, n) == HWC_OK && !memcmp(prod, ref_prod, 16 * n),
                 "mpi/%s square differs from GMP, n %zu", kern, n);
        memset(r, 0x5a, sizeof r);
        int rc = hwc_mpi_modexp(r, b, e, en, m, n);
        if (!args_ok) {
            FZ_CHECK(rc == HWC_ERR_BAD_ARGUMENT, "mpi/%s accepted m = 1 or base >= m (rc %d)", kern, rc);
            continue;
        }
        FZ_CHECK(rc == HWC_OK && !memcmp(r, ref, 8 * n), "mpi/%s modexp differs from GMP, n %zu, exp_n %zu",
                 kern, n, en);
        /* lanes: this exponentiation twice and base 1 (gives 1), one call */
        static hwc_limb r3[3][MAX_N], one[MAX_N];
        memset(one, 0, sizeof one);
        one[0] = 1;
        hwc_limb *const rs[3] = {r3[0], r3[1], r3[2]};
        const hwc_limb *const bs[3] = {b, one, b}, *const es[3] = {e, e, e}, *const ms[3] = {m, m, m};
        FZ_CHECK(hwc_mpi_modexp_many(3, rs, bs, es, en, ms, n) == HWC_OK && !memcmp(r3[0], ref, 8 * n) &&
                     !memcmp(r3[1], one, 8 * n) && !memcmp(r3[2], ref, 8 * n),
                 "mpi/%s hwc_mpi_modexp_many differs from one call, n %zu", kern, n);
    }
    mpz_clears(zm, zb, ze, zr, NULL);
    return 0;
}
