/* hwcrypt: the command-line front end (info, hash, selftest, bench). */
#include <stdio.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#ifndef HWC_NO_BENCH
#include "bench/bench.h"
#else
/* built with -DHWC_BUILD_BENCH=OFF (tools/CMakeLists.txt) */
static int hwc_bench_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("hwcrypt: this build has no benchmark (configure with -DHWC_BUILD_BENCH=ON)\n", stderr);
    return 2;
}
#endif
#include "cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: hwcrypt <command> [options]\n"
            "  info [--json]                         CPU features, kernels, active choices\n"
            "  hash streebog256|streebog512 [OPTION]... [FILE]...   digests, as sha256sum\n"
            "       (-c/--check, --tag, -z, --quiet, --status, --strict, --warn,\n"
            "        --ignore-missing: see 'hwcrypt hash --help')\n"
            "  selftest                              known-answer tests on every usable kernel\n"
            "  bench [--quick|--full] [--json] [--family F]   throughput and cycles/byte\n"
            "  bench ... --rounds N (1-31) --batch-ms MS\n"
            "  version, --version                    library version\n"
            "  help, --help                          this text\n"
            "Environment: HWCRYPT_KERNEL=family=kernel,kernel,-kernel (see README).\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "info")) return hwc_cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "hash")) return hwc_cmd_hash(argc - 2, argv + 2);
    if (!strcmp(cmd, "selftest")) return hwc_cmd_selftest(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench")) return hwc_bench_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("hwcrypt %s\n", hwc_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "hwcrypt: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
