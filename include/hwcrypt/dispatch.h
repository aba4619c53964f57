/* hwcrypt: kernel registry and selection. Reference: docs/API.md. */
#ifndef HWCRYPT_DISPATCH_H
#define HWCRYPT_DISPATCH_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *family;    /* "aes"                                  */
    const char *name;      /* "aesni"                                */
    const char *requires;  /* CPU features it needs, e.g. "aes,pclmulqdq,sse4.1"; "" for none */
    int priority;          /* higher wins in automatic selection      */
    int usable;            /* 1 if this CPU and OS can run it         */
} hwc_kernel_info;

/* NULL-terminated list of every family, in a fixed order: "aes", "streebog",
   "mpi", then families added later. */
HWC_API const char *const *hwc_families(void);

/* Idempotent; HWC_OK, or the first error met while applying HWCRYPT_KERNEL
   (the engine still works). */
HWC_API int hwc_init(void);

/* Every kernel compiled in for the family (usable or not), best first; returns
   the total count and writes at most max. 0 for an unknown family. */
HWC_API size_t hwc_kernels(const char *family, hwc_kernel_info *out, size_t max);

/* Name of the kernel new contexts of this family use; NULL for an unknown family. */
HWC_API const char *hwc_kernel_active(const char *family);

/* kernel == NULL: back to automatic (HWCRYPT_KERNEL exclusions still apply).
   Never selects a kernel that is not usable. Existing contexts keep theirs. */
HWC_API int hwc_kernel_select(const char *family, const char *kernel);

/* The features this CPU and OS provide, as the same
   comma-separated names `requires` uses (e.g. "sse2,aes,avx2,..."). */
HWC_API const char *hwc_cpu_features(void);

/* Why the active kernel of a family was chosen: "automatic",
   "HWCRYPT_KERNEL" or "hwc_kernel_select"; NULL for an unknown family. */
HWC_API const char *hwc_kernel_reason(const char *family);

#ifdef __cplusplus
}
#endif
#endif
