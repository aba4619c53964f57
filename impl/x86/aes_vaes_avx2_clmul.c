/* AES kernel "vaes-avx2", variant for CPUs with VPCLMULQDQ: the table of
 * aes_vaes_avx2.c compiled with -mvpclmulqdq as well, so that XTS tweak
 * updates use carry-less multiplication (impl/x86/aes_x86_modes.h) and GCM
 * runs on ymm (impl/x86/aes_gcm_x86.h at 256 bits). */
#define HWC_W 256
#define HWC_GCM_W 256
#include "impl/x86/aes_x86_modes.h"
#include "impl/x86/aes_gcm_x86.h"

const hwc_aes_impl hwc_aes_vaes_avx2_clmul = {HWC_X86_AES_MODE_SLOTS, HWC_X86_GCM_SLOTS,
    .clean_frames = HWC_X86_AES_CLEAN | HWC_X86_GCM_CLEAN};
