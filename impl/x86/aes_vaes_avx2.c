/* AES kernel "vaes-avx2": VAES on ymm with AVX2, no AVX-512 (Zen 3, Alder
 * Lake; also Ice/Tiger/Rocket Lake where the width policy prefers ymm).
 * The mode loops are the width-generic ones of impl/x86/aes_x86_modes.h,
 * compiled here at 256 bits with this kernel's flags only (CMakeLists.txt).
 *
 * VPCLMULQDQ is optional: every real VAES CPU has it, emulators may not
 * (qemu 7.2 -cpu max). XTS tweak updates use it when the CPU reports it (the
 * XTS loops of aes_vaes_avx2_clmul.c, compiled with -mvpclmulqdq), else
 * shifts and XORs; checked once, like the neon kernel's core width. GCM
 * likewise: the ymm loops of aes_vaes_avx2_clmul.c with VPCLMULQDQ, else
 * impl/x86/aes_gcm_x86.h at 128 bits (PCLMULQDQ); both share one hash-key
 * table layout. */
#include <stdatomic.h>
#define HWC_W 256
#define HWC_AES_CUSTOM_TABLE
#include "impl/x86/aes_x86_modes.h"
#include "dispatch/cpu.h"
#include "dispatch/state.h"
#define HWC_GCM_W 128
#include "impl/x86/aes_gcm_x86.h"

void hwc_aes_vaes_avx2_xts_enc_clmul(const hwc_aes_key *k, uint8_t t[16], uint8_t *out,
                                     const uint8_t *in, size_t blocks);
void hwc_aes_vaes_avx2_xts_dec_clmul(const hwc_aes_key *k, uint8_t t[16], uint8_t *out,
                                     const uint8_t *in, size_t blocks);
void hwc_aes_vaes_avx2_clmul_gcm_ghash(const unsigned char *htab, uint8_t x[16], const uint8_t *in,
                                       size_t blocks);
void hwc_aes_vaes_avx2_clmul_gcm_encrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                                         uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks);
void hwc_aes_vaes_avx2_clmul_gcm_decrypt(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                                         uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks);

/* 2 = VPCLMULQDQ usable (dispatch/cpu.c: CPUID and XCR0), 1 = not. */
static int have_vpclmul(void) {
    static _Atomic int cached;   /* 0 = not yet known; same value on every race */
    int v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v) return v;
    v = (hwc_dispatch_state_get()->cpu.features & HWC_F_VPCLMUL) ? 2 : 1;
    atomic_store_explicit(&cached, v, memory_order_relaxed);
    return v;
}

static void xts_enc_any(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                        size_t blocks) {
    if (have_vpclmul() == 2) hwc_aes_vaes_avx2_xts_enc_clmul(k, t, out, in, blocks);
    else xts_enc(k, t, out, in, blocks);
}

static void xts_dec_any(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                        size_t blocks) {
    if (have_vpclmul() == 2) hwc_aes_vaes_avx2_xts_dec_clmul(k, t, out, in, blocks);
    else xts_dec(k, t, out, in, blocks);
}

static void ghash_any(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks) {
    if (have_vpclmul() == 2) hwc_aes_vaes_avx2_clmul_gcm_ghash(htab, x, in, blocks);
    else gcm_ghash(htab, x, in, blocks);
}

static void gcm_enc_any(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],
                        uint8_t *out, const uint8_t *in, size_t blocks) {
    if (have_vpclmul() == 2) hwc_aes_vaes_avx2_clmul_gcm_encrypt(k, htab, ctr, x, out, in, blocks);
    else gcm_encrypt(k, htab, ctr, x, out, in, blocks);
}

static void gcm_dec_any(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16], uint8_t x[16],
                        uint8_t *out, const uint8_t *in, size_t blocks) {
    if (have_vpclmul() == 2) hwc_aes_vaes_avx2_clmul_gcm_decrypt(k, htab, ctr, x, out, in, blocks);
    else gcm_decrypt(k, htab, ctr, x, out, in, blocks);
}

const hwc_aes_impl hwc_aes_vaes_avx2 = {
    .setkey = hwc_x86_setkey,
    .ecb_encrypt = ecb_enc,
    .ecb_decrypt = ecb_dec,
    .cbc_encrypt = cbc_enc,
    .cbc_decrypt = cbc_dec,
    .ctr = ctr,
    .xts_encrypt = xts_enc_any,
    .xts_decrypt = xts_dec_any,
    .cmac_chain = cmac_chain,
    .ghash_init = gcm_ghash_init,
    .ghash = ghash_any,
    .gcm_encrypt = gcm_enc_any,
    .gcm_decrypt = gcm_dec_any,
};
