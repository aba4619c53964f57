/* Timing, clock calibration, medians and output for the benchmark. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"

double hwc_bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hwc_bench_sink(const void *p, size_t len) {
    __asm__ __volatile__("" : : "r"(p), "r"(len) : "memory");
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A chain of 1000 dependent register adds: each needs the previous result,
   so the chain retires one add per core cycle whatever the clock. (Adds of an
   immediate are folded by Zen 5's renamer and run many per cycle: the
   addend must be a register.) */
static void add_chain(uint64_t iters) {
    uint64_t x = 0, one = 1;
    for (uint64_t i = 0; i < iters; i++) {
#if defined(__x86_64__)
        __asm__ __volatile__(".rept 1000\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
        __asm__ __volatile__(".rept 1000\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one));
#else
        x += one;
#endif
    }
    hwc_bench_sink(&x, sizeof x);
}

/* The core clock over one chain of iters x 1000 adds, in GHz. */
static double chain_ghz(uint64_t iters) {
    double t0 = hwc_bench_now();
    add_chain(iters);
    return (double)iters * 1000.0 / ((hwc_bench_now() - t0) * 1e9);
}

double hwc_bench_core_ghz(void) {
    static double ghz;
    if (ghz > 0) return ghz;
    add_chain(20000);   /* warm up: let the core reach its running clock */
    double s[9];
    for (int r = 0; r < 9; r++) s[r] = chain_ghz(20000);
    ghz = median(s, 9);
    return ghz;
}

static int g_rows;

void hwc_bench_header(const hwc_bench_opts *o) {
    double ghz = hwc_bench_core_ghz();
    if (o->json) {
        printf("{\"version\":\"%s\",\"core_ghz\":%.3f,\"clock\":\"thread CPU time x core clock read around each timed batch\",\"rows\":[\n",
               hwc_version(), ghz);
        return;
    }
    printf("hwcrypt %s bench: core clock %.2f GHz at start (dependent-add chain), cycles = thread CPU "
           "time x the clock read around each timed batch; medians of %d interleaved rounds\n",
           hwc_version(), ghz, o->rounds);
    printf("active kernels: aes=%s streebog=%s mpi=%s\n", hwc_kernel_active("aes"),
           hwc_kernel_active("streebog"), hwc_kernel_active("mpi"));
    printf("rate: MB/s on c/B rows, million limbs/s on c/limb rows, operations/s on c/op rows;\n"
           "vs peer: the fastest peer's time / this kernel's time in the same group\n");
    printf("%-9s %-16s %-8s %-22s %12s %11s %9s\n", "family", "operation", "size", "implementation",
           "rate", "cycles/unit", "vs peer");
}

void hwc_bench_footer(const hwc_bench_opts *o) {
    if (o->json) printf("\n]}\n");
}

/* Find an iteration count that makes one batch last about batch_ms. */
static size_t calibrate_iters(const hwc_bench_opts *o, const char *family, hwc_bench_case *c) {
    size_t iters = 1;
    for (;;) {
        if (c->kernel) hwc_kernel_select(family, c->kernel);
        double t0 = hwc_bench_now();
        c->run(c->arg, iters);
        double dt = hwc_bench_now() - t0;
        if (dt * 1e3 >= o->batch_ms / 4 || iters >= ((size_t)1 << 30)) {
            double want = (double)iters * o->batch_ms / (dt * 1e3 + 1e-9);
            return want < 1 ? 1 : (size_t)want;
        }
        iters *= 4;
    }
}

/* Adds per clock reading around each timed batch: about 0.3 ms. */
#define BATCH_CLOCK_ITERS 1000

void hwc_bench_group(const hwc_bench_opts *o, const char *family, const char *op,
                     const char *size_label, double units, hwc_bench_unit unit,
                     hwc_bench_case *cases, size_t ncases) {
    enum { MAXC = 16, MAXR = HWC_BENCH_MAX_ROUNDS };
    size_t iters[MAXC];
    double samples[MAXC][MAXR], cycles[MAXC][MAXR], med[MAXC], med_cyc[MAXC];
    int rounds = o->rounds;   /* hwc_bench_main keeps it within 1..MAXR */
    if (ncases > MAXC) ncases = MAXC;
    for (size_t c = 0; c < ncases; c++) iters[c] = calibrate_iters(o, family, &cases[c]);
    /* The core clock moves by several percent from one millisecond to the
       next on a shared VM (docs/bench.md): each batch's cycles use the mean
       of clock readings taken just before and just after it. */
    for (int r = 0; r < rounds; r++) {
        double ghz_before = chain_ghz(BATCH_CLOCK_ITERS);
        for (size_t c = 0; c < ncases; c++) {
            if (cases[c].kernel) hwc_kernel_select(family, cases[c].kernel);
            double t0 = hwc_bench_now();
            cases[c].run(cases[c].arg, iters[c]);
            samples[c][r] = (hwc_bench_now() - t0) / (double)iters[c];
            const double ghz_after = chain_ghz(BATCH_CLOCK_ITERS);
            cycles[c][r] = samples[c][r] * 0.5 * (ghz_before + ghz_after) * 1e9;
            ghz_before = ghz_after;
        }
    }
    hwc_kernel_select(family, NULL);
    double best_peer = 0;
    for (size_t c = 0; c < ncases; c++) {
        med[c] = median(samples[c], (size_t)rounds);
        med_cyc[c] = median(cycles[c], (size_t)rounds);
        if (cases[c].is_peer && (best_peer == 0 || med[c] < best_peer)) best_peer = med[c];
    }
    for (size_t c = 0; c < ncases; c++) {
        double sec = med[c];
        /* MB/s, M limbs/s, or operations/s */
        double rate = unit == HWC_UNIT_OPS ? 1.0 / sec : units / sec / 1e6;
        double cyc = med_cyc[c] / (unit == HWC_UNIT_OPS ? 1.0 : units);
        double ratio = best_peer > 0 ? best_peer / sec : 0;
        const char *unit_name = unit == HWC_UNIT_BYTES ? "c/B" : unit == HWC_UNIT_LIMBS ? "c/limb" : "c/op";
        if (o->json) {
            printf("%s{\"family\":\"%s\",\"op\":\"%s\",\"size\":\"%s\",\"impl\":\"%s\",\"peer\":%s,"
                   "\"ns_per_op\":%.3f,\"%s\":%.3f,\"cycles_per_unit\":%.4f,\"unit\":\"%s\","
                   "\"ratio_to_best_peer\":%.3f}",
                   g_rows++ ? ",\n" : "", family, op, size_label, cases[c].impl,
                   cases[c].is_peer ? "true" : "false", sec * 1e9,
                   unit == HWC_UNIT_BYTES ? "mb_per_s" : unit == HWC_UNIT_LIMBS ? "mlimbs_per_s" : "ops_per_s", rate, cyc, unit_name,
                   cases[c].is_peer ? 0.0 : ratio);
        } else {
            char ratio_s[16] = "";
            if (!cases[c].is_peer && ratio > 0) snprintf(ratio_s, sizeof ratio_s, "%.2fx", ratio);
            char impl[40];
            snprintf(impl, sizeof impl, "%s%s", cases[c].is_peer ? "peer:" : "", cases[c].impl);
            char cyc_s[24];
            if (unit == HWC_UNIT_OPS && cyc >= 1e5)
                snprintf(cyc_s, sizeof cyc_s, "%.3fM c/op", cyc / 1e6);
            else
                snprintf(cyc_s, sizeof cyc_s, "%.3f %s", cyc, unit_name);
            printf("%-9s %-16s %-8s %-22s %12.1f %11s %9s\n", family, op, size_label, impl,
                   rate, cyc_s, ratio_s);
        }
        fflush(stdout);
    }
}
