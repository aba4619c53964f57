/* AES kernel "vaes-avx2": VAES on ymm with AVX2, no AVX-512 (Zen 3, Alder Lake).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 256 bits with this kernel's flags only (CMakeLists.txt). */
#define HWC_W 256
#define HWC_AES_TABLE hwc_aes_vaes_avx2
#include "impl/x86/aes_x86_modes.h"
