/* placeholder */
#include "core/kernel.h"
const hwc_aes_impl hwc_aes_generic;
