/* 64-bit loads and stores from byte arrays in either byte order, for any
   host byte order; whole 16-byte blocks in one store; short copies without
   a library call. */
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
/* The value of the 0 < n < 8 bytes at p read as a little-endian number,
   from two loads that overlap when n is not 4 or 2 (equal bytes ORed) and
   never pass p + n. */
static inline uint64_t hwc_load_le_short(const uint8_t *p, size_t n) {
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return a | (uint64_t)b << (8 * (n - 4));
    }
    return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) | (uint64_t)p[n - 1] << (8 * (n - 1));
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
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (56 - 8 * i));
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
static inline uint64_t hwc_load_le_short(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
#endif

/* 64-bit big- and little-endian loads and stores at any alignment: one
   load or store (and a byte swap), which byte loops did not always become
   (gcc 12 kept hwc_load_be64's eight byte loads). */
static inline uint64_t hwc_word_at(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t hwc_load_be64(const uint8_t *p) {
    return hwc_be64_word(hwc_word_at(p));
}

static inline uint64_t hwc_load_le64(const uint8_t *p) {
    return hwc_le64_word(hwc_word_at(p));
}

static inline void hwc_store_be64(uint8_t *p, uint64_t v) {
    const uint64_t w = hwc_be64_word(v);
    memcpy(p, &w, 8);
}

static inline void hwc_store_le64(uint8_t *p, uint64_t v) {
    const uint64_t w = hwc_le64_word(v);
    memcpy(p, &w, 8);
}

/* The 16-byte block with the n <= 16 bytes at p at offsets pos .. pos + n - 1
   (pos + n <= 16) and zeros elsewhere, built in registers (per 8 bytes: two
   loads of 8 or 4 bytes that may overlap, or up to three single bytes,
   shifted and ORed; nothing read outside p[0 .. n)). Written with one 16-byte store,
   it is what a kernel's 16-byte load can take straight from that store,
   where a short copy into a block would make that load wait. n and pos are
   public (lengths). */
static inline hwc_u64x2 hwc_block_at(const uint8_t *p, size_t n, size_t pos) {
    uint64_t lo, hi = 0;
    if (n == 0) {
        const hwc_u64x2 zero = {0, 0};
        return zero;
    }
    if (n < 8) {
        lo = hwc_load_le_short(p, n);
    } else {                     /* bytes 8 .. n - 1 from the word ending at p + n */
        lo = hwc_load_le64(p);
        if (n > 8) hi = hwc_load_le64(p + n - 8) >> (8 * (16 - n));
    }
    if (pos >= 8) {              /* then 0 < n <= 8: hi is 0, pos < 16 */
        hi = lo << (8 * (pos - 8));
        lo = 0;
    } else if (pos) {
        hi = hi << (8 * pos) | lo >> (64 - 8 * pos);
        lo <<= 8 * pos;
    }
    const hwc_u64x2 v = {hwc_le64_word(lo), hwc_le64_word(hi)};
    return v;
}

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
