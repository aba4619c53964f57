/* hwc_stack_scrub (internal/wipe.h): zero the stack below the caller.
 * Written in assembly with no frame of its own, so that no byte of the dead
 * region is left out (a C function would keep its own frame and padding
 * there). The stack pointer is lowered over the region while it is written
 * (valgrind and signal handlers then see an ordinary allocation) and
 * restored. On x86-64 the variant is chosen once at load time (GNU ifunc: the
 * call reaches it through a plain indirect jump, so the stack pointer is the
 * caller's): 64-byte stores with AVX-512, 32-byte with AVX2, else rep stosb. */
#include <stddef.h>
#include "internal/wipe.h"

#if defined(__x86_64__)
#define SCRUB_ENTER "mov %rsp, %rdx\n\tsub %rdi, %rsp\n\tmov %rsp, %rax\n\t"  /* rax = sp - bytes */
#define SCRUB_LEAVE "mov %rdx, %rsp\n\tret"

/* zmm16 is outside the AVX/SSE transition state: no vzeroupper needed. */
__attribute__((naked, target("avx512f"))) static void scrub_avx512(__attribute__((unused)) size_t bytes) {
    __asm__(SCRUB_ENTER
            "vpxord %zmm16, %zmm16, %zmm16\n"
            "1:\n\t"
            "vmovdqu64 %zmm16, (%rax)\n\t"
            "vmovdqu64 %zmm16, 64(%rax)\n\t"
            "vmovdqu64 %zmm16, 128(%rax)\n\t"
            "vmovdqu64 %zmm16, 192(%rax)\n\t"
            "add $256, %rax\n\t"
            "cmp %rdx, %rax\n\t"
            "jb 1b\n\t"
            SCRUB_LEAVE);
}

__attribute__((naked, target("avx2"))) static void scrub_avx2(__attribute__((unused)) size_t bytes) {
    __asm__(SCRUB_ENTER
            "vpxor %xmm0, %xmm0, %xmm0\n"
            "1:\n\t"
            "vmovdqu %ymm0, (%rax)\n\t"
            "vmovdqu %ymm0, 32(%rax)\n\t"
            "vmovdqu %ymm0, 64(%rax)\n\t"
            "vmovdqu %ymm0, 96(%rax)\n\t"
            "vmovdqu %ymm0, 128(%rax)\n\t"
            "vmovdqu %ymm0, 160(%rax)\n\t"
            "vmovdqu %ymm0, 192(%rax)\n\t"
            "vmovdqu %ymm0, 224(%rax)\n\t"
            "add $256, %rax\n\t"
            "cmp %rdx, %rax\n\t"
            "jb 1b\n\t"
            "vzeroupper\n\t"
            SCRUB_LEAVE);
}

__attribute__((naked)) static void scrub_rep(__attribute__((unused)) size_t bytes) {
    __asm__(SCRUB_ENTER
            "mov %rdi, %rcx\n\t"
            "mov %rax, %rdi\n\t"
            "xor %eax, %eax\n\t"
            "cld\n\t"
            "rep stosb\n\t"
            SCRUB_LEAVE);
}

typedef void scrub_fn(size_t);
/* Runs while relocations are applied, before any sanitizer runtime is up:
   not instrumented, and only the compiler's CPU model (which checks the OS's
   XCR0 for AVX and AVX-512 state), nothing of hwcrypt. */
#if defined(__clang__)
#define NOT_INSTRUMENTED __attribute__((no_sanitize("address", "undefined", "memory", "thread")))
#else
#define NOT_INSTRUMENTED __attribute__((no_sanitize("address", "undefined", "thread")))
#endif
NOT_INSTRUMENTED __attribute__((used)) static scrub_fn *resolve_scrub(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return scrub_avx512;
    if (__builtin_cpu_supports("avx2")) return scrub_avx2;
    return scrub_rep;
}
void hwc_stack_scrub(size_t bytes) __attribute__((ifunc("resolve_scrub")));

#elif defined(__aarch64__)
/* File-scope assembly: GCC 12 has no naked functions on AArch64. The first
   instruction is BTI c (a no-op on cores without branch protection). */
__asm__(".text\n"
        ".global hwc_stack_scrub\n"
        ".hidden hwc_stack_scrub\n"
        ".type hwc_stack_scrub, %function\n"
        ".p2align 4\n"
        "hwc_stack_scrub:\n\t"
        "hint 34\n\t"
        "mov x1, sp\n\t"
        "sub x2, x1, x0\n\t"
        "mov sp, x2\n"             /* allocate the region */
        "1:\n\t"
        "stp xzr, xzr, [x2], #16\n\t"
        "stp xzr, xzr, [x2], #16\n\t"
        "cmp x2, x1\n\t"
        "b.lo 1b\n\t"
        "mov sp, x1\n\t"
        "ret\n"
        ".size hwc_stack_scrub, .-hwc_stack_scrub\n");

#else
/* Other targets: C (its own frame, a few bytes, stays unscrubbed). */
__attribute__((noinline)) void hwc_stack_scrub(size_t bytes) {
    unsigned char *p = __builtin_alloca(bytes);
    hwc_wipe_inline(p, bytes);
}
#endif
