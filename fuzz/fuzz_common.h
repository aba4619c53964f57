/* Shared pieces of the libFuzzer harnesses (fuzz/README.md): an input reader
 * and the loop over every usable kernel of a family. A mismatch aborts, so
 * libFuzzer saves the input as a crash file. */
#ifndef HWC_FUZZ_COMMON_H
#define HWC_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"

/* Consumes the fuzz input front to back; past its end every read gives zeros. */
typedef struct { const uint8_t *p; size_t n; } fz_in;

static inline uint8_t fz_byte(fz_in *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}
static inline size_t fz_below(fz_in *in, size_t bound) {   /* 0..bound-1, bound <= 65536 */
    size_t v = fz_byte(in);
    v = v << 8 | fz_byte(in);
    return v % bound;
}
static inline void fz_bytes(fz_in *in, void *out, size_t len) {
    size_t take = len < in->n ? len : in->n;
    memcpy(out, in->p, take);
    memset((uint8_t *)out + take, 0, len - take);
    in->p += take;
    in->n -= take;
}

#define FZ_CHECK(cond, ...)                                                       \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "MISMATCH %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* Usable kernels of a family, best first (read once). */
typedef struct { const char *name[16]; size_t n; } fz_kernels;

static inline void fz_usable(const char *family, fz_kernels *ks) {
    hwc_kernel_info info[16];
    size_t n = hwc_kernels(family, info, 16);
    ks->n = 0;
    for (size_t i = 0; i < n && i < 16; i++)
        if (info[i].usable) ks->name[ks->n++] = info[i].name;
    FZ_CHECK(ks->n > 0, "no usable %s kernel", family);
}

static inline void fz_select(const char *family, const char *kernel) {
    FZ_CHECK(hwc_kernel_select(family, kernel) == HWC_OK, "select %s/%s", family, kernel);
}

#endif
