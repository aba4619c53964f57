/* HWCRYPT_KERNEL (API.md, dispatch.h): read once at init. Criterion runs
 * every Test() in a fresh process, so each test sets the variable before its
 * first hwcrypt call and sees a cold init. stderr is captured to check the
 * one line per bad item. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include <criterion/redirect.h>


/* Everything printed to stderr so far. */
static char *captured_stderr(void) {
    static char buf[8192];
    fflush(stderr);
    FILE *f = cr_get_redirected_stderr();
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    return buf;
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Best usable kernel of a family, optionally skipping one name. */
static const char *best_usable(const char *family, const char *skip) {
    const char *names[32];
    size_t n = hwc_test_usable_kernels(family, names, 32);
    for (size_t i = 0; i < n; i++)
        if (!skip || strcmp(names[i], skip)) return names[i];
    return NULL;
}

static void start(const char *value) {
    if (value) setenv("HWCRYPT_KERNEL", value, 1);
    else unsetenv("HWCRYPT_KERNEL");
}

Test(env, unset_is_automatic, .init = cr_redirect_stderr) {
    start(NULL);
    cr_assert_eq(hwc_init(), HWC_OK);
    for (int f = 0; hwc_families()[f]; f++) {
        cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), best_usable(hwc_families()[f], NULL));
        cr_assert_str_eq(hwc_kernel_reason(hwc_families()[f]), "automatic");
    }
    cr_assert_str_eq(captured_stderr(), "");
}

Test(env, empty_items_are_ignored, .init = cr_redirect_stderr) {
    start(" , ,");
    cr_assert_eq(hwc_init(), HWC_OK);
    cr_assert_str_eq(hwc_kernel_reason("aes"), "automatic");
    cr_assert_str_eq(captured_stderr(), "");
}

Test(env, generic_everywhere, .init = cr_redirect_stderr) {
    start("generic");
    cr_assert_eq(hwc_init(), HWC_OK);
    for (int f = 0; hwc_families()[f]; f++) {
        cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), "generic");
        cr_assert_str_eq(hwc_kernel_reason(hwc_families()[f]), "HWCRYPT_KERNEL");
    }
    cr_assert_str_eq(captured_stderr(), "");
    /* select(NULL) goes back to automatic */
    cr_assert_eq(hwc_kernel_select("aes", NULL), HWC_OK);
    cr_assert_str_eq(hwc_kernel_active("aes"), best_usable("aes", NULL));
}

Test(env, family_pair, .init = cr_redirect_stderr) {
    start("aes=generic");
    cr_assert_eq(hwc_init(), HWC_OK);
    cr_assert_str_eq(hwc_kernel_active("aes"), "generic");
    cr_assert_str_eq(hwc_kernel_active("streebog"), best_usable("streebog", NULL));
    cr_assert_str_eq(hwc_kernel_active("mpi"), best_usable("mpi", NULL));
    cr_assert_str_eq(captured_stderr(), "");
}

/* -kernel: never chosen automatically (also not by select(NULL)); an
   explicit select still works. */
Test(env, exclusion, .init = cr_redirect_stderr) {
    start("-avx512");
    cr_assert_eq(hwc_init(), HWC_OK);
    for (int f = 0; hwc_families()[f]; f++) {
        cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), best_usable(hwc_families()[f], "avx512"));
        cr_assert_eq(hwc_kernel_select(hwc_families()[f], NULL), HWC_OK);
        cr_assert_str_neq(hwc_kernel_active(hwc_families()[f]), "avx512");
        if (best_usable(hwc_families()[f], NULL) && !strcmp(best_usable(hwc_families()[f], NULL), "avx512")) {
            cr_assert_eq(hwc_kernel_select(hwc_families()[f], "avx512"), HWC_OK);
            cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), "avx512");
        }
    }
    cr_assert_str_eq(captured_stderr(), "");
}

Test(env, exclude_all_but_generic, .init = cr_redirect_stderr) {
    /* includes names not compiled into this build: not an error */
    start("-avx512,-vaes-avx2,-aesni,-neon,-adx,-armv8-asm,-arm64-ilps");
    cr_assert_eq(hwc_init(), HWC_OK);
    for (int f = 0; hwc_families()[f]; f++) cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), "generic");
    cr_assert_str_eq(captured_stderr(), "");
}

Test(env, unknown_kernel_in_pair, .init = cr_redirect_stderr) {
    start("aes=nosuch");
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);   /* same answer every time */
    cr_assert_str_eq(hwc_kernel_active("aes"), best_usable("aes", NULL));
    cr_assert_str_eq(hwc_kernel_reason("aes"), "automatic");
    const char *err = captured_stderr();
    cr_assert_eq(count_lines(err), 1, "stderr: %s", err);
    cr_assert(strstr(err, "aes=nosuch") && strstr(err, "generic"), "stderr: %s", err);
    /* the engine still works */
    uint8_t d[32];
    cr_assert_eq(hwc_streebog(256, "abc", 3, d), HWC_OK);
}

Test(env, unknown_name, .init = cr_redirect_stderr) {
    start("nosuch");
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);
    const char *err = captured_stderr();
    cr_assert_eq(count_lines(err), 1, "stderr: %s", err);
    cr_assert(strstr(err, "nosuch"), "stderr: %s", err);
    /* the line names the kernels that exist in this build */
    cr_assert(strstr(err, "choices: ") && strstr(err, "generic"), "stderr: %s", err);
    for (int f = 0; hwc_families()[f]; f++) {
        hwc_kernel_info info[32];
        size_t n = hwc_kernels(hwc_families()[f], info, 32);
        for (size_t i = 0; i < n && i < 32; i++)
            cr_assert(strstr(err, info[i].name), "'%s' missing from: %s", info[i].name, err);
    }
}

/* A value of any length is read item by item: valid items far beyond the
   first 511 bytes still apply, and an overlong bad item is one line. */
Test(env, long_value, .init = cr_redirect_stderr) {
    static char value[4096];
    size_t used = 0;
    for (int i = 0; i < 300; i++) used += (size_t)snprintf(value + used, sizeof value - used, " ,");
    memset(value + used, 'x', 1500);
    used += 1500;
    snprintf(value + used, sizeof value - used, ", aes=generic ,mpi=generic");
    start(value);
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_str_eq(hwc_kernel_active("aes"), "generic");
    cr_assert_str_eq(hwc_kernel_active("mpi"), "generic");
    cr_assert_str_eq(hwc_kernel_reason("aes"), "HWCRYPT_KERNEL");
    cr_assert_eq(count_lines(captured_stderr()), 1);
}

/* A name the API gives a family but that no build has yet. */
Test(env, named_but_not_built, .init = cr_redirect_stderr) {
    start("streebog=neon");
    cr_assert_eq(hwc_init(), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert(strstr(captured_stderr(), "not compiled"));
    cr_assert_eq(hwc_kernel_select("streebog", "neon"), HWC_ERR_KERNEL_UNAVAILABLE);
}

Test(env, unknown_exclusion, .init = cr_redirect_stderr) {
    start("-nosuch");
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_eq(count_lines(captured_stderr()), 1);
}

Test(env, unknown_family, .init = cr_redirect_stderr) {
    start("foo=generic");
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_FAMILY);
    const char *err = captured_stderr();
    cr_assert_eq(count_lines(err), 1, "stderr: %s", err);
    cr_assert(strstr(err, "foo=generic") && strstr(err, "aes"), "stderr: %s", err);
}

/* A kernel of the other architecture: reserved by API.md, not compiled in. */
Test(env, other_architecture, .init = cr_redirect_stderr) {
#if defined(__aarch64__)
    start("aes=aesni,mpi=adx");
#else
    start("aes=neon,mpi=armv8-asm");
#endif
    cr_assert_eq(hwc_init(), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert_str_eq(hwc_kernel_active("aes"), best_usable("aes", NULL));
    cr_assert_str_eq(hwc_kernel_active("mpi"), best_usable("mpi", NULL));
    const char *err = captured_stderr();
    cr_assert_eq(count_lines(err), 2, "stderr: %s", err);
    cr_assert(strstr(err, "not compiled"), "stderr: %s", err);
}

Test(env, other_architecture_name_alone, .init = cr_redirect_stderr) {
#if defined(__aarch64__)
    start("aesni");
#else
    start("neon");
#endif
    cr_assert_eq(hwc_init(), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert_eq(count_lines(captured_stderr()), 1);
    cr_assert_str_eq(hwc_kernel_reason("aes"), "automatic");
}

/* Several items: good ones apply, each bad one is one line, the first error
   is returned. */
Test(env, mixed_items, .init = cr_redirect_stderr) {
    start(" streebog = generic , aes=nosuch,-avx512, bogus=generic, mpi=generic ");
    cr_assert_eq(hwc_init(), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_str_eq(hwc_kernel_active("streebog"), "generic");
    cr_assert_str_eq(hwc_kernel_reason("streebog"), "HWCRYPT_KERNEL");
    cr_assert_str_eq(hwc_kernel_active("mpi"), "generic");
    cr_assert_str_eq(hwc_kernel_active("aes"), best_usable("aes", "avx512"));
    const char *err = captured_stderr();
    cr_assert_eq(count_lines(err), 2, "stderr: %s", err);
    cr_assert(strstr(err, "aes=nosuch") && strstr(err, "bogus=generic"), "stderr: %s", err);
}

/* A compiled-in kernel this CPU cannot run (present under qemu's older CPU
   models): skipped with a line, never run. */
Test(env, unusable_kernel, .init = cr_redirect_stderr) {
#if defined(__aarch64__)
    const char *a = "neon", *b = "armv8-asm";
    start("neon,armv8-asm");
#else
    const char *a = "avx512", *b = "aesni";
    start("avx512,aesni");
#endif
    int rc = hwc_init();
    hwc_kernel_info info[32];
    int expect_error = 0;
    for (int f = 0; hwc_families()[f]; f++) {
        size_t n = hwc_kernels(hwc_families()[f], info, 32);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(info[i].name, a) && strcmp(info[i].name, b)) continue;
            if (!info[i].usable) {
                expect_error = 1;
                cr_assert_str_neq(hwc_kernel_active(hwc_families()[f]), info[i].name);
            }
        }
    }
    if (expect_error) {
        cr_assert_eq(rc, HWC_ERR_KERNEL_UNAVAILABLE);
        cr_assert(strstr(captured_stderr(), "cannot run"));
        fprintf(stdout, "[env] unusable kernels were refused\n");
    } else {
        cr_assert_eq(rc, HWC_OK);
        fprintf(stdout, "[env] %s and %s are usable on this CPU: only the accepting path ran\n", a, b);
    }
}
