/* Thread safety (API.md: lazy thread-safe init; a context keeps its kernel
 * when the active one changes): the races of tests/threads_race.h. Criterion
 * runs each Test() in a fresh process, so the first one's init is cold.
 * scripts/test-all.sh runs the same races under ThreadSanitizer
 * (tests/tsan_threads.c). */
#include "common.h"
#include "threads_race.h"

Test(threads, cold_init_from_eight_threads) {
    cr_assert_eq(race_cold_init(), 0, "see stderr");
}

Test(threads, kernel_switching_while_in_use) {
    cr_assert_eq(race_kernel_switching(), 0, "see stderr");
}
