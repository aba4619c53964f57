/* Internal to core/: the kernel table bound to an AES key at setkey. */
#ifndef HWC_CORE_AES_INTERNAL_H
#define HWC_CORE_AES_INTERNAL_H

#include "internal/kernel.h"

/* The kernel table of a key set by hwc_aes_setkey, or NULL when the key was
   never set (rounds == 0) or does not look like a set key. */
const hwc_aes_impl *hwc_aes_key_impl(const hwc_aes_key *k);

#endif
