/* Declassification for the constant-time checks under valgrind memcheck
 * (tests/ct_*.c mark secrets undefined; memcheck then reports any branch or
 * address that depends on them). A few results are public by contract and
 * must be revealed: modexp's base < m verdict, XTS's equal-halves verdict,
 * CMAC verify's match verdict. HWC_DECLASSIFY marks such a verdict defined
 * under valgrind; elsewhere the client request is a few no-op instructions
 * (and nothing at all where valgrind's header is absent). */
#ifndef HWC_INTERNAL_CT_H
#define HWC_INTERNAL_CT_H

#include <stdint.h>

/* The constant-time barrier: hides a value (typically a mask) from the
   optimiser, so mask arithmetic is not turned back into a comparison and a
   branch (clang 14 recognises ((d | -d) >> 63) - 1 as "d == 0" and branches
   on it otherwise; caught by tests/ct_modexp.c). Costs no instruction. */
static inline uint64_t hwc_ct_barrier(uint64_t x) {
    __asm__("" : "+r"(x));
    return x;
}

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

#endif
