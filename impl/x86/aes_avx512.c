/* AES kernel "avx512": VAES + VPCLMULQDQ on zmm with AVX-512 (Zen 4+, Ice
 * Lake+). The mode loops are the width-generic ones of
 * impl/x86/aes_x86_modes.h and GCM that of impl/x86/aes_gcm_x86.h, compiled
 * here at 512 bits with this kernel's flags only (CMakeLists.txt). */
#define HWC_W 512
#define HWC_GCM_W 512
#include "impl/x86/aes_x86_modes.h"
#include "impl/x86/aes_gcm_x86.h"

/* The table with lane step `step`. */
#define AVX512_TABLE(step)                                         \
    {HWC_X86_AES_MODE_SLOTS_WITH(step), HWC_X86_GCM_SLOTS,         \
     .clean_frames = HWC_X86_AES_CLEAN | HWC_CLEAN_XTS | HWC_X86_GCM_CLEAN}

const hwc_aes_impl hwc_aes_avx512 = AVX512_TABLE(chain_step);

/* The same kernel on cores with an 8-way L1 data cache (Zen 4): its lane
   step stages or staggers CBC outputs from 5 lanes per L1 set, not 9
   (impl/x86/aes_x86_lanes.h, chain_step_limit). */
const hwc_aes_impl hwc_aes_avx512_l1d8 = AVX512_TABLE(chain_step_l1d8);
