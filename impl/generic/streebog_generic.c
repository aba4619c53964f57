/* placeholder */
#include "core/kernel.h"
const hwc_streebog_impl hwc_streebog_generic;
