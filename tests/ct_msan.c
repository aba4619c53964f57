/* Constant-time check under clang's MemorySanitizer (HWC_MSAN=ON; the
 * technique of BoringSSL's constant-time validation): secrets are marked
 * uninitialised with __msan_poison, MSan then reports every conditional
 * branch, memory address or libc call argument that depends on them. Runs
 * natively, so it covers what valgrind cannot execute (VAES, AVX-512, IFMA,
 * GFNI). What it covers and what it cannot: docs/constant-time.md.
 *
 *   ct_msan            every mode of every usable kernel (aes: all modes and
 *                      GCM; streebog: the constant-time ones, HMAC, PBKDF2,
 *                      lanes; mpi: modexp and its lanes), secrets poisoned;
 *                      exit 0 and no report expected. Outputs are made public
 *                      after each call and compared between kernels.
 *   ct_msan plant K M  the planted copy of kernel K (tests/ct_plant.h) with
 *                      leak M (branch or index): MSan must report it.
 * Exit 77: kernel not usable on this CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/msan_interface.h>
#include "hwcrypt/hwcrypt.h"
#include "internal/kernel.h"
#include "core/mpi_internal.h"

#define SKIP 77
#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))

enum { MAX_BLOCKS = 66, LONG_LEN = 16 * 520 + 15, MAX_LEN = LONG_LEN };

/* ---- results: a running checksum per kernel, compared across kernels ------- */
typedef struct { uint64_t sum; unsigned calls; } tally;

static void fold(tally *t, const void *p, size_t n) {
    PUBLIC(p, n);   /* an output is public once computed */
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) t->sum = (t->sum ^ b[i]) * 0x100000001b3ull;
    t->calls++;
}

static void check(int rc, const char *what) {
    if (rc != HWC_OK) {
        fprintf(stderr, "ct_msan: %s returned %d\n", what, rc);
        exit(2);
    }
}

static uint8_t key[64], pt[MAX_LEN], ct[MAX_LEN], back[MAX_LEN];

/* Lengths: every block count up to two batches of the widest kernel (8
   vectors of 4 blocks), each with tails of 0, 1 and 15 bytes; then the
   longer paths of the zmm kernel (impl/x86/aes_x86_xts.h,
   aes_gcm_x86_msg.h): XTS units of 128-511 blocks (steps among the rounds),
   512 and more (two tweak sets; AES-256 overlapped batches), GCM from the
   broadcast key table's 4 KiB. */
static const size_t long_lens[] = {16 * 128, 16 * 300 + 1, 16 * 520 + 15};
static size_t length(size_t i) {
    if (i >= 3 * MAX_BLOCKS) return long_lens[i - 3 * MAX_BLOCKS];
    return 16 * (i / 3) + (size_t[]){0, 1, 15}[i % 3];
}
enum { LENGTHS = 3 * MAX_BLOCKS + sizeof long_lens / sizeof *long_lens };

/* GCM (SP 800-38D): secret key, hash key, plaintext and AAD; the IV and the
   tag once computed are public; decrypt's verdict is declassified in core/.
   The streamed message uses a 12-byte IV, or with `ct_msan gcm-hashed-iv` a
   17-byte one: then J0 = GHASH_H(IV ...) and every counter block is secret
   (docs/constant-time.md: the x86 GCM batches branch on the counter). */
static size_t gcm_iv_len = 12;

static void gcm_modes(size_t kl, size_t len, tally *t) {
    static hwc_aes_gcm_key gk;
    static hwc_aes_gcm_ctx gc;
    uint8_t iv[17] = {9, 8, 7}, tag[16];
    SECRET(key, sizeof key);
    check(hwc_aes_gcm_setkey(&gk, key, kl), "gcm_setkey");
    SECRET(pt, sizeof pt);
    check(hwc_aes_gcm_encrypt(&gk, iv, 12, pt + 1, len % 37, ct, pt, len, tag, 16), "gcm_encrypt");
    fold(t, ct, len);
    fold(t, tag, 16);
    check(hwc_aes_gcm_decrypt(&gk, iv, 12, pt + 1, len % 37, back, ct, len, tag, 16), "gcm_decrypt");
    fold(t, back, len);
    tag[0] ^= 1;
    if (hwc_aes_gcm_decrypt(&gk, iv, 12, pt + 1, len % 37, back, ct, len, tag, 16) != HWC_ERR_AUTH_FAILED)
        check(-100, "gcm_decrypt bad tag");
    SECRET(pt, sizeof pt);   /* streamed, two data pieces; iv_len: see gcm_iv_len */
    check(hwc_aes_gcm_init(&gc, &gk, iv, gcm_iv_len), "gcm_init");
    check(hwc_aes_gcm_aad(&gc, pt + 3, len % 23), "gcm_aad");
    check(hwc_aes_gcm_encrypt_update(&gc, ct, pt, len / 2), "gcm_update");
    check(hwc_aes_gcm_encrypt_update(&gc, ct + len / 2, pt + len / 2, len - len / 2), "gcm_update");
    check(hwc_aes_gcm_encrypt_final(&gc, tag, 16), "gcm_final");
    fold(t, ct, len);
    fold(t, tag, 16);
    hwc_wipe(&gk, sizeof gk);
}

static void aes_modes(size_t kl, tally *t) {
    hwc_aes_key k;
    SECRET(key, sizeof key);
    check(hwc_aes_setkey(&k, key, kl), "setkey");
    for (size_t i = 0; i < LENGTHS; i++) {
        size_t len = length(i), whole = len - len % 16;
        uint8_t iv[16] = {1, 2, 3}, ctr[16], tweak[16] = {7};
        memset(ctr, 0xff, sizeof ctr);   /* the counter wraps inside the call */
        ctr[15] = 0xf0;
        SECRET(pt, sizeof pt);
        check(hwc_aes_ecb_encrypt(&k, ct, pt, whole), "ecb_encrypt");
        check(hwc_aes_ecb_decrypt(&k, back, ct, whole), "ecb_decrypt");
        fold(t, back, whole);
        check(hwc_aes_cbc_encrypt(&k, iv, ct, pt, whole), "cbc_encrypt");
        fold(t, ct, whole);
        memcpy(iv, (uint8_t[16]){1, 2, 3}, 16);
        check(hwc_aes_cbc_decrypt(&k, iv, back, ct, whole), "cbc_decrypt");
        fold(t, back, whole);
        check(hwc_aes_ctr_crypt(&k, ctr, ct, pt, len), "ctr");
        fold(t, ct, len);
        if (kl != 24 && len >= 16) {   /* XTS-AES-128/256, ciphertext stealing */
            hwc_aes_xts_key xk;
            SECRET(key, sizeof key);
            check(hwc_aes_xts_setkey(&xk, key, 2 * kl), "xts_setkey");
            SECRET(pt, sizeof pt);
            check(hwc_aes_xts_encrypt(&xk, tweak, ct, pt, len), "xts_encrypt");
            check(hwc_aes_xts_decrypt(&xk, tweak, back, ct, len), "xts_decrypt");
            fold(t, back, len);
            hwc_wipe(&xk, sizeof xk);
        }
        /* CMAC: streamed in two pieces, one-shot, verify (its verdict is public) */
        hwc_cmac_ctx c;
        uint8_t tag[16];
        SECRET(key, sizeof key);
        SECRET(pt, sizeof pt);
        check(hwc_cmac_init(&c, key, kl), "cmac_init");
        check(hwc_cmac_update(&c, pt, len / 3), "cmac_update");
        check(hwc_cmac_update(&c, pt + len / 3, len - len / 3), "cmac_update");
        check(hwc_cmac_final(&c, tag), "cmac_final");
        fold(t, tag, 16);
        check(hwc_cmac(key, kl, pt, len, tag), "cmac");
        PUBLIC(tag, 16);
        check(hwc_cmac_verify(key, kl, pt, len, tag, 16), "cmac_verify");
        tag[0] ^= 1;
        if (hwc_cmac_verify(key, kl, pt, len, tag, 16) != HWC_ERR_AUTH_FAILED) check(-100, "cmac_verify bad tag");
        hwc_wipe(&c, sizeof c);
        gcm_modes(kl, len, t);
    }
    uint8_t d[16];
    SECRET(pt, 32);
    hwc_gf128_dbl_be(d, pt);
    hwc_gf128_dbl_le(d, d);
    fold(t, d, 16);
    hwc_wipe(&k, sizeof k);
}

static void streebog_all(tally *t) {
    static const size_t key_lens[] = {0, 1, 32, 64, 65, 100}, msg_lens[] = {0, 1, 63, 64, 65, 200};
    uint8_t out[64], dk[130];
    for (size_t m = 0; m < sizeof msg_lens / sizeof *msg_lens; m++) {
        SECRET(pt, sizeof pt);
        check(hwc_streebog(512, pt, msg_lens[m], out), "streebog");
        fold(t, out, 64);
        check(hwc_streebog(256, pt, msg_lens[m], out), "streebog");
        fold(t, out, 32);
        for (size_t i = 0; i < sizeof key_lens / sizeof *key_lens; i++) {
            SECRET(key, sizeof key);
            SECRET(pt, sizeof pt);
            check(hwc_hmac_streebog(256, key, key_lens[i], pt, msg_lens[m], out), "hmac");
            fold(t, out, 32);
            check(hwc_hmac_streebog(512, pt, key_lens[i], key, 64, out), "hmac");
            fold(t, out, 64);
        }
    }
    SECRET(key, sizeof key);   /* password secret, salt public */
    check(hwc_pbkdf2_streebog512(key, 40, pt, 16, 3, dk, sizeof dk), "pbkdf2");
    fold(t, dk, sizeof dk);
    hwc_hmac_streebog_ctx hc;   /* streaming HMAC, a long (hashed) key */
    SECRET(key, sizeof key);
    SECRET(pt, sizeof pt);
    check(hwc_hmac_streebog_init(&hc, 512, key, 64), "hmac_init");
    check(hwc_hmac_streebog_update(&hc, pt, 100), "hmac_update");
    check(hwc_hmac_streebog_update(&hc, pt + 100, 29), "hmac_update");
    check(hwc_hmac_streebog_final(&hc, out), "hmac_final");
    fold(t, out, 64);
    /* independent messages in lanes */
    const void *msgs[5] = {pt, pt + 64, pt + 200, pt + 300, pt + 1};
    const size_t lens[5] = {0, 64, 100, 300, 513};
    static uint8_t digests[5 * 64];
    SECRET(pt, sizeof pt);
    check(hwc_streebog_many(512, 5, msgs, lens, digests), "streebog_many");
    fold(t, digests, sizeof digests);
}

/* Sizes: every one for generic; avx512 runs its IFMA exponentiation for
   8 <= n <= 64 only (smaller ones go to adx's assembly, see out_of_scope). */
static void mpi_all(size_t min_n, tally *t) {
    static const size_t sizes[] = {1, 2, 3, 4, 7, 8, 9, 16, 17, 32, 33, 64};
    static hwc_limb m[64], b[64], e[64], r[64];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        if (n < min_n) continue;
        for (size_t i = 0; i < n; i++) {
            m[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ (i * 0x1234567ull);
            b[i] = 0x243f6a8885a308d3ull * (i + 3);
            e[i] = 0xb7e151628aed2a6bull * (i + 5);
        }
        m[0] |= 1;
        m[n - 1] |= 1ull << 63;       /* m > b: base < m holds */
        b[n - 1] &= ~(1ull << 63);
        size_t exp_ns[2] = {1, n};
        for (int x = 0; x < 2; x++) {
            SECRET(b, sizeof b);
            SECRET(e, sizeof e);
            check(hwc_mpi_modexp(r, b, e, exp_ns[x], m, n), "modexp");
            fold(t, r, 8 * n);
        }
        /* hwc_mpi_modexp_many: a group of 8 lanes (avx512) and one more */
        static hwc_limb rm[9][64];
        hwc_limb *rp[9];
        const hwc_limb *bp[9], *ep[9], *mp[9];
        for (int l = 0; l < 9; l++) rp[l] = rm[l], bp[l] = b, ep[l] = e, mp[l] = m;
        SECRET(b, sizeof b);
        SECRET(e, sizeof e);
        check(hwc_mpi_modexp_many(9, rp, bp, ep, n, mp, n), "modexp_many");
        for (int l = 0; l < 9; l++) fold(t, rm[l], 8 * n);
    }
}

/* ---- every usable kernel of a family; the sums must agree ------------------ */
typedef void (*family_fn)(const char *kernel, tally *t);

static void aes_family(const char *kernel, tally *t) {
    (void)kernel;
    for (size_t kl = 16; kl <= 32; kl += 8) aes_modes(kl, t);
}
static void streebog_family(const char *kernel, tally *t) {
    (void)kernel;
    streebog_all(t);
}
static void mpi_family(const char *kernel, tally *t) {
    mpi_all(strcmp(kernel, "avx512") == 0 ? 8 : 1, t);
}

/* Not checked here (docs/constant-time.md): Streebog generic and arm64-ilps
   index tables with secret bytes by design; mpi adx is inline assembly, whose
   operands MSan checks strictly and whose inside it cannot see (valgrind's
   tests/ct_modexp.c checks it). NULL: checked. */
static const char *out_of_scope(const char *family, const char *kernel) {
    if (strcmp(family, "streebog") == 0 && strcmp(kernel, "avx512") != 0)
        return "table lookups on secret bytes by design";
    if (strcmp(family, "mpi") == 0 && strcmp(kernel, "adx") == 0)
        return "inline assembly: checked by valgrind (ct_modexp_adx)";
    return NULL;
}

static int run_family(const char *family, family_fn fn) {
    hwc_kernel_info info[16];
    size_t n = hwc_kernels(family, info, 16);
    tally first = {0, 0};
    const char *first_name = NULL;
    int bad = 0;
    for (size_t i = 0; i < n && i < 16; i++) {
        const char *name = info[i].name;
        const char *why = info[i].usable ? out_of_scope(family, name) : "not usable on this CPU";
        if (why) {
            printf("ct_msan: %s/%s not checked (%s)\n", family, name, why);
            continue;
        }
        check(hwc_kernel_select(family, name), "select");
        fprintf(stderr, "ct_msan: checking %s/%s\n", family, name);   /* names a report's kernel */
        tally t = {0, 0};
        fn(name, &t);
        printf("ct_msan: %s/%s: %u calls with secret inputs, no report\n", family, name, t.calls);
        if (!first_name) {
            first = t;
            first_name = name;
        } else if (strcmp(family, "mpi") != 0 && (t.sum != first.sum || t.calls != first.calls)) {
            fprintf(stderr, "ct_msan: %s/%s results differ from %s/%s\n", family, name, family, first_name);
            bad = 1;
        }
    }
    check(hwc_kernel_select(family, NULL), "select automatic");
    return bad;
}

/* ---- planted leaks ------------------------------------------------------------ */
volatile int hwc_plant_mode;
volatile uint32_t hwc_plant_sink;
const uint8_t hwc_plant_table[256] = {1};

extern const hwc_aes_impl hwc_plant_aes_aesni, hwc_plant_aes_vaes_avx2, hwc_plant_aes_avx512;
extern const hwc_streebog_impl hwc_plant_streebog_avx512;
extern const hwc_mpi_impl hwc_plant_mpi_avx512;

static const struct {
    const char *name, *family, *kernel;   /* planted copy of family/kernel */
    const void *impl;
} plants[] = {
    {"aesni", "aes", "aesni", &hwc_plant_aes_aesni},
    {"vaes-avx2", "aes", "vaes-avx2", &hwc_plant_aes_vaes_avx2},
    {"avx512", "aes", "avx512", &hwc_plant_aes_avx512},
    {"streebog-avx512", "streebog", "avx512", &hwc_plant_streebog_avx512},
    {"mpi-avx512", "mpi", "avx512", &hwc_plant_mpi_avx512},
};

static int usable(const char *family, const char *kernel) {
    hwc_kernel_info info[16];
    size_t n = hwc_kernels(family, info, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(info[i].name, kernel) == 0) return info[i].usable;
    return 0;
}

static int plant(const char *name, const char *mode) {
    size_t p = 0;
    while (p < sizeof plants / sizeof *plants && strcmp(plants[p].name, name) != 0) p++;
    if (p == sizeof plants / sizeof *plants || (strcmp(mode, "branch") && strcmp(mode, "index"))) {
        fprintf(stderr, "ct_msan plant: unknown kernel %s or leak %s\n", name, mode);
        return 2;
    }
    if (!usable(plants[p].family, plants[p].kernel)) {
        printf("ct_msan plant %s: kernel not usable on this CPU: skipped\n", name);
        return SKIP;
    }
    hwc_plant_mode = strcmp(mode, "branch") == 0 ? 1 : 2;
    printf("ct_msan plant %s %s: expecting a MemorySanitizer report\n", name, mode);
    fflush(stdout);
    SECRET(key, sizeof key);
    SECRET(pt, sizeof pt);
    if (strcmp(plants[p].family, "aes") == 0) {
        const hwc_aes_impl *impl = plants[p].impl;
        hwc_aes_key k;
        memset(&k, 0, sizeof k);
        k.rounds = 10, k.key_len = 16, k.impl = impl;
        impl->setkey(&k, key, 16);
        impl->ecb_encrypt(&k, ct, pt, 64);
    } else if (strcmp(plants[p].family, "streebog") == 0) {
        const hwc_streebog_impl *impl = plants[p].impl;
        uint64_t h[8] = {0}, n[8] = {0}, sigma[8] = {0};
        impl->blocks(h, n, sigma, pt, 2);
    } else {
        const hwc_mpi_impl *impl = plants[p].impl;
        static hwc_limb m[16], b[16], e[16], r[16];
        for (int i = 0; i < 16; i++) m[i] = ~0ull - 2 * (hwc_limb)i, b[i] = (hwc_limb)i * 77, e[i] = 5;
        SECRET(b, sizeof b);
        SECRET(e, sizeof e);
        if (hwc_mpi_modexp_mont(impl, r, b, e, 16, m, 16) != HWC_OK) return 2; /* its radix-2^52 domain */
    }
    printf("ct_msan plant %s %s: NOT reported\n", name, mode);
    return 1;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "plant") == 0) return plant(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "gcm-hashed-iv") == 0) gcm_iv_len = 17;
    else if (argc != 1) {
        fprintf(stderr, "usage: ct_msan [gcm-hashed-iv | plant KERNEL branch|index]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 29 + 3);
    int bad = run_family("aes", aes_family);
    bad |= run_family("streebog", streebog_family);
    bad |= run_family("mpi", mpi_family);
    printf("ct_msan: %s\n", bad ? "FAILED (kernels disagree)" : "every checked kernel clean");
    return bad;
}
