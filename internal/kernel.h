/* The contract between core/ (standards, checks) and impl/<kernel>/ (hot loops).
 * A kernel fills one table per family it implements; dispatch/registry.c lists
 * the tables. Kernels never see invalid arguments: core/ checks everything.
 * All functions accept out == in (in place). No kernel reads or writes outside
 * the buffers it is given. */
#ifndef HWC_INTERNAL_KERNEL_H
#define HWC_INTERNAL_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "hwcrypt/aes.h"
#include "hwcrypt/gcm.h"
#include "hwcrypt/mpi.h"

/* ---- aes: FIPS-197 cipher + SP 800-38A/38B/IEEE 1619 bulk loops ---------- */
typedef struct hwc_aes_impl {
    /* Expand a 16/24/32-byte key into k->sched (whatever layout the kernel
       wants: encryption and decryption round keys). core/ sets k->rounds and
       k->key_len before the call. */
    void (*setkey)(hwc_aes_key *k, const uint8_t *key, size_t key_len);
    void (*ecb_encrypt)(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks);
    void (*ecb_decrypt)(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks);
    /* CBC over whole blocks; iv[] is updated to the last ciphertext block. */
    void (*cbc_encrypt)(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t blocks);
    void (*cbc_decrypt)(const hwc_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t blocks);
    /* CTR over whole blocks: out = in ^ E(ctr), ctr += 1 (128-bit big-endian,
       wrapping mod 2^128) per block; ctr[] is left at the next counter. */
    void (*ctr)(const hwc_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t blocks);
    /* XTS over whole blocks with the data key: t[] is the current tweak value
       (already encrypted with the tweak key); block j uses t * x^j in
       GF(2^128) (IEEE 1619 little-endian convention); t[] is left at
       t * x^blocks. */
    void (*xts_encrypt)(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t blocks);
    void (*xts_decrypt)(const hwc_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t blocks);
    /* CBC-MAC chain: for each block, state = E(state ^ block). */
    void (*cmac_chain)(const hwc_aes_key *k, uint8_t state[16], const uint8_t *in, size_t blocks);

    /* GCM (SP 800-38D). htab is HWC_GCM_HTAB_BYTES in this kernel's layout.
       ghash_init fills it from the hash key H = E_K(0^128) (bytes as the
       standard prints them). ghash: for each block, x = (x ^ block) * H in
       GF(2^128) (section 6.4). gcm_encrypt / gcm_decrypt: GCTR over whole
       blocks (section 6.5) with ctr[] the next counter block, its low 32 bits
       incremented mod 2^32 per block (left at the next one), and GHASH of the
       ciphertext into x (encrypt hashes out, decrypt hashes in). A kernel
       providing gcm_* provides ghash_init/ghash too. NULL: core/ builds GCM
       from ecb_encrypt and the portable constant-time GHASH. */
    void (*ghash_init)(unsigned char *htab, const uint8_t h[16]);
    void (*ghash)(const unsigned char *htab, uint8_t x[16], const uint8_t *in, size_t blocks);
    void (*gcm_encrypt)(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                        uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks);
    void (*gcm_decrypt)(const hwc_aes_key *k, const unsigned char *htab, uint8_t ctr[16],
                        uint8_t x[16], uint8_t *out, const uint8_t *in, size_t blocks);
} hwc_aes_impl;

/* ---- streebog: GOST R 34.11-2012 compression ------------------------------ */
/* Words are little-endian 64-bit rows: word i holds bytes 8i..8i+7 of the
   64-byte block as it appears in the message. */
typedef struct hwc_streebog_impl {
    /* h = g_N(h, m) (RFC 6986 section 8). */
    void (*g)(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]);
    /* For each 64-byte block m of data: h = g_N(h, m); N += 512; Sigma += m
       (mod 2^512, branch-free). Stage 2 of RFC 6986 section 8.2. */
    void (*blocks)(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data, size_t nblocks);
} hwc_streebog_impl;

/* ---- mpi ------------------------------------------------------------------- */
typedef struct hwc_mpi_impl {
    /* d[0..n) += s[0..n) * b, returns carry limb; n >= 1 */
    hwc_limb (*muladd)(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);
    /* Montgomery product r = a*b*2^(-64n) mod m, fully reduced (< m) when
       a, b < m; constant time. minv = -m^-1 mod 2^64. scratch: 2n+2 limbs.
       r may alias a or b. NULL: core/ builds it from muladd. */
    void (*montmul)(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, const hwc_limb *m,
                    size_t n, hwc_limb minv, hwc_limb *scratch);
    /* Whole exponentiation for kernels with their own number representation
       (e.g. radix 2^52). Arguments already checked. Returns 0 when done, or
       nonzero when this size is not covered (core/ then uses montmul).
       NULL: not provided. */
    int (*modexp)(hwc_limb *r, const hwc_limb *base, const hwc_limb *exp, size_t exp_n,
                  const hwc_limb *mod, size_t n);
} hwc_mpi_impl;

/* ---- what dispatch/ gives core/ ------------------------------------------- */
const hwc_aes_impl *hwc_active_aes(void);
const hwc_streebog_impl *hwc_active_streebog(void);
const hwc_mpi_impl *hwc_active_mpi(void);

/* The kernel tables are declared by their rows in dispatch/registry.c; only
   the portable ones, which every build has, are named here for core/ and the
   tests. */
extern const hwc_aes_impl hwc_aes_generic;
extern const hwc_streebog_impl hwc_streebog_generic;
extern const hwc_mpi_impl hwc_mpi_generic;

#endif
