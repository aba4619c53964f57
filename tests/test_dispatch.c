/* Dispatcher: hwc_kernels / hwc_kernel_active / hwc_kernel_select as API.md
 * (dispatch.h) defines them, status strings, version, wipe, and contexts
 * keeping the kernel they were created with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"


Test(dispatch, kernels_listed_best_first) {
    for (size_t f = 0; hwc_families()[f]; f++) {
        hwc_kernel_info info[32];
        size_t n = hwc_kernels(hwc_families()[f], info, 32);
        cr_assert(n >= 1 && n <= 32, "%s: %zu kernels", hwc_families()[f], n);
        int generic = 0;
        for (size_t i = 0; i < n; i++) {
            cr_assert_str_eq(info[i].family, hwc_families()[f]);
            cr_assert(info[i].name && info[i].requires);
            cr_assert(info[i].usable == 0 || info[i].usable == 1);
            if (i) cr_assert(info[i - 1].priority >= info[i].priority, "%s not best first", hwc_families()[f]);
            for (size_t j = 0; j < i; j++) cr_assert_str_neq(info[i].name, info[j].name);
            if (!strcmp(info[i].name, "generic")) {
                generic = 1;
                cr_assert_eq(info[i].usable, 1);
                cr_assert_str_eq(info[i].requires, "");
            }
            /* an unusable kernel must name what it needs */
            if (!info[i].usable) cr_assert(info[i].requires[0] != '\0');
        }
        cr_assert(generic, "%s has no generic kernel", hwc_families()[f]);
        /* max smaller than the count: total returned, only max written */
        hwc_kernel_info one[2];
        memset(one, 0x5a, sizeof one);
        cr_assert_eq(hwc_kernels(hwc_families()[f], one, 1), n);
        cr_assert_str_eq(one[0].name, info[0].name);
        const unsigned char *tail = (const unsigned char *)&one[1];
        for (size_t b = 0; b < sizeof one[1]; b++) cr_assert_eq(tail[b], 0x5a);
        cr_assert_eq(hwc_kernels(hwc_families()[f], NULL, 0), n);
    }
    cr_assert_eq(hwc_kernels("nosuch", NULL, 0), 0);
    cr_assert_eq(hwc_kernels(NULL, NULL, 0), 0);
}

/* The automatic choice is the highest-priority usable kernel (this process
   may run under HWCRYPT_KERNEL; exclusions are taken into account). */
Test(dispatch, automatic_is_best_usable) {
    const char *env = getenv("HWCRYPT_KERNEL");
    for (size_t f = 0; hwc_families()[f]; f++) {
        cr_assert_eq(hwc_kernel_select(hwc_families()[f], NULL), HWC_OK);
        cr_assert_str_eq(hwc_kernel_reason(hwc_families()[f]), "automatic");
        hwc_kernel_info info[32];
        size_t n = hwc_kernels(hwc_families()[f], info, 32);
        const char *best = NULL;
        for (size_t i = 0; i < n && !best; i++) {
            char ex[64];
            snprintf(ex, sizeof ex, "-%s", info[i].name);
            if (info[i].usable && !(env && strstr(env, ex))) best = info[i].name;
        }
        if (best) cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), best, "%s", hwc_families()[f]);
    }
    cr_assert_null(hwc_kernel_active("nosuch"));
    cr_assert_null(hwc_kernel_active(NULL));
    cr_assert_null(hwc_kernel_reason("nosuch"));
}

Test(dispatch, select_errors_leave_choice_alone) {
    const char *before = hwc_kernel_active("aes");
    cr_assert_eq(hwc_kernel_select(NULL, "generic"), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_kernel_select(NULL, NULL), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_kernel_select("nosuch", "generic"), HWC_ERR_UNKNOWN_FAMILY);
    cr_assert_eq(hwc_kernel_select("aes", "nosuch"), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_eq(hwc_kernel_select("aes", ""), HWC_ERR_UNKNOWN_KERNEL);
    cr_assert_eq(hwc_kernel_select("mpi", "aesni-typo"), HWC_ERR_UNKNOWN_KERNEL);
    /* a kernel of the other architecture: reserved name, not compiled in */
#if defined(__x86_64__)
    cr_assert_eq(hwc_kernel_select("aes", "neon"), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert_eq(hwc_kernel_select("mpi", "armv8-asm"), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert_eq(hwc_kernel_select("streebog", "arm64-ilps"), HWC_ERR_KERNEL_UNAVAILABLE);
#elif defined(__aarch64__)
    cr_assert_eq(hwc_kernel_select("aes", "aesni"), HWC_ERR_KERNEL_UNAVAILABLE);
    cr_assert_eq(hwc_kernel_select("mpi", "adx"), HWC_ERR_KERNEL_UNAVAILABLE);
#endif
    /* a reserved name of another family is unknown here */
    cr_assert_eq(hwc_kernel_select("aes", "adx"), HWC_ERR_UNKNOWN_KERNEL);
    /* compiled in but not usable on this CPU (exists under qemu's older models) */
    int unusable = 0;
    for (size_t f = 0; hwc_families()[f]; f++) {
        hwc_kernel_info info[32];
        size_t n = hwc_kernels(hwc_families()[f], info, 32);
        for (size_t i = 0; i < n; i++) {
            if (info[i].usable) continue;
            unusable++;
            cr_assert_eq(hwc_kernel_select(hwc_families()[f], info[i].name), HWC_ERR_KERNEL_UNAVAILABLE);
            cr_assert_str_neq(hwc_kernel_active(hwc_families()[f]), info[i].name);
        }
    }
    fprintf(stderr, "[dispatch] compiled-in kernels this CPU cannot run: %d\n", unusable);
    cr_assert_str_eq(hwc_kernel_active("aes"), before);
}

Test(dispatch, select_each_usable_kernel) {
    for (size_t f = 0; hwc_families()[f]; f++) {
        const char *names[32];
        size_t n = hwc_test_usable_kernels(hwc_families()[f], names, 32);
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(hwc_kernel_select(hwc_families()[f], names[i]), HWC_OK);
            cr_assert_str_eq(hwc_kernel_active(hwc_families()[f]), names[i]);
            cr_assert_str_eq(hwc_kernel_reason(hwc_families()[f]), "hwc_kernel_select");
        }
        cr_assert_eq(hwc_kernel_select(hwc_families()[f], NULL), HWC_OK);
    }
}

/* API.md: contexts created before a select keep the kernel they were created
   with; results are the same bytes whichever kernel made them. */
Test(dispatch, contexts_keep_their_kernel) {
    const char *names[32];
    size_t n = hwc_test_usable_kernels("aes", names, 32);
    const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    uint8_t pt[64], ref[64], out[64];
    for (int i = 0; i < 64; i++) pt[i] = (uint8_t)(i * 7);
    hwc_aes_key k;
    cr_assert_eq(hwc_kernel_select("aes", "generic"), HWC_OK);
    cr_assert_eq(hwc_aes_setkey(&k, key, 16), HWC_OK);
    const void *bound = k.impl;
    cr_assert_eq(hwc_aes_ecb_encrypt(&k, ref, pt, 64), HWC_OK);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(hwc_kernel_select("aes", names[i]), HWC_OK);
        cr_assert_eq(hwc_aes_ecb_encrypt(&k, out, pt, 64), HWC_OK);
        cr_assert_eq(k.impl, bound, "context changed kernel after select(%s)", names[i]);
        cr_assert_arr_eq(out, ref, 64);
    }
    /* a Streebog context started on one kernel finishes on it */
    const char *sb[32];
    size_t ns = hwc_test_usable_kernels("streebog", sb, 32);
    uint8_t d_ref[64], d[64];
    cr_assert_eq(hwc_streebog(512, pt, 64, d_ref), HWC_OK);
    for (size_t i = 0; i < ns; i++) {
        hwc_streebog_ctx c;
        cr_assert_eq(hwc_kernel_select("streebog", sb[i]), HWC_OK);
        cr_assert_eq(hwc_streebog_init(&c, 512), HWC_OK);
        const void *b = c.impl;
        cr_assert_eq(hwc_streebog_update(&c, pt, 10), HWC_OK);
        cr_assert_eq(hwc_kernel_select("streebog", sb[(i + 1) % ns]), HWC_OK);
        cr_assert_eq(hwc_streebog_update(&c, pt + 10, 54), HWC_OK);
        cr_assert_eq(c.impl, b);
        cr_assert_eq(hwc_streebog_final(&c, d), HWC_OK);
        cr_assert_arr_eq(d, d_ref, 64);
    }
    hwc_kernel_select("aes", NULL);
    hwc_kernel_select("streebog", NULL);
}

Test(dispatch, init_is_idempotent) {
    int first = hwc_init();
    for (int i = 0; i < 5; i++) cr_assert_eq(hwc_init(), first);
    cr_assert(hwc_cpu_features() != NULL);
}

Test(status, strings_version_wipe) {
    const int codes[] = {HWC_OK, HWC_ERR_NULL_POINTER, HWC_ERR_KEY_LENGTH, HWC_ERR_DATA_LENGTH,
                         HWC_ERR_BAD_ARGUMENT, HWC_ERR_UNKNOWN_FAMILY, HWC_ERR_UNKNOWN_KERNEL,
                         HWC_ERR_KERNEL_UNAVAILABLE, HWC_ERR_NO_MEMORY, HWC_ERR_AUTH_FAILED};
    for (size_t i = 0; i < 10; i++) {
        cr_assert_eq(codes[i], -(int)i);
        cr_assert(hwc_strerror(codes[i]) && hwc_strerror(codes[i])[0]);
        for (size_t j = 0; j < i; j++) cr_assert_str_neq(hwc_strerror(codes[i]), hwc_strerror(codes[j]));
    }
    cr_assert_str_eq(hwc_strerror(-1000), "unknown status code");
    cr_assert_str_eq(hwc_strerror(7), "unknown status code");
    unsigned a, b, c;
    char end;
    cr_assert_eq(sscanf(hwc_version(), "%u.%u.%u%c", &a, &b, &c, &end), 3, "version '%s'", hwc_version());
    uint8_t buf[100];
    memset(buf, 0xff, sizeof buf);
    hwc_wipe(buf + 1, 98);
    cr_assert_eq(buf[0], 0xff);
    cr_assert_eq(buf[99], 0xff);
    for (int i = 1; i < 99; i++) cr_assert_eq(buf[i], 0);
    hwc_wipe(NULL, 0);
    hwc_wipe(NULL, 10);   /* documented no-op */
    hwc_wipe(buf, 0);
    cr_assert_eq(buf[0], 0xff);
}
