/* Every family and every kernel hwcrypt knows, its CPU needs and its
 * priority. A row exists whether or not its kernel is compiled in: the table
 * pointer is NULL where the build has no such kernel (another architecture,
 * or not written yet), so hwc_kernel_select() can say "not compiled into this
 * build". Adding a kernel: its file under impl/<arch>/, one row here, one
 * hwc_kernel() line in CMakeLists.txt (which defines HWC_HAVE_<NAME>). */
#include <stdio.h>
#include <string.h>
#include "dispatch/registry.h"
#include "dispatch/cpu.h"
#include "internal/kernel.h"

/* HWC_TABLE(NAME, table): &table when the build defines HWC_HAVE_NAME as 1,
   else NULL, chosen by the preprocessor so that a kernel that is not built is
   never referenced. HWC_HAVE_NAME expands to 1 when defined; pasted onto
   HWC_PROBE_ that gives HWC_PROBE_1, which expands to two arguments, and
   HWC_SECOND then picks the 1; any other token stays one argument and
   HWC_SECOND picks the 0 that follows it. */
#define HWC_CAT_(a, b) a##b
#define HWC_CAT(a, b) HWC_CAT_(a, b)
#define HWC_PROBE_1 ~, 1
#define HWC_SECOND_(a, b, ...) b
#define HWC_SECOND(...) HWC_SECOND_(__VA_ARGS__)
#define HWC_IS_ONE(x) HWC_SECOND(HWC_CAT(HWC_PROBE_, x), 0, ~)
#define HWC_CHOOSE_0(t, e) e
#define HWC_CHOOSE_1(t, e) t
#define HWC_TABLE(NAME, table) HWC_CAT(HWC_CHOOSE_, HWC_IS_ONE(HWC_HAVE_##NAME))(&table, NULL)

#define AES_NI_NEEDS (HWC_F_AES | HWC_F_PCLMUL | HWC_F_SSE41 | HWC_F_SSSE3)
/* vaes-avx2 needs no VPCLMULQDQ (qemu -cpu max has VAES without it); its
   variant with VPCLMULQDQ tweak updates runs where the CPU has it. */
#define VAES_YMM_NEEDS (AES_NI_NEEDS | HWC_F_AVX | HWC_F_AVX2 | HWC_F_VAES)
#define AVX512_BASE (HWC_F_AVX512F | HWC_F_AVX512BW | HWC_F_AVX512VL)
#define NEON_AES_NEEDS (HWC_F_ASIMD | HWC_F_ARM_AES | HWC_F_PMULL)

const char *const hwc_family_names[HWC_NFAM + 1] = {"aes", "streebog", "mpi", NULL};

const hwc_registry_entry hwc_registry[] = {
    /* ---- aes ---- */
    /* VAES + VPCLMULQDQ on zmm, 32 registers. */
    {HWC_FAM_AES, "avx512", VAES_YMM_NEEDS | HWC_F_VPCLMUL | AVX512_BASE | HWC_F_AVX512DQ, 300,
     HWC_KF_ZMM, HWC_TABLE(AES_AVX512, hwc_aes_avx512), 0, NULL},
    /* VAES on ymm: Zen 3, Alder Lake; also preferred where zmm slows the core. */
    {HWC_FAM_AES, "vaes-avx2", VAES_YMM_NEEDS, 200, 0, HWC_TABLE(AES_VAES_AVX2, hwc_aes_vaes_avx2),
     0, NULL},
    {HWC_FAM_AES, "aesni", AES_NI_NEEDS, 100, 0, HWC_TABLE(AES_AESNI, hwc_aes_aesni), 0, NULL},
    /* ARMv8 Crypto Extensions; 8 blocks in flight, 4 on in-order and
       single-AES-pipe cores (dispatch/cpu.c: HWC_T_NARROW_AES). */
    {HWC_FAM_AES, "neon", NEON_AES_NEEDS, 100, 0, HWC_TABLE(AES_NEON, hwc_aes_neon),
     HWC_T_NARROW_AES, HWC_TABLE(AES_NEON, hwc_aes_neon_narrow)},
    /* Bitsliced, constant time, any CPU. */
    {HWC_FAM_AES, "generic", 0, 0, 0, &hwc_aes_generic, 0, NULL},

    /* ---- streebog ---- */
    /* Table-free, constant time: vpermi2b S-box, GF2P8AFFINEQB for L. */
    {HWC_FAM_STREEBOG, "avx512", AVX512_BASE | HWC_F_AVX512VBMI | HWC_F_GFNI, 300, 0,
     HWC_TABLE(STREEBOG_AVX512, hwc_streebog_avx512), 0, NULL},
    /* AArch64 assembly, key and state LPS interleaved over the shared tables. */
    {HWC_FAM_STREEBOG, "arm64-ilps", 0, 100, 0, HWC_TABLE(STREEBOG_ARM64_ILPS, hwc_streebog_arm64_ilps),
     0, NULL},
    /* A NEON Streebog is named by the API but not written: never built. */
    {HWC_FAM_STREEBOG, "neon", NEON_AES_NEEDS, 100, 0, NULL, 0, NULL},
    /* Fused 8 x 256 x 64-bit tables: fast, NOT constant time (secret-indexed loads). */
    {HWC_FAM_STREEBOG, "generic", 0, 0, 0, &hwc_streebog_generic, 0, NULL},

    /* ---- mpi ---- */
    /* Radix-2^52 Montgomery with VPMADD52LUQ/HUQ; muladd from adx. */
    {HWC_FAM_MPI, "avx512", HWC_F_AVX512F | HWC_F_AVX512VL | HWC_F_AVX512IFMA | HWC_F_BMI2 | HWC_F_ADX,
     200, 0, HWC_TABLE(MPI_AVX512, hwc_mpi_avx512), 0, NULL},
    {HWC_FAM_MPI, "adx", HWC_F_BMI2 | HWC_F_ADX, 100, 0, HWC_TABLE(MPI_ADX, hwc_mpi_adx), 0, NULL},
    {HWC_FAM_MPI, "armv8-asm", 0, 100, 0, HWC_TABLE(MPI_ARMV8_ASM, hwc_mpi_armv8_asm), 0, NULL},
    {HWC_FAM_MPI, "generic", 0, 0, 0, &hwc_mpi_generic, 0, NULL},
};
const size_t hwc_registry_len = sizeof hwc_registry / sizeof hwc_registry[0];

int hwc_family_index(const char *family) {
    for (int f = 0; f < HWC_NFAM; f++)
        if (strcmp(family, hwc_family_names[f]) == 0) return f;
    return -1;
}

int hwc_kernel_index(int fam, const char *name) {
    for (size_t i = 0; i < hwc_registry_len; i++)
        if (hwc_registry[i].family == fam && strcmp(hwc_registry[i].name, name) == 0) return (int)i;
    return -1;
}

int hwc_kernel_name_known(const char *name) {
    for (size_t i = 0; i < hwc_registry_len; i++)
        if (strcmp(hwc_registry[i].name, name) == 0) return 1;
    return 0;
}

void hwc_kernel_names(char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < hwc_registry_len; i++) {
        const hwc_registry_entry *e = &hwc_registry[i];
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            if (hwc_registry[j].impl && strcmp(hwc_registry[j].name, e->name) == 0) seen = 1;
        if (!e->impl || seen) continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", e->name);
        if (w < 0 || (size_t)w >= size - used) break;
        used += (size_t)w;
    }
}
