/* HMAC-Streebog (RFC 7836 section 4.1.1 = RFC 2104 with B = 64) and
 * PBKDF2-HMAC-Streebog-512 (RFC 8018 section 5.2 with the PRF of RFC 7836
 * section 4.5 / RFC 9337). The ipad/opad states (h, N, Sigma after the one
 * 64-byte pad block) are computed once per key and copied for every PRF call,
 * so a PBKDF2 iteration costs the compressions of two 64-byte messages and
 * nothing else; the kernel table is bound once, at the pad states. */
#include <string.h>
#include "hwcrypt/streebog.h"
#include "streebog_internal.h"
#include "internal/wipe.h"

typedef struct {
    hwc_streebog_ctx inner;   /* after absorbing K0 ^ ipad */
    hwc_streebog_ctx outer;   /* after absorbing K0 ^ opad */
    unsigned out_len;         /* 32 or 64 */
} hmac_state;

/* RFC 2104 section 2: K0 = K (zero-padded to B = 64) or H(K) if |K| > B,
   hashed with the same digest size as the HMAC (RFC 7836 section 4.1.1). */
static void hmac_setup(hmac_state *s, const hwc_streebog_impl *impl, unsigned bits,
                       const uint8_t *key, size_t key_len) {
    uint8_t k0[64], pad[64];
    memset(k0, 0, sizeof k0);
    if (key_len > 64) {
        hwc_sb_start(&s->inner, impl, bits);
        hwc_sb_absorb(&s->inner, key, key_len);
        hwc_sb_finish(&s->inner, k0);
    } else if (key_len) {
        memcpy(k0, key, key_len);
    }
    for (int i = 0; i < 64; i++) pad[i] = k0[i] ^ 0x36;
    hwc_sb_start(&s->inner, impl, bits);
    hwc_sb_absorb(&s->inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = k0[i] ^ 0x5c;
    hwc_sb_start(&s->outer, impl, bits);
    hwc_sb_absorb(&s->outer, pad, 64);
    s->out_len = bits / 8;
    hwc_wipe_inline(k0, sizeof k0);
    hwc_wipe_inline(pad, sizeof pad);
}

/* mac = H(opad-state || H(ipad-state || a || b)); mac may alias a or b. */
static void hmac_run(const hmac_state *s, const uint8_t *a, size_t a_len, const uint8_t *b,
                     size_t b_len, uint8_t *mac, hwc_streebog_ctx *tmp) {
    uint8_t inner[64];
    *tmp = s->inner;
    hwc_sb_absorb(tmp, a, a_len);
    hwc_sb_absorb(tmp, b, b_len);
    hwc_sb_finish(tmp, inner);
    *tmp = s->outer;
    hwc_sb_absorb(tmp, inner, s->out_len);
    hwc_sb_finish(tmp, mac);
    hwc_wipe_inline(inner, sizeof inner);
}

int hwc_hmac_streebog(unsigned digest_bits, const uint8_t *key, size_t key_len, const void *msg,
                      size_t len, uint8_t *mac) {
    if (!mac || (!key && key_len) || (!msg && len)) return HWC_ERR_NULL_POINTER;
    if (digest_bits != 256 && digest_bits != 512) return HWC_ERR_BAD_ARGUMENT;
    hmac_state s;
    hwc_streebog_ctx tmp;
    uint8_t out[64];
    hmac_setup(&s, hwc_active_streebog(), digest_bits, key, key_len);
    hmac_run(&s, msg, len, NULL, 0, out, &tmp);
    memcpy(mac, out, s.out_len);
    hwc_wipe_inline(&s, sizeof s);
    hwc_wipe_inline(&tmp, sizeof tmp);
    hwc_wipe_inline(out, sizeof out);
    hwc_stack_scrub(HWC_SCRUB_HASH);
    return HWC_OK;
}

/* RFC 8018 section 5.2: T_i = U_1 ^ ... ^ U_c, U_1 = PRF(P, S || INT(i)),
   U_j = PRF(P, U_{j-1}); DK = T_1 || T_2 || ... truncated to out_len. */
int hwc_pbkdf2_streebog512(const uint8_t *password, size_t password_len, const uint8_t *salt,
                           size_t salt_len, uint32_t iterations, uint8_t *out, size_t out_len) {
    if ((!out && out_len) || (!password && password_len) || (!salt && salt_len))
        return HWC_ERR_NULL_POINTER;
    if (iterations == 0) return HWC_ERR_BAD_ARGUMENT;
    /* dkLen > (2^32 - 1) * hLen: "derived key too long" (RFC 8018 5.2 step 1). */
    if ((uint64_t)(out_len - 1) / 64 >= 0xffffffffull && out_len) return HWC_ERR_BAD_ARGUMENT;
    if (out_len == 0) return HWC_OK;

    hmac_state s;
    hwc_streebog_ctx tmp;
    uint8_t u[64], t[64], ctr[4];
    hmac_setup(&s, hwc_active_streebog(), 512, password, password_len);
    for (uint32_t i = 1; out_len; i++) {
        ctr[0] = (uint8_t)(i >> 24);
        ctr[1] = (uint8_t)(i >> 16);
        ctr[2] = (uint8_t)(i >> 8);
        ctr[3] = (uint8_t)i;
        hmac_run(&s, salt, salt_len, ctr, 4, u, &tmp);
        memcpy(t, u, 64);
        for (uint32_t j = 1; j < iterations; j++) {
            hmac_run(&s, u, 64, NULL, 0, u, &tmp);
            for (int b = 0; b < 64; b++) t[b] ^= u[b];
        }
        size_t n = out_len < 64 ? out_len : 64;
        memcpy(out, t, n);
        out += n;
        out_len -= n;
    }
    hwc_wipe_inline(&s, sizeof s);
    hwc_wipe_inline(&tmp, sizeof tmp);
    hwc_wipe_inline(u, sizeof u);
    hwc_wipe_inline(t, sizeof t);
    hwc_stack_scrub(HWC_SCRUB_HASH);
    return HWC_OK;
}
