/* API.md: every entry point works without hwc_init() (lazy, thread-safe
 * one-time init). 8 threads make their first hwcrypt call at the same
 * moment (a fresh process per Test(), so the init is cold) and must get the
 * same bytes as a single-threaded run afterwards. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common.h"

enum { THREADS = 8 };

typedef struct {
    pthread_barrier_t *go;
    uint8_t digest[64], ct[64], tag[16];
    hwc_limb prod[8];
    const char *aes_kernel;
    int rc;
} job;

static void work(job *j) {
    static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                    0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    uint8_t msg[64];
    for (int i = 0; i < 64; i++) msg[i] = (uint8_t)i;
    hwc_aes_key k;
    uint8_t ctr[16] = {0};
    const hwc_limb a[4] = {~0ull, 3, 5, 7}, b[4] = {11, ~0ull, 13, 17};
    j->rc = hwc_streebog(512, msg, sizeof msg, j->digest);
    j->rc |= hwc_aes_setkey(&k, key, 16);
    j->rc |= hwc_aes_ctr_crypt(&k, ctr, j->ct, msg, sizeof msg);
    j->rc |= hwc_cmac(key, 16, msg, sizeof msg, j->tag);
    j->rc |= hwc_mpi_mul(j->prod, a, 4, b, 4);
    j->aes_kernel = hwc_kernel_active("aes");
}

static void *thread_main(void *arg) {
    job *j = arg;
    pthread_barrier_wait(j->go);
    work(j);
    return NULL;
}

Test(threads, cold_init_from_eight_threads) {
    pthread_barrier_t go;
    pthread_t t[THREADS];
    job jobs[THREADS];
    memset(jobs, 0, sizeof jobs);
    cr_assert_eq(pthread_barrier_init(&go, NULL, THREADS), 0);
    for (int i = 0; i < THREADS; i++) {
        jobs[i].go = &go;
        cr_assert_eq(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    job ref;
    memset(&ref, 0, sizeof ref);
    work(&ref);
    cr_assert_eq(ref.rc, HWC_OK);
    for (int i = 0; i < THREADS; i++) {
        cr_assert_eq(jobs[i].rc, HWC_OK, "thread %d", i);
        cr_assert_arr_eq(jobs[i].digest, ref.digest, 64, "thread %d streebog", i);
        cr_assert_arr_eq(jobs[i].ct, ref.ct, 64, "thread %d aes-ctr", i);
        cr_assert_arr_eq(jobs[i].tag, ref.tag, 16, "thread %d cmac", i);
        cr_assert_arr_eq(jobs[i].prod, ref.prod, sizeof ref.prod, "thread %d mpi", i);
        cr_assert_str_eq(jobs[i].aes_kernel, ref.aes_kernel);
    }
}
