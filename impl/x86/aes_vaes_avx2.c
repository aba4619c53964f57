/* AES kernel "vaes-avx2": VAES on ymm with AVX2, no AVX-512 (Zen 3, Alder
 * Lake; also Ice/Tiger/Rocket Lake where the width policy prefers ymm).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 256 bits with this kernel's flags only (CMakeLists.txt).
 *
 * This table does not use VPCLMULQDQ: every real VAES CPU has it, emulators
 * may not (qemu 7.2 -cpu max), so XTS tweak updates here use shifts and
 * XORs and GCM runs impl/x86/aes_gcm_x86.h at 128 bits (PCLMULQDQ). The
 * variant hwc_aes_vaes_avx2_clmul (aes_vaes_avx2_clmul.c) is the same kernel
 * with VPCLMULQDQ; dispatch/ picks it where the CPU has it. */
#define HWC_W 256
#define HWC_GCM_W 128
#include "impl/x86/aes_x86_modes.h"
#include "impl/x86/aes_gcm_x86.h"

const hwc_aes_impl hwc_aes_vaes_avx2 = {HWC_X86_AES_MODE_SLOTS, HWC_X86_GCM_SLOTS,
    .clean_frames = HWC_X86_AES_CLEAN | HWC_X86_GCM_CLEAN};
