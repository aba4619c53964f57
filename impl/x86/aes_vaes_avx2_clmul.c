/* Part of the "vaes-avx2" kernel: its XTS loops with the tweak updates on
 * VPCLMULQDQ (ymm) and its GCM loops (impl/x86/aes_gcm_x86.h at 256 bits),
 * compiled with -mvpclmulqdq; aes_vaes_avx2.c calls them only when the CPU
 * reports VPCLMULQDQ. */
#define HWC_W 256
#define HWC_AES_XTS_ONLY
#define HWC_XTS_ENC_NAME hwc_aes_vaes_avx2_xts_enc_clmul
#define HWC_XTS_DEC_NAME hwc_aes_vaes_avx2_xts_dec_clmul
#include "impl/x86/aes_x86_modes.h"

#define HWC_GCM_W 256
#define HWC_GCM_PREFIX hwc_aes_vaes_avx2_clmul_gcm_
#include "impl/x86/aes_gcm_x86.h"
