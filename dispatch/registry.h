/* The one list of kernels and families. Tests, bench, CLI and hwc_kernels()
   read it. */
#ifndef HWC_DISPATCH_REGISTRY_H
#define HWC_DISPATCH_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "internal/kernel.h"   /* HWC_FAM_*: family indexes */

/* Family names in HWC_FAM_* order, NULL-terminated (hwc_families()). */
extern const char *const hwc_family_names[HWC_NFAM + 1];

enum {
    HWC_KF_ZMM = 1,   /* 512-bit kernel: ranked below ymm kernels where zmm slows the core */
};

typedef struct hwc_registry_entry {
    int family;              /* HWC_FAM_* */
    const char *name;        /* kernel name (docs/API.md) */
    uint64_t needs;          /* HWC_F_* bits */
    int priority;            /* before the width policy */
    unsigned flags;          /* HWC_KF_* */
    const void *impl;        /* kernel table; NULL when not compiled into this build */
    /* A variant of the same kernel, chosen once at init instead of impl when
       the CPU also has variant_needs (HWC_F_* features or HWC_T_* traits). */
    uint64_t variant_needs;
    const void *variant;
} hwc_registry_entry;

extern const hwc_registry_entry hwc_registry[];
extern const size_t hwc_registry_len;

/* Family index by name, or -1. */
int hwc_family_index(const char *family);

/* Registry index of kernel `name` in family fam (compiled in or not), or -1. */
int hwc_kernel_index(int fam, const char *name);

/* 1 if any family has a kernel of that name (compiled in or not). */
int hwc_kernel_name_known(const char *name);

/* The distinct names of kernels compiled into this build, comma-separated. */
void hwc_kernel_names(char *buf, size_t size);

#endif
