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

void hwc_mpi_montmul_muladd(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a,
                            const hwc_limb *b, const hwc_limb *m, size_t n, hwc_limb minv,
                            hwc_limb *t) {
    for (size_t i = 0; i < 2 * n + 2; i++) t[i] = 0;
    /* Invariant before step i: T = t[i..i+n] < 2m (Koc et al. bound for
       a, b < m), so T + a*b_i + q*m < 2^64 * 2m fits n+2 limbs and, after
       the row that zeroes t[i], (T + a*b_i + q*m) / 2^64 < 2m again. */
    for (size_t i = 0; i < n; i++) {
        hwc_limb c = muladd(t + i, a, n, b[i]);
        hwc_mpi_add_1(t + i + n, 2, c);
        hwc_limb q = t[i] * minv;          /* t[i] + q*m[0] == 0 mod 2^64 */
        c = muladd(t + i, m, n, q);
        hwc_mpi_add_1(t + i + n, 2, c);
    }
    hwc_mpi_final_sub(r, t + n, t[2 * n], m, n, t);
}

/* Montgomery square r = a^2 * 2^(-64n) mod m: the product by the squaring
   method (off-diagonal rows once, doubled, plus the diagonal; Menezes et
   al., Handbook of Applied Cryptography, algorithm 14.16), then a
   separated reduction (HAC algorithm 14.32). About 3/4 of the muladd work
   of hwc_mpi_montmul_muladd(a, a). Same contract; scratch 2n+2 limbs. */
void hwc_mpi_montsqr_muladd(hwc_muladd_fn muladd, hwc_limb *r, const hwc_limb *a,
                            const hwc_limb *m, size_t n, hwc_limb minv, hwc_limb *t) {
    for (size_t i = 0; i < 2 * n + 2; i++) t[i] = 0;
    /* off-diagonal: row i adds a[i] * a[i+1..n) at 2i+1, carry lands in t[i+n] */
    for (size_t i = 0; i + 1 < n; i++) t[i + n] = muladd(t + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
    /* double (the sum is < a^2 / 2, no bit leaves t[0..2n)) */
    for (size_t i = 2 * n - 1; i > 0; i--) t[i] = t[i] << 1 | t[i - 1] >> 63;
    t[0] <<= 1;
    /* diagonal a[i]^2 at 2i, one carry chain through all of t */
    hwc_limb c = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb lo = 0, hi = muladd(&lo, a + i, 1, a[i]);
        hwc_limb x = t[2 * i] + c;
        hwc_limb c1 = x < c;
        x += lo;
        c1 += x < lo;
        hwc_limb y = t[2 * i + 1] + c1;
        hwc_limb c2 = y < c1;
        y += hi;
        c2 += y < hi;
        t[2 * i] = x;
        t[2 * i + 1] = y;
        c = c2;
    }
    /* reduction: each row clears t[i]; `extra` is the carry owed to t[i+n]
       by the previous row. T = a^2 < m R, so the result T/R < 2m. */
    hwc_limb extra = 0;
    for (size_t i = 0; i < n; i++) {
        hwc_limb q = t[i] * minv;
        hwc_limb cr = muladd(t + i, m, n, q);
        hwc_limb x = t[i + n] + cr;
        hwc_limb c1 = x < cr;
        x += extra;
        c1 += x < extra;
        t[i + n] = x;
        extra = c1;
    }
    hwc_mpi_final_sub(r, t + n, extra, m, n, t);
}
