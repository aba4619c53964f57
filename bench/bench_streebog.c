/* placeholder: family bench being written */
#include "bench.h"
void hwc_bench_streebog(const hwc_bench_opts *o) { (void)o; }
