/* The contract between core/ (standards, checks) and impl/<kernel>/ (hot loops).
 * A kernel fills one table per family it implements; dispatch/registry.c lists
 * the tables. Kernels never see invalid arguments: core/ checks everything.
 * All functions accept out == in (in place). No kernel reads or writes outside
 * the buffers it is given. */
#ifndef HWC_INTERNAL_KERNEL_H
#define HWC_INTERNAL_KERNEL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "hwcrypt/aes.h"
#include "hwcrypt/gcm.h"
#include "hwcrypt/mpi.h"

/* ---- aes: FIPS-197 cipher + SP 800-38A/38B/IEEE 1619 bulk loops ---------- */
/* One chain of a lane step (chain_step below): the 16-byte chaining value
   st (IV or CBC-MAC state, updated), the input blocks and, for CBC
   encryption, the output blocks (else NULL). */
typedef struct hwc_aes_chain {
    uint8_t *st;
    uint8_t *out;
    const uint8_t *in;
} hwc_aes_chain;
#define HWC_AES_MAX_LANES 32

/* A lane step's view of its first w lanes when only `busy` of them hold
   messages (chain_step below): lane j >= busy repeats lane j % 2. On zmm
   the odd lanes of a vector are stored by masked stores: a repeat keeps
   its original's parity, so plain and masked stores never meet on the
   same bytes (up to 9x slower steps on Zen 4, docs/aes-batch.md). */
static inline void hwc_aes_lane_fill(const hwc_aes_chain **dst, const hwc_aes_chain *lane, size_t busy, size_t w) {
    for (size_t j = 0; j < w; j++) dst[j] = &lane[j < busy ? j : j % 2];
}

/* Stack hygiene. No key material may stay on the stack after a public call
   returns. A kernel whose slots of a group keep round keys, subkeys, hash
   keys, pad states and XTS tweaks in registers and in the structures they
   are given (never in their own frames: no spill slots, no stack copies)
   says so with that group's bit in clean_frames; core/ scrubs the stack
   after the calls of every other group (internal/wipe.h, HWC_SCRUB_UNLESS).
   tests/test_stack_scan.c checks both: no copy after any call, with the
   scrub skipped where a bit is set. */
enum {
    HWC_CLEAN_SETKEY = 1,   /* setkey */
    HWC_CLEAN_MODES = 2,    /* ecb_*, cbc_*, ctr, cmac_chain */
    HWC_CLEAN_LANES = 4,    /* chain_step */
    HWC_CLEAN_GCM = 8,      /* ghash_init, ghash, gcm_* */
    HWC_CLEAN_HASH = 16,    /* streebog: every slot */
    HWC_CLEAN_XTS = 32,     /* xts_*, xts_*_units: tweaks T = E_K2(i) x^j too */
};
typedef struct hwc_aes_impl {
    /* Expand a 16/24/32-byte key into k->sched (whatever layout the kernel
       wants: encryption and decryption round keys). core/ sets k->rounds and
       k->key_len before the call. */
    void (*setkey)(hwc_aes_key *k, const uint8_t *key, size_t key_len);
    void (*ecb_encrypt)(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks);
    void (*ecb_decrypt)(const hwc_aes_key *k, uint8_t *out, const uint8_t *in, size_t blocks);
    /* setkey and ecb_* are required. Every mode slot below may be NULL:
       core/ then builds that mode from ecb_* (core/aes_from_ecb.c), so a new
       kernel can start with setkey + ECB only. */
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

    /* Lanes: busy chains (2 <= busy <= chain_lanes; CBC encryption or
       CBC-MAC of different messages, no two sharing a chaining value)
       advanced together by one call of chain_step, each by the same
       blocks >= 1: for each block, st = E(st ^ in block), and with out set
       the block's output is st (SP 800-38A 6.2; SP 800-38B 6.2 step 5).
       Every lane has out or none does. A lane's input blocks are all read
       before the outputs of the same block index are written, so out == in
       is allowed. lane[busy..chain_lanes) is not read: a kernel that runs
       more lanes than busy fills them with repeats (hwc_aes_lane_fill), lane
       j repeating lane j % 2 (identical lanes compute and write identical
       bytes). The kernel knows nothing of message lengths, padding or
       subkeys: core/batch_aes.c schedules the lanes. NULL (chain_lanes 0):
       core/ runs the messages one after another through cbc_encrypt /
       cmac_chain. */
    void (*chain_step)(const hwc_aes_key *k, const struct hwc_aes_chain *lane, size_t busy, size_t blocks);
    unsigned chain_lanes;
    /* XTS over `units` consecutive data units of unit_blocks whole blocks
       each (IEEE 1619 5.3.1/5.4.1): unit u uses the encrypted tweak
       t[16u..16u+16) and the blocks at 16 * unit_blocks * u; round keys are
       loaded once for all units. NULL: core/ calls xts_encrypt /
       xts_decrypt once per unit. */
    void (*xts_encrypt_units)(const hwc_aes_key *k, const uint8_t *t, size_t units, size_t unit_blocks,
                              uint8_t *out, const uint8_t *in);
    void (*xts_decrypt_units)(const hwc_aes_key *k, const uint8_t *t, size_t units, size_t unit_blocks,
                              uint8_t *out, const uint8_t *in);

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
    /* One whole message of len bytes (any length within section 5.2.1.1's
       limit), sections 7.1 steps 3-6 and 7.2 steps 3-7 without the compare:
       j0[] is J0, x[] the GHASH accumulator after the padded AAD, lens[]
       the length block [len(A)]_64 || [len(C)]_64. Writes the len bytes of
       out and the full tag E_K(J0) ^ S to tag[]; decrypt hashes in. iv12:
       the IV was 12 bytes, so J0 = IV || 0^31 || 1 (section 7.1 step 2) and
       the counter's value is public (a kernel may build counter blocks from
       it; otherwise J0 is GHASH of the IV, secret). NULL: core/ runs the
       message through gcm_*, ecb_encrypt and ghash. */
    void (*gcm_oneshot)(const hwc_aes_key *k, const unsigned char *htab, const uint8_t j0[16],
                        const uint8_t x[16], uint8_t *out, const uint8_t *in, size_t len,
                        const uint8_t lens[16], int dec, int iv12, uint8_t tag[16]);
    unsigned clean_frames;   /* HWC_CLEAN_* bits (above) */
} hwc_aes_impl;

/* ---- streebog: GOST R 34.11-2012 compression ------------------------------ */
/* Words are little-endian 64-bit rows: word i holds bytes 8i..8i+7 of the
   64-byte block as it appears in the message. */
#define HWC_SB_MAX_LANES 4
/* One lane of a lane step: h = g_N(h_in, m) (RFC 6986 section 8) with
   N = n; when sigma is not NULL, then also N += 512 and Sigma += m (mod
   2^512): stage 2 of section 8.2 for one block, repeated for each of the
   step's nblocks consecutive 64-byte blocks from m. m is in message order.
   h_in may equal h; h overlaps nothing else of any lane. */
typedef struct hwc_sb_lane {
    uint64_t *h;
    const uint64_t *h_in;
    uint64_t *n;
    uint64_t *sigma;
    const uint8_t *m;
} hwc_sb_lane;

typedef struct hwc_streebog_impl {
    /* h = g_N(h, m) (RFC 6986 section 8). */
    void (*g)(uint64_t h[8], const uint64_t n[8], const uint64_t m[8]);
    /* For each 64-byte block m of data: h = g_N(h, m); N += 512; Sigma += m
       (mod 2^512, branch-free). Stage 2 of RFC 6986 section 8.2. */
    void (*blocks)(uint64_t h[8], uint64_t n[8], uint64_t sigma[8], const uint8_t *data, size_t nblocks);
    /* Lane step of width L: advances lane[0..L-1], independent of each
       other, with their compressions interleaved, by nblocks >= 1 blocks
       each (nblocks > 1 only when every lane has sigma set). g_lanes[L] for
       L = 1..HWC_SB_MAX_LANES, NULL where the kernel has no step of that
       width (core/ then uses narrower steps, or g). The kernel knows nothing
       of messages, padding or finalisation: core/ schedules the lanes. */
    void (*g_lanes[HWC_SB_MAX_LANES + 1])(const hwc_sb_lane *lane, size_t nblocks);
    unsigned clean_frames;   /* HWC_CLEAN_HASH when no slot keeps state in its frame */
} hwc_streebog_impl;

/* ---- mpi ------------------------------------------------------------------- */
struct hwc_mpi_impl;

#define HWC_MPI_MAX_LANES 8

/* Odd moduli (one, or one per lane of a lane-sliced kernel) in a kernel's
   own Montgomery representation (its "domain", e.g. radix 2^52 digits):
   core/mpi_modexp.c runs the exponentiation ladder, the kernel supplies the
   arithmetic. A domain value holds `lanes` numbers in `words` 64-bit words;
   R = 2^rbits must exceed 4m for every lane's m. Domain values live in
   memory core/ zeroed first (words a kernel never writes stay zero). core/
   fills the first block, the kernel's domain() the second. */
typedef struct hwc_mpi_mont hwc_mpi_mont;
struct hwc_mpi_mont {
    size_t lanes;                          /* 1, or the kernel's lane count */
    size_t n;                              /* limbs of every modulus */
    const hwc_limb *m[HWC_MPI_MAX_LANES];  /* the moduli, radix 2^64 */
    hwc_limb minv[HWC_MPI_MAX_LANES];      /* -m^-1 mod 2^64, per lane */
    const uint64_t *md;                    /* the moduli in the domain (via to) */
    hwc_limb *scratch;                     /* 2n+2 limbs, or scratch_words if more */
    const struct hwc_mpi_impl *impl;

    size_t words, rbits;
    size_t scratch_words;                  /* scratch mul/sqr need (0: 2n+2) */
    size_t aux[2];                         /* the kernel's own parameters */
    /* lane `lane` of d = x (n limbs, x < 2^(64n)); not a Montgomery
       conversion. */
    void (*to)(uint64_t *d, const hwc_limb *x, size_t lane, const hwc_mpi_mont *c);
    /* x (n limbs) = lane `lane` of d, for values below 2^(64n). */
    void (*from)(hwc_limb *x, const uint64_t *d, size_t lane, const hwc_mpi_mont *c);
    /* r = a*b/R mod m in every lane, "almost": inputs < 2m give an output
       < 2m, and any input times to(1) gives an output <= m. r may alias a
       or b. */
    void (*mul)(uint64_t *r, const uint64_t *a, const uint64_t *b, const hwc_mpi_mont *c);
    void (*sqr)(uint64_t *r, const uint64_t *a, const hwc_mpi_mont *c);
    /* lane l of out = lane l of table[idx[l]] (entries of `words` words),
       reading every entry with masks, constant time in idx. NULL (lanes 1
       only): core/'s portable masked read. */
    void (*select)(uint64_t *out, const uint64_t *table, size_t entries, const size_t *idx,
                   const hwc_mpi_mont *c);
};

typedef struct hwc_mpi_impl {
    /* d[0..n) += s[0..n) * b, returns carry limb; n >= 1 */
    hwc_limb (*muladd)(hwc_limb *d, const hwc_limb *s, size_t n, hwc_limb b);
    /* Montgomery product r = a*b*2^(-64n) mod m, fully reduced (< m) when
       a, b < m; constant time. minv = -m^-1 mod 2^64. scratch: 2n+2 limbs.
       r may alias a or b. NULL: core/ builds it from muladd. */
    void (*montmul)(hwc_limb *r, const hwc_limb *a, const hwc_limb *b, const hwc_limb *m,
                    size_t n, hwc_limb minv, hwc_limb *scratch);
    /* Montgomery square r = a*a*2^(-64n) mod m: the same contract as
       montmul(r, a, a, ...) and the same result (r may alias a). Only with
       montmul. NULL: core/ uses montmul(a, a). */
    void (*montsqr)(hwc_limb *r, const hwc_limb *a, const hwc_limb *m, size_t n, hwc_limb minv,
                    hwc_limb *scratch);
    /* For kernels with their own number representation: fill the second
       block of *c for c->lanes moduli of c->n limbs (first block set, md
       and scratch not yet). Returns 0, or nonzero when this size or lane
       count is not covered (core/ then works in radix 2^64 with montmul,
       lane after lane). NULL: none. */
    int (*domain)(hwc_mpi_mont *c);
    /* The lane count domain() takes besides 1 (0: single numbers only). */
    size_t lanes;
} hwc_mpi_impl;

/* ---- what dispatch/ gives core/ ------------------------------------------- */
/* Family indexes, in the order of hwc_families() (dispatch/registry.c). */
enum { HWC_FAM_AES, HWC_FAM_STREEBOG, HWC_FAM_MPI, HWC_NFAM };

/* The active kernel table of each family, NULL until init
   (dispatch/dispatch.c): the hot path of every call is one acquire load. */
extern const void *_Atomic hwc_active_table[HWC_NFAM];
const void *hwc_active_table_init(int family);   /* runs init, then loads */

/* The active table, or NULL before init (without running it). */
static inline const void *hwc_active_peek(int family) {
    return atomic_load_explicit(&hwc_active_table[family], memory_order_acquire);
}
static inline const void *hwc_active_of(int family) {
    const void *t = hwc_active_peek(family);
    return t ? t : hwc_active_table_init(family);
}
static inline const hwc_aes_impl *hwc_active_aes(void) { return hwc_active_of(HWC_FAM_AES); }
static inline const hwc_streebog_impl *hwc_active_streebog(void) {
    return hwc_active_of(HWC_FAM_STREEBOG);
}
static inline const hwc_mpi_impl *hwc_active_mpi(void) { return hwc_active_of(HWC_FAM_MPI); }

/* The kernel tables are declared by their rows in dispatch/registry.c; only
   the portable ones, which every build has, are named here for core/ and the
   tests. */
extern const hwc_aes_impl hwc_aes_generic;
extern const hwc_streebog_impl hwc_streebog_generic;
extern const hwc_mpi_impl hwc_mpi_generic;

#endif
