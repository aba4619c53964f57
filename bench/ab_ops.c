/* The public calls timed by bench/ab_main.c, written once for both builds
 * (bench/ab_ops.h): the same loop bodies as the bench rows (bench/bench_aes.c,
 * bench_streebog.c, bench_mpi.c), using only functions both versions have.
 * AB_PREFIX names this copy's entry points; the baseline's copy is compiled
 * against its own headers with its symbols renamed (scripts/ab-baseline.sh).
 * AB_V02 is defined for a build that has the 0.2 calls (GCM, CBC over many
 * messages); without it those rows fail their setup and are left out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "ab_ops.h"

#ifndef AB_PREFIX
#error "compile with -DAB_PREFIX=new_ or base_"
#endif
#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)
#define AB(name) AB_CAT(AB_PREFIX, name)

enum { MAX_LIMBS = 64, MANY = AB_MANY, SECTORS = AB_SECTORS };

typedef struct {
    ab_row row;
    uint8_t iv[16], tag[16], digest[192];
    union {
        hwc_aes_key k;
        hwc_aes_xts_key x;
        hwc_cmac_ctx c;
#ifdef AB_V02
        hwc_aes_gcm_key g;
#endif
    } u;
    uint8_t *many_in, *many_out, many_ivs[16 * MANY], many_tags[16 * MANY], many_key[32];
    const uint8_t *mi[MANY];
    uint8_t *mo[MANY];
    size_t mlen[MANY];
    hwc_limb d[MAX_LIMBS], s[MAX_LIMBS], m[MAX_LIMBS], b[MAX_LIMBS], e[MAX_LIMBS], r[MAX_LIMBS];
} ab_ctx;

static const uint8_t ab_pw[] = "correct horse battery staple";

static uint64_t ab_rand(uint64_t *x) {   /* xorshift64: the same numbers in both builds */
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void ab_free_ctx(ab_ctx *c) {
    if (!c) return;
    free(c->many_in);
    free(c->many_out);
    memset(c, 0, sizeof *c);
    free(c);
}

static int setup_aes(ab_ctx *c) {
    const ab_row *r = &c->row;
#ifndef AB_V02   /* the 0.2 calls */
    if (r->op == AB_GCM_ENC || r->op == AB_GCM_DEC || r->op == AB_CBC_MANY || r->op == AB_CBC_MANY_OOP ||
        r->op == AB_CMAC_MANY || r->op == AB_XTS_SECTORS)
        return HWC_ERR_BAD_ARGUMENT;
#endif
    uint8_t ab_key[64];
    uint64_t x = 0x2b7e151628aed2a6u;
    for (int i = 0; i < 64; i++) ab_key[i] = (uint8_t)ab_rand(&x);
    int rc;
    const int xts = r->op == AB_XTS_ENC || r->op == AB_XTS_DEC || r->op == AB_XTS_SECTORS;
    if (xts) rc = hwc_aes_xts_setkey(&c->u.x, ab_key, 2 * r->key_len);
    else if (r->op == AB_CMAC) rc = hwc_cmac_init(&c->u.c, ab_key, r->key_len);
#ifdef AB_V02
    else if (r->op == AB_GCM_ENC || r->op == AB_GCM_DEC) rc = hwc_aes_gcm_setkey(&c->u.g, ab_key, r->key_len);
#endif
    else rc = hwc_aes_setkey(&c->u.k, ab_key, r->key_len);
    memcpy(c->many_key, ab_key, sizeof c->many_key);   /* hwc_cmac_many takes key bytes */
    memset(ab_key, 0, sizeof ab_key);
    const int many = r->op == AB_CBC_MANY || r->op == AB_CBC_MANY_OOP || r->op == AB_CMAC_MANY;
    if (rc == HWC_OK && r->op == AB_XTS_SECTORS) {
        c->many_in = aligned_alloc(4096, SECTORS * r->len);
        if (!c->many_in) return HWC_ERR_BAD_ARGUMENT;
        memset(c->many_in, 0x5a, SECTORS * r->len);
    }
    if (rc == HWC_OK && many) {
        /* 64 messages back to back in a page-aligned buffer, as bench/bench_aes_many.c */
        const size_t bytes = (MANY * r->len + 4095) / 4096 * 4096;
        c->many_in = aligned_alloc(4096, bytes);
        c->many_out = aligned_alloc(4096, bytes);
        if (!c->many_in || !c->many_out) return HWC_ERR_BAD_ARGUMENT;
        memset(c->many_in, 0x5a, bytes);
        for (size_t i = 0; i < MANY; i++) {
            c->mi[i] = c->many_in + i * r->len;
            c->mo[i] = (r->op == AB_CBC_MANY ? c->many_in : c->many_out) + i * r->len;
            c->mlen[i] = r->len;
        }
    }
#ifdef AB_V02
    if (rc == HWC_OK && r->op == AB_GCM_DEC) {
        /* the tag of `in` as ciphertext: CTR twice gives `in` back */
        uint8_t *t = malloc(r->len);
        if (!t) return HWC_ERR_BAD_ARGUMENT;
        rc = hwc_aes_gcm_encrypt(&c->u.g, c->iv, 12, NULL, 0, t, r->in, r->len, c->tag, 16);
        if (rc == HWC_OK) rc = hwc_aes_gcm_encrypt(&c->u.g, c->iv, 12, NULL, 0, t, t, r->len, c->tag, 16);
        free(t);
    }
#endif
    return rc;
}

static void setup_mpi(ab_ctx *c) {
    uint64_t x = 0x9e3779b97f4a7c15u;
    const size_t n = c->row.len;
    for (size_t i = 0; i < MAX_LIMBS; i++) {
        c->d[i] = ab_rand(&x);
        c->s[i] = ab_rand(&x);
        c->m[i] = ab_rand(&x);
        c->b[i] = ab_rand(&x);
        c->e[i] = ab_rand(&x);
    }
    /* odd full-size modulus, base below it, full-size exponent (as bench/bench_mpi.c) */
    c->m[0] |= 1;
    c->m[n - 1] |= (hwc_limb)1 << 63;
    c->b[n - 1] >>= 1;
    c->e[n - 1] |= (hwc_limb)1 << 63;
}

void *AB(ab_setup)(const ab_row *row) {
    if (row->len == 0 || (ab_family(row->op)[0] == 'm' && row->len > MAX_LIMBS)) return NULL;
    /* page-aligned: both builds' key objects then sit at the same offset in
       a page (the loads of a key's tables and the stores of out then alias
       alike in both; calloc placed them apart, and identical builds read
       1.06-1.10 at 1 MiB GCM) */
    const size_t sz = (sizeof(ab_ctx) + 4095) & ~(size_t)4095;
    ab_ctx *c = aligned_alloc(4096, sz);
    if (!c) return NULL;
    memset(c, 0, sz);
    c->row = *row;
    if (hwc_kernel_select(ab_family(row->op), row->kernel) != HWC_OK) {
        ab_free_ctx(c);
        return NULL;
    }
    for (int i = 0; i < 16; i++) c->iv[i] = (uint8_t)(0xf0 + i);
    int ok = HWC_OK;
    switch (ab_family(row->op)[0]) {
    case 'a': ok = setup_aes(c); break;
    case 'm': setup_mpi(c); break;
    default: break;
    }
    if (ok != HWC_OK) {
        ab_free_ctx(c);
        return NULL;
    }
    return c;   /* the kernel stays selected: ab_main.c runs one row per build at a time */
}

void AB(ab_run)(void *ctx, size_t iters) {
    ab_ctx *c = ctx;
    const hwc_aes_key *k = &c->u.k;
    const size_t len = c->row.len;
    const uint8_t *in = c->row.in;
    uint8_t *out = c->row.out, iv[16];
    hwc_limb carry = 0;
    for (size_t i = 0; i < iters; i++) {
        memcpy(iv, c->iv, 16);
        switch (c->row.op) {
        case AB_ECB_ENC: hwc_aes_ecb_encrypt(k, out, in, len); break;
        case AB_ECB_DEC: hwc_aes_ecb_decrypt(k, out, in, len); break;
        case AB_CBC_ENC: hwc_aes_cbc_encrypt(k, iv, out, in, len); break;
        case AB_CBC_DEC: hwc_aes_cbc_decrypt(k, iv, out, in, len); break;
        case AB_CTR: hwc_aes_ctr_crypt(k, iv, out, in, len); break;
        case AB_XTS_ENC: hwc_aes_xts_encrypt(&c->u.x, c->iv, out, in, len); break;
        case AB_XTS_DEC: hwc_aes_xts_decrypt(&c->u.x, c->iv, out, in, len); break;
        case AB_CMAC:
            hwc_cmac_update(&c->u.c, in, len);
            hwc_cmac_final(&c->u.c, c->tag);
            break;
#ifdef AB_V02
        case AB_GCM_ENC: hwc_aes_gcm_encrypt(&c->u.g, c->iv, 12, NULL, 0, out, in, len, c->tag, 16); break;
        case AB_GCM_DEC:
            if (hwc_aes_gcm_decrypt(&c->u.g, c->iv, 12, NULL, 0, out, in, len, c->tag, 16) != HWC_OK) abort();
            break;
        case AB_CBC_MANY:
        case AB_CBC_MANY_OOP: hwc_aes_cbc_encrypt_many(k, MANY, c->many_ivs, c->mo, c->mi, c->mlen); break;
        case AB_XTS_SECTORS:
            hwc_aes_xts_encrypt_sectors(&c->u.x, 7, len, c->many_in, c->many_in, SECTORS * len);
            break;
        case AB_CMAC_MANY: hwc_cmac_many(c->many_key, c->row.key_len, MANY, c->mi, c->mlen, c->many_tags); break;
#endif
        case AB_SB256: hwc_streebog(256, in, len, c->digest); break;
        case AB_SB512: hwc_streebog(512, in, len, c->digest); break;
        case AB_HMAC_SB512: hwc_hmac_streebog(512, ab_pw, sizeof ab_pw - 1, in, len, c->digest); break;
        case AB_PBKDF2_SB512:
            hwc_pbkdf2_streebog512(ab_pw, sizeof ab_pw - 1, c->iv, 16, 1000, c->digest, len);
            break;
        case AB_MULADD: carry += hwc_mpi_muladd(c->d, c->s, len, c->s[i & 7]); break;
        case AB_MODEXP: hwc_mpi_modexp(c->r, c->b, c->e, len, c->m, len); break;
        default: break;
        }
    }
    c->tag[0] ^= (uint8_t)carry;
    __asm__ __volatile__("" : : "r"(out), "r"(c->digest), "r"(c->r) : "memory");
}

void AB(ab_done)(void *ctx) {
    ab_ctx *c = ctx;
    hwc_kernel_select(ab_family(c->row.op), NULL);
    ab_free_ctx(c);
}
