/* The dispatcher's state: built once at init, then only the active kernel
   index of each family changes (atomically, by hwc_kernel_select). */
#ifndef HWC_DISPATCH_STATE_H
#define HWC_DISPATCH_STATE_H

#include <stdio.h>
#include "dispatch/cpu.h"
#include "dispatch/registry.h"

#define HWC_MAX_KERNELS 32

typedef struct hwc_dispatch_state {
    hwc_cpu cpu;
    unsigned char usable[HWC_MAX_KERNELS];     /* by registry index; 0 if not compiled in */
    unsigned char excluded[HWC_MAX_KERNELS];   /* "-name" in HWCRYPT_KERNEL */
    int priority[HWC_MAX_KERNELS];             /* after the width policy */
    int order[HWC_NFAM][HWC_MAX_KERNELS];      /* registry indexes, best first */
    int count[HWC_NFAM];
    int forced[HWC_NFAM];                      /* index from HWCRYPT_KERNEL, or -1 */
    int init_status;                           /* first HWCRYPT_KERNEL error */
} hwc_dispatch_state;

/* Apply an HWCRYPT_KERNEL value to st (forced[], excluded[]); writes one line
   per bad item to err; returns HWC_OK or the first error. */
int hwc_env_apply(hwc_dispatch_state *st, const char *spec, FILE *err);


/* For tools/bench/tests: the detected CPU and the built state (after init). */
const hwc_dispatch_state *hwc_dispatch_state_get(void);

#endif
