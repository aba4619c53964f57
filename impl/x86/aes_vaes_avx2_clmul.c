/* AES kernel "vaes-avx2", variant for CPUs with VPCLMULQDQ: the table of
 * aes_vaes_avx2.c compiled with -mvpclmulqdq as well, so that XTS tweak
 * updates use carry-less multiplication (impl/x86/aes_x86_modes.h). */
#define HWC_W 256
#define HWC_AES_TABLE hwc_aes_vaes_avx2_clmul
#include "impl/x86/aes_x86_modes.h"
