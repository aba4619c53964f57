/* What this CPU and OS can run, as one bit mask. */
#ifndef HWC_DISPATCH_CPU_H
#define HWC_DISPATCH_CPU_H

#include <stdint.h>

enum {
    /* x86-64 */
    HWC_F_SSE2 = 1ull << 0, HWC_F_SSSE3 = 1ull << 1, HWC_F_SSE41 = 1ull << 2,
    HWC_F_AES = 1ull << 3, HWC_F_PCLMUL = 1ull << 4, HWC_F_AVX = 1ull << 5,
    HWC_F_AVX2 = 1ull << 6, HWC_F_BMI2 = 1ull << 7, HWC_F_ADX = 1ull << 8,
    HWC_F_VAES = 1ull << 9, HWC_F_VPCLMUL = 1ull << 10, HWC_F_AVX512F = 1ull << 11,
    HWC_F_AVX512BW = 1ull << 12, HWC_F_AVX512DQ = 1ull << 13, HWC_F_AVX512VL = 1ull << 14,
    HWC_F_AVX512IFMA = 1ull << 15, HWC_F_AVX512VBMI = 1ull << 16, HWC_F_GFNI = 1ull << 17,
    /* AArch64 */
    HWC_F_ASIMD = 1ull << 32, HWC_F_ARM_AES = 1ull << 33, HWC_F_PMULL = 1ull << 34,
    /* Traits: properties of the core (not instructions) that a registry
       variant may ask for; never printed as features. */
    HWC_T_NARROW_AES = 1ull << 48,   /* AArch64 core where 4 AES blocks in flight suffice */
    HWC_T_L1D_8WAY = 1ull << 49,     /* x86 core whose L1 data cache has at most 8 ways */
    HWC_T_ALL = HWC_T_NARROW_AES | HWC_T_L1D_8WAY,
};

typedef struct hwc_cpu {
    uint64_t features;      /* HWC_F_* the CPU reports and the OS enables */
    int zmm_slows_core;     /* 1 on cores that downclock for 512-bit work */
    char brand[64];
    char uarch[32];
} hwc_cpu;

/* Detect once (thread-safe through the caller's once-init). */
void hwc_cpu_detect(hwc_cpu *cpu);

/* "aes,pclmulqdq" style names for a mask, into buf (always terminated). */
void hwc_feature_names(uint64_t mask, char *buf, size_t size);

#endif
