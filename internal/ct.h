/* Hooks for the constant-time checks. Two checkers mark secrets as
 * uninitialised and report any branch or memory address that depends on
 * them: valgrind memcheck (tests/ct_aes.c, tests/ct_modexp.c) and clang's
 * MemorySanitizer (tests/ct_msan.c, HWC_MSAN=ON builds; docs/constant-time.md).
 *
 * HWC_DECLASSIFY: a few results are public by contract and must be revealed:
 * modexp's base < m verdict, XTS's equal-halves verdict, CMAC verify's match
 * verdict. Under MSan it unpoisons; under valgrind it is a client request (a
 * few no-op instructions when not running under valgrind); elsewhere nothing.
 *
 * HWC_MSAN_PUBLIC: data that is public but comes from code MSan does not see
 * (cpu_features is not instrumented); nothing outside MSan builds.
 *
 * MSan builds only (HWC_MSAN=ON force-includes this header into every file):
 * intrinsics with an immediate operand have no MSan propagation rule and are
 * checked strictly (any poisoned input bit is reported at the call, a false
 * report). They are redefined here to run on unpoisoned copies and poison the
 * whole result when any input bit was poisoned: conservative (the result of a
 * secret is secret), and every branch or address that uses it is still
 * checked. Other builds compile the plain intrinsics. */
#ifndef HWC_INTERNAL_CT_H
#define HWC_INTERNAL_CT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define HWC_CT_MSAN 1
#endif
#endif

#if defined(HWC_CT_MSAN)
#include <sanitizer/msan_interface.h>
#define HWC_DECLASSIFY(p, len) __msan_unpoison((p), (len))
#define HWC_MSAN_PUBLIC(p, len) __msan_unpoison((p), (len))
#else
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#if defined(VALGRIND_MAKE_MEM_DEFINED)
#define HWC_DECLASSIFY(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define HWC_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif
#define HWC_MSAN_PUBLIC(p, len) ((void)(p), (void)(len))
#endif

/* HWC_CT_OPAQUE(x): a value barrier, x passes through an empty asm the
   optimiser cannot see through (keeps mask arithmetic branch-free). MSan
   checks asm operands strictly, so in MSan builds the poison is carried
   around the asm instead. */
#if defined(HWC_CT_MSAN)
#define HWC_CT_OPAQUE(x)                                           \
    do {                                                           \
        int hwc_opaque_p_ = hwc_ct_take(&(x), sizeof(x));          \
        __asm__("" : "+r"(x));                                     \
        hwc_ct_give(&(x), sizeof(x), hwc_opaque_p_);               \
    } while (0)
#else
#define HWC_CT_OPAQUE(x) __asm__("" : "+r"(x))
#endif


#if defined(HWC_CT_MSAN)
/* 1 if any byte of p[0..n) is poisoned; then unpoisons it (p is a copy). */
static inline int hwc_ct_take(void *p, size_t n) {
    int poisoned = __msan_test_shadow(p, n) != -1;
    __msan_unpoison(p, n);
    return poisoned;
}
/* The result r of an operation on inputs of which some were poisoned. */
static inline void hwc_ct_give(void *r, size_t n, int poisoned) {
    if (poisoned) __msan_poison(r, n);
}
/* op(inputs..., imm) on unpoisoned copies of the inputs; the result poisoned
   as a whole when any input had a poisoned bit. The copies get names unique
   per expansion (__COUNTER__): the wrappers nest. */
#define HWC_CT_ID(name, id) hwc_##name##id##_
#define HWC_CT_STRICT1(T, op, a, imm) HWC_CT_STRICT1_(T, op, a, imm, __COUNTER__)
#define HWC_CT_STRICT1_(T, op, a, imm, id) HWC_CT_STRICT1__(T, op, a, imm, id)
#define HWC_CT_STRICT1__(T, op, a, imm, id)                                                \
    __extension__({                                                                        \
        T HWC_CT_ID(ca, id) = (a);                                                          \
        int HWC_CT_ID(cp, id) = hwc_ct_take(&HWC_CT_ID(ca, id), sizeof(T));                  \
        T HWC_CT_ID(cr, id) = op(HWC_CT_ID(ca, id), imm);                                    \
        hwc_ct_give(&HWC_CT_ID(cr, id), sizeof(T), HWC_CT_ID(cp, id));                       \
        HWC_CT_ID(cr, id);                                                                  \
    })
#define HWC_CT_STRICT2(T, op, a, b, imm) HWC_CT_STRICT2_(T, op, a, b, imm, __COUNTER__)
#define HWC_CT_STRICT2_(T, op, a, b, imm, id) HWC_CT_STRICT2__(T, op, a, b, imm, id)
#define HWC_CT_STRICT2__(T, op, a, b, imm, id)                                             \
    __extension__({                                                                        \
        T HWC_CT_ID(ca, id) = (a), HWC_CT_ID(cb, id) = (b);                                  \
        int HWC_CT_ID(cp, id) = hwc_ct_take(&HWC_CT_ID(ca, id), sizeof(T)) |                 \
                               hwc_ct_take(&HWC_CT_ID(cb, id), sizeof(T));                  \
        T HWC_CT_ID(cr, id) = op(HWC_CT_ID(ca, id), HWC_CT_ID(cb, id), imm);                  \
        hwc_ct_give(&HWC_CT_ID(cr, id), sizeof(T), HWC_CT_ID(cp, id));                       \
        HWC_CT_ID(cr, id);                                                                  \
    })
#define HWC_CT_STRICT3(T, op, a, b, c, imm) HWC_CT_STRICT3_(T, op, a, b, c, imm, __COUNTER__)
#define HWC_CT_STRICT3_(T, op, a, b, c, imm, id) HWC_CT_STRICT3__(T, op, a, b, c, imm, id)
#define HWC_CT_STRICT3__(T, op, a, b, c, imm, id)                                          \
    __extension__({                                                                        \
        T HWC_CT_ID(ca, id) = (a), HWC_CT_ID(cb, id) = (b), HWC_CT_ID(cc, id) = (c);          \
        int HWC_CT_ID(cp, id) = hwc_ct_take(&HWC_CT_ID(ca, id), sizeof(T)) |                 \
                               hwc_ct_take(&HWC_CT_ID(cb, id), sizeof(T)) |                 \
                               hwc_ct_take(&HWC_CT_ID(cc, id), sizeof(T));                  \
        T HWC_CT_ID(cr, id) = op(HWC_CT_ID(ca, id), HWC_CT_ID(cb, id), HWC_CT_ID(cc, id), imm); \
        hwc_ct_give(&HWC_CT_ID(cr, id), sizeof(T), HWC_CT_ID(cp, id));                       \
        HWC_CT_ID(cr, id);                                                                  \
    })

#if defined(__x86_64__)
#include <immintrin.h>
/* The strictly checked x86 intrinsics the kernels use (clang's headers define
   them as macros over these builtins). */
#define HWC_CT_PCLMUL128(a, b, i) ((__m128i)__builtin_ia32_pclmulqdq128((__v2di)(a), (__v2di)(b), (char)(i)))
#define HWC_CT_PCLMUL256(a, b, i) ((__m256i)__builtin_ia32_pclmulqdq256((__v4di)(a), (__v4di)(b), (char)(i)))
#define HWC_CT_PCLMUL512(a, b, i) ((__m512i)__builtin_ia32_pclmulqdq512((__v8di)(a), (__v8di)(b), (char)(i)))
#define HWC_CT_GF2P8AFF512(a, b, i) \
    ((__m512i)__builtin_ia32_vgf2p8affineqb_v64qi((__v64qi)(a), (__v64qi)(b), (char)(i)))
#define HWC_CT_TERN128(a, b, c, i) ((__m128i)__builtin_ia32_pternlogd128_mask( \
    (__v4si)(a), (__v4si)(b), (__v4si)(c), (unsigned char)(i), (__mmask8)-1))
#define HWC_CT_TERN256(a, b, c, i) ((__m256i)__builtin_ia32_pternlogd256_mask( \
    (__v8si)(a), (__v8si)(b), (__v8si)(c), (unsigned char)(i), (__mmask8)-1))
#define HWC_CT_TERN512(a, b, c, i) ((__m512i)__builtin_ia32_pternlogd512_mask( \
    (__v16si)(a), (__v16si)(b), (__v16si)(c), (unsigned char)(i), (__mmask16)-1))
#define HWC_CT_TERN512Q(a, b, c, i) ((__m512i)__builtin_ia32_pternlogq512_mask( \
    (__v8di)(a), (__v8di)(b), (__v8di)(c), (unsigned char)(i), (__mmask8)-1))
#define HWC_CT_KEYGEN(a, i) ((__m128i)__builtin_ia32_aeskeygenassist128((__v2di)(a), (char)(i)))
/* SBB chains: the builtin has no MSan rule either (checked strictly). */
__attribute__((always_inline)) static inline unsigned char hwc_ct_subborrow_u64(
    unsigned char c, unsigned long long x, unsigned long long y, unsigned long long *out) {
    int poisoned = hwc_ct_take(&c, sizeof c) | hwc_ct_take(&x, sizeof x) | hwc_ct_take(&y, sizeof y);
    unsigned char borrow = __builtin_ia32_subborrow_u64(c, x, y, out);
    hwc_ct_give(out, sizeof *out, poisoned);
    hwc_ct_give(&borrow, sizeof borrow, poisoned);
    return borrow;
}
#define _subborrow_u64(c, x, y, out) hwc_ct_subborrow_u64(c, x, y, out)
#undef _mm_clmulepi64_si128
#undef _mm256_clmulepi64_epi128
#undef _mm512_clmulepi64_epi128
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_aeskeygenassist_si128
#undef _mm_ternarylogic_epi32
#undef _mm256_ternarylogic_epi32
#undef _mm512_ternarylogic_epi32
#undef _mm512_ternarylogic_epi64
#define _mm_clmulepi64_si128(a, b, i) HWC_CT_STRICT2(__m128i, HWC_CT_PCLMUL128, a, b, i)
#define _mm256_clmulepi64_epi128(a, b, i) HWC_CT_STRICT2(__m256i, HWC_CT_PCLMUL256, a, b, i)
#define _mm512_clmulepi64_epi128(a, b, i) HWC_CT_STRICT2(__m512i, HWC_CT_PCLMUL512, a, b, i)
#define _mm512_gf2p8affine_epi64_epi8(a, b, i) HWC_CT_STRICT2(__m512i, HWC_CT_GF2P8AFF512, a, b, i)
#define _mm_aeskeygenassist_si128(a, i) HWC_CT_STRICT1(__m128i, HWC_CT_KEYGEN, a, i)
#define _mm_ternarylogic_epi32(a, b, c, i) HWC_CT_STRICT3(__m128i, HWC_CT_TERN128, a, b, c, i)
#define _mm256_ternarylogic_epi32(a, b, c, i) HWC_CT_STRICT3(__m256i, HWC_CT_TERN256, a, b, c, i)
#define _mm512_ternarylogic_epi32(a, b, c, i) HWC_CT_STRICT3(__m512i, HWC_CT_TERN512, a, b, c, i)
#define _mm512_ternarylogic_epi64(a, b, c, i) HWC_CT_STRICT3(__m512i, HWC_CT_TERN512Q, a, b, c, i)
#endif
#endif

/* The constant-time barrier of the whole project: hides a value (typically a
   mask) from the optimiser, so mask arithmetic is not turned back into a
   comparison and a branch (clang 14 recognises ((d | -d) >> 63) - 1 as
   "d == 0" and branches on it otherwise; caught by tests/ct_modexp.c). Costs
   no instruction. */
static inline uint64_t hwc_ct_barrier(uint64_t x) {
    HWC_CT_OPAQUE(x);
    return x;
}

#endif
