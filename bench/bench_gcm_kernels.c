/* hwcrypt-bench-gcm-kernels: the GCM slots of every usable AES kernel
 * (internal/kernel.h), one whole AES-GCM message per operation (96-bit IV,
 * no AAD, 16-byte tag: counter set-up, gcm_encrypt/gcm_decrypt, the lengths
 * block through ghash, E_K(J0) through ecb_encrypt), interleaved with
 * OpenSSL EVP and intel-ipsec-mb one-shot GCM in the same run. This times the
 * kernels without core/'s checks; the public API's rows are `hwcrypt bench`.
 * Usage: hwcrypt-bench-gcm-kernels [--quick] [--rounds N] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "internal/kernel.h"
#include "bench.h"

#ifdef HWC_BENCH_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
#include <intel-ipsec-mb.h>
#endif

enum peer { P_OURS, P_OPENSSL, P_IPSECMB };

typedef struct gcase {
    int peer, dec;
    size_t len;
    unsigned key_len;
    const uint8_t *in;
    uint8_t *out;
    uint8_t iv[12], tag[16];
    struct { hwc_aes_key k; HWC_ALIGN64 unsigned char htab[HWC_GCM_HTAB_BYTES]; } ours;
#ifdef HWC_BENCH_HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
    IMB_MGR *mgr;
    struct gcm_key_data *gk;
    struct gcm_context_data gctx;
#endif
} gcase;

static const uint8_t bench_key[32] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};

static void run_ours(void *arg, size_t iters) {
    gcase *c = arg;
    const hwc_aes_impl *im = c->ours.k.impl;
    for (size_t i = 0; i < iters; i++) {
        uint8_t j0[16] = {0}, ctr[16], x[16] = {0}, lens[16] = {0}, ek[16];
        memcpy(j0, c->iv, 12);
        j0[15] = 1;
        memcpy(ctr, j0, 16);
        ctr[15] = 2;
        (c->dec ? im->gcm_decrypt : im->gcm_encrypt)(&c->ours.k, c->ours.htab, ctr, x, c->out, c->in,
                                                      c->len / 16);
        const uint64_t bits = (uint64_t)c->len * 8;
        for (int b = 0; b < 8; b++) lens[8 + b] = (uint8_t)(bits >> (56 - 8 * b));
        im->ghash(c->ours.htab, x, lens, 1);
        im->ecb_encrypt(&c->ours.k, ek, j0, 1);
        for (int b = 0; b < 16; b++) c->tag[b] = x[b] ^ ek[b];
    }
    hwc_bench_sink(c->tag, 16);
}

#ifdef HWC_BENCH_HAVE_OPENSSL
static void run_openssl(void *arg, size_t iters) {
    gcase *c = arg;
    int n;
    for (size_t i = 0; i < iters; i++) {
        if (c->dec) {
            EVP_DecryptInit_ex(c->ossl, NULL, NULL, NULL, c->iv);
            EVP_DecryptUpdate(c->ossl, c->out, &n, c->in, (int)c->len);
            EVP_CIPHER_CTX_ctrl(c->ossl, EVP_CTRL_GCM_SET_TAG, 16, c->tag);
            EVP_DecryptFinal_ex(c->ossl, c->out, &n);   /* verdict ignored: timing only */
        } else {
            EVP_EncryptInit_ex(c->ossl, NULL, NULL, NULL, c->iv);
            EVP_EncryptUpdate(c->ossl, c->out, &n, c->in, (int)c->len);
            EVP_EncryptFinal_ex(c->ossl, c->out, &n);
            EVP_CIPHER_CTX_ctrl(c->ossl, EVP_CTRL_GCM_GET_TAG, 16, c->tag);
        }
    }
    hwc_bench_sink(c->tag, 16);
}
#endif

#ifdef HWC_BENCH_HAVE_IPSECMB
static void run_ipsecmb(void *arg, size_t iters) {
    gcase *c = arg;
    for (size_t i = 0; i < iters; i++) {
        if (c->key_len == 16) {
            if (c->dec) IMB_AES128_GCM_DEC(c->mgr, c->gk, &c->gctx, c->out, c->in, c->len, c->iv, NULL, 0, c->tag, 16);
            else IMB_AES128_GCM_ENC(c->mgr, c->gk, &c->gctx, c->out, c->in, c->len, c->iv, NULL, 0, c->tag, 16);
        } else {
            if (c->dec) IMB_AES256_GCM_DEC(c->mgr, c->gk, &c->gctx, c->out, c->in, c->len, c->iv, NULL, 0, c->tag, 16);
            else IMB_AES256_GCM_ENC(c->mgr, c->gk, &c->gctx, c->out, c->in, c->len, c->iv, NULL, 0, c->tag, 16);
        }
    }
    hwc_bench_sink(c->tag, 16);
}
#endif

int main(int argc, char **argv) {
    hwc_bench_opts o = {.rounds = 15, .batch_ms = 20};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) { o.quick = 1; o.rounds = 5; }
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) o.rounds = atoi(argv[++i]);
    }
    hwc_bench_header(&o);
    static const size_t sizes[] = {16, 64, 1024, 16384, 65536};
    hwc_kernel_info ki[16];
    size_t nk = hwc_kernels("aes", ki, 16);
    uint8_t *in = aligned_alloc(64, 65536), *out = aligned_alloc(64, 65536 + 64);
    if (!in || !out) return 1;
    memset(in, 0x5a, 65536);
#ifdef HWC_BENCH_HAVE_IPSECMB
    IMB_MGR *mgr = alloc_mb_mgr(0);
    init_mb_mgr_auto(mgr, NULL);
    struct gcm_key_data *gk128 = aligned_alloc(64, sizeof *gk128), *gk256 = aligned_alloc(64, sizeof *gk256);
    IMB_AES128_GCM_PRE(mgr, bench_key, gk128);
    IMB_AES256_GCM_PRE(mgr, bench_key, gk256);
#endif
    for (unsigned kl = 16; kl <= 32; kl += 16)
        for (int dec = 0; dec <= 1; dec++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                gcase cs[16];
                hwc_bench_case bc[16];
                size_t n = 0;
                for (size_t k = 0; k < nk && n < 12; k++) {
                    if (!ki[k].usable) continue;
                    hwc_kernel_select("aes", ki[k].name);
                    gcase *c = &cs[n];
                    memset(c, 0, sizeof *c);
                    hwc_aes_setkey(&c->ours.k, bench_key, kl);
                    const hwc_aes_impl *im = c->ours.k.impl;
                    if (!im->gcm_encrypt) continue;
                    uint8_t h[16] = {0};
                    im->ecb_encrypt(&c->ours.k, h, h, 1);
                    im->ghash_init(c->ours.htab, h);
                    bc[n] = (hwc_bench_case){ki[k].name, 0, ki[k].name, run_ours, c};
                    n++;
                }
                hwc_kernel_select("aes", NULL);
#ifdef HWC_BENCH_HAVE_OPENSSL
                cs[n].ossl = EVP_CIPHER_CTX_new();
                EVP_CipherInit_ex(cs[n].ossl, kl == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm(), NULL,
                                  bench_key, NULL, !dec);
                bc[n] = (hwc_bench_case){"openssl " OPENSSL_VERSION_STR, 1, NULL, run_openssl, &cs[n]};
                n++;
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
                cs[n].mgr = mgr;
                cs[n].gk = kl == 16 ? gk128 : gk256;
                bc[n] = (hwc_bench_case){"ipsec-mb " IMB_VERSION_STR, 1, NULL, run_ipsecmb, &cs[n]};
                n++;
#endif
                for (size_t c = 0; c < n; c++) {
                    gcase *g = bc[c].arg;
                    g->dec = dec; g->len = sizes[s]; g->key_len = kl; g->in = in; g->out = out;
                    memset(g->iv, 0x11, 12);
                    g->peer = bc[c].is_peer;
                }
                char op[32], sz[16];
                snprintf(op, sizeof op, "gcm-%u-%s", kl * 8, dec ? "dec" : "enc");
                snprintf(sz, sizeof sz, sizes[s] >= 1024 ? "%zu KiB" : "%zu B",
                         sizes[s] >= 1024 ? sizes[s] / 1024 : sizes[s]);
                hwc_bench_group(&o, "aes", op, sz, (double)sizes[s], HWC_UNIT_BYTES, bc, n);
#ifdef HWC_BENCH_HAVE_OPENSSL
                for (size_t c = 0; c < n; c++)
                    if (((gcase *)bc[c].arg)->ossl) EVP_CIPHER_CTX_free(((gcase *)bc[c].arg)->ossl);
#endif
            }
    hwc_bench_footer(&o);
    return 0;
}
