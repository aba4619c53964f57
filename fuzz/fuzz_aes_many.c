/* Differential fuzzing of the many-message AES functions (batch.h): every
 * usable aes kernel against OpenSSL EVP, one message or data unit at a time.
 * The input chooses the function (hwc_cmac_many, hwc_aes_cbc_encrypt_many,
 * hwc_aes_xts_encrypt_sectors / _decrypt_sectors), the key, the number of
 * messages and their lengths, and the layout the kernels' lane paths look at
 * (docs/aes-batch.md): messages back to back from a page, one per 4 KiB
 * stride (every lane in one L1 set: staged or staggered steps), random gaps,
 * every message reading one buffer; in place or not; optionally one bad
 * element in the middle, which must leave every output untouched. Bytes
 * around the outputs are poisoned and must stay so. */
#include <stdint.h>
#include <openssl/evp.h>
#include "fuzz_openssl_cmac.h"

enum { MAX_N = 80, PAGE = 4096, CAP = 80 * (PAGE + 128), SLOT = CAP / MAX_N, POISON = 0xa5 };
enum { CMAC, CBC, XTS_E, XTS_D, OPS };
enum { PACKED, STRIDE, GAPS, SHARED, LAYOUTS };

typedef struct {
    int op, layout, in_place, bad;
    size_t kl, n, len[MAX_N], off[MAX_N], oo[MAX_N];   /* lengths, input and output offsets */
    uint64_t sector;
    size_t sector_size, bad_at;
    uint8_t key[64];
} job;

static _Alignas(PAGE) uint8_t src[CAP + PAGE], dst[CAP + PAGE], ref[CAP + PAGE];
static uint8_t ivs[16 * MAX_N], ref_ivs[16 * MAX_N], tags[16 * (MAX_N + 1)], ref_tags[16 * MAX_N];

static void openssl_cipher(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, uint8_t *out,
                           const uint8_t *in, size_t len) {
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int n1 = 0, n2 = 0;
    FZ_CHECK(x && EVP_CipherInit_ex(x, c, NULL, key, iv, enc) == 1, "EVP init");
    EVP_CIPHER_CTX_set_padding(x, 0);
    FZ_CHECK(EVP_CipherUpdate(x, out, &n1, in, (int)len) == 1 && EVP_CipherFinal_ex(x, out + n1, &n2) == 1 &&
             (size_t)(n1 + n2) == len, "EVP run");
    EVP_CIPHER_CTX_free(x);
}

/* A message length: empty, short, up to 1 KiB or up to a page and a bit
   (CBC: whole blocks); `same` repeats the first (every lane busy alike). */
static size_t read_len(fz_in *in, int op) {
    size_t v = fz_below(in, 65536), cls = v >> 14, bound[4] = {1, 65, 1025, PAGE + 65};
    size_t len = (v & 0x3fff) % bound[cls];
    return op == CBC ? len - len % 16 : len;
}

/* Where each message starts in src and its output in dst (and ref): the
   chosen layout, capped so that everything fits CAP (later messages are
   dropped). SHARED: every message reads src, the outputs a slot apart. */
static void place(fz_in *in, job *j) {
    size_t pos = 0, longest = 0, n = 0;
    for (size_t i = 0; i < j->n; i++) longest = j->len[i] > longest ? j->len[i] : longest;
    const size_t stride = (longest + PAGE - 1) / PAGE * PAGE + (longest ? 0 : PAGE);
    for (; n < j->n; n++) {
        size_t off = pos;
        switch (j->layout) {
        case STRIDE: off = n * stride; break;
        case GAPS: off = pos + fz_byte(in); break;
        case SHARED: off = 0; break;
        default: break;
        }
        if (off + j->len[n] > CAP) break;
        j->off[n] = off;
        j->oo[n] = j->layout == SHARED ? n * SLOT : off;
        pos = off + j->len[n];
    }
    j->n = n;
}

static void read_job(fz_in *in, job *j) {
    j->op = fz_byte(in) % OPS;
    uint8_t f = fz_byte(in);
    j->layout = f % LAYOUTS;
    j->in_place = (f >> 3) & 1;
    j->bad = ((f >> 4) & 7) == 0;   /* one input in eight */
    int same = (f >> 7) & 1;
    if (j->op >= XTS_E) {
        j->kl = fz_byte(in) & 1 ? 64 : 32;
        const size_t sizes[8] = {16, 512, 528, PAGE, 32, 4112, 8192, 0};
        j->sector_size = sizes[f & 7] ? sizes[f & 7] : 16 * (1 + fz_below(in, 600));
        size_t units = 1 + fz_below(in, 80);
        if (units * j->sector_size > CAP) units = CAP / j->sector_size;
        j->n = units;
        fz_bytes(in, &j->sector, sizeof j->sector);
        if (j->bad) j->sector = UINT64_MAX - fz_byte(in) % 100;   /* near the wrap */
    } else {
        j->kl = 16 + 8 * (fz_byte(in) % 3);
        j->n = fz_below(in, MAX_N + 1);
        j->bad_at = j->n ? fz_below(in, j->n) : 0;
        for (size_t i = 0; i < j->n; i++) j->len[i] = same && i ? j->len[0] : read_len(in, j->op);
        if (j->layout == SHARED && j->in_place) j->layout = PACKED;   /* outputs must not overlap */
        place(in, j);
        if (j->n) j->bad_at %= j->n;   /* place may drop messages */
    }
    fz_bytes(in, j->key, j->kl);
    if (j->op >= XTS_E && !memcmp(j->key, j->key + j->kl / 2, j->kl / 2)) j->key[0] ^= 1;   /* distinct halves */
    uint32_t s = 0x9e3779b9u;   /* data: the input's bytes over a xorshift stream */
    fz_bytes(in, &s, sizeof s);
    s |= 1;   /* never the all-zero state */
    for (size_t i = 0; i < CAP; i++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        src[i] = (uint8_t)s;
    }
    for (size_t i = 0; i < sizeof ivs; i++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        ivs[i] = (uint8_t)s;
    }
    fz_bytes(in, src, in->n < CAP ? in->n : CAP);
}

static void many_reference(const job *j) {
    const EVP_CIPHER *cbc[3] = {EVP_aes_128_cbc(), EVP_aes_192_cbc(), EVP_aes_256_cbc()};
    memcpy(ref_ivs, ivs, sizeof ivs);
    for (size_t i = 0; i < j->n; i++) {
        const uint8_t *m = src + j->off[i];
        if (j->op == CMAC) {
            openssl_cmac(j->key, j->kl, m, j->len[i], ref_tags + 16 * i);
        } else if (j->len[i]) {
            openssl_cipher(cbc[(j->kl - 16) / 8], 1, j->key, ivs + 16 * i, ref + j->oo[i], m, j->len[i]);
            memcpy(ref_ivs + 16 * i, ref + j->oo[i] + j->len[i] - 16, 16);
        }
    }
}

/* One kernel: the batch call, its outputs against the reference, and the
   poison around them; with a bad element, nothing written at all. */
static void many_check(const job *j, const char *kern) {
    const uint8_t *in[MAX_N];
    uint8_t *out[MAX_N];
    size_t len[MAX_N];
    uint8_t *base = j->in_place ? dst : src;
    memset(dst, POISON, sizeof dst);
    if (j->in_place) memcpy(dst, src, CAP);
    for (size_t i = 0; i < j->n; i++) {
        in[i] = base + j->off[i];
        out[i] = dst + j->oo[i];
        len[i] = j->len[i];
    }
    int want = HWC_OK;
    if (j->bad && j->n) {   /* a NULL input in the middle, or (CBC) a partial block */
        if (j->op == CBC && (j->bad_at & 1)) len[j->bad_at] |= 1, want = HWC_ERR_DATA_LENGTH;
        else in[j->bad_at] = NULL, len[j->bad_at] |= 16, want = HWC_ERR_NULL_POINTER;
    }
    uint8_t iv_work[sizeof ivs];
    memcpy(iv_work, ivs, sizeof ivs);
    memset(tags, POISON, sizeof tags);
    int rc;
    if (j->op == CMAC) {
        rc = hwc_cmac_many(j->key, j->kl, j->n, in, len, tags);
    } else {
        hwc_aes_key k;
        FZ_CHECK(hwc_aes_setkey(&k, j->key, j->kl) == HWC_OK, "setkey");
        rc = hwc_aes_cbc_encrypt_many(&k, j->n, iv_work, out, in, len);
        hwc_aes_key_wipe(&k);
    }
    FZ_CHECK(rc == want, "aes/%s op %d: rc %d, expected %d (n %zu, bad at %zu)", kern, j->op, rc, want, j->n,
             j->bad_at);
    if (rc != HWC_OK) {
        FZ_CHECK(!memcmp(iv_work, ivs, sizeof ivs), "aes/%s: IVs written on error", kern);
        for (size_t i = 0; i < sizeof tags; i++) FZ_CHECK(tags[i] == POISON, "aes/%s: tag written on error", kern);
        for (size_t i = 0; i < CAP; i++)
            FZ_CHECK(dst[i] == (j->in_place ? src[i] : POISON), "aes/%s: output written on error", kern);
        return;
    }
    if (j->op == CMAC) {
        FZ_CHECK(!memcmp(tags, ref_tags, 16 * j->n), "aes/%s cmac_many differs from OpenSSL: n %zu, layout %d",
                 kern, j->n, j->layout);
        for (size_t i = 16 * j->n; i < sizeof tags; i++) FZ_CHECK(tags[i] == POISON, "aes/%s: tags overrun", kern);
        return;
    }
    for (size_t i = 0; i < j->n; i++)
        FZ_CHECK(!memcmp(out[i], ref + j->oo[i], len[i]) && !memcmp(iv_work + 16 * i, ref_ivs + 16 * i, 16),
                 "aes/%s cbc_encrypt_many differs from OpenSSL: message %zu of %zu, len %zu, layout %d, in place %d",
                 kern, i, j->n, len[i], j->layout, j->in_place);
    FZ_CHECK(!memcmp(iv_work + 16 * j->n, ivs + 16 * j->n, sizeof ivs - 16 * j->n), "aes/%s: IVs overrun", kern);
    if (j->layout != SHARED && !j->in_place) {   /* nothing between or after the outputs */
        size_t pos = 0;
        for (size_t i = 0; i <= j->n; i++) {
            size_t end = i < j->n ? j->off[i] : CAP;
            for (; pos < end; pos++) FZ_CHECK(dst[pos] == POISON, "aes/%s: byte %zu written", kern, pos);
            if (i < j->n && j->off[i] + j->len[i] > pos) pos = j->off[i] + j->len[i];
        }
    }
}

/* XTS: OpenSSL per data unit, tweak = the sector number little-endian. */
static void xts_reference(const job *j) {
    const EVP_CIPHER *c = j->kl == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    for (size_t u = 0; u < j->n; u++) {
        uint8_t tw[16] = {0};
        for (int b = 0; b < 8; b++) tw[b] = (uint8_t)((j->sector + u) >> (8 * b));
        openssl_cipher(c, j->op == XTS_E, j->key, tw, ref + u * j->sector_size, src + u * j->sector_size,
                       j->sector_size);
    }
}

static void xts_check(const job *j, const char *kern) {
    const size_t len = j->n * j->sector_size, off = j->in_place ? 0 : j->sector % 61;   /* misaligned */
    memset(dst, POISON, sizeof dst);
    uint8_t *out = dst + off;
    const uint8_t *in = src;
    if (j->in_place) memcpy(dst, src, len), in = dst;
    hwc_aes_xts_key k;
    FZ_CHECK(hwc_aes_xts_setkey(&k, j->key, j->kl) == HWC_OK, "xts setkey");
    const int wraps = j->n - 1 > UINT64_MAX - j->sector;
    int rc = j->op == XTS_E ? hwc_aes_xts_encrypt_sectors(&k, j->sector, j->sector_size, out, in, len)
                            : hwc_aes_xts_decrypt_sectors(&k, j->sector, j->sector_size, out, in, len);
    FZ_CHECK(rc == (wraps ? HWC_ERR_BAD_ARGUMENT : HWC_OK), "aes/%s xts sectors rc %d (sector %llu, %zu units)",
             kern, rc, (unsigned long long)j->sector, j->n);
    if (wraps) {
        for (size_t i = 0; i < len; i++)
            FZ_CHECK(out[i] == (j->in_place ? src[i] : POISON), "aes/%s: written on the wrap error", kern);
        return;
    }
    FZ_CHECK(!memcmp(out, ref, len), "aes/%s xts sectors differ from OpenSSL: op %d, sector size %zu, %zu units",
             kern, j->op, j->sector_size, j->n);
    for (size_t i = 0; i < off; i++) FZ_CHECK(dst[i] == POISON, "aes/%s: written before the output", kern);
    for (size_t i = off + len; i < sizeof dst; i++) FZ_CHECK(dst[i] == POISON, "aes/%s: written past it", kern);
}

static fz_kernels kernels;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kernels.n) fz_usable("aes", &kernels);
    static job j;
    memset(&j, 0, sizeof j);
    fz_in in = {data, size};
    read_job(&in, &j);
    const int xts = j.op >= XTS_E;
    if (xts && !(j.n - 1 > UINT64_MAX - j.sector)) xts_reference(&j);
    if (!xts) many_reference(&j);
    for (size_t i = kernels.n; i-- > 0;) {   /* generic first */
        fz_select("aes", kernels.name[i]);
        if (xts) xts_check(&j, kernels.name[i]);
        else many_check(&j, kernels.name[i]);
    }
    return 0;
}
