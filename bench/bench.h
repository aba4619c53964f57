/* Benchmark harness shared by bench/hwcrypt-bench and `hwcrypt bench`.
 * Clock: this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so time the
 * scheduler gives to other processes on a shared machine is not counted;
 * core cycles = CPU time x the core frequency read with a chain of
 * dependent register adds (one per cycle) just before and just after each
 * timed batch (the clock moves between batches on a shared VM). The TSC is not
 * used: on virtual machines it often ticks at a fixed rate unrelated to the
 * core clock (docs/bench.md). */
#ifndef HWC_BENCH_H
#define HWC_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Limits of the options: hwc_bench_main refuses values outside them. */
#define HWC_BENCH_MAX_ROUNDS 31        /* samples kept per case */
#define HWC_BENCH_MAX_BATCH_MS 10000.0 /* one timed batch */

typedef struct hwc_bench_opts {
    int quick;            /* short run (README's first command): fewer sizes and rounds */
    int json;             /* rows as JSON on stdout instead of a table */
    const char *family;   /* NULL = all; "aes" (with GCM), "gcm" (GCM only), "streebog", "mpi" */
    int rounds;           /* interleaved repetitions per case (1..HWC_BENCH_MAX_ROUNDS);
                             median is reported */
    double batch_ms;      /* target time of one timed batch (0 < ms <= HWC_BENCH_MAX_BATCH_MS) */
    int veracrypt;        /* streebog: only the VeraCrypt PBKDF2 profile */
} hwc_bench_opts;

/* One thing to time: run(arg, iters) performs `iters` operations. */
typedef struct hwc_bench_case {
    const char *impl;     /* kernel name ("avx512") or peer ("openssl 3.0.19") */
    int is_peer;          /* 1 for other libraries */
    const char *kernel;   /* for our kernels: hwc_kernel_select(family, kernel) before each batch */
    void (*run)(void *arg, size_t iters);
    void *arg;
} hwc_bench_case;

/* What a row reports per operation. */
typedef enum { HWC_UNIT_BYTES, HWC_UNIT_LIMBS, HWC_UNIT_OPS } hwc_bench_unit;

/* Time every case, interleaved round by round (a noisy neighbour hits all
   cases alike), and emit one row per case: median time per operation,
   MB/s (or ops/s), core cycles per byte (or per limb, or per op) and the
   ratio to the fastest peer in the same group. `units` = bytes (or limbs)
   per operation. `family` picks the kernel family for selection. */
void hwc_bench_group(const hwc_bench_opts *o, const char *family, const char *op,
                     const char *size_label, double units, hwc_bench_unit unit,
                     hwc_bench_case *cases, size_t ncases);

/* Core clock in GHz (calibrated once per process: the header, hwcrypt-ab). */
double hwc_bench_core_ghz(void);

/* Seconds of this thread's CPU time. */
double hwc_bench_now(void);

/* Printed once before the first row: CPU, kernels, clocks, peers found. */
void hwc_bench_header(const hwc_bench_opts *o);
void hwc_bench_footer(const hwc_bench_opts *o);

/* Keep the optimiser from dropping work whose result is unused. */
void hwc_bench_sink(const void *p, size_t len);

/* Family drivers (bench_aes.c, bench_gcm.c, bench_streebog.c, bench_mpi.c). */
void hwc_bench_aes(const hwc_bench_opts *o);
void hwc_bench_aes_many(const hwc_bench_opts *o);   /* bench_aes_many.c, run by hwc_bench_aes */
void hwc_bench_gcm(const hwc_bench_opts *o);
void hwc_bench_streebog(const hwc_bench_opts *o);
void hwc_bench_mpi(const hwc_bench_opts *o);

/* libgcrypt's one-time initialisation (bench_aes.c), for every libgcrypt peer;
   0 when ready. */
int hwc_bench_gcrypt_init(void);

/* Entry point used by both programs: parses argv (after "bench"). */
int hwc_bench_main(int argc, char **argv);

#endif
