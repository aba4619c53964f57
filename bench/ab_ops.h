/* The operations bench/ab_main.c times in two builds of the library at once:
 * this tree's and a baseline's (scripts/ab-baseline.sh). bench/ab_ops.c is
 * compiled once per build, its entry points prefixed new_ / base_. */
#ifndef HWC_BENCH_AB_OPS_H
#define HWC_BENCH_AB_OPS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    AB_ECB_ENC, AB_ECB_DEC, AB_CBC_ENC, AB_CBC_DEC, AB_CTR, AB_XTS_ENC, AB_XTS_DEC, AB_CMAC, AB_GCM_ENC, AB_GCM_DEC,
    AB_CBC_MANY, AB_CBC_MANY_OOP, AB_CMAC_MANY, AB_XTS_SECTORS,
    AB_SB256, AB_SB512, AB_HMAC_SB512, AB_PBKDF2_SB512, AB_MULADD, AB_MODEXP, AB_NOPS
} ab_op;

/* Messages of one CBC/CMAC-many call, sectors of one XTS-sectors call. */
enum { AB_MANY = 64, AB_SECTORS = 256 };

/* The operations of one call of op: len-byte messages, sectors (or 1). */
static inline size_t ab_per_call(ab_op op) {
    return op == AB_XTS_SECTORS ? AB_SECTORS : op >= AB_CBC_MANY && op <= AB_CMAC_MANY ? AB_MANY : 1;
}

/* One row: an operation of `len` bytes (AES, Streebog; XTS: one data unit;
   GCM: a one-shot call, 12-byte IV, no AAD, 16-byte tag; CBC-many: 64
   messages of len bytes back to back in a page-aligned buffer of their own,
   one call, in place (as bench/bench_aes_many.c) or into a second buffer;
   CMAC-many: the same 64 messages, one hwc_cmac_many call; XTS-sectors: 256
   sectors of len bytes in place in a buffer of their own (as bench/bench_aes_many.c);
   PBKDF2: bytes derived at 1000 iterations) or of `len` limbs (mpi), with
   key_len-byte AES keys, on `kernel`. Both builds read `in` and write `out`
   (the same buffers, at least len bytes): data addresses, and so cache sets
   and store-to-load aliasing, are the same for both. */
typedef struct {
    ab_op op;
    unsigned key_len;
    size_t len;
    const char *kernel;
    const uint8_t *in;
    uint8_t *out;
} ab_row;

/* Family name of an operation ("aes", "streebog", "mpi"). */
const char *ab_family(ab_op op);

/* setup: selects the kernel in that build and prepares inputs and keys;
   NULL when the build has no such kernel (or it is not usable here).
   run: `iters` operations. done: frees and wipes. */
#define AB_DECLARE(p)                                   \
    void *p##ab_setup(const ab_row *row);               \
    void p##ab_run(void *ctx, size_t iters);            \
    void p##ab_done(void *ctx);
AB_DECLARE(new_)
AB_DECLARE(base_)
#undef AB_DECLARE

#endif
