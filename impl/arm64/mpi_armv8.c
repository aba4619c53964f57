/* armv8-asm mpi kernel: multiply-accumulate in AArch64 assembly (mpi_armv8.S).
 * Montgomery multiplication and modexp come from core/ on top of this muladd
 * (montmul and domain NULL in the table). */
#include "internal/kernel.h"
#include "impl/arm64/mpi_armv8.h"

const hwc_mpi_impl hwc_mpi_armv8_asm = {
    .muladd = hwc_mpi_armv8_muladd,
    .montmul = NULL,
    .domain = NULL,
};
