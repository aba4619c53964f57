/* The one list of kernels. Tests, bench, CLI and hwc_kernels() read it. */
#ifndef HWC_DISPATCH_REGISTRY_H
#define HWC_DISPATCH_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

enum { HWC_FAM_AES, HWC_FAM_STREEBOG, HWC_FAM_MPI, HWC_NFAM };

enum {
    HWC_KF_ZMM = 1,   /* 512-bit kernel: ranked below ymm kernels where zmm slows the core */
};

typedef struct hwc_registry_entry {
    int family;            /* HWC_FAM_* */
    const char *name;      /* API.md kernel name */
    uint64_t needs;        /* HWC_F_* bits */
    int priority;          /* before the width policy */
    unsigned flags;        /* HWC_KF_* */
    const void *impl;      /* hwc_aes_impl / hwc_streebog_impl / hwc_mpi_impl */
} hwc_registry_entry;

extern const hwc_registry_entry hwc_registry[];
extern const size_t hwc_registry_len;

/* Family names in HWC_FAM_* order, and the kernel names API.md reserves for
   each family (NULL-terminated), compiled in or not. */
extern const char *const hwc_family_names[HWC_NFAM];
extern const char *const *const hwc_reserved_kernels[HWC_NFAM];

#endif
