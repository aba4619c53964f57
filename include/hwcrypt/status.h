/* hwcrypt: status codes, version, secure wipe. Reference: docs/API.md. */
#ifndef HWCRYPT_STATUS_H
#define HWCRYPT_STATUS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define HWC_API __attribute__((visibility("default")))
#else
#define HWC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define HWC_OK                      0
#define HWC_ERR_NULL_POINTER       -1  /* a required pointer was NULL            */
#define HWC_ERR_KEY_LENGTH         -2  /* key length not supported               */
#define HWC_ERR_DATA_LENGTH        -3  /* length invalid for this mode           */
#define HWC_ERR_BAD_ARGUMENT       -4  /* other invalid argument (see function)  */
#define HWC_ERR_UNKNOWN_FAMILY     -5
#define HWC_ERR_UNKNOWN_KERNEL     -6
#define HWC_ERR_KERNEL_UNAVAILABLE -7  /* not compiled in, or CPU/OS lacks features */
#define HWC_ERR_NO_MEMORY          -8
#define HWC_ERR_AUTH_FAILED        -9  /* tag did not verify                      */

HWC_API const char *hwc_strerror(int status);      /* never NULL */
HWC_API const char *hwc_version(void);             /* "MAJOR.MINOR.PATCH" */
HWC_API void hwc_wipe(void *p, size_t len);        /* zeroing the compiler cannot remove */

#ifdef __cplusplus
}
#endif
#endif
