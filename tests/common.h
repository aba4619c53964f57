/* Shared test helpers: run a check on every usable kernel of a family (from
 * hwc_kernels(), never a hand-kept list), a seeded PRNG whose seed is printed
 * on failure, hex parsing, poison bytes around outputs. */
#ifndef HWC_TEST_COMMON_H
#define HWC_TEST_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <criterion/criterion.h>
#include "hwcrypt/hwcrypt.h"

/* ---- kernels ---------------------------------------------------------------- */
/* Calls fn(kernel_name, arg) once per usable kernel of `family`, with that
   kernel selected (hwc_kernel_select), then restores automatic choice.
   Prints "[family] ran: a, b; not usable here: c (needs x,y)" to stderr.
   Fails the test if no kernel ran. Returns how many kernels ran. */
typedef void (*hwc_kernel_fn)(const char *kernel, void *arg);
int hwc_test_each_kernel(const char *family, hwc_kernel_fn fn, void *arg);
/* The tables of kernel `name` of `family` this CPU can run, into t[0..1]:
   its table and, when the registry has another, its variant, whose trait
   needs (HWC_T_*: speed, never correctness) are left out. Returns 1 or 2. */
int hwc_test_kernel_tables(const char *family, const char *name, const void *t[2]);

/* Names of the usable kernels of a family (best first) into names[], returns count. */
size_t hwc_test_usable_kernels(const char *family, const char **names, size_t max);

/* ---- pseudo-random inputs ---------------------------------------------------- */
/* Seed: HWC_TEST_SEED from the environment (decimal or 0x hex), else a fixed
   default. Every equivalence test prints it in its failure messages. */
uint64_t hwc_test_seed(void);
typedef struct { uint64_t s; } hwc_rng;
void hwc_rng_init(hwc_rng *r, uint64_t seed);
uint64_t hwc_rng_next(hwc_rng *r);                      /* splitmix64 */
void hwc_rng_fill(hwc_rng *r, void *buf, size_t len);
size_t hwc_rng_below(hwc_rng *r, size_t bound);         /* 0..bound-1, bound >= 1 */

/* 1 when the suite should use lighter loops: HWC_TEST_QUICK is set and not
   "0". The only rule: every run under qemu sets it (scripts/test-all.sh,
   cmake/aarch64-linux-gnu.cmake). */
int hwc_test_quick(void);

/* ---- bytes ------------------------------------------------------------------- */
/* Parse hex (whitespace ignored) into out; returns the byte count. Aborts the
   test on bad hex or overflow of max. */
size_t hwc_hex(const char *hex, uint8_t *out, size_t max);
/* "ab01..." of len bytes into a static rotating buffer (for messages). */
const char *hwc_tohex(const void *p, size_t len);

/* A buffer with `len` usable bytes starting at an offset `misalign` (0..63)
   inside a heap block, surrounded by 64 poison bytes (0xA5) before and after. */
typedef struct { uint8_t *block; uint8_t *p; size_t len; } hwc_guarded;
void hwc_guarded_alloc(hwc_guarded *g, size_t len, size_t misalign);
int hwc_guarded_intact(const hwc_guarded *g);           /* 1 if the poison is untouched */
void hwc_guarded_free(hwc_guarded *g);

#define HWC_POISON 0xA5

/* 1 if all n bytes at p equal v (outputs left untouched by a failed call). */
int hwc_all_bytes(const void *p, size_t n, uint8_t v);

#endif
