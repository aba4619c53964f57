/* Shared by the two halves of `hwcrypt hash`: hash.c (digests, options) and
 * hash_check.c (--check). Behaviour follows GNU coreutils sha256sum 9.x. */
#ifndef HWC_TOOLS_HASH_H
#define HWC_TOOLS_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct hwc_hash_opts {
    unsigned bits;        /* 256 or 512 */
    const char *tag;      /* BSD tag name written by --tag: "STREEBOG-512" */
    const char *alt_tag;  /* another tag accepted by --check: rhash's "GOST12-512" */
    int quiet;            /* --quiet: no "OK" lines */
    int status_only;      /* --status: nothing on stdout, only the exit code */
    int strict;           /* --strict: improperly formatted lines fail */
    int warn;             /* --warn: one line per improperly formatted line */
    int ignore_missing;   /* --ignore-missing: a listed file that is absent is skipped */
} hwc_hash_opts;

/* Digest of one file ("-" = stdin), streamed. Returns 0, or -1 with the reason
   on stderr; with missing != NULL an absent file sets *missing = 1 and returns
   0 without a message (--ignore-missing). */
int hwc_hash_file(const char *path, unsigned bits, uint8_t *digest, int *missing);

/* Writes `name` to f, quoted the way GNU's quotef() does for messages. */
void hwc_hash_quote(FILE *f, const char *name);

/* Writes `name`, with backslash, newline (and carriage return when `cr`)
   escaped as \\, \n and \r when `escape` is set. */
void hwc_hash_print_name(const char *name, int escape, int cr);

/* --check of one list ("-" = stdin): 1 if every check passed, else 0. */
int hwc_hash_check_list(const char *list, const hwc_hash_opts *o);

#endif
