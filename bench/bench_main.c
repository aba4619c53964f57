/* hwcrypt bench: options, then every family of hwc_families() through its
 * benchmark (bench_<family>.c), timed by the harness of bench_core.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"

static void bench_aes_family(const hwc_bench_opts *o) {
    hwc_bench_aes(o);
    hwc_bench_gcm(o);
}

/* The benchmark of each family, by name. */
static void (*runner_of(const char *family))(const hwc_bench_opts *) {
    static const struct { const char *family; void (*run)(const hwc_bench_opts *); } runners[] = {
        {"aes", bench_aes_family}, {"streebog", hwc_bench_streebog}, {"mpi", hwc_bench_mpi}};
    for (size_t i = 0; i < sizeof runners / sizeof runners[0]; i++)
        if (!strcmp(runners[i].family, family)) return runners[i].run;
    return NULL;
}

static void usage(FILE *f) {
    fprintf(f, "usage: hwcrypt bench [--quick|--full] [--json] [--family aes|gcm|streebog|mpi]\n"
               "                     [--rounds N] [--batch-ms MS] [--veracrypt]\n"
               "  --quick   short run (default): a few sizes, under 20 s\n"
               "  --full    every size of the issue tables (1-3 minutes)\n"
               "  --veracrypt  only PBKDF2-HMAC-Streebog-512, 192 bytes, 500 000 iterations\n"
               "            (seconds to derive)\n"
               "  --rounds  interleaved rounds per case, 1..%d (default 5, --full 11)\n"
               "  --batch-ms  milliseconds per timed batch, 0 < MS <= %g (default 2, --full 5)\n",
            HWC_BENCH_MAX_ROUNDS, HWC_BENCH_MAX_BATCH_MS);
}

/* A whole decimal integer in [1, max]; anything else (empty, trailing text,
   out of range) is refused. */
static int parse_rounds(const char *s, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1 || v > HWC_BENCH_MAX_ROUNDS) return 0;
    *out = (int)v;
    return 1;
}

/* A finite number in (0, max]: NaN, infinities, trailing text refused. */
static int parse_batch_ms(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || !(v > 0) || v > HWC_BENCH_MAX_BATCH_MS) return 0;
    *out = v;
    return 1;
}

static int bad_value(const char *opt, const char *val) {
    fprintf(stderr, "hwcrypt bench: %s '%s' refused: want a whole number of rounds from 1 to %d, "
                    "or a finite number of milliseconds above 0 and at most %g\n",
            opt, val, HWC_BENCH_MAX_ROUNDS, HWC_BENCH_MAX_BATCH_MS);
    return 2;
}

int hwc_bench_main(int argc, char **argv) {
    hwc_bench_opts o = {.quick = 1, .json = 0, .family = NULL, .rounds = 0, .batch_ms = 0, .veracrypt = 0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick")) o.quick = 1;
        else if (!strcmp(a, "--full")) o.quick = 0;
        else if (!strcmp(a, "--json")) o.json = 1;
        else if (!strcmp(a, "--veracrypt")) o.veracrypt = 1, o.family = "streebog";
        else if (!strcmp(a, "--family") && i + 1 < argc) o.family = argv[++i];
        else if (!strcmp(a, "--rounds") && i + 1 < argc) {
            if (!parse_rounds(argv[++i], &o.rounds))
                return bad_value(a, argv[i]);
        } else if (!strcmp(a, "--batch-ms") && i + 1 < argc) {
            if (!parse_batch_ms(argv[++i], &o.batch_ms))
                return bad_value(a, argv[i]);
        }
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else { fprintf(stderr, "hwcrypt bench: unknown option '%s'\n", a); usage(stderr); return 2; }
    }
    if (o.family && strcmp(o.family, "gcm") && !runner_of(o.family)) {
        fprintf(stderr, "hwcrypt bench: unknown family '%s' (", o.family);
        for (const char *const *f = hwc_families(); *f; f++) fprintf(stderr, "%s, ", *f);
        fprintf(stderr, "or gcm = AES-GCM only)\n");
        return 2;
    }
    if (o.rounds == 0) o.rounds = o.quick ? 5 : 11;
    if (o.batch_ms == 0) o.batch_ms = o.quick ? 2.0 : 5.0;
    hwc_init();
    hwc_bench_header(&o);
    if (o.family && !strcmp(o.family, "gcm")) {
        hwc_bench_gcm(&o);
    } else {
        for (const char *const *f = hwc_families(); *f; f++) {
            if (o.family && strcmp(o.family, *f)) continue;
            void (*run)(const hwc_bench_opts *) = runner_of(*f);
            if (run) run(&o);
            else fprintf(stderr, "hwcrypt bench: no benchmark for family '%s' yet\n", *f);
        }
    }
    hwc_bench_footer(&o);
    return 0;
}
