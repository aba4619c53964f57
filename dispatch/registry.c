/* Every kernel hwcrypt has, its CPU needs and its priority. Adding a kernel:
 * one table under impl/, one entry here, its flags in CMakeLists.txt.
 * HWC_HAVE_* macros come from the build (a kernel exists only where its
 * architecture and compiler flags exist). */
#include "registry.h"
#include "cpu.h"
#include "../internal/kernel.h"

#define AES_NI_NEEDS (HWC_F_AES | HWC_F_PCLMUL | HWC_F_SSE41 | HWC_F_SSSE3)
/* vaes-avx2 does not use VPCLMULQDQ (qemu -cpu max has VAES without it). */
#define VAES_YMM_NEEDS (AES_NI_NEEDS | HWC_F_AVX | HWC_F_AVX2 | HWC_F_VAES)
#define AVX512_BASE (HWC_F_AVX512F | HWC_F_AVX512BW | HWC_F_AVX512VL)

#ifdef HWC_HAVE_AES_AVX512
extern const hwc_aes_impl hwc_aes_avx512;
#endif
#ifdef HWC_HAVE_AES_VAES_AVX2
extern const hwc_aes_impl hwc_aes_vaes_avx2;
#endif
#ifdef HWC_HAVE_AES_AESNI
extern const hwc_aes_impl hwc_aes_aesni;
#endif
#ifdef HWC_HAVE_AES_NEON
extern const hwc_aes_impl hwc_aes_neon;
#endif
#ifdef HWC_HAVE_STREEBOG_AVX512
extern const hwc_streebog_impl hwc_streebog_avx512;
#endif
#ifdef HWC_HAVE_STREEBOG_ARM64_ILPS
extern const hwc_streebog_impl hwc_streebog_arm64_ilps;
#endif
#ifdef HWC_HAVE_MPI_AVX512
extern const hwc_mpi_impl hwc_mpi_avx512;
#endif
#ifdef HWC_HAVE_MPI_ADX
extern const hwc_mpi_impl hwc_mpi_adx;
#endif
#ifdef HWC_HAVE_MPI_ARMV8_ASM
extern const hwc_mpi_impl hwc_mpi_armv8_asm;
#endif

const hwc_registry_entry hwc_registry[] = {
    /* ---- aes ---- */
#ifdef HWC_HAVE_AES_AVX512
    /* VAES + VPCLMULQDQ on zmm, 32 registers. */
    {HWC_FAM_AES, "avx512", VAES_YMM_NEEDS | HWC_F_VPCLMUL | AVX512_BASE | HWC_F_AVX512DQ, 300, HWC_KF_ZMM, &hwc_aes_avx512},
#endif
#ifdef HWC_HAVE_AES_VAES_AVX2
    /* VAES on ymm: Zen 3, Alder Lake; also preferred where zmm slows the core. */
    {HWC_FAM_AES, "vaes-avx2", VAES_YMM_NEEDS, 200, 0, &hwc_aes_vaes_avx2},
#endif
#ifdef HWC_HAVE_AES_AESNI
    {HWC_FAM_AES, "aesni", AES_NI_NEEDS, 100, 0, &hwc_aes_aesni},
#endif
#ifdef HWC_HAVE_AES_NEON
    /* ARMv8 Crypto Extensions (AESE/AESD); no EOR3/SHA3 used. 4 or 8 blocks
       interleaved, chosen per CPU model at setkey (impl/arm64/aes_neon.c). */
    {HWC_FAM_AES, "neon", HWC_F_ASIMD | HWC_F_ARM_AES | HWC_F_PMULL, 100, 0, &hwc_aes_neon},
#endif
    /* Bitsliced, constant time, any CPU. */
    {HWC_FAM_AES, "generic", 0, 0, 0, &hwc_aes_generic},

    /* ---- streebog ---- */
#ifdef HWC_HAVE_STREEBOG_AVX512
    /* Table-free, constant time: vpermi2b S-box, GF2P8AFFINEQB for L. */
    {HWC_FAM_STREEBOG, "avx512", AVX512_BASE | HWC_F_AVX512VBMI | HWC_F_GFNI, 300, 0,
     &hwc_streebog_avx512},
#endif
#ifdef HWC_HAVE_STREEBOG_ARM64_ILPS
    /* AArch64 assembly, key and state LPS interleaved over the generic tables. */
    {HWC_FAM_STREEBOG, "arm64-ilps", 0, 100, 0, &hwc_streebog_arm64_ilps},
#endif
    /* Fused 8 x 256 x 64-bit tables: fast, NOT constant time (secret-indexed loads). */
    {HWC_FAM_STREEBOG, "generic", 0, 0, 0, &hwc_streebog_generic},

    /* ---- mpi ---- */
#ifdef HWC_HAVE_MPI_AVX512
    /* Radix-2^52 Montgomery with VPMADD52LUQ/HUQ; muladd from adx. */
    {HWC_FAM_MPI, "avx512", HWC_F_AVX512F | HWC_F_AVX512VL | HWC_F_AVX512IFMA | HWC_F_BMI2 | HWC_F_ADX,
     200, 0, &hwc_mpi_avx512},
#endif
#ifdef HWC_HAVE_MPI_ADX
    {HWC_FAM_MPI, "adx", HWC_F_BMI2 | HWC_F_ADX, 100, 0, &hwc_mpi_adx},
#endif
#ifdef HWC_HAVE_MPI_ARMV8_ASM
    {HWC_FAM_MPI, "armv8-asm", 0, 100, 0, &hwc_mpi_armv8_asm},
#endif
    {HWC_FAM_MPI, "generic", 0, 0, 0, &hwc_mpi_generic},
};
const size_t hwc_registry_len = sizeof hwc_registry / sizeof hwc_registry[0];

const char *const hwc_family_names[HWC_NFAM] = {"aes", "streebog", "mpi"};

static const char *const aes_names[] = {"generic", "aesni", "vaes-avx2", "avx512", "neon", NULL};
static const char *const streebog_names[] = {"generic", "avx512", "arm64-ilps", "neon", NULL};
static const char *const mpi_names[] = {"generic", "adx", "armv8-asm", "avx512", NULL};
const char *const *const hwc_reserved_kernels[HWC_NFAM] = {aes_names, streebog_names, mpi_names};
