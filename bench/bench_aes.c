/* placeholder: family bench being written */
#include "bench.h"
void hwc_bench_aes(const hwc_bench_opts *o) { (void)o; }
