/* placeholder */
#include "core/kernel.h"
const hwc_mpi_impl hwc_mpi_generic;
