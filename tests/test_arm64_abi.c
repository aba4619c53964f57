/* AArch64 calling convention (AAPCS64, "Procedure Call Standard for the Arm
 * 64-bit Architecture", 6.1.1-6.1.2): every assembly entry point must keep
 * x19-x28, x29, sp and the low 64 bits of v8-v15 (d8-d15). Each entry point is
 * called through tests/abi_check_arm64.S, which fills those registers with
 * pseudo-random values first and reports what they hold afterwards; the
 * results are checked too. Three deliberately broken functions show that the
 * harness catches each kind of violation. Built only for AArch64. */
#include <stdio.h>
#include <string.h>
#include "common.h"
#include "impl/arm64/mpi_armv8.h"
#if __has_include("impl/arm64/streebog_arm64_ilps.h")
#include "internal/kernel.h"
#include "impl/arm64/streebog_arm64_ilps.h"
#include "internal/streebog_constants.h"
#endif

typedef struct {
    uint64_t x[10];      /* x19..x28 */
    uint64_t d[8];       /* d8..d15 */
    uint64_t sp_before, sp_after, fp_before, fp_after;
} hwc_abi_regs;

typedef void (*hwc_abi_fn)(void);
uint64_t hwc_abi_call(const hwc_abi_regs *in, hwc_abi_regs *out, hwc_abi_fn fn,
                      const uint64_t args[8]);
void hwc_abi_bad_x(void);
void hwc_abi_bad_d(void);
void hwc_abi_bad_sp(void);

enum { BAD_X = 1, BAD_D = 2, BAD_SP = 4, BAD_FP = 8 };

/* Calls fn(args) with known callee-saved values; returns a mask of what was
   not preserved and puts fn's x0 into *ret. Describes the damage in msg. */
static int abi_call(hwc_rng *rng, hwc_abi_fn fn, const uint64_t args[8], uint64_t *ret,
                    char *msg, size_t msg_size) {
    hwc_abi_regs in, out;
    hwc_rng_fill(rng, &in, sizeof in);
    memset(&out, 0, sizeof out);
    *ret = hwc_abi_call(&in, &out, fn, args);
    int bad = 0;
    size_t used = 0;
    msg[0] = '\0';
    for (int i = 0; i < 10; i++)
        if (out.x[i] != in.x[i]) {
            bad |= BAD_X;
            used += (size_t)snprintf(msg + used, msg_size - used, " x%d", 19 + i);
            if (used >= msg_size) used = msg_size - 1;
        }
    for (int i = 0; i < 8; i++)
        if (out.d[i] != in.d[i]) {
            bad |= BAD_D;
            used += (size_t)snprintf(msg + used, msg_size - used, " d%d", 8 + i);
            if (used >= msg_size) used = msg_size - 1;
        }
    if (out.sp_after != out.sp_before) {
        bad |= BAD_SP;
        used += (size_t)snprintf(msg + used, msg_size - used, " sp(%+lld)",
                                 (long long)(out.sp_after - out.sp_before));
        if (used >= msg_size) used = msg_size - 1;
    }
    if (out.fp_after != out.fp_before) {
        bad |= BAD_FP;
        snprintf(msg + used, msg_size - used, " x29");
    }
    return bad;
}

Test(arm64_abi, harness_catches_violations) {
    hwc_rng rng;
    hwc_rng_init(&rng, hwc_test_seed());
    const uint64_t args[8] = {0};
    uint64_t ret;
    char msg[256];
    cr_expect_eq(abi_call(&rng, hwc_abi_bad_x, args, &ret, msg, sizeof msg), BAD_X, "bad_x:%s", msg);
    cr_expect(strstr(msg, "x23") != NULL, "bad_x reported as:%s", msg);
    cr_expect_eq(abi_call(&rng, hwc_abi_bad_d, args, &ret, msg, sizeof msg), BAD_D, "bad_d:%s", msg);
    cr_expect(strstr(msg, "d13") != NULL, "bad_d reported as:%s", msg);
    cr_expect_eq(abi_call(&rng, hwc_abi_bad_sp, args, &ret, msg, sizeof msg), BAD_SP, "bad_sp:%s", msg);
}

/* d += s * b, the schoolbook reference (GMP mpn_addmul_1 semantics). */
static hwc_limb ref_muladd(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b) {
    hwc_limb c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 t = (unsigned __int128)s[i] * b + d[i] + c;
        d[i] = (hwc_limb)t;
        c = (hwc_limb)(t >> 64);
    }
    return c;
}

Test(arm64_abi, mpi_armv8_muladd) {
    const uint64_t seed = hwc_test_seed();
    hwc_rng rng;
    hwc_rng_init(&rng, seed);
    /* 8-limb loop, 4-limb step and 1-limb tail in every combination, the
       largest operand size */
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17,
                                   20, 31, 64, 255, 256};
    enum { GUARD = 2, MAXN = 256 };
    static hwc_limb s[MAXN], d[MAXN + 2 * GUARD], want[MAXN];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int pattern = 0; pattern < 2; pattern++) {
            const size_t n = sizes[k];
            hwc_rng_fill(&rng, s, sizeof s);
            hwc_rng_fill(&rng, d, sizeof d);
            hwc_limb b = hwc_rng_next(&rng);
            if (pattern) {   /* all ones: every carry at its maximum */
                memset(s, 0xff, sizeof s);
                memset(d + GUARD, 0xff, n * sizeof(hwc_limb));
                b = ~(hwc_limb)0;
            }
            const hwc_limb g0 = d[0], g1 = d[1], g2 = d[GUARD + n], g3 = d[GUARD + n + 1];
            memcpy(want, d + GUARD, n * sizeof(hwc_limb));
            const hwc_limb want_c = ref_muladd(want, s, n, b);
            const uint64_t args[8] = {(uint64_t)(d + GUARD), (uint64_t)s, n, b, 0, 0, 0, 0};
            uint64_t ret;
            char msg[256];
            int bad = abi_call(&rng, (hwc_abi_fn)hwc_mpi_armv8_muladd, args, &ret, msg, sizeof msg);
            cr_expect_eq(bad, 0, "muladd n=%zu: not preserved:%s (seed 0x%llx)", n, msg,
                         (unsigned long long)seed);
            cr_expect_eq(ret, want_c, "muladd n=%zu carry (seed 0x%llx)", n, (unsigned long long)seed);
            cr_expect(memcmp(d + GUARD, want, n * sizeof(hwc_limb)) == 0,
                      "muladd n=%zu result (seed 0x%llx)", n, (unsigned long long)seed);
            cr_expect(d[0] == g0 && d[1] == g1 && d[GUARD + n] == g2 && d[GUARD + n + 1] == g3,
                      "muladd n=%zu wrote outside d[0..n)", n);
        }
    }
}

#ifdef HWC_IMPL_STREEBOG_ARM64_ILPS_H
/* Streebog arm64-ilps compression (helper "sbkern"): same registers, and the
   result must equal the generic kernel's g_N (RFC 6986 section 8) on the same
   pseudo-random h, N, m; also with h aliasing m. */
Test(arm64_abi, streebog_arm64_ilps_compress) {
    const uint64_t seed = hwc_test_seed();
    hwc_rng rng;
    hwc_rng_init(&rng, seed);
    hwc_streebog_tables_init();
    for (int i = 0; i < 8; i++) {
        uint64_t h[8], n[8], m[8], want[8];
        hwc_rng_fill(&rng, h, sizeof h);
        hwc_rng_fill(&rng, n, sizeof n);
        hwc_rng_fill(&rng, m, sizeof m);
        const int alias = i & 1;
        if (alias) memcpy(m, h, sizeof m);
        memcpy(want, h, sizeof want);
        hwc_streebog_generic.g(want, n, m);
        const uint64_t args[8] = {(uint64_t)h, (uint64_t)n, (uint64_t)(alias ? h : m),
                                  (uint64_t)hwc_streebog_lps_table, (uint64_t)hwc_streebog_C,
                                  0, 0, 0};
        uint64_t ret;
        char msg[256];
        int bad = abi_call(&rng, (hwc_abi_fn)hwc_sb_arm64_ilps_compress, args, &ret, msg, sizeof msg);
        cr_expect_eq(bad, 0, "streebog compress #%d: not preserved:%s (seed 0x%llx)", i, msg,
                     (unsigned long long)seed);
        cr_expect(memcmp(h, want, sizeof h) == 0, "streebog compress #%d%s differs from generic (seed 0x%llx)",
                  i, alias ? " (h aliases m)" : "", (unsigned long long)seed);
    }
}
#endif
