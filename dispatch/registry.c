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

/* The rows. KERNEL(family, "name", table, BUILT, needs, priority, flags,
   variant needs, variant table, VARIANT_BUILT): table is the kernel's table
   (type hwc_<family>_impl) and BUILT the NAME of its HWC_HAVE_NAME build
   macro; the variant columns are 0, the table again and NEVER when the kernel
   has no variant. This list also declares every table. */
#define HWC_HAVE_ALWAYS 1
#define HWC_KERNEL_ROWS(KERNEL)                                                                   \
    /* ---- aes ---- */                                                                           \
    /* VAES + VPCLMULQDQ on zmm, 32 registers; lane thresholds for an 8-way L1D (Zen 4). */       \
    KERNEL(aes, "avx512", hwc_aes_avx512, AES_AVX512,                                              \
           VAES_YMM_NEEDS | HWC_F_VPCLMUL | AVX512_BASE | HWC_F_AVX512DQ, 300, HWC_KF_ZMM,          \
           HWC_T_L1D_8WAY, hwc_aes_avx512_l1d8, AES_AVX512)                                       \
    /* VAES on ymm: Zen 3, Alder Lake; also preferred where zmm slows the core. */               \
    KERNEL(aes, "vaes-avx2", hwc_aes_vaes_avx2, AES_VAES_AVX2, VAES_YMM_NEEDS, 200, 0,             \
           HWC_F_VPCLMUL, hwc_aes_vaes_avx2_clmul, AES_VAES_AVX2_CLMUL)                           \
    KERNEL(aes, "aesni", hwc_aes_aesni, AES_AESNI, AES_NI_NEEDS, 100, 0, 0, hwc_aes_aesni, NEVER)   \
    /* ARMv8 Crypto Extensions; 8 blocks in flight, 4 on in-order and single-AES-pipe cores. */   \
    KERNEL(aes, "neon", hwc_aes_neon, AES_NEON, NEON_AES_NEEDS, 100, 0,                            \
           HWC_T_NARROW_AES, hwc_aes_neon_narrow, AES_NEON)                                       \
    /* Bitsliced, constant time, any CPU. */                                                      \
    KERNEL(aes, "generic", hwc_aes_generic, ALWAYS, 0, 0, 0, 0, hwc_aes_generic, NEVER)            \
    /* ---- streebog ---- */                                                                      \
    /* Table-free, constant time: vpermi2b S-box, GF2P8AFFINEQB for L. */                         \
    KERNEL(streebog, "avx512", hwc_streebog_avx512, STREEBOG_AVX512,                               \
           AVX512_BASE | HWC_F_AVX512VBMI | HWC_F_GFNI, 300, 0, 0, hwc_streebog_avx512, NEVER)    \
    /* AArch64 assembly, key and state LPS interleaved over the shared tables. */                 \
    KERNEL(streebog, "arm64-ilps", hwc_streebog_arm64_ilps, STREEBOG_ARM64_ILPS, 0, 100, 0,        \
           0, hwc_streebog_arm64_ilps, NEVER)                                                     \
    /* Named by the API for a NEON Streebog, which is not written: never built. */               \
    KERNEL(streebog, "neon", hwc_streebog_neon, NEVER, NEON_AES_NEEDS, 100, 0,                     \
           0, hwc_streebog_neon, NEVER)                                                           \
    /* Fused 8 x 256 x 64-bit tables: fast, NOT constant time (secret-indexed loads). */          \
    KERNEL(streebog, "generic", hwc_streebog_generic, ALWAYS, 0, 0, 0, 0, hwc_streebog_generic,    \
           NEVER)                                                                                 \
    /* ---- mpi ---- */                                                                           \
    /* Radix-2^52 Montgomery with VPMADD52LUQ/HUQ; muladd from adx. */                            \
    KERNEL(mpi, "avx512", hwc_mpi_avx512, MPI_AVX512,                                              \
           HWC_F_AVX512F | HWC_F_AVX512VL | HWC_F_AVX512IFMA | HWC_F_BMI2 | HWC_F_ADX, 200, 0,      \
           0, hwc_mpi_avx512, NEVER)                                                              \
    KERNEL(mpi, "adx", hwc_mpi_adx, MPI_ADX, HWC_F_BMI2 | HWC_F_ADX, 100, 0, 0, hwc_mpi_adx, NEVER) \
    KERNEL(mpi, "armv8-asm", hwc_mpi_armv8_asm, MPI_ARMV8_ASM, 0, 100, 0, 0, hwc_mpi_armv8_asm,    \
           NEVER)                                                                                 \
    KERNEL(mpi, "generic", hwc_mpi_generic, ALWAYS, 0, 0, 0, 0, hwc_mpi_generic, NEVER)

#define HWC_FAMILY_aes HWC_FAM_AES
#define HWC_FAMILY_streebog HWC_FAM_STREEBOG
#define HWC_FAMILY_mpi HWC_FAM_MPI

#define DECLARE(fam, name, table, built, needs, prio, flags, vneeds, vtable, vbuilt) \
    extern const hwc_##fam##_impl table, vtable;
HWC_KERNEL_ROWS(DECLARE)

#define ROW(fam, name, table, built, needs, prio, flags, vneeds, vtable, vbuilt)                    \
    {HWC_FAMILY_##fam, name, needs, prio, flags, HWC_TABLE(built, table), vneeds, HWC_TABLE(vbuilt, vtable)},
const hwc_registry_entry hwc_registry[] = {HWC_KERNEL_ROWS(ROW)};
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
