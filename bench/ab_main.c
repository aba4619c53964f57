/* hwcrypt-ab: this tree against a baseline build of the library, row by row,
 * in one process (built and run by scripts/ab-baseline.sh). The two builds'
 * batches alternate in every round (ABBA order), so a noisy neighbour that
 * slows the machine for seconds slows both alike; a row's figure is the
 * median over the rounds of (this tree's time / the baseline's time) for the
 * same batch size, beside the ratio of the two builds' fastest batches.
 * Rows: the operations of `hwcrypt bench --full` that both versions have
 * (bench/ab_ops.c), on every kernel both have. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "bench.h"
#include "ab_ops.h"

static const char *const op_names[AB_NOPS] = {
    "ecb-enc", "ecb-dec", "cbc-enc", "cbc-dec", "ctr", "xts-enc", "xts-dec", "cmac", "gcm-enc", "gcm-dec",
    "cbc-enc-many64", "cbc-enc-many64-oop", "cmac-many64", "xts-sectors256",
    "streebog-256", "streebog-512", "hmac-sb512", "pbkdf2-sb512-1000it", "muladd", "modexp"};

const char *ab_family(ab_op op) {
    return op <= AB_XTS_SECTORS ? "aes" : op <= AB_PBKDF2_SB512 ? "streebog" : "mpi";
}

typedef struct {
    int rounds;
    double batch_ms;
    const char *family;
    const char *only;   /* rows whose "operation size kernel" contains one of its '|'-separated parts */
    int more;           /* rows beyond the bench's */
    uint8_t *in, *out;  /* data of every row (bench/bench_aes.c's layout) */
    int slower, rows;
} ab_opts;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double timed(void (*run)(void *, size_t), void *ctx, size_t iters) {
    const double t0 = hwc_bench_now();
    run(ctx, iters);
    return hwc_bench_now() - t0;
}

/* Iterations that make one batch of the baseline last about batch_ms. */
static size_t batch_iters(const ab_opts *o, void *ctx) {
    for (size_t iters = 1;; iters *= 4) {
        const double dt = timed(base_ab_run, ctx, iters);
        if (dt * 1e3 >= o->batch_ms / 4 || iters >= ((size_t)1 << 30)) {
            const double want = (double)iters * o->batch_ms / (dt * 1e3 + 1e-9);
            return want < 1 ? 1 : (size_t)want;
        }
    }
}

/* 1 when name contains one of the '|'-separated parts of pat */
static int name_matches(const char *name, const char *pat) {
    for (;;) {
        const char *bar = strchr(pat, '|');
        const size_t n = bar ? (size_t)(bar - pat) : strlen(pat);
        for (const char *p = name; *p; p++)
            if (!strncmp(p, pat, n)) return 1;
        if (!bar) return 0;
        pat = bar + 1;
    }
}

static void row(ab_opts *o, ab_op op, unsigned key_len, size_t len, const char *kernel) {
    enum { MAXR = 401 };
    const ab_row r = {op, key_len, len, kernel, o->in, o->out};
    char size[32], what[48], name[128];
    snprintf(size, sizeof size, "%zu%s", len, ab_family(op)[0] == 'm' ? " limbs" : " B");
    if (ab_family(op)[0] == 'a' && op != AB_CMAC) snprintf(what, sizeof what, "aes%u-%s", 8 * key_len, op_names[op]);
    else if (op == AB_CMAC) snprintf(what, sizeof what, "cmac-aes%u", 8 * key_len);
    else snprintf(what, sizeof what, "%s", op_names[op]);
    snprintf(name, sizeof name, "%s %s %s", what, size, kernel);
    if (o->only && !name_matches(name, o->only)) return;
    void *nc = new_ab_setup(&r), *bc = nc ? base_ab_setup(&r) : NULL;
    if (!nc || !bc) {
        if (nc) new_ab_done(nc);
        return;
    }
    const size_t iters = batch_iters(o, bc);
    double tn[MAXR], tb[MAXR], ratio[MAXR];
    const int rounds = o->rounds < MAXR ? o->rounds : MAXR;
    timed(new_ab_run, nc, iters);   /* warm both */
    for (int i = 0; i < rounds; i++) {
        if (i & 1) {
            tb[i] = timed(base_ab_run, bc, iters);
            tn[i] = timed(new_ab_run, nc, iters);
        } else {
            tn[i] = timed(new_ab_run, nc, iters);
            tb[i] = timed(base_ab_run, bc, iters);
        }
        ratio[i] = tn[i] / tb[i];
    }
    double mn = tn[0], mb = tb[0];   /* the quietest batch of each build */
    for (int i = 1; i < rounds; i++) {
        mn = tn[i] < mn ? tn[i] : mn;
        mb = tb[i] < mb ? tb[i] : mb;
    }
    /* bytes per call: len, times the messages or sectors of one call */
    const double rm = median(ratio, rounds), units = (double)ab_per_call(op) * (double)len * (double)iters;
    const double ghz = hwc_bench_core_ghz();
    printf("| %s | %s | %s | %.4g | %.4g | %.3f | %.3f |%s\n", what, size, kernel,
           median(tn, rounds) * ghz * 1e9 / units, median(tb, rounds) * ghz * 1e9 / units, rm, mn / mb,
           rm > 1.02 ? " slower" : "");
    fflush(stdout);
    o->rows++;
    o->slower += rm > 1.02;
    new_ab_done(nc);
    base_ab_done(bc);
}

static void family_rows(ab_opts *o, const char *fam, void (*each)(ab_opts *, const char *kernel)) {
    if (o->family && strcmp(o->family, fam) != 0) return;
    hwc_kernel_info ki[16];
    const size_t nk = hwc_kernels(fam, ki, 16);
    for (size_t i = 0; i < nk && i < 16; i++)
        if (ki[i].usable) each(o, ki[i].name);
        else printf("(%s %s: not usable on this CPU, not timed)\n", fam, ki[i].name);
}

static void aes_rows(ab_opts *o, const char *k) {
    static const size_t sizes[] = {16, 64, 1024, 10000, 16384, 65536, 1u << 20};
    static const size_t units[] = {512, 4096, 16384};
    static const size_t many[] = {64, 1024, 4096};   /* bytes per message */
    /* the rows of `hwcrypt bench --full` (bench/bench_aes.c); with --more also
       ECB and XTS decryption, 32/48-byte calls, XTS units of 1 KiB, 2 KiB and
       1 MiB, GCM at 100, 256, 1000, 2048 and 4096 bytes and CMAC and CBC (in
       place) batches of 16, 48 and 80-byte messages */
    for (unsigned kl = 16; kl <= 32; kl += 16)
        for (int op = AB_ECB_ENC; op <= AB_XTS_SECTORS; op++) {
            if (!o->more && (op == AB_ECB_DEC || op == AB_XTS_DEC)) continue;
            if (op == AB_XTS_SECTORS) {
                for (size_t i = 0; i < 2; i++) row(o, op, kl, units[i], k);   /* 512 B, 4 KiB */
                continue;
            }
            if (op == AB_XTS_ENC || op == AB_XTS_DEC) {
                for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
                    if (o->more && units[i] == 4096) {   /* zmm: the held loop's other sizes */
                        row(o, op, kl, 1024, k);
                        row(o, op, kl, 2048, k);
                    }
                    row(o, op, kl, units[i], k);
                }
                if (o->more) row(o, op, kl, (size_t)1 << 20, k);
                continue;
            }
            if (op == AB_CBC_MANY || op == AB_CBC_MANY_OOP || op == AB_CMAC_MANY) {
                if (o->more && op != AB_CBC_MANY_OOP) {   /* one block (the finals); CMAC: a lane buffer; past it */
                    row(o, op, kl, 16, k);
                    row(o, op, kl, 48, k);
                    row(o, op, kl, 80, k);
                }
                for (size_t i = 0; i < sizeof many / sizeof *many; i++) row(o, op, kl, many[i], k);
                continue;
            }
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                if (sizes[i] == 10000 && op != AB_CBC_ENC && op != AB_CMAC) continue;
                if (o->more && sizes[i] == 64) {
                    row(o, op, kl, 32, k);
                    row(o, op, kl, 48, k);
                }
                if (o->more && sizes[i] == 1024 && (op == AB_GCM_ENC || op == AB_GCM_DEC)) {
                    row(o, op, kl, 256, k);   /* one group below a zmm batch */
                    row(o, op, kl, 1000, k);  /* a batch, a group and a partial block */
                }
                row(o, op, kl, sizes[i], k);
                if (o->more && sizes[i] == 1024 && (op == AB_GCM_ENC || op == AB_GCM_DEC)) {
                    row(o, op, kl, 2048, k);  /* 4 and 8 zmm batches: the broadcast key table's first sizes */
                    row(o, op, kl, 4096, k);
                }
                if (o->more && sizes[i] == 64 && (op == AB_GCM_ENC || op == AB_GCM_DEC))
                    row(o, op, kl, 100, k);   /* 6 blocks and a partial one: one call of registers on zmm */
            }
        }
}

static void streebog_rows(ab_opts *o, const char *k) {
    static const size_t sizes[] = {16, 64, 1024, 16384, 65536, 1u << 20};
    for (int op = AB_SB256; op <= AB_SB512; op++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) row(o, op, 0, sizes[i], k);
    row(o, AB_HMAC_SB512, 0, 64, k);
    row(o, AB_PBKDF2_SB512, 0, 64, k);
}

static void mpi_rows(ab_opts *o, const char *k) {
    static const size_t muladd[] = {8, 16, 32, 64}, modexp[] = {16, 32, 48, 64};
    for (size_t i = 0; i < 4; i++) row(o, AB_MULADD, 0, muladd[i], k);
    for (size_t i = 0; i < 4; i++) row(o, AB_MODEXP, 0, modexp[i], k);
}

int main(int argc, char **argv) {
    ab_opts o = {.rounds = 41, .batch_ms = 1.0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) o.rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--batch-ms") && i + 1 < argc) o.batch_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--family") && i + 1 < argc) o.family = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) o.only = argv[++i];
        else if (!strcmp(argv[i], "--more")) o.more = 1;
        else {
            fprintf(stderr, "usage: hwcrypt-ab [--rounds N] [--batch-ms MS] [--family aes|streebog|mpi] "
                            "[--only TEXT[|TEXT...]] [--more]\n");
            return 2;
        }
    }
    if (o.rounds < 1 || o.batch_ms <= 0) return 2;
    const size_t maxlen = (1u << 20) + 64;
    o.in = aligned_alloc(64, maxlen);
    o.out = aligned_alloc(64, maxlen);
    if (!o.in || !o.out) return 1;
    for (size_t i = 0; i < maxlen; i++) o.in[i] = (uint8_t)(i * 131 + 7);
    memset(o.out, 0, maxlen);
    printf("core clock %.2f GHz; %d rounds of %.1f ms batches per build, alternating; "
           "c/unit = median batch time x clock\n\n",
           hwc_bench_core_ghz(), o.rounds, o.batch_ms);
    printf("| operation | size | kernel | this tree c/unit | baseline c/unit | this/baseline (median per round) "
           "| minimum / minimum |\n");
    printf("|---|---|---|---|---|---|---|\n");
    family_rows(&o, "aes", aes_rows);
    family_rows(&o, "streebog", streebog_rows);
    family_rows(&o, "mpi", mpi_rows);
    printf("\n%d rows, %d slower than the baseline by more than 2%%\n", o.rows, o.slower);
    free(o.in);
    free(o.out);
    return 0;
}
