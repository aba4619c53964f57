/* Streebog (GOST R 34.11-2012), HMAC-Streebog and PBKDF2-HMAC-Streebog-512:
 * known answers from the standards, the LPS table against the RFC 6986
 * definitions, every usable kernel against generic and (where installed)
 * libgcrypt on pseudo-random inputs, and every error path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "internal/streebog_constants.h"
#ifdef HWC_TEST_HAVE_GCRYPT
#include <gcrypt.h>
#endif

/* ---- helpers ----------------------------------------------------------------- */

/* RFC 6986 prints vectors as numbers, most significant byte first; the byte
   stream (and the API's digest) is that number's bytes reversed. */
static size_t rfc_hex(const char *hex, uint8_t *out, size_t max) {
    size_t n = hwc_hex(hex, out, max);
    for (size_t i = 0; i < n / 2; i++) {
        uint8_t t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

#ifdef HWC_TEST_HAVE_GCRYPT
static void gcry_setup(void) {
    static int done;
    if (!done) {
        cr_assert(gcry_check_version(NULL) != NULL);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
        done = 1;
    }
}
static int gcry_algo(unsigned bits) { return bits == 256 ? GCRY_MD_STRIBOG256 : GCRY_MD_STRIBOG512; }

static void gcry_hash(unsigned bits, const void *p, size_t n, uint8_t *out) {
    gcry_setup();
    gcry_md_hash_buffer(gcry_algo(bits), out, p, n);
}
/* Returns 0 when libgcrypt refuses the input (reported, not compared). */
static int gcry_hmac(unsigned bits, const uint8_t *k, size_t kl, const void *m, size_t ml, uint8_t *out) {
    gcry_md_hd_t h;
    gcry_setup();
    cr_assert_eq(gcry_md_open(&h, gcry_algo(bits), GCRY_MD_FLAG_HMAC), 0);
    gcry_error_t e = gcry_md_setkey(h, kl ? k : (const uint8_t *)"", kl);
    if (e) {
        gcry_md_close(h);
        return 0;
    }
    gcry_md_write(h, m, ml);
    memcpy(out, gcry_md_read(h, 0), bits / 8);
    gcry_md_close(h);
    return 1;
}
static int gcry_pbkdf2(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, unsigned long c,
                       uint8_t *out, size_t ol) {
    gcry_setup();
    return gcry_kdf_derive(pl ? p : (const uint8_t *)"", pl, GCRY_KDF_PBKDF2, GCRY_MD_STRIBOG512,
                           sl ? s : (const uint8_t *)"", sl, c, ol, out) == 0;
}
#define HAVE_GCRYPT 1
#else
#define HAVE_GCRYPT 0
static void gcry_hash(unsigned bits, const void *p, size_t n, uint8_t *out) {
    (void)bits, (void)p, (void)n, (void)out;
}
static int gcry_hmac(unsigned bits, const uint8_t *k, size_t kl, const void *m, size_t ml, uint8_t *out) {
    (void)bits, (void)k, (void)kl, (void)m, (void)ml, (void)out;
    return 0;
}
static int gcry_pbkdf2(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, unsigned long c,
                       uint8_t *out, size_t ol) {
    (void)p, (void)pl, (void)s, (void)sl, (void)c, (void)out, (void)ol;
    return 0;
}
#endif

static void report_gcrypt(const char *what) {
    if (HAVE_GCRYPT) fprintf(stderr, "[streebog] %s: cross-checked against libgcrypt\n", what);
    else fprintf(stderr, "[streebog] %s: libgcrypt cross-check SKIPPED (libgcrypt not found at build)\n", what);
}

/* ---- known answers ------------------------------------------------------------ */

typedef struct {
    const char *name;
    const char *msg_rfc;      /* message as RFC 6986 prints it (MSB first) */
    const char *d512_rfc;     /* digests as printed in RFC 6986 section 10 */
    const char *d256_rfc;
} hash_kat;

/* RFC 6986 section 10.1 (512-bit) and 10.2 (256-bit), examples 1 and 2. */
static const hash_kat hash_kats[] = {
    {"RFC 6986 10.x.1 M1 (63 bytes)",
     "323130393837363534333231303938373635343332313039383736353433323130393837363534333231"
     "303938373635343332313039383736353433323130",
     "486f64c1917879417fef082b3381a4e211c324f074654c38823a7b76f830ad00"
     "fa1fbae42b1285c0352f227524bc9ab16254288dd6863dccd5b9f54a1ad0541b",
     "00557be5e584fd52a449b16b0251d05d27f94ab76cbaa6da890b59d8ef1e159d"},
    {"RFC 6986 10.x.2 M2 (72 bytes)",
     "fbe2e5f0eee3c820fbeafaebef20fffbf0e1e0f0f520e0ed20e8ece0ebe5f0f2f120fff0eeec20f120faf2"
     "fee5e2202ce8f6f3ede220e8e6eee1e8f0f2d1202ce8f0f2e5e220e5d1",
     "28fbc9bada033b1460642bdcddb90c3fb3e56c497ccd0f62b8a2ad4935e85f03"
     "7613966de4ee00531ae60f3b5a47f8dae06915d5f2f194996fcabf2622e6881e",
     "508f7e553c06501d749a66fc28c6cac0b005746d97537fa85d9e40904efed29d"},
};

/* docs/API.md: M1 digests in the API (libgcrypt) byte order. */
static const char *const api_m1_512 =
    "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa"
    "00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48";
static const char *const api_m1_256 = "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500";

/* RFC 7836 section 4.1.1 (= R 50.1.113-2016): K = 00..1f, T = 0126bdb87800af214341456563780100. */
static const char *const hmac_key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char *const hmac_data = "0126bdb87800af214341456563780100";
static const char *const hmac256 = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
static const char *const hmac512 =
    "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
    "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6";

/* PBKDF2 with PRF = HMAC_GOSTR3411_2012_512: RFC 9337 appendix A
   (= R 50.1.111-2016 test examples). */
typedef struct {
    const char *p;
    size_t pl;
    const char *s;
    size_t sl;
    uint32_t c;
    size_t dklen;
    const char *dk;
} pbkdf2_kat;
static const pbkdf2_kat pbkdf2_kats[] = {
    {"password", 8, "salt", 4, 1, 64,
     "64770af7f748c3b1c9ac831dbcfd85c26111b30a8a657ddc3056b80ca73e040d"
     "2854fd36811f6d825cc4ab66ec0a68a490a9e5cf5156b3a2b7eecddbf9a16b47"},
    {"password", 8, "salt", 4, 2, 64,
     "5a585bafdfbb6e8830d6d68aa3b43ac00d2e4aebce01c9b31c2caed56f0236d4"
     "d34b2b8fbd2c4e89d54d46f50e47d45bbac301571743119e8d3c42ba66d348de"},
    {"password", 8, "salt", 4, 4096, 64,
     "e52deb9a2d2aaff4e2ac9d47a41f34c20376591c67807f0477e32549dc341bc7"
     "867c09841b6d58e29d0347c996301d55df0d34e47cf68f4e3c2cdaf1d9ab86c3"},
    {"passwordPASSWORDpassword", 24, "saltSALTsaltSALTsaltSALTsaltSALTsalt", 36, 4096, 100,
     "b2d8f1245fc4d29274802057e4b54e0a0753aa22fc53760b301cf008679e58fe"
     "4bee9addcae99ba2b0b20f431a9c5e50f395c89387d0945aedeca6eb4015dfc2"
     "bd2421ee9bb71183ba882ceebfef259f33f9e27dc6178cb89dc37428cf9cc52a"
     "2baa2d3a"},
    {"pass\0word", 9, "sa\0lt", 5, 4096, 64,
     "50df062885b69801a3c10248eb0a27ab6e522ffeb20c991c660f001475d73a4e"
     "167f782c18e97e92976d9c1d970831ea78ccb879f67068cdac1910740844e830"},
};

static void check_kats(const char *kernel, void *arg) {
    (void)arg;
    uint8_t msg[128], want[64], got[64], api[64];
    for (size_t i = 0; i < sizeof hash_kats / sizeof hash_kats[0]; i++) {
        const hash_kat *v = &hash_kats[i];
        size_t n = rfc_hex(v->msg_rfc, msg, sizeof msg);
        cr_assert_eq(rfc_hex(v->d512_rfc, want, 64), 64);
        cr_assert_eq(hwc_streebog(512, msg, n, got), HWC_OK);
        cr_assert(!memcmp(got, want, 64), "[%s] %s 512: got %s", kernel, v->name, hwc_tohex(got, 64));
        if (HAVE_GCRYPT) {
            gcry_hash(512, msg, n, got);
            cr_assert(!memcmp(got, want, 64), "libgcrypt disagrees with %s 512", v->name);
        }
        cr_assert_eq(rfc_hex(v->d256_rfc, want, 32), 32);
        cr_assert_eq(hwc_streebog(256, msg, n, got), HWC_OK);
        cr_assert(!memcmp(got, want, 32), "[%s] %s 256: got %s", kernel, v->name, hwc_tohex(got, 32));
        if (HAVE_GCRYPT) {
            gcry_hash(256, msg, n, got);
            cr_assert(!memcmp(got, want, 32), "libgcrypt disagrees with %s 256", v->name);
        }
        if (i == 0) {   /* API.md prints M1's digests in stream order: same bytes */
            hwc_hex(api_m1_512, api, 64);
            cr_assert_eq(hwc_streebog(512, msg, n, got), HWC_OK);
            cr_assert(!memcmp(api, got, 64), "[%s] API.md M1 512", kernel);
            hwc_hex(api_m1_256, api, 32);
            cr_assert_eq(hwc_streebog(256, msg, n, got), HWC_OK);
            cr_assert(!memcmp(api, got, 32), "[%s] API.md M1 256", kernel);
            cr_assert_eq(n, 63);
            cr_assert(!memcmp(msg, "012345678901234567890123456789012345678901234567890123456789012", 63));
        }
    }

    uint8_t key[32], data[16];
    cr_assert_eq(hwc_hex(hmac_key, key, 32), 32);
    cr_assert_eq(hwc_hex(hmac_data, data, 16), 16);
    hwc_hex(hmac256, want, 32);
    cr_assert_eq(hwc_hmac_streebog(256, key, 32, data, 16, got), HWC_OK);
    cr_assert(!memcmp(got, want, 32), "[%s] RFC 7836 HMAC-256: %s", kernel, hwc_tohex(got, 32));
    if (HAVE_GCRYPT && gcry_hmac(256, key, 32, data, 16, got))
        cr_assert(!memcmp(got, want, 32), "libgcrypt disagrees with RFC 7836 HMAC-256");
    hwc_hex(hmac512, want, 64);
    cr_assert_eq(hwc_hmac_streebog(512, key, 32, data, 16, got), HWC_OK);
    cr_assert(!memcmp(got, want, 64), "[%s] RFC 7836 HMAC-512: %s", kernel, hwc_tohex(got, 64));
    if (HAVE_GCRYPT && gcry_hmac(512, key, 32, data, 16, got))
        cr_assert(!memcmp(got, want, 64), "libgcrypt disagrees with RFC 7836 HMAC-512");

    for (size_t i = 0; i < sizeof pbkdf2_kats / sizeof pbkdf2_kats[0]; i++) {
        const pbkdf2_kat *v = &pbkdf2_kats[i];
        uint8_t dk[100], dk2[100];
        cr_assert_eq(hwc_hex(v->dk, dk, sizeof dk), v->dklen);
        hwc_guarded g;
        hwc_guarded_alloc(&g, v->dklen, i);
        cr_assert_eq(hwc_pbkdf2_streebog512((const uint8_t *)v->p, v->pl, (const uint8_t *)v->s, v->sl,
                                            v->c, g.p, v->dklen), HWC_OK);
        cr_assert(!memcmp(g.p, dk, v->dklen), "[%s] RFC 9337 PBKDF2 #%zu (c=%u): %s", kernel, i + 1,
                  v->c, hwc_tohex(g.p, v->dklen));
        cr_assert(hwc_guarded_intact(&g), "[%s] PBKDF2 wrote outside its output", kernel);
        hwc_guarded_free(&g);
        if (HAVE_GCRYPT && strcmp(kernel, "generic") == 0) {   /* once is enough */
            cr_assert(gcry_pbkdf2((const uint8_t *)v->p, v->pl, (const uint8_t *)v->s, v->sl, v->c, dk2,
                                  v->dklen));
            cr_assert(!memcmp(dk2, dk, v->dklen), "libgcrypt disagrees with RFC 9337 PBKDF2 #%zu", i + 1);
        }
    }
}

Test(streebog, known_answers) {
    hwc_test_each_kernel("streebog", check_kats, NULL);
    report_gcrypt("known answers");
}

/* ---- the constants and the fused table against RFC 6986 sections 6-7 --------- */

/* LPS straight from RFC 6986 section 7 on the byte vector a_0..a_63. */
static void lps_reference(uint8_t out[64], const uint8_t in[64]) {
    uint8_t s[64], p[64];
    for (int i = 0; i < 64; i++) s[i] = hwc_streebog_pi[in[i]];            /* S */
    for (int i = 0; i < 64; i++) p[i] = s[hwc_streebog_tau[i]];            /* P */
    for (int w = 0; w < 8; w++) {                                         /* L */
        uint64_t b = 0, r = 0;
        for (int j = 7; j >= 0; j--) b = b << 8 | p[8 * w + j];
        for (int j = 0; j < 64; j++)
            if (b >> (63 - j) & 1) r ^= hwc_streebog_A[j];
        for (int j = 0; j < 8; j++) out[8 * w + j] = (uint8_t)(r >> (8 * j));
    }
}

Test(streebog, tables_match_rfc6986) {
    int seen[256] = {0};
    for (int i = 0; i < 256; i++) seen[hwc_streebog_pi[i]]++;
    for (int i = 0; i < 256; i++) cr_assert_eq(seen[i], 1, "pi is not a permutation at %d", i);
    for (int i = 0; i < 64; i++) cr_assert_eq(hwc_streebog_tau[hwc_streebog_tau[i]], i);
    /* C_1 as RFC 6986 6.4 prints it starts b1085bda1ecadae9 and ends dd806559f2a64507. */
    cr_assert_eq(hwc_streebog_C[0][7], 0xb1085bda1ecadae9ull);
    cr_assert_eq(hwc_streebog_C[0][0], 0xdd806559f2a64507ull);
    cr_assert_eq(hwc_streebog_C[11][7], 0x378ee767f11631baull);
    cr_assert_eq(hwc_streebog_C[11][0], 0x48bc924af11bd720ull);

    hwc_streebog_tables_init();
    hwc_streebog_tables_init();   /* idempotent */
    uint64_t seed = hwc_test_seed();
    hwc_rng rng;
    hwc_rng_init(&rng, seed);
    for (int t = 0; t < 2000; t++) {
        uint8_t in[64], want[64];
        if (t < 256) memset(in, t, 64);   /* every byte value in every position */
        else hwc_rng_fill(&rng, in, 64);
        lps_reference(want, in);
        for (int c = 0; c < 8; c++) {
            uint64_t o = 0;
            for (int r = 0; r < 8; r++) o ^= hwc_streebog_lps_table[r][in[8 * r + c]];
            cr_assert_eq(o, hwc_streebog_load64(want + 8 * c), "fused LPS word %d differs (seed 0x%llx, t=%d)",
                         c, (unsigned long long)seed, t);
        }
    }
}

/* ---- cross-kernel equivalence ------------------------------------------------- */

#define MAX_SMALL 1024
#define BIG1 (100 * 1024 + 13)
#define BIG2 (300 * 1024 + 64 * 7 + 63)

typedef struct {
    uint64_t seed;
    uint8_t *data;            /* BIG2 pseudo-random bytes */
    uint8_t (*ref)[2][64];    /* [len 0..MAX_SMALL+2][256/512] digests from generic */
} equiv_arg;

static size_t equiv_len(size_t i) { return i <= MAX_SMALL ? i : i == MAX_SMALL + 1 ? BIG1 : BIG2; }

static void digest_with(unsigned bits, const uint8_t *p, size_t n, uint8_t out[64]) {
    cr_assert_eq(hwc_streebog(bits, p, n, out), HWC_OK);
}

static void check_equiv(const char *kernel, void *argp) {
    equiv_arg *a = argp;
    hwc_rng rng;
    hwc_rng_init(&rng, a->seed ^ 0x51EB0Cull);
    for (size_t i = 0; i <= MAX_SMALL + 2; i++) {
        size_t n = equiv_len(i);
        for (int b = 0; b < 2; b++) {
            unsigned bits = b ? 512 : 256, dl = bits / 8;
            uint8_t got[64];
            /* one-shot, digest between poison bytes */
            hwc_guarded g;
            hwc_guarded_alloc(&g, dl, i & 63);
            cr_assert_eq(hwc_streebog(bits, a->data, n, g.p), HWC_OK);
            cr_assert(!memcmp(g.p, a->ref[i][b], dl), "[%s] Streebog-%u len %zu differs from generic (seed 0x%llx)",
                      kernel, bits, n, (unsigned long long)a->seed);
            cr_assert(hwc_guarded_intact(&g), "[%s] digest overflow, len %zu", kernel, n);
            hwc_guarded_free(&g);
            /* misaligned input (every offset 1..63 over the loop), guarded too */
            hwc_guarded in;
            size_t off = 1 + (i % 63);
            hwc_guarded_alloc(&in, n, off);
            memcpy(in.p, a->data, n);
            digest_with(bits, in.p, n, got);
            cr_assert(!memcmp(got, a->ref[i][b], dl), "[%s] misaligned (+%zu) len %zu (seed 0x%llx)", kernel,
                      off, n, (unsigned long long)a->seed);
            cr_assert(hwc_guarded_intact(&in));
            hwc_guarded_free(&in);
            /* random update splits (every 7th length, and the big ones) */
            if (i % 7 == 0 || i > MAX_SMALL) {
                hwc_streebog_ctx c;
                cr_assert_eq(hwc_streebog_init(&c, bits), HWC_OK);
                size_t pos = 0;
                while (pos < n) {
                    size_t r = hwc_rng_below(&rng, 4), take;
                    take = r == 0 ? hwc_rng_below(&rng, 4) : r == 1 ? hwc_rng_below(&rng, 130)
                                                          : r == 2 ? 64 : hwc_rng_below(&rng, 5000);
                    if (take > n - pos) take = n - pos;
                    cr_assert_eq(hwc_streebog_update(&c, a->data + pos, take), HWC_OK);
                    pos += take;
                }
                cr_assert_eq(hwc_streebog_final(&c, got), HWC_OK);
                cr_assert(!memcmp(got, a->ref[i][b], dl), "[%s] split updates, len %zu (seed 0x%llx)", kernel,
                          n, (unsigned long long)a->seed);
            }
        }
    }
}

Test(streebog, kernels_agree_with_generic_and_libgcrypt) {
    equiv_arg a;
    a.seed = hwc_test_seed();
    a.data = malloc(BIG2);
    a.ref = malloc(sizeof *a.ref * (MAX_SMALL + 3));
    cr_assert(a.data && a.ref);
    hwc_rng rng;
    hwc_rng_init(&rng, a.seed);
    hwc_rng_fill(&rng, a.data, BIG2);
    /* Reference digests from the generic kernel, checked against libgcrypt. */
    cr_assert_eq(hwc_kernel_select("streebog", "generic"), HWC_OK);
    for (size_t i = 0; i <= MAX_SMALL + 2; i++) {
        size_t n = equiv_len(i);
        digest_with(256, a.data, n, a.ref[i][0]);
        digest_with(512, a.data, n, a.ref[i][1]);
        if (HAVE_GCRYPT) {
            uint8_t g[64];
            gcry_hash(256, a.data, n, g);
            cr_assert(!memcmp(g, a.ref[i][0], 32), "generic Streebog-256 len %zu != libgcrypt (seed 0x%llx)", n,
                      (unsigned long long)a.seed);
            gcry_hash(512, a.data, n, g);
            cr_assert(!memcmp(g, a.ref[i][1], 64), "generic Streebog-512 len %zu != libgcrypt (seed 0x%llx)", n,
                      (unsigned long long)a.seed);
        }
    }
    cr_assert_eq(hwc_kernel_select("streebog", NULL), HWC_OK);
    hwc_test_each_kernel("streebog", check_equiv, &a);
    report_gcrypt("equivalence 0..1024, 100 KiB+13, 300 KiB+511");
    free(a.data);
    free(a.ref);
}

/* ---- N and Sigma carry chains (RFC 6986 section 8.2, additions mod 2^512) ---- */
/* The kernels' blocks() add 512 to N and each block to Sigma. A context is
   started, then its N and Sigma are overwritten with words that are mostly
   all-ones (so a carry must ripple through several words, or wrap past word
   7), then five whole blocks go through update. Every kernel's N, Sigma and
   digest must equal an independent byte-wise addition and generic's digest. */
#define CARRY_CASES 64
#define CARRY_BLOCKS 5

typedef struct {
    uint64_t n[8], sigma[8];              /* start values written into the context */
    uint8_t data[CARRY_BLOCKS * 64];
} carry_case;

typedef struct {
    uint64_t seed;
    carry_case c[CARRY_CASES];
    uint64_t want_n[CARRY_CASES][8], want_sigma[CARRY_CASES][8];   /* byte-wise reference */
    uint8_t want_digest[CARRY_CASES][64];                          /* generic kernel */
} carry_arg;

/* a += b mod 2^512 one byte at a time (words little-endian as in internal/kernel.h). */
static void add512_bytewise(uint64_t a[8], const uint64_t b[8]) {
    unsigned carry = 0;
    for (int i = 0; i < 64; i++) {
        int w = i / 8, sh = 8 * (i % 8);
        unsigned s = (unsigned)(a[w] >> sh & 0xff) + (unsigned)(b[w] >> sh & 0xff) + carry;
        a[w] = (a[w] & ~(0xffull << sh)) | (uint64_t)(s & 0xff) << sh;
        carry = s >> 8;
    }
}

/* Mostly all-ones words, some near-all-ones, zero, one or random. */
static uint64_t carry_word(hwc_rng *r) {
    switch (hwc_rng_below(r, 8)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return ~0ull - hwc_rng_below(r, 1024);
    case 3: return hwc_rng_next(r);
    default: return ~0ull;
    }
}

static void carry_setup(carry_arg *a) {
    hwc_rng r;
    hwc_rng_init(&r, a->seed ^ 0xCA77ull);
    for (int k = 0; k < CARRY_CASES; k++) {
        carry_case *c = &a->c[k];
        for (int i = 0; i < 8; i++) {
            c->n[i] = carry_word(&r);
            c->sigma[i] = carry_word(&r);
        }
        for (int b = 0; b < CARRY_BLOCKS; b++)
            for (int i = 0; i < 8; i++) hwc_streebog_store64(c->data + 64 * b + 8 * i, carry_word(&r));
    }
    /* Fixed worst cases: N = 2^512 - 513 (the second +512 ripples through
       all eight words and wraps to 511), Sigma = 2^512 - 1 with a first block
       of 1 (ripples and wraps to 0); N and Sigma all-ones above a low word
       that overflows; alternating all-ones and zero words. */
    carry_case *c = &a->c[0];
    for (int i = 0; i < 8; i++) c->n[i] = c->sigma[i] = ~0ull;
    c->n[0] = ~0ull - 512;
    memset(c->data, 0, 64);
    c->data[0] = 1;
    c = &a->c[1];
    for (int i = 0; i < 8; i++) c->n[i] = c->sigma[i] = ~0ull;
    c->n[0] = ~0ull - 100;
    c->n[7] = c->sigma[7] = 0x8000000000000000ull;
    memset(c->data, 0xff, 64);
    c = &a->c[2];
    for (int i = 0; i < 8; i++) c->n[i] = c->sigma[i] = (i & 1) ? 0 : ~0ull;
    c->n[0] = ~0ull - 511;
    c->sigma[1] = ~0ull;
    memset(c->data, 0xff, sizeof c->data);
    for (int k = 0; k < CARRY_CASES; k++) {
        memcpy(a->want_n[k], a->c[k].n, 64);
        memcpy(a->want_sigma[k], a->c[k].sigma, 64);
        uint64_t add_n[8] = {512};
        for (int b = 0; b < CARRY_BLOCKS; b++) {
            uint64_t m[8];
            for (int i = 0; i < 8; i++) m[i] = hwc_streebog_load64(a->c[k].data + 64 * b + 8 * i);
            add512_bytewise(a->want_n[k], add_n);
            add512_bytewise(a->want_sigma[k], m);
        }
    }
}

/* Runs case k with the selected kernel: N and Sigma after the updates, digest. */
static void carry_run(const carry_case *cc, uint64_t n[8], uint64_t sigma[8], uint8_t digest[64]) {
    hwc_streebog_ctx c;
    cr_assert_eq(hwc_streebog_init(&c, 512), HWC_OK);
    memcpy(c.n, cc->n, 64);
    memcpy(c.sigma, cc->sigma, 64);
    /* 2 blocks + 10 bytes, then 54 + 2 blocks: blocks() runs with 2, 1 and 2 blocks */
    cr_assert_eq(hwc_streebog_update(&c, cc->data, 138), HWC_OK);
    cr_assert_eq(hwc_streebog_update(&c, cc->data + 138, sizeof cc->data - 138), HWC_OK);
    cr_assert_eq(c.buf_len, 0);
    memcpy(n, c.n, 64);
    memcpy(sigma, c.sigma, 64);
    cr_assert_eq(hwc_streebog_final(&c, digest), HWC_OK);
}

static void check_carry(const char *kernel, void *argp) {
    carry_arg *a = argp;
    for (int k = 0; k < CARRY_CASES; k++) {
        uint64_t n[8], sigma[8];
        uint8_t d[64];
        carry_run(&a->c[k], n, sigma, d);
        cr_assert(!memcmp(n, a->want_n[k], 64), "[%s] carry case %d: N = %s after 5 blocks (seed 0x%llx)",
                  kernel, k, hwc_tohex(n, 64), (unsigned long long)a->seed);
        cr_assert(!memcmp(sigma, a->want_sigma[k], 64),
                  "[%s] carry case %d: Sigma = %s after 5 blocks (seed 0x%llx)", kernel, k,
                  hwc_tohex(sigma, 64), (unsigned long long)a->seed);
        cr_assert(!memcmp(d, a->want_digest[k], 64), "[%s] carry case %d: digest differs from generic (seed 0x%llx)",
                  kernel, k, (unsigned long long)a->seed);
    }
}

Test(streebog, n_sigma_long_carries) {
    carry_arg *a = malloc(sizeof *a);
    cr_assert(a);
    a->seed = hwc_test_seed();
    carry_setup(a);
    cr_assert_eq(hwc_kernel_select("streebog", "generic"), HWC_OK);
    for (int k = 0; k < CARRY_CASES; k++) {
        uint64_t n[8], sigma[8];
        carry_run(&a->c[k], n, sigma, a->want_digest[k]);
    }
    cr_assert_eq(hwc_kernel_select("streebog", NULL), HWC_OK);
    hwc_test_each_kernel("streebog", check_carry, a);
    free(a);
}

/* A context keeps the kernel it was created with (DESIGN.md). */
Test(streebog, context_keeps_its_kernel) {
    const char *names[8];
    size_t nk = hwc_test_usable_kernels("streebog", names, 8);
    uint8_t msg[200], want[64], got[64];
    memset(msg, 0x3c, sizeof msg);
    cr_assert_eq(hwc_streebog(512, msg, sizeof msg, want), HWC_OK);
    for (size_t i = 0; i < nk; i++) {
        hwc_streebog_ctx c;
        cr_assert_eq(hwc_kernel_select("streebog", names[i]), HWC_OK);
        cr_assert_eq(hwc_streebog_init(&c, 512), HWC_OK);
        cr_assert_eq(hwc_streebog_update(&c, msg, 70), HWC_OK);
        cr_assert_eq(hwc_kernel_select("streebog", names[(i + 1) % nk]), HWC_OK);
        cr_assert_eq(hwc_streebog_update(&c, msg + 70, sizeof msg - 70), HWC_OK);
        cr_assert_eq(hwc_streebog_final(&c, got), HWC_OK);
        cr_assert(!memcmp(got, want, 64), "context created under %s", names[i]);
    }
    cr_assert_eq(hwc_kernel_select("streebog", NULL), HWC_OK);
}

/* ---- HMAC and PBKDF2 edge cases ----------------------------------------------- */

typedef struct {
    uint64_t seed;
} mac_arg;

/* RFC 8018 section 5.2 written out over the public HMAC (itself checked
   against RFC 7836 and libgcrypt): the reference where libgcrypt is absent or
   refuses an input (it rejects an empty salt). */
static void pbkdf2_by_hmac(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, uint32_t c,
                           uint8_t *out, size_t ol) {
    uint8_t *buf = malloc(sl + 4), u[64], t[64];
    cr_assert(buf);
    for (uint32_t i = 1; ol; i++) {
        if (sl) memcpy(buf, s, sl);
        buf[sl] = (uint8_t)(i >> 24), buf[sl + 1] = (uint8_t)(i >> 16);
        buf[sl + 2] = (uint8_t)(i >> 8), buf[sl + 3] = (uint8_t)i;
        cr_assert_eq(hwc_hmac_streebog(512, p, pl, buf, sl + 4, u), HWC_OK);
        memcpy(t, u, 64);
        for (uint32_t j = 1; j < c; j++) {
            uint8_t prev[64];
            memcpy(prev, u, 64);
            cr_assert_eq(hwc_hmac_streebog(512, p, pl, prev, 64, u), HWC_OK);
            for (int b = 0; b < 64; b++) t[b] ^= u[b];
        }
        size_t n = ol < 64 ? ol : 64;
        memcpy(out, t, n);
        out += n;
        ol -= n;
    }
    free(buf);
}

static void check_hmac_pbkdf2(const char *kernel, void *argp) {
    mac_arg *a = argp;
    hwc_rng rng;
    hwc_rng_init(&rng, a->seed ^ 0x4D4143ull);
    static const size_t key_lens[] = {0, 1, 31, 32, 63, 64, 65, 127, 128, 10000};
    static const size_t msg_lens[] = {0, 1, 63, 64, 65, 200};
    uint8_t *key = malloc(10000), msg[200];
    cr_assert(key);
    hwc_rng_fill(&rng, key, 10000);
    hwc_rng_fill(&rng, msg, sizeof msg);
    int gcrypt_refused = 0;
    for (size_t ki = 0; ki < sizeof key_lens / sizeof key_lens[0]; ki++)
        for (size_t mi = 0; mi < sizeof msg_lens / sizeof msg_lens[0]; mi++)
            for (unsigned bits = 256; bits <= 512; bits += 256) {
                size_t kl = key_lens[ki], ml = msg_lens[mi], dl = bits / 8;
                hwc_guarded g;
                hwc_guarded_alloc(&g, dl, kl & 63);
                cr_assert_eq(hwc_hmac_streebog(bits, kl ? key : NULL, kl, ml ? msg : NULL, ml, g.p), HWC_OK);
                cr_assert(hwc_guarded_intact(&g), "[%s] HMAC output overflow", kernel);
                uint8_t want[64];
                if (gcry_hmac(bits, key, kl, msg, ml, want))
                    cr_assert(!memcmp(g.p, want, dl), "[%s] HMAC-%u key %zu msg %zu != libgcrypt (seed 0x%llx)",
                              kernel, bits, kl, ml, (unsigned long long)a->seed);
                else if (HAVE_GCRYPT)
                    gcrypt_refused++;
                /* RFC 2104: a key longer than B = 64 is replaced by H(key), same size. */
                if (kl > 64) {
                    uint8_t hk[64], m2[64];
                    cr_assert_eq(hwc_streebog(bits, key, kl, hk), HWC_OK);
                    cr_assert_eq(hwc_hmac_streebog(bits, hk, dl, msg, ml, m2), HWC_OK);
                    cr_assert(!memcmp(m2, g.p, dl), "[%s] HMAC-%u long key != HMAC(H(key))", kernel, bits);
                }
                /* A key zero-padded to 64 bytes is the same key. */
                if (kl < 64) {
                    uint8_t k64[64] = {0}, m2[64];
                    memcpy(k64, key, kl);
                    cr_assert_eq(hwc_hmac_streebog(bits, k64, 64, msg, ml, m2), HWC_OK);
                    cr_assert(!memcmp(m2, g.p, dl), "[%s] HMAC-%u key %zu vs zero-padded", kernel, bits, kl);
                }
                hwc_guarded_free(&g);
            }
    if (gcrypt_refused)
        fprintf(stderr, "[streebog] libgcrypt refused %d HMAC inputs (not compared)\n", gcrypt_refused);

    /* PBKDF2: empty password/salt, lengths around the 64-byte block size. */
    static const size_t out_lens[] = {1, 63, 64, 65, 100, 128, 129};
    uint8_t full[129];
    for (int pw = 0; pw < 3; pw++)
        for (int sa = 0; sa < 3; sa++) {
            size_t pl = pw == 0 ? 0 : pw == 1 ? 8 : 100, sl = sa == 0 ? 0 : sa == 1 ? 16 : 70;
            const uint8_t *pp = pl ? key : NULL, *sp = sl ? key + 5000 : NULL;
            uint32_t iters = (uint32_t)(1 + (pw * 3 + sa) % 4);
            cr_assert_eq(hwc_pbkdf2_streebog512(pp, pl, sp, sl, iters, full, sizeof full), HWC_OK);
            uint8_t want[129];
            pbkdf2_by_hmac(pp, pl, sp, sl, iters, want, sizeof want);
            cr_assert(!memcmp(full, want, sizeof full), "[%s] PBKDF2 p%zu s%zu c%u != RFC 8018 loop over HMAC",
                      kernel, pl, sl, iters);
            if (gcry_pbkdf2(key, pl, key + 5000, sl, iters, want, sizeof full))
                cr_assert(!memcmp(full, want, sizeof full), "[%s] PBKDF2 p%zu s%zu c%u != libgcrypt", kernel, pl,
                          sl, iters);
            else if (HAVE_GCRYPT && strcmp(kernel, "generic") == 0)
                fprintf(stderr, "[streebog] libgcrypt refused PBKDF2 p%zu s%zu (compared with the HMAC loop only)\n",
                        pl, sl);
            for (size_t oi = 0; oi < sizeof out_lens / sizeof out_lens[0]; oi++) {
                size_t ol = out_lens[oi];
                hwc_guarded g;
                hwc_guarded_alloc(&g, ol, oi);
                cr_assert_eq(hwc_pbkdf2_streebog512(pp, pl, sp, sl, iters, g.p, ol), HWC_OK);
                cr_assert(!memcmp(g.p, full, ol), "[%s] PBKDF2 out_len %zu is not a prefix", kernel, ol);
                cr_assert(hwc_guarded_intact(&g), "[%s] PBKDF2 out_len %zu overflow", kernel, ol);
                hwc_guarded_free(&g);
            }
        }
    free(key);
}

Test(streebog, hmac_pbkdf2_edges) {
    mac_arg a = {hwc_test_seed()};
    hwc_test_each_kernel("streebog", check_hmac_pbkdf2, &a);
    report_gcrypt("HMAC/PBKDF2 edges");
}

/* ---- error paths ----------------------------------------------------------- */

#define FILL 0x5A
#define all_fill(p, n) hwc_all_bytes((p), (n), FILL)

Test(streebog, errors_leave_outputs_untouched) {
    uint8_t d[64], in[8] = {1, 2, 3};
    hwc_streebog_ctx c, snap;
    static const unsigned bad_bits[] = {0, 1, 128, 255, 384, 513, 1024};

    /* init */
    cr_assert_eq(hwc_streebog_init(NULL, 512), HWC_ERR_NULL_POINTER);
    for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++) {
        memset(&c, FILL, sizeof c);
        cr_assert_eq(hwc_streebog_init(&c, bad_bits[i]), HWC_ERR_BAD_ARGUMENT, "bits %u", bad_bits[i]);
        cr_assert(all_fill(&c, sizeof c), "init wrote a context on error");
        memset(d, FILL, sizeof d);
        cr_assert_eq(hwc_streebog(bad_bits[i], in, 3, d), HWC_ERR_BAD_ARGUMENT);
        cr_assert_eq(hwc_hmac_streebog(bad_bits[i], in, 3, in, 3, d), HWC_ERR_BAD_ARGUMENT);
        cr_assert(all_fill(d, sizeof d));
    }

    /* update / final argument checks on a live context */
    cr_assert_eq(hwc_streebog_init(&c, 256), HWC_OK);
    cr_assert_eq(hwc_streebog_update(&c, in, 3), HWC_OK);
    snap = c;
    cr_assert_eq(hwc_streebog_update(NULL, in, 3), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_streebog_update(&c, NULL, 1), HWC_ERR_NULL_POINTER);
    cr_assert(!memcmp(&c, &snap, sizeof c), "failed update changed the context");
    cr_assert_eq(hwc_streebog_update(&c, NULL, 0), HWC_OK);
    cr_assert(!memcmp(&c, &snap, sizeof c));
    memset(d, FILL, sizeof d);
    cr_assert_eq(hwc_streebog_final(NULL, d), HWC_ERR_NULL_POINTER);
    cr_assert(all_fill(d, sizeof d));
    cr_assert_eq(hwc_streebog_final(&c, NULL), HWC_ERR_NULL_POINTER);
    cr_assert(!memcmp(&c, &snap, sizeof c), "failed final changed the context");
    cr_assert_eq(hwc_streebog_final(&c, d), HWC_OK);
    cr_assert(all_fill(d + 32, 32), "Streebog-256 final wrote past 32 bytes");
    uint8_t want[64];
    cr_assert_eq(hwc_streebog(256, in, 3, want), HWC_OK);
    cr_assert(!memcmp(d, want, 32));

    /* after final the context is wiped: update/final refuse it */
    cr_assert_eq(c.digest_bits, 0);
    snap = c;
    memset(d, FILL, sizeof d);
    cr_assert_eq(hwc_streebog_update(&c, in, 3), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_streebog_final(&c, d), HWC_ERR_BAD_ARGUMENT);
    cr_assert(all_fill(d, sizeof d));
    cr_assert(!memcmp(&c, &snap, sizeof c));
    /* never initialised (zeroed, or garbage digest_bits) */
    memset(&c, 0, sizeof c);
    cr_assert_eq(hwc_streebog_update(&c, in, 1), HWC_ERR_BAD_ARGUMENT);
    memset(&c, FILL, sizeof c);
    cr_assert_eq(hwc_streebog_final(&c, d), HWC_ERR_BAD_ARGUMENT);
    cr_assert(all_fill(d, sizeof d));

    /* one-shot hash */
    cr_assert_eq(hwc_streebog(512, in, 3, NULL), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_streebog(512, NULL, 1, d), HWC_ERR_NULL_POINTER);
    cr_assert(all_fill(d, sizeof d));
    cr_assert_eq(hwc_streebog(512, NULL, 0, d), HWC_OK);   /* empty message */
    cr_assert_eq(hwc_streebog(512, "", 0, want), HWC_OK);
    cr_assert(!memcmp(d, want, 64));

    /* HMAC */
    memset(d, FILL, sizeof d);
    cr_assert_eq(hwc_hmac_streebog(512, in, 3, in, 3, NULL), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_hmac_streebog(512, NULL, 3, in, 3, d), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_hmac_streebog(512, in, 3, NULL, 3, d), HWC_ERR_NULL_POINTER);
    cr_assert(all_fill(d, sizeof d));

    /* PBKDF2 */
    uint8_t out[70];
    memset(out, FILL, sizeof out);
    cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, in, 3, 0, out, 64), HWC_ERR_BAD_ARGUMENT);
    cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, in, 3, 1, NULL, 64), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_pbkdf2_streebog512(NULL, 3, in, 3, 1, out, 64), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, NULL, 3, 1, out, 64), HWC_ERR_NULL_POINTER);
    cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, in, 3, 1, out, 0), HWC_OK);
    cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, in, 3, 1, NULL, 0), HWC_OK);
    if (sizeof(size_t) > 4) {   /* RFC 8018 5.2 step 1: dkLen > (2^32 - 1) * 64 */
        size_t huge = (size_t)0xffffffffull * 64 + 1;
        cr_assert_eq(hwc_pbkdf2_streebog512(in, 3, in, 3, 1, out, huge), HWC_ERR_BAD_ARGUMENT);
    }
    cr_assert(all_fill(out, sizeof out), "PBKDF2 wrote output on error");
}
