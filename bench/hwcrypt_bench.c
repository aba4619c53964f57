/* hwcrypt-bench: the same benchmark as `hwcrypt bench`. */
#include "bench.h"

int main(int argc, char **argv) { return hwc_bench_main(argc - 1, argv + 1); }
