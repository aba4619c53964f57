/* Montgomery multiplication built from a kernel's muladd (used when the
 * kernel's table has montmul == NULL).
 * P. L. Montgomery, "Modular multiplication without trial division",
 * Math. Comp. 44 (1985); the row-by-row interleaving is the "separated
 * operand scanning" of Koc, Acar, Kaliski, "Analyzing and comparing
 * Montgomery multiplication algorithms", IEEE Micro 16(3), 1996.
 * Constant time: the same rows, the same carries, a masked final
 * subtraction, whatever the values. */
#include <stdint.h>
#include "core/mpi_internal.h"

/* t[0..len) += c (carry propagated over the whole span, no early exit). */
static void add_limb(hwc_limb *t, size_t len, hwc_limb c) {
    for (size_t i = 0; i < len; i++) {
        hwc_limb v = t[i] + c;
        c = v < c;
        t[i] = v;
    }
}

void hwc_mpi_montmul_muladd(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a,
                            const hwc_limb *b, const hwc_limb *m, size_t n, hwc_limb minv,
                            hwc_limb *t) {
    for (size_t i = 0; i < 2 * n + 2; i++) t[i] = 0;
    /* Invariant before step i: T = t[i..i+n] < 2m (Koc et al. bound for
       a, b < m), so T + a*b_i + q*m < 2^64 * 2m fits n+2 limbs and, after
       the row that zeroes t[i], (T + a*b_i + q*m) / 2^64 < 2m again. */
    for (size_t i = 0; i < n; i++) {
        hwc_limb c = muladd(t + i, a, n, b[i]);
        add_limb(t + i + n, 2, c);
        hwc_limb q = t[i] * minv;          /* t[i] + q*m[0] == 0 mod 2^64 */
        c = muladd(t + i, m, n, q);
        add_limb(t + i + n, 2, c);
    }
    /* Result u = t[n..2n] < 2m (top limb 0 or 1): r = u - m if u >= m,
       else u. u >= m iff the top limb is set or the subtraction of m from
       the low n limbs does not borrow. */
    hwc_limb *u = t + n, *d = t;       /* d reuses t[0..n), all zero now */
    hwc_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb x = u[i], y = m[i];
        hwc_limb s = x - y;
        hwc_limb b1 = x < y;
        d[i] = s - borrow;
        borrow = b1 | (s < borrow);
    }
    hwc_limb take_d = (u[n] | (borrow ^ 1)) & 1;
    hwc_limb md = 0 - take_d, mu = ~md;
    for (size_t i = 0; i < n; i++) r[i] = (d[i] & md) | (u[i] & mu);
}
