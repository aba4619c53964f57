/* The classic AES modes built from a kernel's ECB, for kernel tables that
 * leave a mode slot NULL (internal/kernel.h): CBC (SP 800-38A 6.2), CTR
 * (SP 800-38A 6.5), XTS whole blocks (IEEE 1619-2007 5.3.1) and the CMAC
 * CBC-MAC chain (SP 800-38B 6.2). Each takes the ECB functions of the table
 * bound to the key, so a kernel with only setkey + ecb_* runs every mode.
 * The parallel modes hand the ECB CHUNK blocks per call, letting a kernel
 * overlap blocks. No branch or index depends on data; secret temporaries
 * (keystream, tweaks, masked blocks) are wiped before return. */
#include <string.h>
#include "hwcrypt/cmac.h"
#include "core/aes_internal.h"
#include "internal/wipe.h"

#define CHUNK 16   /* blocks per ECB call in CBC decrypt, CTR and XTS */

typedef void (*ecb_fn)(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks);

static const hwc_aes_impl *table(const hwc_aes_key *k) {
    return (const hwc_aes_impl *)k->impl;
}

/* d = a ^ b over n bytes, n a multiple of 8, eight bytes at a time; d may
   be a or b. */
static inline void xor_bytes(uint8_t *d, const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        x ^= y;
        memcpy(d + i, &x, 8);
    }
}

/* C_i = E(P_i ^ C_{i-1}), C_0 = IV: one block at a time (a chain). */
void hwc_aes_cbc_encrypt_from_ecb(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks) {
    ecb_fn enc = table(k)->ecb_encrypt;
    uint8_t x[16];
    for (size_t i = 0; i < blocks; i++) {
        xor_bytes(x, iv, in + 16 * i, 16);
        enc(k, iv, x, 1);
        memcpy(out + 16 * i, iv, 16);
    }
    hwc_wipe_inline(x, sizeof x);
}

/* P_i = D(C_i) ^ C_{i-1}: CHUNK blocks per ECB call. The ciphertext of a
   chunk is kept aside first, so out == in works. */
void hwc_aes_cbc_decrypt_from_ecb(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks) {
    ecb_fn dec = table(k)->ecb_decrypt;
    uint8_t c[16 * CHUNK];
    while (blocks) {
        size_t n = blocks < CHUNK ? blocks : CHUNK;
        memcpy(c, in, 16 * n);
        dec(k, out, c, n);
        xor_bytes(out, out, iv, 16);
        xor_bytes(out + 16, out + 16, c, 16 * (n - 1));
        memcpy(iv, c + 16 * (n - 1), 16);
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
}

/* Big-endian 64-bit loads and stores: one byte swap where the compiler
   offers it (every supported target is little-endian), bytes otherwise. */
static inline uint64_t be64(const uint8_t p[8]) {
    uint64_t v;
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, 8);
    v = __builtin_bswap64(v);
#else
    v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
#endif
    return v;
}

static inline void put_be64(uint8_t p[8], uint64_t v) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
#else
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
#endif
}

/* CTR and XTS share one shape: block j gets a mask m_j from a running value
   v (CTR: the counter block T_j, then v += 1; XTS: the tweak T_j, then
   v *= alpha), and the blocks of a chunk go through the ECB together.
   CTR (SP 800-38A 6.5):      out_j = in_j ^ E(m_j)
   XTS (IEEE 1619-2007 5.3.1): out_j = ECB(in_j ^ m_j) ^ m_j, ECB = E or D.
   v is left at the value for the block after the last one. */
static void masked_blocks(ecb_fn ecb, int xts, const hwc_aes_key *k, uint8_t v[16], uint8_t *out,
                          const uint8_t *in, size_t blocks) {
    uint8_t m[16 * CHUNK], x[16 * CHUNK];
    uint64_t hi = 0, lo = 0;   /* CTR: the counter block, big-endian halves */
    if (!xts) hi = be64(v), lo = be64(v + 8);
    while (blocks) {
        size_t n = blocks < CHUNK ? blocks : CHUNK;
        for (size_t j = 0; j < n; j++) {
            if (xts) {
                memcpy(m + 16 * j, v, 16);
                hwc_gf128_dbl_le(v, v);
            } else {
                put_be64(m + 16 * j, hi);
                put_be64(m + 16 * j + 8, lo);
                lo++;
                hi += (uint64_t)(lo == 0);
            }
        }
        if (xts) {
            xor_bytes(x, in, m, 16 * n);
            ecb(k, x, x, n);
            xor_bytes(out, x, m, 16 * n);
        } else {
            ecb(k, x, m, n);
            xor_bytes(out, in, x, 16 * n);
        }
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
    if (!xts) put_be64(v, hi), put_be64(v + 8, lo);
    hwc_wipe_inline(m, sizeof m);
    hwc_wipe_inline(x, sizeof x);
}

void hwc_aes_ctr_from_ecb(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                          size_t blocks) {
    masked_blocks(table(k)->ecb_encrypt, 0, k, ctr, out, in, blocks);
}

void hwc_aes_xts_encrypt_from_ecb(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks) {
    masked_blocks(table(k)->ecb_encrypt, 1, k, t, out, in, blocks);
}

void hwc_aes_xts_decrypt_from_ecb(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in,
                                  size_t blocks) {
    masked_blocks(table(k)->ecb_decrypt, 1, k, t, out, in, blocks);
}

/* state = E(state ^ M_i) for each block. */
void hwc_aes_cmac_chain_from_ecb(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks) {
    ecb_fn enc = table(k)->ecb_encrypt;
    for (size_t i = 0; i < blocks; i++) {
        xor_bytes(state, state, in + 16 * i, 16);
        enc(k, state, state, 1);
    }
}
