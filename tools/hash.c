/* hwcrypt hash streebog256|streebog512 [OPTION]... [FILE]...
 * Options, output lines, escaping, messages and exit codes as GNU coreutils
 * sha256sum 9.x: "<hex>  <name>", " *<name>" with -b, BSD "TAG (name) = <hex>"
 * with --tag, NUL-terminated with -z; --check is in hash_check.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "cli.h"
#include "hash.h"

int hwc_hash_file(const char *path, unsigned bits, uint8_t *digest, int *missing) {
    FILE *f = stdin;
    if (strcmp(path, "-")) {
        f = fopen(path, "rb");
        if (!f) {
            if (missing && errno == ENOENT) {
                *missing = 1;
                return 0;
            }
            fprintf(stderr, "hwcrypt: ");
            hwc_hash_quote(stderr, path);
            fprintf(stderr, ": %s\n", strerror(errno));
            return -1;
        }
    }
    static uint8_t buf[1 << 16];
    hwc_streebog_ctx c;
    hwc_streebog_init(&c, bits);
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) hwc_streebog_update(&c, buf, got);
    int err = ferror(f) ? errno : 0;
    if (err) {
        fprintf(stderr, "hwcrypt: ");
        hwc_hash_quote(stderr, path);
        fprintf(stderr, ": %s\n", strerror(err));
    }
    if (f != stdin) fclose(f);
    else clearerr(stdin);
    hwc_streebog_final(&c, digest); /* also wipes c */
    return err ? -1 : 0;
}

/* GNU quotef(): names made only of these characters are printed bare. */
static int shell_safe(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-", *s))
            return 0;
    return 1;
}

void hwc_hash_quote(FILE *f, const char *name) {
    if (shell_safe(name)) {
        fputs(name, f);
        return;
    }
    int ctrl = 0, quote = 0;
    for (const char *p = name; *p; p++) {
        ctrl |= (unsigned char)*p < 0x20 || *p == 0x7f;
        quote |= *p == '\'';
    }
    if (quote && !ctrl && !strpbrk(name, "\"$`\\")) {
        fprintf(f, "\"%s\"", name);
        return;
    }
    /* '...' with ' as '\'' and control characters as $'\n' or $'\ooo' */
    int open = 0;
    for (const char *p = name; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        int special = ch < 0x20 || ch == 0x7f || ch == '\'';
        if (special && open) fputc('\'', f), open = 0;
        if (ch == '\'') fputs("\\'", f);
        else if (ch == '\n') fputs("$'\\n'", f);
        else if (ch == '\r') fputs("$'\\r'", f);
        else if (ch == '\t') fputs("$'\\t'", f);
        else if (special) fprintf(f, "$'\\%03o'", ch);
        else {
            if (!open) fputc('\'', f), open = 1;
            fputc(ch, f);
        }
    }
    if (open) fputc('\'', f);
}

void hwc_hash_print_name(const char *name, int escape, int cr) {
    if (!escape) {
        fputs(name, stdout);
        return;
    }
    for (; *name; name++) {
        if (*name == '\\') fputs("\\\\", stdout);
        else if (*name == '\n') fputs("\\n", stdout);
        else if (*name == '\r' && cr) fputs("\\r", stdout);
        else putchar(*name);
    }
}

static void print_line(const char *name, const uint8_t *d, const hwc_hash_opts *o, int tag,
                       int binary, int zero) {
    int escape = !zero && strpbrk(name, "\\\n\r") != NULL;
    if (escape) putchar('\\');
    if (tag) {
        printf("%s (", o->tag);
        hwc_hash_print_name(name, escape, 1);
        printf(") = ");
    }
    for (unsigned i = 0; i < o->bits / 8; i++) printf("%02x", d[i]);
    if (!tag) {
        printf(" %c", binary ? '*' : ' ');
        hwc_hash_print_name(name, escape, 1);
    }
    putchar(zero ? '\0' : '\n');
}

static void usage(FILE *f) {
    fprintf(f,
            "Usage: hwcrypt hash streebog256|streebog512 [OPTION]... [FILE]...\n"
            "Print or check Streebog (GOST R 34.11-2012) checksums, as sha256sum does.\n"
            "With no FILE, or when FILE is -, read standard input.\n"
            "  -b, --binary          mark lines with '*' (binary mode)\n"
            "  -c, --check           read checksums from the FILEs and check them\n"
            "      --tag             create a BSD-style checksum: STREEBOG-512 (FILE) = HEX\n"
            "  -t, --text            mark lines with ' ' (text mode, the default)\n"
            "  -z, --zero            end each output line with NUL, not newline,\n"
            "                        and disable file name escaping\n"
            "The following five options are useful only when verifying checksums:\n"
            "      --ignore-missing  don't fail or report status for missing files\n"
            "      --quiet           don't print OK for each successfully verified file\n"
            "      --status          don't output anything, status code shows success\n"
            "      --strict          exit non-zero for improperly formatted checksum lines\n"
            "  -w, --warn            warn about improperly formatted checksum lines\n"
            "      --help            display this help and exit\n"
            "      --version         output version information and exit\n"
            "--check reads sha256sum lines (HEX  FILE), BSD lines (STREEBOG-512 (FILE) = HEX,\n"
            "or rhash's GOST12-512) and one-space lines (HEX FILE, as gost12sum writes).\n"
            "Exit status: 0 if every file was read and every checksum matched, 1 otherwise\n"
            "(2 for an unknown or missing algorithm).\n");
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "hwcrypt: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'hwcrypt hash --help' for more information.\n");
    return 1;
}

/* stdout is flushed and checked: a write error is a failure (GNU close_stdout). */
static int finish(int ok) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hwcrypt: write error\n");
        return 1;
    }
    return ok ? 0 : 1;
}

enum { OPT_TAG = 256, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_IGNORE_MISSING, OPT_HELP, OPT_VERSION };

int hwc_cmd_hash(int argc, char **argv) {
    if (argc >= 1 && !strcmp(argv[0], "--help")) {
        usage(stdout);
        return finish(1);
    }
    if (argc < 1 || (strcmp(argv[0], "streebog256") && strcmp(argv[0], "streebog512"))) {
        if (argc < 1) fprintf(stderr, "hwcrypt hash: missing algorithm\n");
        else fprintf(stderr, "hwcrypt hash: unknown algorithm '%s' (streebog256, streebog512)\n", argv[0]);
        usage(stderr);
        return 2;
    }
    int b512 = !strcmp(argv[0], "streebog512");
    hwc_hash_opts o = {.bits = b512 ? 512 : 256,
                       .tag = b512 ? "STREEBOG-512" : "STREEBOG-256",
                       .alt_tag = b512 ? "GOST12-512" : "GOST12-256"};
    static const struct option longopts[] = {
        {"binary", no_argument, NULL, 'b'},    {"check", no_argument, NULL, 'c'},
        {"text", no_argument, NULL, 't'},      {"zero", no_argument, NULL, 'z'},
        {"warn", no_argument, NULL, 'w'},      {"tag", no_argument, NULL, OPT_TAG},
        {"quiet", no_argument, NULL, OPT_QUIET}, {"status", no_argument, NULL, OPT_STATUS},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING},
        {"help", no_argument, NULL, OPT_HELP}, {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    /* getopt names the program after argv[0]: give it "hwcrypt" */
    argv[0] = (char *)"hwcrypt";
    int check = 0, binary = -1, tag = 0, zero = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "bctwz", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': binary = 1; break;
        case 't': binary = 0; break;
        case 'c': check = 1; break;
        case 'z': zero = 1; break;
        case OPT_TAG: tag = 1; binary = 1; break;
        /* --status, --warn and --quiet: the last one given wins, as GNU's */
        case 'w': o.warn = 1, o.status_only = 0, o.quiet = 0; break;
        case OPT_QUIET: o.quiet = 1, o.status_only = 0, o.warn = 0; break;
        case OPT_STATUS: o.status_only = 1, o.warn = 0, o.quiet = 0; break;
        case OPT_STRICT: o.strict = 1; break;
        case OPT_IGNORE_MISSING: o.ignore_missing = 1; break;
        case OPT_HELP: usage(stdout); return finish(1);
        case OPT_VERSION: printf("hwcrypt hash (hwcrypt) %s\n", hwc_version()); return finish(1);
        default: fprintf(stderr, "Try 'hwcrypt hash --help' for more information.\n"); return 1;
        }
    }
    int text_given = binary == 0;
    if (tag && text_given) return usage_error("--tag does not support --text mode%s", "");
    if (zero && check) return usage_error("the --zero option is not supported when verifying checksums%s", "");
    if (tag && check) return usage_error("the --tag option is meaningless when verifying checksums%s", "");
    if (binary >= 0 && check)
        return usage_error("the --binary and --text options are meaningless when verifying checksums%s", "");
    const char *check_only[] = {o.ignore_missing ? "--ignore-missing" : NULL, o.status_only ? "--status" : NULL,
                                o.warn ? "--warn" : NULL, o.quiet ? "--quiet" : NULL,
                                o.strict ? "--strict" : NULL};
    for (size_t i = 0; !check && i < sizeof check_only / sizeof *check_only; i++)
        if (check_only[i]) return usage_error("the %s option is meaningful only when verifying checksums", check_only[i]);

    static char *stdin_only[] = {(char *)"-", NULL};
    char **files = optind < argc ? argv + optind : stdin_only;
    int nfiles = optind < argc ? argc - optind : 1;
    int ok = 1;
    for (int i = 0; i < nfiles; i++) {
        if (check) {
            ok &= hwc_hash_check_list(files[i], &o);
            continue;
        }
        uint8_t d[64];
        if (hwc_hash_file(files[i], o.bits, d, NULL) != 0) {
            ok = 0;
            continue;
        }
        print_line(files[i], d, &o, tag, binary == 1, zero);
    }
    return finish(ok);
}
