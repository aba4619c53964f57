/* AES kernel "avx512": VAES + VPCLMULQDQ on zmm with AVX-512 (Zen 4+, Ice Lake+).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 512 bits with this kernel's flags only (CMakeLists.txt);
 * GCM is impl/x86/aes_gcm_x86.h at 512 bits. */
#define HWC_W 512
#define HWC_AES_CUSTOM_TABLE
#include "impl/x86/aes_x86_modes.h"
#define HWC_GCM_W 512
#include "impl/x86/aes_gcm_x86.h"

const hwc_aes_impl hwc_aes_avx512 = {
    .setkey = hwc_x86_setkey,
    .ecb_encrypt = ecb_enc,
    .ecb_decrypt = ecb_dec,
    .cbc_encrypt = cbc_enc,
    .cbc_decrypt = cbc_dec,
    .ctr = ctr,
    .xts_encrypt = xts_enc,
    .xts_decrypt = xts_dec,
    .cmac_chain = cmac_chain,
    .ghash_init = gcm_ghash_init,
    .ghash = gcm_ghash,
    .gcm_encrypt = gcm_encrypt,
    .gcm_decrypt = gcm_decrypt,
};
