/* The two thread races of the suite, as plain functions (no Criterion) so that
 * tests/test_threads.c runs them in the suite and tests/tsan_threads.c runs
 * them under ThreadSanitizer (Criterion's runner cannot start under TSan).
 * Each returns the number of failures and prints what failed to stderr. */
#ifndef HWC_TEST_THREADS_RACE_H
#define HWC_TEST_THREADS_RACE_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "test_skip.h"

typedef struct {
    pthread_barrier_t *go;
    uint8_t digest[64], ct[64], tag[16];
    hwc_limb prod[8];
    const char *aes_kernel;
    int rc;
} race_job;

/* One of everything: Streebog, AES-CTR, CMAC, mpi_mul; each kernel gives the
   same bytes, so the results never depend on which kernel ran. */
static void race_work(race_job *j) {
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

static int race_same(const race_job *j, const race_job *ref, const char *who, int id) {
    int bad = j->rc != HWC_OK || memcmp(j->digest, ref->digest, 64) || memcmp(j->ct, ref->ct, 64) ||
              memcmp(j->tag, ref->tag, 16) || memcmp(j->prod, ref->prod, sizeof ref->prod);
    if (bad) fprintf(stderr, "%s %d: rc %d or bytes differ from the single-threaded run\n", who, id, j->rc);
    return bad;
}

static void *race_cold_main(void *arg) {
    race_job *j = arg;
    pthread_barrier_wait(j->go);
    race_work(j);
    return NULL;
}

/* API.md: every entry point works without hwc_init() (lazy, thread-safe
   one-time init). 8 threads make their first hwcrypt call at the same moment
   (call this first in a fresh process) and get the single-threaded bytes. */
static int race_cold_init(void) {
    enum { THREADS = 8 };
    pthread_barrier_t go;
    pthread_t t[THREADS];
    race_job jobs[THREADS], ref;
    memset(jobs, 0, sizeof jobs);
    memset(&ref, 0, sizeof ref);
    if (pthread_barrier_init(&go, NULL, THREADS)) return 1;
    for (int i = 0; i < THREADS; i++) {
        jobs[i].go = &go;
        if (pthread_create(&t[i], NULL, race_cold_main, &jobs[i])) return 1;
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    race_work(&ref);
    int bad = ref.rc != HWC_OK;
    for (int i = 0; i < THREADS; i++) {
        bad += race_same(&jobs[i], &ref, "thread", i);
        bad += strcmp(jobs[i].aes_kernel, ref.aes_kernel) != 0;
    }
    return bad;
}

/* hwc_kernel_select from two threads while four others hash, encrypt and
   multiply: a key set up at any moment is bound to one kernel (whichever was
   active), and every result must match the single-threaded one. */
enum { RACE_WORKERS = 4, RACE_SWITCHERS = 2, RACE_ROUNDS = 300 };

typedef struct {
    pthread_barrier_t *go;
    const race_job *ref;
    int id, bad;
} racer;

/* 1 when the automatic kernel of the family is one HWC_TEST_SKIP excludes. */
static int race_automatic_skipped(const char *family) {
    hwc_kernel_info info[16];
    size_t total = hwc_kernels(family, info, 16);
    for (size_t i = 0; i < total && i < 16; i++)
        if (info[i].usable) return hwc_test_skipped(family, info[i].name);
    return 0;
}

static void *race_switcher_main(void *arg) {
    racer *r = arg;
    const char *const *fams = hwc_families();
    pthread_barrier_wait(r->go);
    for (int round = 0; round < RACE_ROUNDS; round++) {
        for (size_t f = 0; fams[f]; f++) {
            hwc_kernel_info info[16];
            const char *names[16];
            size_t total = hwc_kernels(fams[f], info, 16), n = 0;
            for (size_t i = 0; i < total && i < 16; i++)
                if (info[i].usable && !hwc_test_skipped(fams[f], info[i].name)) names[n++] = info[i].name;
            /* n: automatic, unless the automatic choice is a skipped kernel */
            size_t choices = n + !race_automatic_skipped(fams[f]);
            size_t pick = (size_t)(round + r->id) % choices;
            if (hwc_kernel_select(fams[f], pick == n ? NULL : names[pick]) != HWC_OK) r->bad++;
        }
    }
    return NULL;
}

static void *race_worker_main(void *arg) {
    racer *r = arg;
    race_job mine;
    pthread_barrier_wait(r->go);
    for (int round = 0; round < RACE_ROUNDS; round++) {
        memset(&mine, 0, sizeof mine);
        race_work(&mine);
        r->bad += race_same(&mine, r->ref, "worker", r->id);
    }
    return NULL;
}

static int race_kernel_switching(void) {
    race_job ref;
    memset(&ref, 0, sizeof ref);
    /* never on a kernel HWC_TEST_SKIP excludes (an emulator that computes it
       wrongly): start each such family on its best other kernel */
    for (const char *const *f = hwc_families(); *f; f++) {
        hwc_kernel_info info[16];
        size_t total = hwc_kernels(*f, info, 16);
        for (size_t i = 0; i < total && i < 16; i++)
            if (info[i].usable && !hwc_test_skipped(*f, info[i].name)) {
                if (race_automatic_skipped(*f)) hwc_kernel_select(*f, info[i].name);
                break;
            }
    }
    race_work(&ref);
    pthread_barrier_t go;
    pthread_t t[RACE_WORKERS + RACE_SWITCHERS];
    racer r[RACE_WORKERS + RACE_SWITCHERS];
    int bad = ref.rc != HWC_OK;
    if (pthread_barrier_init(&go, NULL, RACE_WORKERS + RACE_SWITCHERS)) return 1;
    for (int i = 0; i < RACE_WORKERS + RACE_SWITCHERS; i++) {
        r[i] = (racer){&go, &ref, i, 0};
        if (pthread_create(&t[i], NULL, i < RACE_SWITCHERS ? race_switcher_main : race_worker_main, &r[i]))
            return 1;
    }
    for (int i = 0; i < RACE_WORKERS + RACE_SWITCHERS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    for (int i = 0; i < RACE_WORKERS + RACE_SWITCHERS; i++) bad += r[i].bad;
    for (const char *const *f = hwc_families(); *f; f++) bad += hwc_kernel_select(*f, NULL) != HWC_OK;
    return bad;
}

#endif
