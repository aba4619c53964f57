/* Inline secret wiping for hot paths (the same guarantee as hwc_wipe: the
   asm claims to read the memory, so the zeroing stores cannot be dropped),
   without a call per small buffer; and the stack scrub. */
#ifndef HWC_INTERNAL_WIPE_H
#define HWC_INTERNAL_WIPE_H

#include <stddef.h>
#include <string.h>

static inline void hwc_wipe_inline(void *p, size_t len) {
    memset(p, 0, len);
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
enum {
    HWC_SCRUB_SETKEY = 768,    /* AES key expansion (generic: 700 bytes deep) */
    HWC_SCRUB_CHAIN = 512,     /* CBC encryption, CMAC update and final (copies to 260) */
    HWC_SCRUB_BULK = 1536,     /* ECB, CBC decryption, CTR, XTS, CMAC init (copies to 1330) */
    HWC_SCRUB_HASH = 2560,     /* HMAC-Streebog, PBKDF2 (copies to 2080) */
};

/* Zeroes [sp - bytes, sp) where sp is the stack pointer at the call, i.e.
   everything below the return address: no frame of its own, so no byte of
   the dead region is left out (a C function would keep its own frame and
   padding there). The stack pointer is lowered over the region while it is
   written (valgrind and signal handlers see an ordinary allocation) and
   restored. bytes: a multiple of 16, at most a page. */
#if defined(__x86_64__)
__attribute__((naked, noinline, unused)) static void hwc_stack_scrub(__attribute__((unused)) size_t bytes) {
    __asm__("mov %rsp, %rdx\n\t"
            "sub %rdi, %rsp\n\t"          /* allocate the region */
            "mov %rdi, %rcx\n\t"
            "mov %rsp, %rdi\n\t"
            "xor %eax, %eax\n\t"
            "cld\n\t"
            "rep stosb\n\t"
            "mov %rdx, %rsp\n\t"
            "ret");
}
#elif defined(__aarch64__)
__attribute__((naked, noinline, unused)) static void hwc_stack_scrub(__attribute__((unused)) size_t bytes) {
    __asm__("mov x1, sp\n\t"
            "sub x2, x1, x0\n\t"
            "mov sp, x2\n"                 /* allocate the region */
            "1:\n\t"
            "stp xzr, xzr, [x2], #16\n\t"
            "cmp x2, x1\n\t"
            "b.lo 1b\n\t"
            "mov sp, x1\n\t"
            "ret");
}
#else
/* Other targets: a C fallback (its own frame, a few bytes, stays unscrubbed). */
__attribute__((noinline, unused)) static void hwc_stack_scrub(size_t bytes) {
    unsigned char *p = __builtin_alloca(bytes);
    hwc_wipe_inline(p, bytes);
}
#endif

#endif
