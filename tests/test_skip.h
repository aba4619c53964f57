/* HWC_TEST_SKIP="family/kernel,...": kernels not to run in this process,
   reported as skipped with HWC_TEST_SKIP_WHY (used for emulator bugs, e.g.
   qemu 7.2 computes VAES on ymm wrongly; those kernels run natively). Shared
   by tests/common.c and the plain programs that do not link it. */
#ifndef HWC_TEST_SKIP_H
#define HWC_TEST_SKIP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int hwc_test_skipped(const char *family, const char *kernel) {
    const char *list = getenv("HWC_TEST_SKIP");
    char item[64];
    snprintf(item, sizeof item, "%s/%s", family, kernel);
    size_t n = strlen(item);
    for (const char *p = list; p && (p = strstr(p, item)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

#endif
