/* Status strings, version, and a wipe the compiler cannot drop. */
#include <string.h>
#include "hwcrypt/status.h"

const char *hwc_strerror(int status) {
    switch (status) {
    case HWC_OK: return "success";
    case HWC_ERR_NULL_POINTER: return "a required pointer was NULL";
    case HWC_ERR_KEY_LENGTH: return "key length not supported";
    case HWC_ERR_DATA_LENGTH: return "length invalid for this mode";
    case HWC_ERR_BAD_ARGUMENT: return "invalid argument";
    case HWC_ERR_UNKNOWN_FAMILY: return "unknown kernel family";
    case HWC_ERR_UNKNOWN_KERNEL: return "unknown kernel";
    case HWC_ERR_KERNEL_UNAVAILABLE: return "kernel not compiled in, or the CPU/OS lacks its features";
    case HWC_ERR_NO_MEMORY: return "out of memory";
    case HWC_ERR_AUTH_FAILED: return "authentication tag did not verify";
    default: return "unknown status code";
    }
}

const char *hwc_version(void) { return HWC_VERSION_STRING; }

void hwc_wipe(void *p, size_t len) {
    if (!p || !len) return;
    memset(p, 0, len);
    /* The asm claims to read the memory, so the stores above must happen. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
