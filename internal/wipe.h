/* Inline secret wiping for hot paths (the same guarantee as hwc_wipe: the
   asm claims to read the memory, so the zeroing stores cannot be dropped),
   without a call per small buffer; and the stack scrub. */
#ifndef HWC_INTERNAL_WIPE_H
#define HWC_INTERNAL_WIPE_H

#include <stddef.h>
#include <string.h>

/* One 64-byte store per line, whatever vector stores the file is built
   with: a memset of a constant size of some hundred bytes becomes rep stosq
   on x86, whose start-up costs tens of cycles per call on Zen 5 (docs/bench.md).
   The empty asm in the loop keeps the compiler from making it a memset again. */
typedef unsigned char hwc_wipe_line __attribute__((vector_size(64), aligned(1), may_alias));

static inline void hwc_wipe_inline(void *p, size_t len) {
    unsigned char *q = (unsigned char *)p;
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        *(hwc_wipe_line *)(void *)(q + i) = (hwc_wipe_line){0};
        __asm__ __volatile__("" : "+r"(q));
    }
    memset(q + i, 0, len - i);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Compilers spill round keys, subkeys and hash states into the frames of the
   functions that use them, and nothing in C clears a frame on return. The
   public functions that handle key material therefore end with
   hwc_stack_scrub(HWC_SCRUB_...): it zeroes that many bytes of the stack
   just below the caller's frame, i.e. the dead frames of everything the
   caller called (its own frame sits there while it runs). The sizes are
   upper bounds of the depth those calls reach, for every kernel, with gcc
   and clang; tests/test_stack_scan.c fails when one is too small. */
enum {   /* multiples of 256 */
    HWC_SCRUB_SETKEY = 768,    /* AES key expansion (generic: 700 bytes deep) */
    HWC_SCRUB_SHORT = 512,     /* ECB, CBC decryption, CTR on one block (under 32 bytes) */
    HWC_SCRUB_CHAIN = 512,     /* CBC encryption, CMAC update and final (copies to 260) */
    HWC_SCRUB_BULK = 1536,     /* ECB, CBC decryption, CTR, CMAC init (copies to 1330) */
    HWC_SCRUB_XTS = 1024,      /* XTS units: core/ for kernels without HWC_CLEAN_XTS, avx512 after
                                  its per-unit sectors (copies to 768) */
    HWC_SCRUB_SECTORS = 3072,  /* XTS sectors: core/ for kernels without HWC_CLEAN_XTS (copies to 2240) */
    HWC_SCRUB_HASH = 2560,     /* HMAC-Streebog, PBKDF2 (copies to 2080) */
    HWC_SCRUB_WIDE = 2560,     /* GCM (copies to 2100) */
    HWC_SCRUB_LANES = 18432,   /* CMAC and CBC-encrypt lanes (copies to 16900) */
};

/* Bulk modes on one block take the kernels' single-block paths (xmm, few
   registers, shallow frames): a shallower scrub. */
#define HWC_SCRUB_FOR(len) ((len) < 32 ? HWC_SCRUB_SHORT : HWC_SCRUB_BULK)

/* The scrub after calls of the slot groups `groups` (HWC_CLEAN_* bits of
   internal/kernel.h) of a kernel whose clean_frames lacks any of them. A
   macro, not a function: the scrub must start at the public function's own
   stack pointer. */
#define HWC_SCRUB_UNLESS(clean, groups, bytes) \
    do { \
        if (((clean) & (groups)) != (groups)) hwc_stack_scrub(bytes); \
    } while (0)

/* Zeroes [sp - bytes, sp) where sp is the stack pointer at the call, i.e.
   everything below the return address (internal/wipe.c: assembly without a
   frame of its own, with the widest stores the CPU has). bytes: a multiple
   of 256, no deeper than the callees could have gone (their pages are
   mapped). */
void hwc_stack_scrub(size_t bytes);

#endif
