/* Inline secret wiping for hot paths (the same guarantee as hwc_wipe: the
   asm claims to read the memory, so the zeroing stores cannot be dropped),
   without a call per small buffer. */
#ifndef HWC_INTERNAL_WIPE_H
#define HWC_INTERNAL_WIPE_H

#include <string.h>

static inline void hwc_wipe_inline(void *p, size_t len) {
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

#endif
