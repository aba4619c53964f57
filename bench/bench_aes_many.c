/* Many AES messages at once (batch.h), AES-128, one key: cmac-many and
 * cbc-enc-many over 64 messages of 64 B, 1 KiB and 4 KiB and (--full) of
 * mixed lengths up to 4 KiB, xts-sectors over 256 sectors of 512 B and
 * 4 KiB. Rows per usable aes kernel: the batch
 * call ("avx512") and the same work as single calls ("avx512 single": n
 * hwc_cmac_update/final, n hwc_aes_cbc_encrypt, n hwc_aes_xts_encrypt);
 * peers: intel-ipsec-mb's multi-buffer manager (CMAC and CBC jobs, all
 * submitted then flushed) and OpenSSL (XTS, one EVP call per data unit).
 * The messages lie one after another in one buffer (page-aligned at 4 KiB),
 * processed in place; the size column is one message or sector (or the
 * range of the mixed lengths), cycles per byte are over all of them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "hwcrypt/batch.h"
#include "bench.h"

#ifdef HWC_BENCH_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef HWC_BENCH_HAVE_IPSECMB
#include <intel-ipsec-mb.h>
#endif

#define NMSG 64
#define NSECT 256
#define MAXK 8

enum what { W_CMAC, W_CBC, W_XTS };
enum who { B_MANY, B_SINGLE, B_IPSECMB, B_OPENSSL };

typedef struct mcase {
    int what, who;
    size_t n, len;                   /* len: XTS sector, else the longest message */
    uint8_t *buf;                    /* n * len bytes, processed in place */
    const uint8_t *msg[NSECT];
    uint8_t *out[NSECT];
    size_t lens[NSECT];
    uint8_t ivs[16 * NSECT], tags[16 * NSECT];
    hwc_aes_key k;
    hwc_aes_xts_key xk;
    hwc_cmac_ctx cmac;
#ifdef HWC_BENCH_HAVE_IPSECMB
    IMB_MGR *mgr;
    _Alignas(64) uint8_t enc[16 * 15], dec[16 * 15], sk1[16], sk2[16];
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
#endif
} mcase;

static const uint8_t many_key[32] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15,
                                     0x88, 0x09, 0xcf, 0x4f, 0x3c, 0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca,
                                     0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81};
#define FIRST_SECTOR 1000

static void le_tweak(uint8_t t[16], uint64_t s) {
    memset(t, 0, 16);
    for (int i = 0; i < 8; i++) t[i] = (uint8_t)(s >> (8 * i));
}

/* ---- ours ------------------------------------------------------------------ */
static int ours_setup(mcase *c, const char *kernel) {
    if (hwc_kernel_select("aes", kernel) != HWC_OK) return -1;
    int r = c->what == W_XTS ? hwc_aes_xts_setkey(&c->xk, many_key, 32)
          : c->what == W_CMAC ? hwc_cmac_init(&c->cmac, many_key, 16)
                              : hwc_aes_setkey(&c->k, many_key, 16);
    hwc_kernel_select("aes", NULL);
    return r == HWC_OK ? 0 : -1;
}

static void many_run(void *arg, size_t iters) {
    mcase *c = arg;
    for (size_t it = 0; it < iters; it++) {
        if (c->what == W_CMAC) hwc_cmac_many(many_key, 16, c->n, c->msg, c->lens, c->tags);
        else if (c->what == W_CBC) hwc_aes_cbc_encrypt_many(&c->k, c->n, c->ivs, c->out, c->msg, c->lens);
        else hwc_aes_xts_encrypt_sectors(&c->xk, FIRST_SECTOR, c->len, c->buf, c->buf, c->n * c->len);
    }
    hwc_bench_sink(c->tags, 16);
}

static void single_run(void *arg, size_t iters) {
    mcase *c = arg;
    for (size_t it = 0; it < iters; it++)
        for (size_t i = 0; i < c->n; i++) {
            if (c->what == W_CMAC) {
                hwc_cmac_update(&c->cmac, c->msg[i], c->lens[i]);
                hwc_cmac_final(&c->cmac, c->tags + 16 * i);
            } else if (c->what == W_CBC) {
                hwc_aes_cbc_encrypt(&c->k, c->ivs + 16 * i, c->out[i], c->msg[i], c->lens[i]);
            } else {
                uint8_t t[16];
                le_tweak(t, FIRST_SECTOR + i);
                hwc_aes_xts_encrypt(&c->xk, t, c->out[i], c->msg[i], c->len);
            }
        }
    hwc_bench_sink(c->tags, 16);
}

/* ---- intel-ipsec-mb: one job per message, submitted, then flushed ------------- */
#ifdef HWC_BENCH_HAVE_IPSECMB
static void imb_pass(mcase *c) {
    for (size_t i = 0; i < c->n; i++) {
        IMB_JOB *j = IMB_GET_NEXT_JOB(c->mgr);
        j->cipher_direction = IMB_DIR_ENCRYPT;
        j->src = c->msg[i];
        if (c->what == W_CMAC) {
            j->cipher_mode = IMB_CIPHER_NULL;
            j->chain_order = IMB_ORDER_HASH_CIPHER;
            j->hash_alg = IMB_AUTH_AES_CMAC;
            j->hash_start_src_offset_in_bytes = 0;
            j->msg_len_to_hash_in_bytes = c->lens[i];
            j->u.CMAC._key_expanded = c->enc;
            j->u.CMAC._skey1 = c->sk1;
            j->u.CMAC._skey2 = c->sk2;
            j->auth_tag_output = c->tags + 16 * i;
            j->auth_tag_output_len_in_bytes = 16;
        } else {
            j->cipher_mode = IMB_CIPHER_CBC;
            j->chain_order = IMB_ORDER_CIPHER_HASH;
            j->hash_alg = IMB_AUTH_NULL;
            j->enc_keys = c->enc;
            j->dec_keys = c->dec;
            j->key_len_in_bytes = 16;
            j->iv = c->ivs + 16 * i;
            j->iv_len_in_bytes = 16;
            j->dst = c->out[i];
            j->cipher_start_src_offset_in_bytes = 0;
            j->msg_len_to_cipher_in_bytes = c->lens[i];
        }
        IMB_SUBMIT_JOB(c->mgr);
    }
    while (IMB_FLUSH_JOB(c->mgr)) {
    }
}

static int imb_setup(mcase *c) {
    if (!(c->mgr = alloc_mb_mgr(0))) return -1;
    init_mb_mgr_auto(c->mgr, NULL);
    IMB_AES_KEYEXP_128(c->mgr, many_key, c->enc, c->dec);
    IMB_AES_CMAC_SUBKEY_GEN_128(c->mgr, c->enc, c->sk1, c->sk2);
    /* one pass checked against hwcrypt: a wrong job setup is not timed */
    uint8_t want[16];
    if (c->what == W_CMAC) {
        imb_pass(c);
        if (hwc_cmac(many_key, 16, c->msg[c->n - 1], c->lens[c->n - 1], want) != HWC_OK) return -1;
        return memcmp(want, c->tags + 16 * (c->n - 1), 16) ? -1 : 0;
    }
    uint8_t *copy = malloc(c->lens[0]), iv[16];
    if (!copy) return -1;
    memcpy(copy, c->msg[0], c->lens[0]);
    memcpy(iv, c->ivs, 16);
    imb_pass(c);
    hwc_aes_key k;
    int bad = hwc_aes_setkey(&k, many_key, 16) != HWC_OK ||
              hwc_aes_cbc_encrypt(&k, iv, copy, copy, c->lens[0]) != HWC_OK || memcmp(copy, c->out[0], c->lens[0]);
    free(copy);
    return bad ? -1 : 0;
}

static void imb_run(void *arg, size_t iters) {
    mcase *c = arg;
    for (size_t it = 0; it < iters; it++) imb_pass(c);
    hwc_bench_sink(c->tags, 16);
}
#endif

/* ---- OpenSSL: XTS per data unit ------------------------------------------------ */
#ifdef HWC_BENCH_HAVE_OPENSSL
static int ossl_setup(mcase *c) {
    c->ossl = EVP_CIPHER_CTX_new();
    return c->ossl && EVP_EncryptInit_ex(c->ossl, EVP_aes_128_xts(), NULL, many_key, c->ivs) ? 0 : -1;
}

static void ossl_run(void *arg, size_t iters) {
    mcase *c = arg;
    int outl;
    for (size_t it = 0; it < iters; it++)
        for (size_t i = 0; i < c->n; i++) {
            uint8_t t[16];
            le_tweak(t, FIRST_SECTOR + i);
            EVP_EncryptInit_ex(c->ossl, NULL, NULL, NULL, t);
            EVP_EncryptUpdate(c->ossl, c->out[i], &outl, c->msg[i], (int)c->len);
        }
    hwc_bench_sink(c->out[0], 16);
}
#endif

/* The peers found at configure time. */
typedef struct {
    int who;
    const char *name;
    int (*setup)(mcase *c);
    void (*run)(void *arg, size_t iters);
} peer_def;
static const peer_def peer_defs[] = {
#ifdef HWC_BENCH_HAVE_IPSECMB
    {B_IPSECMB, "ipsec-mb " IMB_VERSION_STR, imb_setup, imb_run},
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
    {B_OPENSSL, "openssl " HWC_BENCH_OPENSSL_VERSION, ossl_setup, ossl_run},
#endif
    {-1, NULL, NULL, NULL}};

static void mcase_free(mcase *c) {
#ifdef HWC_BENCH_HAVE_IPSECMB
    if (c->who == B_IPSECMB && c->mgr) free_mb_mgr(c->mgr);
#endif
#ifdef HWC_BENCH_HAVE_OPENSSL
    if (c->who == B_OPENSSL) EVP_CIPHER_CTX_free(c->ossl);
#endif
    free(c->buf);
    free(c);
}

/* Message m's length: len, or with mixed a fixed pseudo-random one of
   1..len bytes (CBC: whole blocks). */
static size_t msg_len(int what, size_t len, int mixed, size_t m) {
    if (!mixed) return len;
    const uint32_t x = (uint32_t)(m * 2654435761u + 12345u) >> 7;
    return what == W_CBC ? 16 * (1 + x % (len / 16)) : 1 + x % len;
}

static void run_group(const hwc_bench_opts *o, int what, size_t len, int mixed) {
    static const char *const op_names[] = {"cmac-many", "cbc-enc-many", "xts-sectors"};
    hwc_kernel_info ks[MAXK];
    size_t nk = hwc_kernels("aes", ks, MAXK);
    if (nk > MAXK) nk = MAXK;
    hwc_bench_case cases[2 * MAXK + 2];
    mcase *args[2 * MAXK + 2];
    static char labels[2 * MAXK][40];
    size_t n = 0;
    const size_t nmsg = what == W_XTS ? NSECT : NMSG;
    size_t total = 0;
    for (size_t m = 0; m < nmsg; m++) total += msg_len(what, len, mixed, m);
    const size_t npeers = sizeof peer_defs / sizeof peer_defs[0] - 1;
    for (size_t i = 0; i < 2 * nk + npeers; i++) {
        const peer_def *pd = i < 2 * nk ? NULL : &peer_defs[i - 2 * nk];
        const int who = pd ? pd->who : (int)(i % 2);
        const char *kernel = i < 2 * nk ? ks[i / 2].name : NULL;
        if (kernel && !ks[i / 2].usable) continue;
        if ((who == B_IPSECMB && what == W_XTS) || (who == B_OPENSSL && what != W_XTS)) continue;
        mcase *c = calloc(1, sizeof *c);
        if (!c || !(c->buf = aligned_alloc(4096, (total + 4095) / 4096 * 4096))) {
            free(c);
            break;
        }
        c->what = what;
        c->who = who;
        c->n = nmsg;
        c->len = len;
        for (size_t b = 0; b < total; b++) c->buf[b] = (uint8_t)(b * 131 + 7);
        for (size_t m = 0, off = 0; m < nmsg; m++) {
            c->msg[m] = c->out[m] = c->buf + off;
            c->lens[m] = msg_len(what, len, mixed, m);
            off += c->lens[m];
        }
        for (size_t b = 0; b < sizeof c->ivs; b++) c->ivs[b] = (uint8_t)(b * 29 + 1);
        int ok = -1;
        const char *impl = kernel;
        void (*run)(void *, size_t) = NULL;
        if (who == B_MANY || who == B_SINGLE) {
            ok = ours_setup(c, kernel);
            run = who == B_MANY ? many_run : single_run;
            if (who == B_SINGLE) {
                snprintf(labels[i], sizeof labels[i], "%s single", kernel);
                impl = labels[i];
            }
        }
        if (pd) {
            impl = pd->name;
            ok = pd->setup(c);
            run = pd->run;
        }
        if (ok != 0) {
            if (impl) fprintf(stderr, "bench aes: %s: %s setup failed, skipped\n", impl, op_names[what]);
            mcase_free(c);
            continue;
        }
        args[n] = c;
        cases[n] = (hwc_bench_case){.impl = impl, .is_peer = who >= B_IPSECMB, .kernel = kernel, .run = run,
                                    .arg = c};
        n++;
    }
    char sz[32];
    if (mixed) snprintf(sz, sizeof sz, "%zux%s-%zu KiB", nmsg, what == W_CBC ? "16 B" : "1 B", len / 1024);
    else if (len % 1024 == 0) snprintf(sz, sizeof sz, "%zux%zu KiB", nmsg, len / 1024);
    else snprintf(sz, sizeof sz, "%zux%zu B", nmsg, len);
    hwc_bench_group(o, "aes", op_names[what], sz, (double)total, HWC_UNIT_BYTES, cases, n);
    for (size_t i = 0; i < n; i++) mcase_free(args[i]);
}

void hwc_bench_aes_many(const hwc_bench_opts *o) {
    static const size_t msg_sizes[] = {64, 1024, 4096};
    static const size_t sector_sizes[] = {512, 4096};
    for (int what = W_CMAC; what <= W_CBC; what++) {
        for (size_t i = o->quick ? 2 : 0; i < 3; i++) run_group(o, what, msg_sizes[i], 0);
        if (!o->quick) run_group(o, what, 4096, 1);   /* lanes ending at different blocks */
    }
    for (size_t i = o->quick ? 1 : 0; i < 2; i++) run_group(o, W_XTS, sector_sizes[i], 0);
}
