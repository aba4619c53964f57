/* Planted leaks for tests/ct_msan.c: proof that the MemorySanitizer check can
 * fail. tests/CMakeLists.txt compiles a copy of a kernel file with this header
 * force-included and HWC_PLANT_<KERNEL> defined; the copy's table is renamed
 * (hwc_plant_<kernel>). One intrinsic of the kernel's hot loop is redirected
 * here; with hwc_plant_mode = 1 it branches on a bit of its (secret) operand,
 * with 2 it reads a table at an index taken from it, with 0 it does nothing
 * extra. The library's own kernels are untouched. */
#ifndef HWC_TEST_CT_PLANT_H
#define HWC_TEST_CT_PLANT_H

#include <immintrin.h>
#include <stdint.h>

extern volatile int hwc_plant_mode;
extern volatile uint32_t hwc_plant_sink;
extern const uint8_t hwc_plant_table[256];

static inline __attribute__((always_inline)) void hwc_plant_leak(uint32_t secret) {
    if (hwc_plant_mode == 1) {
        if (secret & 1) hwc_plant_sink = hwc_plant_sink + 1;     /* secret-dependent branch */
    } else if (hwc_plant_mode == 2) {
        hwc_plant_sink = hwc_plant_sink + hwc_plant_table[secret & 255];   /* secret index */
    }
}

#define HWC_PLANT_FN(name, T, real, low, tgt)                                         \
    __attribute__((noinline, target(tgt))) static T name(T a, T b) {                 \
        hwc_plant_leak((uint32_t)low(a));                                             \
        return (real)(a, b);                                                          \
    }

#if defined(HWC_PLANT_AESNI)
HWC_PLANT_FN(hwc_plant_aesenc, __m128i, _mm_aesenc_si128, _mm_cvtsi128_si32, "aes,sse4.1")
#define _mm_aesenc_si128(a, b) hwc_plant_aesenc(a, b)
#elif defined(HWC_PLANT_VAES_AVX2)
#define HWC_PLANT_LOW256(v) _mm_cvtsi128_si32(_mm256_castsi256_si128(v))
HWC_PLANT_FN(hwc_plant_aesenc, __m256i, _mm256_aesenc_epi128, HWC_PLANT_LOW256, "avx2,vaes")
#define _mm256_aesenc_epi128(a, b) hwc_plant_aesenc(a, b)
#elif defined(HWC_PLANT_AVX512)
#define HWC_PLANT_LOW512(v) _mm_cvtsi128_si32(_mm512_castsi512_si128(v))
HWC_PLANT_FN(hwc_plant_aesenc, __m512i, _mm512_aesenc_epi128, HWC_PLANT_LOW512, "avx512f,vaes")
#define _mm512_aesenc_epi128(a, b) hwc_plant_aesenc(a, b)
#elif defined(HWC_PLANT_STREEBOG_AVX512)
#define HWC_PLANT_LOW512(v) _mm_cvtsi128_si32(_mm512_castsi512_si128(v))
HWC_PLANT_FN(hwc_plant_xor, __m512i, _mm512_xor_si512, HWC_PLANT_LOW512, "avx512f")
#define _mm512_xor_si512(a, b) hwc_plant_xor(a, b)
#elif defined(HWC_PLANT_MPI_AVX512)
#define HWC_PLANT_LOW512(v) _mm_cvtsi128_si32(_mm512_castsi512_si128(v))
__attribute__((noinline, target("avx512f,avx512ifma"))) static __m512i hwc_plant_madd52lo(__m512i a, __m512i b,
                                                                                         __m512i c) {
    hwc_plant_leak((uint32_t)HWC_PLANT_LOW512(b));
    return (_mm512_madd52lo_epu64)(a, b, c);
}
#define _mm512_madd52lo_epu64(a, b, c) hwc_plant_madd52lo(a, b, c)
#else
#error "define the HWC_PLANT_<KERNEL> to plant"
#endif

#endif
