/* hwcrypt hash streebog256|streebog512 [FILE...] | --check FILE
 * Output and --check format as sha256sum: "<hex>  <name>". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hwcrypt/hwcrypt.h"
#include "cli.h"

/* Digest of one file ("-" = stdin), streamed. 0 on success, else prints why. */
static int digest_file(const char *path, unsigned bits, uint8_t *digest) {
    FILE *f = stdin;
    if (strcmp(path, "-")) {
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "hwcrypt: %s: Is a directory\n", path);
            return -1;
        }
        f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "hwcrypt: %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    static uint8_t buf[1 << 16];
    hwc_streebog_ctx c;
    hwc_streebog_init(&c, bits);
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) hwc_streebog_update(&c, buf, got);
    int failed = ferror(f);
    if (failed) fprintf(stderr, "hwcrypt: %s: read error: %s\n", path, strerror(errno));
    if (f != stdin) fclose(f);
    else clearerr(stdin);
    hwc_streebog_final(&c, digest);   /* also wipes c */
    return failed ? -1 : 0;
}

static void print_hex(const uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", d[i]);
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* --check: every well-formed line "<hex>  <name>" (or " *<name>") is checked. */
static int check_list(const char *list, unsigned bits) {
    FILE *f = strcmp(list, "-") ? fopen(list, "r") : stdin;
    if (!f) {
        fprintf(stderr, "hwcrypt: %s: %s\n", list, strerror(errno));
        return 1;
    }
    const size_t hexlen = bits / 4;
    char line[8192];
    unsigned long lineno = 0, bad_format = 0, failed = 0, unreadable = 0, ok = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        uint8_t want[64];
        int well_formed = len > hexlen + 2 && line[hexlen] == ' ' &&
                          (line[hexlen + 1] == ' ' || line[hexlen + 1] == '*');
        for (size_t i = 0; well_formed && i < hexlen; i += 2) {
            int hi = hexval(line[i]), lo = hexval(line[i + 1]);
            if (hi < 0 || lo < 0) well_formed = 0;
            else want[i / 2] = (uint8_t)(hi << 4 | lo);
        }
        if (!well_formed) {
            fprintf(stderr, "hwcrypt: %s: line %lu: not a streebog%u checksum line\n", list, lineno, bits);
            bad_format++;
            continue;
        }
        const char *name = line + hexlen + 2;
        uint8_t got[64];
        if (digest_file(name, bits, got) != 0) {
            printf("%s: FAILED open or read\n", name);
            unreadable++;
        } else if (memcmp(got, want, bits / 8) != 0) {
            printf("%s: FAILED\n", name);
            failed++;
        } else {
            printf("%s: OK\n", name);
            ok++;
        }
    }
    if (f != stdin) fclose(f);
    if (bad_format) fprintf(stderr, "hwcrypt: WARNING: %lu line(s) improperly formatted\n", bad_format);
    if (unreadable) fprintf(stderr, "hwcrypt: WARNING: %lu listed file(s) could not be read\n", unreadable);
    if (failed) fprintf(stderr, "hwcrypt: WARNING: %lu computed checksum(s) did NOT match\n", failed);
    if (ok + failed + unreadable == 0) {
        fprintf(stderr, "hwcrypt: %s: no properly formatted checksum lines found\n", list);
        return 1;
    }
    return (failed || unreadable || bad_format) ? 1 : 0;
}

int hwc_cmd_hash(int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "usage: hwcrypt hash streebog256|streebog512 [FILE...|--check FILE]\n");
        return 2;
    }
    unsigned bits;
    if (!strcmp(argv[0], "streebog256")) bits = 256;
    else if (!strcmp(argv[0], "streebog512")) bits = 512;
    else {
        fprintf(stderr, "hwcrypt hash: unknown algorithm '%s' (streebog256, streebog512)\n", argv[0]);
        return 2;
    }
    if (argc >= 2 && !strcmp(argv[1], "--check")) {
        if (argc != 3) {
            fprintf(stderr, "usage: hwcrypt hash %s --check FILE\n", argv[0]);
            return 2;
        }
        return check_list(argv[2], bits);
    }
    int status = 0;
    const char *stdin_only[] = {"-"};
    char **files = argc > 1 ? argv + 1 : (char **)stdin_only;
    int nfiles = argc > 1 ? argc - 1 : 1;
    for (int i = 0; i < nfiles; i++) {
        uint8_t d[64];
        if (digest_file(files[i], bits, d) != 0) {
            status = 1;
            continue;
        }
        print_hex(d, bits / 8);
        printf("  %s\n", files[i]);
    }
    return status;
}
