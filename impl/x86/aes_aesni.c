/* AES kernel "aesni": AES-NI on xmm (Westmere and later).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 128 bits with this kernel's flags only (CMakeLists.txt);
 * GCM is impl/x86/aes_gcm_x86.h at 128 bits (PCLMULQDQ), which also
 * defines the table. */
#define HWC_W 128
#define HWC_AES_CUSTOM_TABLE
#include "impl/x86/aes_x86_modes.h"
#define HWC_GCM_W 128
#define HWC_GCM_TABLE hwc_aes_aesni
#include "impl/x86/aes_gcm_x86.h"
