/* AES kernel "avx512": VAES + VPCLMULQDQ on zmm with AVX-512 (Zen 4+, Ice Lake+).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 512 bits with this kernel's flags only (CMakeLists.txt);
 * GCM is impl/x86/aes_gcm_x86.h at 512 bits, which also defines the table. */
#define HWC_W 512
#define HWC_AES_CUSTOM_TABLE
#include "impl/x86/aes_x86_modes.h"
#define HWC_GCM_W 512
#define HWC_GCM_TABLE hwc_aes_avx512
#include "impl/x86/aes_gcm_x86.h"
