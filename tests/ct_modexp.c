/* Constant-time check of hwc_mpi_modexp under valgrind memcheck (the
 * technique of A. Langley's ctgrind): base and exponent are marked
 * undefined before the call, so memcheck reports every conditional jump,
 * conditional move and memory address that depends on them; the result is
 * marked defined afterwards so the comparisons below do not count.
 * The only value declassified inside the library is the base < m verdict
 * (see core/mpi_modexp.c). hwc_mpi_modexp_many is checked the same way
 * (every lane's base and exponent secret).
 *
 * Usage (ctest): HWCRYPT_KERNEL=mpi=<kernel> valgrind --error-exitcode=1
 *   --track-origins=yes ct_modexp <kernel>
 * valgrind's emulated CPUID hides some features its decoder does handle
 * (3.19: BMI2/ADX, i.e. MULX/ADCX/ADOX). When the requested kernel is
 * compiled in, not usable on valgrind's CPU, but every feature it needs is
 * in the host's /proc/cpuinfo (valgrind does not virtualise that file), its
 * table is called directly, as hwc_mpi_modexp would after its checks.
 * Exit 0: ran clean (valgrind turns reported errors into exit 1);
 * 77: that kernel cannot run here (not compiled in, or not usable on
 * valgrind's emulated CPU), reported as skipped; 2: wrong result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "hwcrypt/hwcrypt.h"
#include "core/mpi_internal.h"
#include "dispatch/registry.h"

#define SKIP 77

static uint64_t rng_state = 0xC7C7C7C7ull;
static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* One modexp with secret base and exponent (m public), then the same call
   with everything defined must give the same result. */
static const hwc_mpi_impl *direct; /* kernel table called directly, or NULL */

static int modexp(hwc_limb *r, const hwc_limb *b, const hwc_limb *e, size_t en, const hwc_limb *m,
                  size_t n) {
    if (!direct) return hwc_mpi_modexp(r, b, e, en, m, n);
    return hwc_mpi_modexp_mont(direct, r, b, e, en, m, n);
}

/* Every comma-separated feature of `needs` is a word of the host's
   /proc/cpuinfo "flags" line. */
static int host_has_all(const char *needs) {
    static char line[8192];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0 || strncmp(line, "Features", 8) == 0) {
            found = 1;
            break;
        }
    fclose(f);
    if (!found) return 0;
    char need[256];
    snprintf(need, sizeof need, "%s", needs);
    for (char *tok = strtok(need, ","); tok; tok = strtok(NULL, ",")) {
        char word[64];
        snprintf(word, sizeof word, " %s", tok);
        const char *p = line;
        size_t wl = strlen(word);
        int ok = 0;
        while ((p = strstr(p, word)) != NULL) {
            if (p[wl] == ' ' || p[wl] == '\n' || p[wl] == '\0') {
                ok = 1;
                break;
            }
            p += wl;
        }
        if (!ok) return 0;
    }
    return 1;
}

static int run(size_t n, size_t en, size_t zero_top) {
    hwc_limb m[256] = {0}, base[256], exp[300], r[256], r2[256];
    for (size_t i = 0; i < n; i++) m[i] = rnd();
    for (size_t i = n - zero_top; i < n; i++) m[i] = 0;
    m[0] |= 1;
    if (n - zero_top == 1 && m[0] == 1) m[0] = 3;
    for (size_t i = 0; i < n; i++) base[i] = i < n - zero_top - 1 ? rnd() : 0;
    for (size_t i = 0; i < en; i++) exp[i] = rnd();
    if (en > 1) exp[en - 1] = 0; /* leading zero limb: must cost the same */
    base[0] = n - zero_top == 1 ? m[0] - 2 : base[0];

    VALGRIND_MAKE_MEM_UNDEFINED(base, n * sizeof(hwc_limb));
    VALGRIND_MAKE_MEM_UNDEFINED(exp, en * sizeof(hwc_limb));
    int st = modexp(r, base, exp, en, m, n);
    VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(hwc_limb));
    VALGRIND_MAKE_MEM_DEFINED(base, n * sizeof(hwc_limb));
    VALGRIND_MAKE_MEM_DEFINED(exp, en * sizeof(hwc_limb));
    if (st != HWC_OK) {
        fprintf(stderr, "ct_modexp: n=%zu status %d\n", n, st);
        return 2;
    }
    /* same call with everything defined must agree */
    if (modexp(r2, base, exp, en, m, n) != HWC_OK || memcmp(r, r2, n * sizeof(hwc_limb))) {
        fprintf(stderr, "ct_modexp: n=%zu results differ\n", n);
        return 2;
    }
    return 0;
}

/* hwc_mpi_modexp_many of cnt lanes (moduli of n limbs, exponents of en)
   with every base and exponent secret; each lane must then equal the
   single call. */
static int run_many(size_t cnt, size_t n, size_t en) {
    static hwc_limb m[9][64], base[9][64], exp[9][64], r[9][64], one[64];
    hwc_limb *rp[9];
    const hwc_limb *mp[9], *bp[9], *ep[9];
    for (size_t l = 0; l < cnt; l++) {
        for (size_t i = 0; i < n; i++) {
            m[l][i] = rnd();
            base[l][i] = rnd();
        }
        for (size_t i = 0; i < en; i++) exp[l][i] = rnd();
        m[l][0] |= 1;
        m[l][n - 1] |= (hwc_limb)1 << 63;
        base[l][n - 1] >>= 1;
        rp[l] = r[l];
        mp[l] = m[l];
        bp[l] = base[l];
        ep[l] = exp[l];
        VALGRIND_MAKE_MEM_UNDEFINED(base[l], n * sizeof(hwc_limb));
        VALGRIND_MAKE_MEM_UNDEFINED(exp[l], en * sizeof(hwc_limb));
    }
    int st = direct ? hwc_mpi_modexp_many_with(direct, cnt, rp, bp, ep, en, mp, n)
                    : hwc_mpi_modexp_many(cnt, rp, bp, ep, en, mp, n);
    for (size_t l = 0; l < cnt; l++) {
        VALGRIND_MAKE_MEM_DEFINED(r[l], n * sizeof(hwc_limb));
        VALGRIND_MAKE_MEM_DEFINED(base[l], n * sizeof(hwc_limb));
        VALGRIND_MAKE_MEM_DEFINED(exp[l], en * sizeof(hwc_limb));
    }
    if (st != HWC_OK) {
        fprintf(stderr, "ct_modexp: many(%zu x %zu limbs) status %d\n", cnt, n, st);
        return 2;
    }
    for (size_t l = 0; l < cnt; l++)
        if (modexp(one, base[l], exp[l], en, m[l], n) != HWC_OK || memcmp(one, r[l], n * sizeof(hwc_limb))) {
            fprintf(stderr, "ct_modexp: many(%zu x %zu limbs) lane %zu differs\n", cnt, n, l);
            return 2;
        }
    return 0;
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : NULL;
    hwc_init();
    const char *active = hwc_kernel_active("mpi");
    if (want && (active == NULL || strcmp(active, want) != 0)) {
        hwc_kernel_info info[16];
        size_t k = hwc_kernels("mpi", info, 16), i;
        for (i = 0; i < k && i < 16; i++)
            if (strcmp(info[i].name, want) == 0) break;
        if (i == k || i == 16) {
            printf("ct_modexp: kernel %s not compiled into this build: skipped\n", want);
            return SKIP;
        }
        if (!RUNNING_ON_VALGRIND || !host_has_all(info[i].requires)) {
            printf("ct_modexp: kernel %s not usable on this CPU (needs %s): skipped\n", want,
                   info[i].requires);
            return SKIP;
        }
        for (size_t j = 0; j < hwc_registry_len; j++)
            if (hwc_registry[j].family == HWC_FAM_MPI && strcmp(hwc_registry[j].name, want) == 0)
                direct = hwc_registry[j].impl;
        if (!direct) return SKIP;
        active = want;
        printf("ct_modexp: kernel %s hidden by valgrind's CPUID (needs %s) but the host has it: "
               "calling its table directly\n", want, info[i].requires);
    }
    if (!RUNNING_ON_VALGRIND) printf("ct_modexp: not running under valgrind: results only, no CT check\n");
    /* sizes: every window width the core picks, odd sizes, zero top limbs,
       an exponent longer than the modulus */
    static const size_t cases[][3] = {{1, 1, 0}, {2, 1, 0}, {3, 3, 1}, {4, 6, 0},
                                      {7, 7, 2}, {16, 16, 0}, {32, 32, 0}, {33, 2, 0}};
    int rc = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && rc == 0; c++)
        rc = run(cases[c][0], cases[c][1], cases[c][2]);
    printf("ct_modexp: kernel %s: %zu sizes %s\n", active, sizeof cases / sizeof cases[0],
           rc ? "FAILED" : "done (valgrind reports any secret-dependent branch or index)");
    /* many lanes: this kernel's lane groups if it has them, else lane
       after lane through the same ladder */
    static const size_t many[][3] = {{3, 2, 2}, {9, 8, 4}};
    for (size_t c = 0; c < sizeof many / sizeof many[0] && rc == 0; c++)
        rc = run_many(many[c][0], many[c][1], many[c][2]);
    printf("ct_modexp: kernel %s: modexp_many %s\n", active, rc ? "FAILED" : "done");
    if (rc == 0 && direct == NULL && strcmp(active, "generic") == 0) {
        /* the generic kernel's portable muladd body (used where the compiler
           has no unsigned __int128), through the same core exponentiation */
        static const hwc_mpi_impl half32 = {.muladd = hwc_mpi_generic_muladd_half32};
        direct = &half32;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0] && rc == 0; c++)
            rc = run(cases[c][0], cases[c][1], cases[c][2]);
        printf("ct_modexp: generic half32 muladd body: %s\n", rc ? "FAILED" : "done");
    }
    return rc;
}
