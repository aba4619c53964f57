/* AES kernel "vaes-avx2": VAES on ymm with AVX2, no AVX-512 (Zen 3, Alder
 * Lake; also Ice/Tiger/Rocket Lake where the width policy prefers ymm).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 256 bits with this kernel's flags only (CMakeLists.txt).
 *
 * This table does not use VPCLMULQDQ: every real VAES CPU has it, emulators
 * may not (qemu 7.2 -cpu max), so XTS tweak updates here use shifts and
 * XORs. The variant hwc_aes_vaes_avx2_clmul (aes_vaes_avx2_clmul.c) is the
 * same kernel with VPCLMULQDQ; dispatch/ picks it where the CPU has it. */
#define HWC_W 256
#define HWC_AES_TABLE hwc_aes_vaes_avx2
#include "impl/x86/aes_x86_modes.h"
