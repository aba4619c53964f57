/* AES modes: argument checks, CTR tail, XTS tweak and ciphertext stealing.
 * The bulk work goes to the kernel bound to the key at setkey (k->impl); a
 * mode slot the kernel leaves NULL is built from its ECB (HWC_AES_MODE).
 * Contract: docs/API.md (aes.h). On error nothing is written. */
#include <string.h>
#include "hwcrypt/aes.h"
#include "hwcrypt/cmac.h"
#include "core/aes_internal.h"
#include "internal/wipe.h"
#include "internal/ct.h"

#define XTS_MAX_LEN ((size_t)1 << 24)   /* SP 800-38E: at most 2^20 blocks per data unit */

/* The signature the CTR and XTS slots share (internal/kernel.h). */
typedef void (*mode_fn)(const hwc_aes_key *k, uint8_t v[16], uint8_t *out, const uint8_t *in, size_t blocks);

static unsigned rounds_for(size_t key_len) {
    return key_len == 16 ? 10 : key_len == 24 ? 12 : key_len == 32 ? 14 : 0;
}

const hwc_aes_impl *hwc_aes_key_impl(const hwc_aes_key *k) {
    if (!k->impl || k->rounds != rounds_for(k->key_len) || k->rounds == 0) return NULL;
    return (const hwc_aes_impl *)k->impl;
}

/* FIPS-197 5.2 through the kernel table impl; k is untouched on error. */
int hwc_aes_setkey_with(hwc_aes_key *k, const uint8_t *key, size_t key_len, const hwc_aes_impl *impl) {
    if (!k) return HWC_ERR_NULL_POINTER;
    unsigned nr = rounds_for(key_len);
    if (!nr) return HWC_ERR_KEY_LENGTH;
    if (!key) return HWC_ERR_NULL_POINTER;
    if (!impl) return HWC_ERR_KERNEL_UNAVAILABLE;
    k->rounds = nr;
    k->key_len = (unsigned)key_len;
    k->impl = impl;
    impl->setkey(k, key, key_len);
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_SETKEY, HWC_SCRUB_SETKEY);
    return HWC_OK;
}

int hwc_aes_setkey(hwc_aes_key *k, const uint8_t *key, size_t key_len) {
    return hwc_aes_setkey_with(k, key, key_len, hwc_active_aes());
}

void hwc_aes_key_wipe(hwc_aes_key *k) {
    hwc_wipe(k, sizeof *k);
}

/* Common checks of the whole-block modes. */
static int check_blocks(const hwc_aes_key *k, const void *out, const void *in, size_t len,
                        const hwc_aes_impl **impl) {
    if (!k) return HWC_ERR_NULL_POINTER;
    if (len && (!out || !in)) return HWC_ERR_NULL_POINTER;
    if (len % 16) return HWC_ERR_DATA_LENGTH;
    if (!(*impl = hwc_aes_key_impl(k))) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

typedef void (*ecb_fn)(const hwc_aes_key *, uint8_t *, const uint8_t *, size_t);
typedef void (*cbc_fn)(const hwc_aes_key *, uint8_t *, uint8_t *, const uint8_t *, size_t);

/* A kernel call followed by the stack scrub, for kernels whose frames may
   hold key material (internal/wipe.h). Out of line, so that the usual call
   (a clean kernel) keeps nothing live across the kernel: the public
   function then saves no register. The scrub starts at this function's
   stack pointer, above the kernel's frame. */
static __attribute__((noinline)) void ecb_scrubbed(ecb_fn fn, const hwc_aes_key *k, uint8_t *out,
                                                   const uint8_t *in, size_t blocks) {
    fn(k, out, in, blocks);
    hwc_stack_scrub(HWC_SCRUB_FOR(16 * blocks));
}

static __attribute__((noinline)) void cbc_scrubbed(cbc_fn fn, const hwc_aes_key *k, uint8_t *iv, uint8_t *out,
                                                   const uint8_t *in, size_t blocks, size_t scrub) {
    fn(k, iv, out, in, blocks);
    hwc_stack_scrub(scrub);
}

/* ECB (SP 800-38A 6.1) in one direction. */
static int ecb(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t len, int decrypt) {
    const hwc_aes_impl *impl;
    int rc = check_blocks(k, out, in, len, &impl);
    if (rc != HWC_OK || !len) return rc;
    const ecb_fn fn = decrypt ? impl->ecb_decrypt : impl->ecb_encrypt;
    if ((impl->clean_frames & HWC_CLEAN_MODES) == HWC_CLEAN_MODES) fn(k, out, in, len / 16);
    else ecb_scrubbed(fn, k, out, in, len / 16);
    return HWC_OK;
}

int hwc_aes_ecb_encrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t len) {
    return ecb(k, out, in, len, 0);
}

int hwc_aes_ecb_decrypt(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t len) {
    return ecb(k, out, in, len, 1);
}

/* CBC (SP 800-38A 6.2) in one direction; iv is left at the last ciphertext
   block. */
static int cbc(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t len,
               int decrypt) {
    const hwc_aes_impl *impl;
    if (!iv) return HWC_ERR_NULL_POINTER;
    int rc = check_blocks(k, out, in, len, &impl);
    if (rc != HWC_OK || !len) return rc;
    const cbc_fn fn = decrypt ? HWC_AES_MODE(impl, cbc_decrypt) : HWC_AES_MODE(impl, cbc_encrypt);
    if ((impl->clean_frames & HWC_CLEAN_MODES) == HWC_CLEAN_MODES) fn(k, iv, out, in, len / 16);
    /* encryption is one chain (few registers); decryption runs the bulk loops */
    else cbc_scrubbed(fn, k, iv, out, in, len / 16, decrypt ? HWC_SCRUB_FOR(len) : HWC_SCRUB_CHAIN);
    return HWC_OK;
}

int hwc_aes_cbc_encrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                        size_t len) {
    return cbc(k, iv, out, in, len, 0);
}

int hwc_aes_cbc_decrypt(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                        size_t len) {
    return cbc(k, iv, out, in, len, 1);
}

/* SP 800-38A 6.5; a partial last block uses the first bytes of one more
   keystream block (the rest is discarded), the counter still advances. */
int hwc_aes_ctr_crypt(const hwc_aes_key *k, uint8_t counter[16], uint8_t *out, const uint8_t *in,
                      size_t len) {
    if (!k || !counter) return HWC_ERR_NULL_POINTER;
    if (len && (!out || !in)) return HWC_ERR_NULL_POINTER;
    const hwc_aes_impl *impl = hwc_aes_key_impl(k);
    if (!impl) return HWC_ERR_BAD_ARGUMENT;
    size_t full = len / 16, rem = len % 16;
    mode_fn ctr = HWC_AES_MODE(impl, ctr);
    if (full) ctr(k, counter, out, in, full);
    if (rem) {
        uint8_t ks[16] = {0};
        ctr(k, counter, ks, ks, 1);
        for (size_t i = 0; i < rem; i++) out[16 * full + i] = in[16 * full + i] ^ ks[i];
        hwc_wipe_inline(ks, sizeof ks);
    }
    HWC_SCRUB_UNLESS(impl->clean_frames, HWC_CLEAN_MODES, HWC_SCRUB_FOR(len));
    return HWC_OK;
}

/* ---- XTS (IEEE 1619-2007, SP 800-38E) ------------------------------------ */

int hwc_aes_xts_setkey(hwc_aes_xts_key *k, const uint8_t *key, size_t key_len) {
    if (!k) return HWC_ERR_NULL_POINTER;
    if (key_len != 32 && key_len != 64) return HWC_ERR_KEY_LENGTH;
    if (!key) return HWC_ERR_NULL_POINTER;
    size_t half = key_len / 2;
    uint8_t diff = 0;                       /* constant-time equality of the halves */
    for (size_t i = 0; i < half; i++) diff |= (uint8_t)(key[i] ^ key[half + i]);
    uint8_t equal = (uint8_t)(((unsigned)diff - 1u) >> 8);  /* 1 iff diff == 0 */
    HWC_DECLASSIFY(&equal, sizeof equal);                    /* the verdict is public */
    if (equal) return HWC_ERR_BAD_ARGUMENT;
    int rc = hwc_aes_setkey(&k->data, key, half);
    if (rc == HWC_OK) rc = hwc_aes_setkey(&k->tweak, key + half, half);
    return rc;
}

unsigned hwc_aes_xts_clean(const hwc_aes_xts_key *k) {
    const hwc_aes_impl *di = k ? hwc_aes_key_impl(&k->data) : NULL;
    const hwc_aes_impl *ti = k ? hwc_aes_key_impl(&k->tweak) : NULL;
    return di && ti ? di->clean_frames & ti->clean_frames : 0;
}

/* The length is checked before out and in: with len 0 they may be NULL and
   the answer is the length error. */
static int xts_check(const hwc_aes_xts_key *k, const uint8_t *tweak, const uint8_t *out,
                     const uint8_t *in, size_t len, const hwc_aes_impl **di,
                     const hwc_aes_impl **ti) {
    if (!k || !tweak) return HWC_ERR_NULL_POINTER;
    if (len < 16 || len > XTS_MAX_LEN) return HWC_ERR_DATA_LENGTH;
    if (!out || !in) return HWC_ERR_NULL_POINTER;
    *di = hwc_aes_key_impl(&k->data);
    *ti = hwc_aes_key_impl(&k->tweak);
    if (!*di || !*ti) return HWC_ERR_BAD_ARGUMENT;
    return HWC_OK;
}

/* IEEE 1619-2007 5.3.2 (encryption) and 5.4.2 (decryption): m full blocks
   and b trailing bytes. With stealing, the last full block is processed with
   T_{m-1} when encrypting and T_m when decrypting, the recombined block with
   the other one. */
static int xts_crypt(const hwc_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out,
                     const uint8_t *in, size_t len, int decrypt) {
    const hwc_aes_impl *di, *ti;
    int rc = xts_check(k, tweak, out, in, len, &di, &ti);
    if (rc != HWC_OK) return rc;
    size_t m = len / 16, b = len % 16;
    mode_fn xts = decrypt ? HWC_AES_MODE(di, xts_decrypt) : HWC_AES_MODE(di, xts_encrypt);
    uint8_t t[16];
    ti->ecb_encrypt(&k->tweak, t, tweak, 1);                          /* T = E_K2(i) */
    if (b == 0) {
        xts(&k->data, t, out, in, m);
    } else {
        uint8_t tm[16], x[16], y[16];
        if (m > 1) xts(&k->data, t, out, in, m - 1);                  /* t = T_{m-1} */
        hwc_gf128_dbl_le(tm, t);                                      /* T_m */
        xts(&k->data, decrypt ? tm : t, x, in + 16 * (m - 1), 1);     /* CC / PP */
        memcpy(y, in + 16 * m, b);                                    /* last b bytes || */
        memcpy(y + b, x + b, 16 - b);                                 /* stolen bytes */
        memcpy(out + 16 * m, x, b);                                   /* C_m / P_m */
        xts(&k->data, decrypt ? t : tm, out + 16 * (m - 1), y, 1);    /* C_{m-1} / P_{m-1} */
        hwc_wipe_inline(tm, sizeof tm);
        hwc_wipe_inline(x, sizeof x);
        hwc_wipe_inline(y, sizeof y);
    }
    hwc_wipe_inline(t, sizeof t);
    HWC_SCRUB_UNLESS(hwc_aes_xts_clean(k), HWC_CLEAN_MODES | HWC_CLEAN_XTS, HWC_SCRUB_XTS);
    return HWC_OK;
}

int hwc_aes_xts_encrypt(const hwc_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out,
                        const uint8_t *in, size_t len) {
    return xts_crypt(k, tweak, out, in, len, 0);
}

int hwc_aes_xts_decrypt(const hwc_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out,
                        const uint8_t *in, size_t len) {
    return xts_crypt(k, tweak, out, in, len, 1);
}
