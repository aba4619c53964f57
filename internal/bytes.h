/* Big-endian 64-bit loads and stores from byte arrays, for any host byte
   order (compilers turn the loops into one load or store plus a byte swap);
   whole 16-byte blocks in one store; short copies without a library call. */
#ifndef HWC_INTERNAL_BYTES_H
#define HWC_INTERNAL_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Blocks that a kernel reads right after core/ wrote them are written with
   one 16-byte store (GCC/clang vector extension), so that the kernel's
   16-byte load takes its data from that store (a load spanning several
   smaller stores waits for them to reach the cache). */
typedef uint32_t hwc_u32x4 __attribute__((vector_size(16)));
typedef uint64_t hwc_u64x2 __attribute__((vector_size(16)));

static inline uint64_t hwc_load_be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static inline void hwc_store_be64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

/* The host-order word whose bytes in memory are v big-endian (be) or
   little-endian (le), for whole-word stores; applied to a word loaded from
   memory, its value (each is its own inverse): a byte swap or nothing where
   the compiler tells the byte order (every supported target is
   little-endian), bytes otherwise. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t hwc_be32_word(uint32_t v) {
    return __builtin_bswap32(v);
}
static inline uint64_t hwc_be64_word(uint64_t v) {
    return __builtin_bswap64(v);
}
static inline uint64_t hwc_le64_word(uint64_t v) {
    return v;
}
#else
static inline uint32_t hwc_be32_word(uint32_t v) {
    const uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    uint32_t w;
    memcpy(&w, b, 4);
    return w;
}
static inline uint64_t hwc_be64_word(uint64_t v) {
    uint8_t b[8];
    uint64_t w;
    hwc_store_be64(b, v);
    memcpy(&w, b, 8);
    return w;
}
static inline uint64_t hwc_le64_word(uint64_t v) {
    uint8_t b[8];
    uint64_t w;
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    memcpy(&w, b, 8);
    return w;
}
#endif

/* n < 16 bytes in pieces of 8, 4, 2 and 1, always inline. A memcpy call
   with a variable length (clang emits one) makes the compiler save every
   live vector register on the stack around it: in a kernel, key-derived
   values such as E_K(J0) (tests/test_stack_scan.c). */
static inline __attribute__((always_inline)) void hwc_copy_short(uint8_t *d, const uint8_t *s, size_t n) {
    size_t o = 0;
    if (n & 8) { memcpy(d + o, s + o, 8); o += 8; }
    if (n & 4) { memcpy(d + o, s + o, 4); o += 4; }
    if (n & 2) { memcpy(d + o, s + o, 2); o += 2; }
    if (n & 1) d[o] = s[o];
}

#endif
