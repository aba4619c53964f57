/* The races of tests/threads_race.h as a plain program, for the
 * ThreadSanitizer build (HWC_TSAN=ON): TSan reports any data race in the
 * lazy init or in kernel switching; exit status 1 on a wrong result. */
#include "threads_race.h"

int main(void) {
    int bad = race_cold_init();              /* first hwcrypt calls of the process */
    bad += race_kernel_switching();
    printf("tsan_threads: cold init from 8 threads, %d rounds of kernel switching: %s\n",
           RACE_ROUNDS, bad ? "FAILED" : "ok");
    return bad != 0;
}
