/* hwcrypt hash --check: reads checksum lists of any line length and accepts
 * the three line shapes GNU sha256sum 9.x accepts, with its messages, counts
 * and exit status:
 *   "<hex>  <name>" / "<hex> *<name>"   sha256sum text / binary lines
 *   "<hex> <name>"                      one space (BSD "-r", gost12sum); a list
 *                                       may not mix it with the form above
 *   "TAG (<name>) = <hex>"              BSD tag lines (--tag, rhash --bsd)
 * A leading backslash marks a name with \\, \n or \r escapes. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"

static int is_white(char c) { return c == ' ' || c == '\t'; }

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Exactly 2 * n hex digits at s (then any byte) into out[0..n). */
static int parse_hex(const char *s, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hi < 0 ? -1 : hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

/* Undo the name escaping in place: only \\, \n and \r are valid; a NUL or a
   trailing lone backslash makes the line malformed. */
static int unescape(char *s, size_t len) {
    char *dst = s;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\0') return 0;
        if (s[i] != '\\') {
            *dst++ = s[i];
            continue;
        }
        if (++i == len) return 0;
        if (s[i] == 'n') *dst++ = '\n';
        else if (s[i] == 'r') *dst++ = '\r';
        else if (s[i] == '\\') *dst++ = '\\';
        else return 0;
    }
    *dst = '\0';
    return 1;
}

/* "TAG (" already consumed: "<name>) = <hex>", the name ending at the last ')'. */
static int split_bsd(char *s, size_t len, int escaped, const hwc_hash_opts *o, uint8_t *want,
                     char **name) {
    if (len == 0) return 0;
    size_t i = len - 1;
    while (i && s[i] != ')') i--;
    if (s[i] != ')') return 0;
    char *hex = s + i + 1;
    while (is_white(*hex)) hex++;
    if (*hex++ != '=') return 0;
    while (is_white(*hex)) hex++;
    if (strlen(hex) != o->bits / 4 || !parse_hex(hex, want, o->bits / 8)) return 0;
    if (escaped ? !unescape(s, i) : memchr(s, '\0', i) != NULL) return 0;
    s[i] = '\0';
    *name = s;
    return 1;
}

static int starts_with_tag(const char *s, const char *tag, size_t *len) {
    *len = strlen(tag);
    return !strncmp(s, tag, *len);
}

/* One line without its terminator. *bsd_reversed: -1 unknown yet, 0 the list
   uses two-character separators, 1 it uses one space. */
static int split_line(char *s, size_t len, const hwc_hash_opts *o, int *bsd_reversed,
                      uint8_t *want, char **name) {
    size_t i = 0, hexlen = o->bits / 4, taglen;
    int escaped = 0;
    while (i < len && is_white(s[i])) i++;
    if (s[i] == '\\') {
        i++;
        escaped = 1;
    }
    if (starts_with_tag(s + i, o->tag, &taglen) || starts_with_tag(s + i, o->alt_tag, &taglen)) {
        i += taglen;
        if (s[i] == ' ') i++;
        if (s[i] != '(') return 0;
        i++;
        return split_bsd(s + i, len - i, escaped, o, want, name);
    }
    if (len - i < hexlen + 2 + (s[i] == '\\')) return 0;
    if (!parse_hex(s + i, want, o->bits / 8)) return 0;
    i += hexlen;
    if (!is_white(s[i])) return 0;
    i++;
    if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
        /* one space: never after the list used two-character separators */
        if (*bsd_reversed == 0) return 0;
        *bsd_reversed = 1;
    } else if (*bsd_reversed != 1) {
        *bsd_reversed = 0;
        i++;
    }
    if (escaped ? !unescape(s + i, len - i) : memchr(s + i, '\0', len - i) != NULL) return 0;
    *name = s + i;
    return 1;
}

static void plural_warning(unsigned long n, const char *one, const char *many) {
    if (n) fprintf(stderr, "hwcrypt: WARNING: %lu %s\n", n, n == 1 ? one : many);
}

static void list_message(const char *label, const char *msg) {
    fprintf(stderr, "hwcrypt: ");
    hwc_hash_quote(stderr, label);
    fprintf(stderr, ": %s\n", msg);
}

int hwc_hash_check_list(const char *list, const hwc_hash_opts *o) {
    int from_stdin = !strcmp(list, "-");
    const char *label = from_stdin ? "standard input" : list;
    FILE *f = from_stdin ? stdin : fopen(list, "r");
    if (!f) {
        list_message(list, strerror(errno));
        return 0;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long lineno = 0, misformatted = 0, mismatched = 0, unreadable = 0, formatted = 0;
    int matched = 0, bsd_reversed = -1;
    while ((got = getline(&line, &cap, f)) > 0) {
        lineno++;
        size_t len = (size_t)got;
        if (line[0] == '#') continue;
        if (line[len - 1] == '\n') len--;
        if (len && line[len - 1] == '\r') len--;
        if (len == 0) continue;
        line[len] = '\0';
        uint8_t want[64], have[64];
        char *name;
        if (!split_line(line, len, o, &bsd_reversed, want, &name)) {
            misformatted++;
            if (o->warn) {
                fprintf(stderr, "hwcrypt: ");
                hwc_hash_quote(stderr, label);
                fprintf(stderr, ": %lu: improperly formatted %s checksum line\n", lineno, o->tag);
            }
            continue;
        }
        formatted++;
        int missing = 0;
        if (hwc_hash_file(name, o->bits, have, o->ignore_missing ? &missing : NULL) != 0) {
            unreadable++;
            if (!o->status_only) printf("%s: FAILED open or read\n", name);
            continue;
        }
        if (missing) continue;
        int match = !memcmp(have, want, o->bits / 8);
        matched |= match;
        mismatched += !match;
        if (!o->status_only && (!match || !o->quiet)) {
            int escape = strchr(name, '\n') != NULL;
            if (escape) putchar('\\');
            hwc_hash_print_name(name, escape, 1);
            printf(": %s\n", match ? "OK" : "FAILED");
        }
    }
    int read_error = ferror(f);
    free(line);
    if (from_stdin) clearerr(stdin);
    else fclose(f);
    if (read_error) {
        list_message(label, "read error");
        return 0;
    }
    if (!formatted) {
        list_message(label, "no properly formatted checksum lines found");
        return 0;
    }
    if (!o->status_only) {
        plural_warning(misformatted, "line is improperly formatted", "lines are improperly formatted");
        plural_warning(unreadable, "listed file could not be read", "listed files could not be read");
        plural_warning(mismatched, "computed checksum did NOT match", "computed checksums did NOT match");
        if (o->ignore_missing && !matched) list_message(label, "no file was verified");
    }
    return matched && !mismatched && !unreadable && !(o->strict && misformatted);
}
