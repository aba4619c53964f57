/* The GCM slots of every AES kernel that has them (internal/kernel.h:
 * ghash_init, ghash, gcm_encrypt, gcm_decrypt), called directly:
 * - against a bit-serial reference written from NIST SP 800-38D (GHASH as
 *   Algorithm 1 of section 6.3, GCTR with inc32 as section 6.5, the block
 *   cipher from OpenSSL's AES-ECB) on pseudo-random keys, hash keys, counters
 *   (many near the 2^32 wrap of inc32), accumulators and lengths, in place and
 *   out of place, misaligned, with poison bytes around the output;
 * - composed into whole AES-GCM messages (section 7.1 with a 96-bit IV)
 *   against OpenSSL EVP AES-GCM: ciphertext and tag;
 * - gcm_oneshot, one whole message in one call, against the reference and
 *   within those OpenSSL messages.
 * Kernels without GCM slots are listed as such (core/ builds GCM for them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "common.h"
#include "internal/kernel.h"
#include "core/aes_internal.h"

#define SEED_FMT "seed %#llx"
#define SEED ((unsigned long long)hwc_test_seed())

/* ---- reference (SP 800-38D, bit by bit) -------------------------------------- */
/* Section 6.3 Algorithm 1: Z = X * Y in GF(2^128), bit 0 = leftmost bit. */
static void gf_mul_ref(uint8_t z[16], const uint8_t x[16], const uint8_t y[16]) {
    uint8_t v[16], r[16] = {0};
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        if ((x[i / 8] >> (7 - i % 8)) & 1)
            for (int j = 0; j < 16; j++) r[j] ^= v[j];
        const int lsb = v[15] & 1;
        for (int j = 15; j > 0; j--) v[j] = (uint8_t)((v[j] >> 1) | (v[j - 1] << 7));
        v[0] >>= 1;
        if (lsb) v[0] ^= 0xe1;   /* R = 11100001 || 0^120 */
    }
    memcpy(z, r, 16);
}

/* Section 6.4: x = (x ^ block) * H per block. */
static void ghash_ref(const uint8_t h[16], uint8_t x[16], const uint8_t *in, size_t blocks) {
    for (size_t b = 0; b < blocks; b++) {
        for (int j = 0; j < 16; j++) x[j] ^= in[16 * b + j];
        gf_mul_ref(x, x, h);
    }
}

static const EVP_CIPHER *ecb_cipher(size_t key_len) {
    return key_len == 16 ? EVP_aes_128_ecb() : key_len == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
}

static void aes_ref(const uint8_t *key, size_t key_len, uint8_t *out, const uint8_t *in, size_t blocks) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0;
    cr_assert(c);
    cr_assert_eq(EVP_EncryptInit_ex(c, ecb_cipher(key_len), NULL, key, NULL), 1);
    EVP_CIPHER_CTX_set_padding(c, 0);
    if (blocks) cr_assert_eq(EVP_EncryptUpdate(c, out, &n, in, (int)(16 * blocks)), 1);
    EVP_CIPHER_CTX_free(c);
}

/* Section 6.2: the low 32 bits of the block, big-endian, plus one mod 2^32. */
static void inc32(uint8_t c[16]) {
    uint32_t v = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
    v++;
    c[12] = (uint8_t)(v >> 24); c[13] = (uint8_t)(v >> 16); c[14] = (uint8_t)(v >> 8); c[15] = (uint8_t)v;
}

/* Section 6.5 GCTR over whole blocks, then GHASH of the ciphertext. */
static void gcm_ref(const uint8_t *key, size_t key_len, const uint8_t h[16], uint8_t ctr[16], uint8_t x[16],
                    uint8_t *out, const uint8_t *in, size_t blocks, int dec) {
    uint8_t *ks = malloc(16 * blocks + 16);
    cr_assert(ks);
    for (size_t b = 0; b < blocks; b++) {
        memcpy(ks + 16 * b, ctr, 16);
        inc32(ctr);
    }
    aes_ref(key, key_len, ks, ks, blocks);
    if (dec) ghash_ref(h, x, in, blocks);
    for (size_t i = 0; i < 16 * blocks; i++) out[i] = in[i] ^ ks[i];
    if (!dec) ghash_ref(h, x, out, blocks);
    free(ks);
}

/* ---- kernel under test --------------------------------------------------------- */
typedef struct {
    hwc_aes_key k;
    HWC_ALIGN64 unsigned char htab[HWC_GCM_HTAB_BYTES];
    const hwc_aes_impl *impl;
    uint8_t h[16];
} kern;

/* Binds the selected kernel; 0 when it has no GCM slots. */
static int kern_setup(kern *t, const uint8_t *key, size_t key_len) {
    static const uint8_t zero[16];
    cr_assert_eq(hwc_aes_setkey(&t->k, key, key_len), HWC_OK);
    t->impl = t->k.impl;
    if (!t->impl->gcm_encrypt) return 0;
    cr_assert(t->impl->ghash_init && t->impl->ghash && t->impl->gcm_decrypt,
              "a kernel with gcm_* slots has all four");
    aes_ref(key, key_len, t->h, zero, 1);
    t->impl->ghash_init(t->htab, t->h);
    return 1;
}

static int no_gcm_slots(const char *kernel) {
    kern t;
    const uint8_t key[16] = {1};
    if (kern_setup(&t, key, 16)) return 0;
    fprintf(stderr, "[gcm kernels] %s: no GCM slots (core/ composes GCM from ecb_encrypt)\n", kernel);
    return 1;
}

/* 1 when the selected kernel has gcm_oneshot; else says so (core/ then
   composes one-shot messages from the other slots). */
static int has_oneshot(const char *kernel) {
    kern t;
    const uint8_t key[16] = {1};
    kern_setup(&t, key, 16);
    if (t.impl->gcm_oneshot) return 1;
    fprintf(stderr, "[gcm kernels] %s: no gcm_oneshot slot (core/ composes one-shot messages)\n", kernel);
    return 0;
}

static size_t pick_key_len(hwc_rng *r) {
    static const size_t lens[3] = {16, 24, 32};
    return lens[hwc_rng_below(r, 3)];
}

/* Block counts: dense small, around the 8/16/32-block batches, and large. */
static size_t pick_blocks(hwc_rng *r) {
    switch (hwc_rng_below(r, 4)) {
    case 0: return hwc_rng_below(r, 40);
    case 1: return 16 * (1 + hwc_rng_below(r, 6)) + hwc_rng_below(r, 3) - 1;
    case 2: return 32 * (1 + hwc_rng_below(r, 5)) + hwc_rng_below(r, 33);
    default: return hwc_rng_below(r, 1100);
    }
}

/* Seeds r for one check and returns its iteration count; 0 when the kernel
   has no GCM slots. */
static int iterations(const char *kernel, hwc_rng *r, uint64_t salt, int full) {
    if (no_gcm_slots(kernel)) return 0;
    hwc_rng_init(r, hwc_test_seed() ^ salt);
    return hwc_test_quick() ? full / 6 : full;
}

/* A random key of a random size bound to the selected kernel; returns its size. */
static size_t kern_random(kern *t, hwc_rng *r, uint8_t key[32]) {
    const size_t key_len = pick_key_len(r);
    hwc_rng_fill(r, key, 32);
    kern_setup(t, key, key_len);
    return key_len;
}

/* ---- ghash slot ---------------------------------------------------------------- */
static void ghash_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    const int iters = iterations(kernel, &r, 0x6a, 300);
    for (int it = 0; it < iters; it++) {
        kern t;
        uint8_t key[32], x[16], xr[16];
        const size_t key_len = kern_random(&t, &r, key), blocks = pick_blocks(&r);
        if (it % 3 == 0) {   /* arbitrary hash keys too, incl. the top bit set */
            hwc_rng_fill(&r, t.h, 16);
            t.h[15] |= (uint8_t)(it & 1);
            t.impl->ghash_init(t.htab, t.h);
        }
        const size_t mis = hwc_rng_below(&r, 64);
        uint8_t *buf = malloc(16 * blocks + 64);
        cr_assert(buf);
        hwc_rng_fill(&r, buf, 16 * blocks + 64);
        hwc_rng_fill(&r, x, 16);
        memcpy(xr, x, 16);
        t.impl->ghash(t.htab, x, buf + mis, blocks);
        ghash_ref(t.h, xr, buf + mis, blocks);
        cr_assert_arr_eq(x, xr, 16, "%s ghash: %zu blocks, key %zu, it %d, " SEED_FMT " (got %s want %s)",
                         kernel, blocks, key_len, it, SEED, hwc_tohex(x, 16), hwc_tohex(xr, 16));
        free(buf);
    }
}

Test(gcm_kernels, ghash_matches_sp800_38d_algorithm_1) {
    hwc_test_each_kernel("aes", ghash_check, NULL);
}

/* ---- shared by the slot checks ------------------------------------------------- */
/* Three in four times, the low 32 bits of c within 80 of the 2^32 wrap. */
static void near_wrap(hwc_rng *r, int it, uint8_t c[16]) {
    if (it % 4 == 3) return;
    const uint32_t lo = 0xffffffffu - (uint32_t)hwc_rng_below(r, 80);
    c[12] = (uint8_t)(lo >> 24); c[13] = (uint8_t)(lo >> 16);
    c[14] = (uint8_t)(lo >> 8); c[15] = (uint8_t)lo;
}

/* Guarded, misaligned input and output of len bytes, the input random; src
   a copy of it, want room for the expected output. */
typedef struct {
    hwc_guarded in, out;
    uint8_t *src, *want;
} slot_bufs;

static void bufs_alloc(slot_bufs *b, hwc_rng *r, size_t len) {
    hwc_guarded_alloc(&b->in, len, hwc_rng_below(r, 64));
    hwc_guarded_alloc(&b->out, len, hwc_rng_below(r, 64));
    hwc_rng_fill(r, b->in.p, len);
    b->want = malloc(len + 16);
    b->src = malloc(len + 16);
    cr_assert(b->want && b->src);
    memcpy(b->src, b->in.p, len);
}

/* Poison intact, the input unchanged unless in place; frees b. */
static void bufs_check_free(slot_bufs *b, const char *kernel, size_t len, int in_place) {
    cr_assert(hwc_guarded_intact(&b->in) && hwc_guarded_intact(&b->out), "%s: poison bytes, " SEED_FMT,
              kernel, SEED);
    if (!in_place) cr_assert_arr_eq(b->in.p, b->src, len, "%s: input changed, " SEED_FMT, kernel, SEED);
    hwc_guarded_free(&b->in);
    hwc_guarded_free(&b->out);
    free(b->want);
    free(b->src);
}

/* ---- gcm_encrypt / gcm_decrypt slots -------------------------------------------- */
static void gcm_slot_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    const int iters = iterations(kernel, &r, 0x6b, 250);
    for (int it = 0; it < iters; it++) {
        kern t;
        uint8_t key[32], ctr[16], ctr_r[16], x[16], x_r[16];
        const size_t key_len = kern_random(&t, &r, key), blocks = pick_blocks(&r), len = 16 * blocks;
        const int dec = it & 1, in_place = (it >> 1) & 1;
        hwc_rng_fill(&r, ctr, 16);
        near_wrap(&r, it, ctr);   /* within a batch or two of the wrap */
        hwc_rng_fill(&r, x, 16);
        memcpy(ctr_r, ctr, 16);
        memcpy(x_r, x, 16);

        slot_bufs b;
        bufs_alloc(&b, &r, len);
        gcm_ref(key, key_len, t.h, ctr_r, x_r, b.want, b.src, blocks, dec);

        uint8_t *dst = in_place ? b.in.p : b.out.p;
        (dec ? t.impl->gcm_decrypt : t.impl->gcm_encrypt)(&t.k, t.htab, ctr, x, dst, b.in.p, blocks);
        cr_assert_arr_eq(dst, b.want, len, "%s gcm_%s: data, %zu blocks, key %zu, in place %d, " SEED_FMT,
                         kernel, dec ? "decrypt" : "encrypt", blocks, key_len, in_place, SEED);
        cr_assert_arr_eq(x, x_r, 16, "%s gcm_%s: GHASH, %zu blocks, key %zu, in place %d, " SEED_FMT,
                         kernel, dec ? "decrypt" : "encrypt", blocks, key_len, in_place, SEED);
        cr_assert_arr_eq(ctr, ctr_r, 16, "%s gcm_%s: counter, %zu blocks, " SEED_FMT, kernel,
                         dec ? "decrypt" : "encrypt", blocks, SEED);
        bufs_check_free(&b, kernel, len, in_place);
    }
}

Test(gcm_kernels, gcm_slots_match_sp800_38d_gctr_and_ghash) {
    hwc_test_each_kernel("aes", gcm_slot_check, NULL);
}

/* ---- gcm_oneshot slot ------------------------------------------------------------ */
/* Section 7.1 steps 3-6 from the reference: GCTR from inc32(J0) over the
   whole blocks and the partial block, GHASH of the ciphertext (decrypt: of
   in) zero padded, then of the length block, T = E_K(J0) ^ S. */
static void oneshot_ref(const uint8_t *key, size_t key_len, const uint8_t h[16], const uint8_t j0[16],
                        uint8_t x[16], uint8_t *out, const uint8_t *in, size_t len, const uint8_t lens[16],
                        int dec, uint8_t tag[16]) {
    uint8_t ctr[16], ek[16], pad[16] = {0};
    const size_t whole = len / 16, rest = len % 16;
    memcpy(ctr, j0, 16);
    inc32(ctr);
    gcm_ref(key, key_len, h, ctr, x, out, in, whole, dec);
    if (rest) {
        aes_ref(key, key_len, ek, ctr, 1);
        for (size_t i = 0; i < rest; i++) {
            out[16 * whole + i] = (uint8_t)(in[16 * whole + i] ^ ek[i]);
            pad[i] = dec ? in[16 * whole + i] : out[16 * whole + i];
        }
        ghash_ref(h, x, pad, 1);
    }
    ghash_ref(h, x, lens, 1);
    aes_ref(key, key_len, ek, j0, 1);
    for (int i = 0; i < 16; i++) tag[i] = x[i] ^ ek[i];
}

/* Arbitrary J0 (counters near the 2^32 wrap, which the partial block may
   cross too), accumulators and length blocks; every length class, in place
   and out of place, misaligned, poison bytes around the output. Iterations
   200..271: whole 512-byte units (1, 2, 3, 4, 5 and 8: where the zmm kernel
   folds the length block into its last batch, gh_fold in
   impl/x86/aes_gcm_x86.h), every key size, both directions, in place and
   out of place. */
static void oneshot_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    const int iters = iterations(kernel, &r, 0x6e, 400);
    if (iters && !has_oneshot(kernel)) return;
    const void *tables[2];
    const int ntables = hwc_test_kernel_tables("aes", kernel, tables);
    for (int it = 0; it < iters; it++) {
        kern t;
        uint8_t key[32], j0[16], x[16], x_r[16], lens[16], tag[16], tag_r[16];
        const int w = it - 200, whole = w >= 0 && w < 84;
        /* batches of 512 B: zmm's whole-message path (G_WHOLE_BLOCKS: 8), and one past it */
        static const size_t units[7] = {1, 2, 3, 4, 5, 8, 9};
        size_t key_len = kern_random(&t, &r, key);
        if (whole) {
            static const uint8_t zero[16];
            key_len = 16 + 8 * (size_t)((w >> 2) % 3);
            aes_ref(key, key_len, t.h, zero, 1);
        }
        /* every table of the kernel (a trait variant too), in turn */
        cr_assert_eq(hwc_aes_setkey_with(&t.k, key, key_len, tables[it % ntables]), HWC_OK);
        t.impl = t.k.impl;
        t.impl->ghash_init(t.htab, t.h);
        const size_t len = it < 200 ? (size_t)it * 3
                           : whole  ? 512 * units[w / 12]
                                    : 16 * pick_blocks(&r) + hwc_rng_below(&r, 16);
        const int dec = it & 1, in_place = (it >> 1) & 1;
        /* a third of them J0 of a 12-byte IV (IV || 0^31 || 1, section 7.1),
           told to the kernel: the zmm kernel's own counter form for it
           (gcm_ctr12_init in impl/x86/aes_gcm_x86.h) */
        const int iv12 = it % 3 == 2;
        hwc_rng_fill(&r, j0, 16);
        near_wrap(&r, it, j0);
        if (iv12) {
            j0[12] = j0[13] = j0[14] = 0;
            j0[15] = 1;
        }
        hwc_rng_fill(&r, x, 16);
        hwc_rng_fill(&r, lens, 16);
        memcpy(x_r, x, 16);
        slot_bufs b;
        bufs_alloc(&b, &r, len);
        oneshot_ref(key, key_len, t.h, j0, x_r, b.want, b.src, len, lens, dec, tag_r);

        uint8_t *dst = in_place ? b.in.p : b.out.p;
        t.impl->gcm_oneshot(&t.k, t.htab, j0, x, dst, b.in.p, len, lens, dec, iv12, tag);
        cr_assert_arr_eq(dst, b.want, len, "[%s table %d] gcm_oneshot %s: data, len %zu, key %zu, in place %d, "
                         "iv12 %d, " SEED_FMT, kernel, it % ntables, dec ? "decrypt" : "encrypt", len, key_len,
                         in_place, iv12, SEED);
        cr_assert_arr_eq(tag, tag_r, 16, "[%s table %d] gcm_oneshot %s: tag, len %zu, key %zu, in place %d, "
                         "iv12 %d, " SEED_FMT, kernel, it % ntables, dec ? "decrypt" : "encrypt", len, key_len,
                         in_place, iv12, SEED);
        bufs_check_free(&b, kernel, len, in_place);
    }
}

Test(gcm_kernels, oneshot_slot_matches_sp800_38d) {
    hwc_test_each_kernel("aes", oneshot_check, NULL);
}

/* ---- whole messages against OpenSSL --------------------------------------------- */
/* SP 800-38D section 7.1 with a 96-bit IV from the slots: J0 = IV || 1,
   GHASH over A || 0 pad || C || 0 pad || [len(A)]64 || [len(C)]64, the data's
   partial last block through ecb_encrypt of the counter. */
static void gcm_message(const kern *t, int dec, const uint8_t iv[12], const uint8_t *aad, size_t aad_len,
                        uint8_t *out, const uint8_t *in, size_t len, uint8_t tag[16]) {
    uint8_t j0[16] = {0}, ctr[16], x[16] = {0}, pad[16], ek[16];
    memcpy(j0, iv, 12);
    j0[15] = 1;
    memcpy(ctr, j0, 16);
    inc32(ctr);
    t->impl->ghash(t->htab, x, aad, aad_len / 16);
    if (aad_len % 16) {
        memset(pad, 0, 16);
        memcpy(pad, aad + aad_len / 16 * 16, aad_len % 16);
        t->impl->ghash(t->htab, x, pad, 1);
    }
    const size_t whole = len / 16, rest = len % 16;
    (dec ? t->impl->gcm_decrypt : t->impl->gcm_encrypt)(&t->k, t->htab, ctr, x, out, in, whole);
    if (rest) {
        t->impl->ecb_encrypt(&t->k, ek, ctr, 1);
        memset(pad, 0, 16);
        for (size_t i = 0; i < rest; i++) {
            const uint8_t c = in[16 * whole + i];
            out[16 * whole + i] = (uint8_t)(c ^ ek[i]);
            pad[i] = dec ? c : out[16 * whole + i];
        }
        t->impl->ghash(t->htab, x, pad, 1);
    }
    for (int i = 0; i < 8; i++) {
        pad[i] = (uint8_t)((uint64_t)aad_len * 8 >> (56 - 8 * i));
        pad[8 + i] = (uint8_t)((uint64_t)len * 8 >> (56 - 8 * i));
    }
    t->impl->ghash(t->htab, x, pad, 1);
    t->impl->ecb_encrypt(&t->k, ek, j0, 1);
    for (int i = 0; i < 16; i++) tag[i] = x[i] ^ ek[i];
}

static void openssl_gcm(const uint8_t *key, size_t key_len, const uint8_t iv[12], const uint8_t *aad,
                        size_t aad_len, uint8_t *out, const uint8_t *in, size_t len, uint8_t tag[16]) {
    const EVP_CIPHER *ci = key_len == 16 ? EVP_aes_128_gcm() : key_len == 24 ? EVP_aes_192_gcm()
                                                                             : EVP_aes_256_gcm();
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0;
    cr_assert(c);
    cr_assert_eq(EVP_EncryptInit_ex(c, ci, NULL, key, iv), 1);
    if (aad_len) cr_assert_eq(EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len), 1);
    if (len) cr_assert_eq(EVP_EncryptUpdate(c, out, &n, in, (int)len), 1);
    cr_assert_eq(EVP_EncryptFinal_ex(c, out + len, &n), 1);
    cr_assert_eq(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag), 1);
    EVP_CIPHER_CTX_free(c);
}

static void openssl_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    const int iters = iterations(kernel, &r, 0x6c, 300);
    for (int it = 0; it < iters; it++) {
        kern t;
        uint8_t key[32], iv[12], tag[16], tag_o[16], tag_d[16];
        const size_t key_len = kern_random(&t, &r, key);
        const size_t len = it < 100 ? (size_t)it * 7 % 601 : 16 * pick_blocks(&r) + hwc_rng_below(&r, 16);
        const size_t aad_len = hwc_rng_below(&r, 4) ? hwc_rng_below(&r, 100) : hwc_rng_below(&r, 1200);
        hwc_rng_fill(&r, iv, sizeof iv);
        uint8_t *aad = malloc(aad_len + 1), *pt = malloc(len + 1), *ct = malloc(len + 1);
        uint8_t *ct_o = malloc(len + 16), *back = malloc(len + 1);
        cr_assert(aad && pt && ct && ct_o && back);
        hwc_rng_fill(&r, aad, aad_len);
        hwc_rng_fill(&r, pt, len);
        openssl_gcm(key, key_len, iv, aad, aad_len, ct_o, pt, len, tag_o);
        gcm_message(&t, 0, iv, aad, aad_len, ct, pt, len, tag);
        cr_assert_arr_eq(ct, ct_o, len, "%s vs OpenSSL: ciphertext, len %zu aad %zu key %zu, " SEED_FMT,
                         kernel, len, aad_len, key_len, SEED);
        cr_assert_arr_eq(tag, tag_o, 16, "%s vs OpenSSL: tag, len %zu aad %zu key %zu, " SEED_FMT, kernel,
                         len, aad_len, key_len, SEED);
        gcm_message(&t, 1, iv, aad, aad_len, back, ct, len, tag_d);
        cr_assert_arr_eq(back, pt, len, "%s decrypt: plaintext, len %zu, " SEED_FMT, kernel, len, SEED);
        cr_assert_arr_eq(tag_d, tag_o, 16, "%s decrypt: tag, len %zu, " SEED_FMT, kernel, len, SEED);
        if (t.impl->gcm_oneshot) {   /* the same message through gcm_oneshot */
            uint8_t j0[16] = {0}, x[16] = {0}, pad[16] = {0}, lens[16];
            memcpy(j0, iv, 12);
            j0[15] = 1;
            t.impl->ghash(t.htab, x, aad, aad_len / 16);
            memcpy(pad, aad + aad_len / 16 * 16, aad_len % 16);
            if (aad_len % 16) t.impl->ghash(t.htab, x, pad, 1);
            for (int i = 0; i < 8; i++) {
                lens[i] = (uint8_t)((uint64_t)aad_len * 8 >> (56 - 8 * i));
                lens[8 + i] = (uint8_t)((uint64_t)len * 8 >> (56 - 8 * i));
            }
            for (int dec = 0; dec < 2; dec++) {
                t.impl->gcm_oneshot(&t.k, t.htab, j0, x, back, dec ? ct_o : pt, len, lens, dec, 1, tag_d);
                cr_assert_arr_eq(back, dec ? pt : ct_o, len, "%s gcm_oneshot %d vs OpenSSL: data, len %zu, "
                                 SEED_FMT, kernel, dec, len, SEED);
                cr_assert_arr_eq(tag_d, tag_o, 16, "%s gcm_oneshot %d vs OpenSSL: tag, len %zu, " SEED_FMT,
                                 kernel, dec, len, SEED);
            }
        }
        free(aad); free(pt); free(ct); free(ct_o); free(back);
    }
}

Test(gcm_kernels, whole_messages_match_openssl_evp) {
    hwc_test_each_kernel("aes", openssl_check, NULL);
}

/* Slots called in pieces give what one call gives (the streaming interface
   splits data at arbitrary block counts): counter and accumulator carry over. */
static void split_check(const char *kernel, void *arg) {
    (void)arg;
    hwc_rng r;
    const int iters = iterations(kernel, &r, 0x6d, 100);
    for (int it = 0; it < iters; it++) {
        kern t;
        uint8_t key[32], ctr1[16], ctr2[16], x1[16], x2[16];
        const size_t blocks = pick_blocks(&r) + 1;
        kern_random(&t, &r, key);
        hwc_rng_fill(&r, ctr1, 16);
        hwc_rng_fill(&r, x1, 16);
        ctr1[12] = ctr1[13] = ctr1[14] = 0xff;
        memcpy(ctr2, ctr1, 16);
        memcpy(x2, x1, 16);
        uint8_t *in = malloc(16 * blocks), *o1 = malloc(16 * blocks), *o2 = malloc(16 * blocks);
        cr_assert(in && o1 && o2);
        hwc_rng_fill(&r, in, 16 * blocks);
        const int dec = it & 1;
        void (*f)(const hwc_aes_key *, const unsigned char *, uint8_t *, uint8_t *, uint8_t *,
                  const uint8_t *, size_t) = dec ? t.impl->gcm_decrypt : t.impl->gcm_encrypt;
        f(&t.k, t.htab, ctr1, x1, o1, in, blocks);
        for (size_t done = 0; done < blocks;) {
            const size_t n = hwc_rng_below(&r, blocks - done + 1);
            f(&t.k, t.htab, ctr2, x2, o2 + 16 * done, in + 16 * done, n);
            done += n;
        }
        cr_assert_arr_eq(o1, o2, 16 * blocks, "%s split: data, %zu blocks, " SEED_FMT, kernel, blocks, SEED);
        cr_assert_arr_eq(x1, x2, 16, "%s split: GHASH, %zu blocks, " SEED_FMT, kernel, blocks, SEED);
        cr_assert_arr_eq(ctr1, ctr2, 16, "%s split: counter, " SEED_FMT, kernel, SEED);
        free(in); free(o1); free(o2);
    }
}

Test(gcm_kernels, split_calls_equal_one_call) {
    hwc_test_each_kernel("aes", split_check, NULL);
}
