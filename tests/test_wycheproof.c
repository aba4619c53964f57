/* Wycheproof vectors (tests/data/wycheproof/, see the README there) on every
 * usable aes kernel: AES-XTS, AES-CMAC, AES-GCM and AES-CBC with PKCS#7
 * padding applied and stripped here (hwcrypt's CBC is raw whole blocks). Every vector of each
 * file is read; the count is checked against the file's numberOfTests.
 * Built again with HWC_TEST_AES_FALLBACK (test_wycheproof_gcm_fallback, run
 * with --filter wycheproof/aes_gcm): the GCM vectors on keys bound to
 * ECB-only tables (aes_suite_keys.h), core/gcm.c's path without GCM slots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "aes_suite_keys.h"

#ifndef HWC_WYCHEPROOF_DIR
#error "HWC_WYCHEPROOF_DIR must name tests/data/wycheproof"
#endif

/* ---- a reader for the Wycheproof layout ------------------------------------
   Not a general JSON parser: it walks the "name": value pairs in file order.
   Group attributes (keySize, ivSize, tagSize) come before their "tests"; in a
   test, "tcId" comes first and "result" last. Only prose strings have
   escapes (the hex fields never do: unhex would fail on one). */
typedef struct { const char *p; size_t n; } wp_str;
typedef struct {
    long key_bits, iv_bits, tag_bits, tc_id;
    wp_str key, iv, aad, msg, ct, tag;
    int valid;
} wp_case;
typedef void (*wp_fn)(const wp_case *c, void *arg);

static char *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", HWC_WYCHEPROOF_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    cr_assert(text && fread(text, 1, (size_t)size, f) == (size_t)size, "cannot read %s", path);
    text[size] = '\0';
    fclose(f);
    return text;
}

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t') s++;
    return s;
}

/* s at an opening quote: the string's body into *out (escapes left as they
   are: only prose has them), returns past the close. */
static const char *read_str(const char *s, wp_str *out) {
    const char *e = s + 1;
    while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
    cr_assert(*e == '"', "unterminated string");
    out->p = s + 1;
    out->n = (size_t)(e - s - 1);
    return e + 1;
}

static int is(const wp_str *s, const char *name) {
    return s->n == strlen(name) && memcmp(s->p, name, s->n) == 0;
}

/* Calls fn for every test of the file; returns the number of tests. */
static long wp_each(const char *file, wp_fn fn, void *arg) {
    char *text = load(file);
    wp_case c;
    memset(&c, 0, sizeof c);
    long count = 0, declared = -1;
    const char *s = text;
    while ((s = strchr(s, '"'))) {
        wp_str name, val;
        s = skip_ws(read_str(s, &name));
        if (*s != ':') continue;                  /* a string in an array */
        s = skip_ws(s + 1);
        if (*s == '"') {
            s = read_str(s, &val);
            wp_str *field = is(&name, "key") ? &c.key : is(&name, "iv") ? &c.iv
                          : is(&name, "aad") ? &c.aad : is(&name, "msg") ? &c.msg
                          : is(&name, "ct") ? &c.ct : is(&name, "tag") ? &c.tag : NULL;
            if (field) *field = val;
            if (is(&name, "result")) {
                cr_assert(c.tc_id > 0, "%s: result outside a test", file);
                c.valid = strncmp(val.p, "valid", 5) == 0 && val.n == 5;
                fn(&c, arg);
                count++;
            }
        } else if ((*s >= '0' && *s <= '9') || *s == '-') {
            long v = strtol(s, (char **)&s, 10);
            if (is(&name, "keySize")) c.key_bits = v;
            else if (is(&name, "ivSize")) c.iv_bits = v;
            else if (is(&name, "tagSize")) c.tag_bits = v;
            else if (is(&name, "numberOfTests")) declared = v;
            else if (is(&name, "tcId")) {
                wp_case next = {c.key_bits, c.iv_bits, c.tag_bits, v, {0}, {0}, {0}, {0}, {0}, {0}, 0};
                c = next;
            }
        }
    }
    free(text);
    cr_assert_eq(count, declared, "%s: read %ld tests, the file declares %ld", file, count, declared);
    return count;
}

/* Hex of a field into a fresh buffer (at least 1 byte allocated); *len = bytes. */
static uint8_t *unhex(const wp_str *s, size_t *len) {
    char *hex = malloc(s->n + 1);
    uint8_t *out = malloc(s->n / 2 + 16);
    cr_assert(hex && out);
    memcpy(hex, s->p, s->n);
    hex[s->n] = '\0';
    *len = hwc_hex(hex, out, s->n / 2 + 16);
    free(hex);
    return out;
}

typedef struct { const char *kernel; long run, refused, invalid; } tally;

/* ---- AES-XTS -------------------------------------------------------------- */
static void xts_case(const wp_case *c, void *arg) {
    tally *t = arg;
    size_t kl, il, ml, cl;
    uint8_t *key = unhex(&c->key, &kl), *iv = unhex(&c->iv, &il);
    uint8_t *msg = unhex(&c->msg, &ml), *ct = unhex(&c->ct, &cl);
    cr_assert(c->valid && kl * 8 == (size_t)c->key_bits && il <= 16 && ml == cl);
    hwc_aes_xts_key k;
    if (kl == 48) {   /* AES-192-XTS: not in IEEE 1619 */
        cr_assert_eq(hwc_aes_xts_setkey(&k, key, kl), HWC_ERR_KEY_LENGTH, "[%s] tcId %ld",
                     t->kernel, c->tc_id);
        t->refused++;
    } else {
        uint8_t tweak[16] = {0}, *buf = malloc(ml);
        memcpy(tweak, iv, il);    /* zero-padded on the right */
        cr_assert_eq(hwc_aes_xts_setkey(&k, key, kl), HWC_OK, "[%s] tcId %ld", t->kernel, c->tc_id);
        cr_assert_eq(hwc_aes_xts_encrypt(&k, tweak, buf, msg, ml), HWC_OK);
        cr_assert_arr_eq(buf, ct, ml, "[%s] XTS tcId %ld encrypt: %s", t->kernel, c->tc_id,
                         hwc_tohex(buf, ml));
        cr_assert_eq(hwc_aes_xts_decrypt(&k, tweak, buf, buf, ml), HWC_OK);   /* in place */
        cr_assert_arr_eq(buf, msg, ml, "[%s] XTS tcId %ld decrypt", t->kernel, c->tc_id);
        free(buf);
        t->run++;
    }
    free(key), free(iv), free(msg), free(ct);
}

static void xts_kernel(const char *kernel, void *arg) {
    tally t = {kernel, 0, 0, 0};
    long n = wp_each("aes_xts_test.json", xts_case, &t);
    cr_assert_eq(t.run + t.refused, n);
    cr_assert(t.run > 0 && t.refused > 0);
    *(long *)arg += t.run;
}

Test(wycheproof, aes_xts) {
    long run = 0;
    int kernels = hwc_test_each_kernel("aes", xts_kernel, &run);
    fprintf(stderr, "[wycheproof] aes_xts_test.json: %ld vectors on %d kernels "
                    "(AES-192-XTS refused)\n", run / kernels, kernels);
}

/* ---- AES-CMAC ------------------------------------------------------------- */
static void cmac_case(const wp_case *c, void *arg) {
    tally *t = arg;
    size_t kl, ml, tl;
    uint8_t *key = unhex(&c->key, &kl), *msg = unhex(&c->msg, &ml), *tag = unhex(&c->tag, &tl);
    uint8_t out[16];
    if (kl != 16 && kl != 24 && kl != 32) {
        cr_assert(!c->valid);
        cr_assert_eq(hwc_cmac(key, kl, msg, ml, out), HWC_ERR_KEY_LENGTH, "tcId %ld", c->tc_id);
        cr_assert_eq(hwc_cmac_verify(key, kl, msg, ml, tag, tl), HWC_ERR_KEY_LENGTH);
        t->refused++;
    } else if (c->valid) {
        cr_assert_eq(tl, 16);
        cr_assert_eq(hwc_cmac(key, kl, msg, ml, out), HWC_OK);
        cr_assert_arr_eq(out, tag, 16, "[%s] CMAC tcId %ld: %s", t->kernel, c->tc_id,
                         hwc_tohex(out, 16));
        hwc_cmac_ctx ctx;   /* streamed in two pieces */
        cr_assert_eq(hwc_cmac_init(&ctx, key, kl), HWC_OK);
        cr_assert_eq(hwc_cmac_update(&ctx, msg, ml / 3), HWC_OK);
        cr_assert_eq(hwc_cmac_update(&ctx, msg + ml / 3, ml - ml / 3), HWC_OK);
        cr_assert_eq(hwc_cmac_final(&ctx, out), HWC_OK);
        cr_assert_arr_eq(out, tag, 16, "[%s] CMAC tcId %ld streamed", t->kernel, c->tc_id);
        cr_assert_eq(hwc_cmac_verify(key, kl, msg, ml, tag, tl), HWC_OK, "tcId %ld", c->tc_id);
        t->run++;
    } else {
        int want = tl >= 4 && tl <= 16 ? HWC_ERR_AUTH_FAILED : HWC_ERR_BAD_ARGUMENT;
        cr_assert_eq(hwc_cmac_verify(key, kl, msg, ml, tag, tl), want, "[%s] CMAC tcId %ld",
                     t->kernel, c->tc_id);
        t->invalid++;
    }
    free(key), free(msg), free(tag);
}

static void cmac_kernel(const char *kernel, void *arg) {
    tally t = {kernel, 0, 0, 0};
    long n = wp_each("aes_cmac_test.json", cmac_case, &t);
    cr_assert_eq(t.run + t.refused + t.invalid, n);
    cr_assert(t.run > 0 && t.invalid > 0 && t.refused > 0);
    *(long *)arg += n;
}

Test(wycheproof, aes_cmac) {
    long n = 0;
    int kernels = hwc_test_each_kernel("aes", cmac_kernel, &n);
    fprintf(stderr, "[wycheproof] aes_cmac_test.json: %ld vectors on %d kernels\n", n / kernels,
            kernels);
}

/* ---- AES-CBC with PKCS#7 (RFC 5652 section 6.3) ----------------------------- */
/* Padded length of a valid plaintext; 0 when the padding is bad. */
static size_t pkcs7_unpad(const uint8_t *p, size_t len) {
    if (len == 0 || len % 16) return 0;
    uint8_t pad = p[len - 1];
    if (pad == 0 || pad > 16) return 0;
    for (size_t i = len - pad; i < len; i++)
        if (p[i] != pad) return 0;
    return len - pad + 1;   /* +1 so that an empty plaintext is not "bad" */
}

static void cbc_case(const wp_case *c, void *arg) {
    tally *t = arg;
    size_t kl, il, ml, cl;
    uint8_t *key = unhex(&c->key, &kl), *iv = unhex(&c->iv, &il);
    uint8_t *msg = unhex(&c->msg, &ml), *ct = unhex(&c->ct, &cl);
    uint8_t ivc[16];
    hwc_aes_key k;
    cr_assert_eq(il, 16);
    cr_assert_eq(hwc_aes_setkey(&k, key, kl), HWC_OK);
    uint8_t *buf = malloc(cl + ml + 16);
    if (c->valid) {
        size_t pl = (ml / 16 + 1) * 16;
        memcpy(buf, msg, ml);
        memset(buf + ml, (int)(pl - ml), pl - ml);
        memcpy(ivc, iv, 16);
        cr_assert_eq(hwc_aes_cbc_encrypt(&k, ivc, buf, buf, pl), HWC_OK);
        cr_assert(pl == cl && memcmp(buf, ct, cl) == 0, "[%s] CBC tcId %ld encrypt: %s",
                  t->kernel, c->tc_id, hwc_tohex(buf, pl));
        cr_assert_arr_eq(ivc, ct + cl - 16, 16, "iv left at the last ciphertext block");
        memcpy(ivc, iv, 16);
        cr_assert_eq(hwc_aes_cbc_decrypt(&k, ivc, buf, ct, cl), HWC_OK);
        cr_assert_eq(pkcs7_unpad(buf, cl), ml + 1, "[%s] CBC tcId %ld padding", t->kernel, c->tc_id);
        cr_assert_arr_eq(buf, msg, ml, "[%s] CBC tcId %ld decrypt", t->kernel, c->tc_id);
        t->run++;
    } else {   /* bad padding once decrypted, or not whole blocks */
        memcpy(ivc, iv, 16);
        int rc = hwc_aes_cbc_decrypt(&k, ivc, buf, cl ? ct : NULL, cl);
        cr_assert_eq(rc, cl % 16 ? HWC_ERR_DATA_LENGTH : HWC_OK);
        cr_assert(rc != HWC_OK || pkcs7_unpad(buf, cl) == 0, "[%s] CBC tcId %ld: padding accepted",
                  t->kernel, c->tc_id);
        t->invalid++;
    }
    free(buf), free(key), free(iv), free(msg), free(ct);
}

static void cbc_kernel(const char *kernel, void *arg) {
    tally t = {kernel, 0, 0, 0};
    long n = wp_each("aes_cbc_pkcs5_test.json", cbc_case, &t);
    cr_assert(t.run > 0 && t.invalid > 0 && t.run + t.invalid == n);
    *(long *)arg += n;
}

Test(wycheproof, aes_cbc_pkcs5) {
    long n = 0;
    int kernels = hwc_test_each_kernel("aes", cbc_kernel, &n);
    fprintf(stderr, "[wycheproof] aes_cbc_pkcs5_test.json: %ld vectors on %d kernels\n",
            n / kernels, kernels);
}

/* ---- AES-GCM (SP 800-38D) ---------------------------------------------------- */
static void gcm_case(const wp_case *c, void *arg) {
    tally *t = arg;
    size_t kl, il, al, ml, cl, tl;
    uint8_t *key = unhex(&c->key, &kl), *iv = unhex(&c->iv, &il), *aad = unhex(&c->aad, &al);
    uint8_t *msg = unhex(&c->msg, &ml), *ct = unhex(&c->ct, &cl), *tag = unhex(&c->tag, &tl);
    uint8_t *buf = malloc(ml + cl + 1), out_tag[16];
    hwc_aes_gcm_key k;
    cr_assert(kl * 8 == (size_t)c->key_bits && tl * 8 == (size_t)c->tag_bits && ml == cl);
    cr_assert_eq(SUITE_GCM_SETKEY(&k, key, kl), HWC_OK);
    if (il == 0) {   /* SP 800-38D: the IV has at least one bit */
        cr_assert(!c->valid);
        cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, 0, aad, al, buf, msg, ml, out_tag, tl),
                     HWC_ERR_BAD_ARGUMENT, "[%s] GCM tcId %ld", t->kernel, c->tc_id);
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, 0, aad, al, buf, ct, cl, tag, tl),
                     HWC_ERR_BAD_ARGUMENT);
        t->refused++;
    } else if (c->valid) {
        cr_assert_eq(hwc_aes_gcm_encrypt(&k, iv, il, aad, al, buf, msg, ml, out_tag, tl), HWC_OK);
        cr_assert_arr_eq(buf, ct, ml, "[%s] GCM tcId %ld ciphertext: %s", t->kernel, c->tc_id,
                         hwc_tohex(buf, ml));
        cr_assert_arr_eq(out_tag, tag, tl, "[%s] GCM tcId %ld tag: %s", t->kernel, c->tc_id,
                         hwc_tohex(out_tag, tl));
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, il, aad, al, buf, buf, cl, tag, tl), HWC_OK,
                     "[%s] GCM tcId %ld decrypt", t->kernel, c->tc_id);   /* in place */
        cr_assert_arr_eq(buf, msg, ml, "[%s] GCM tcId %ld plaintext", t->kernel, c->tc_id);
        t->run++;
    } else {   /* altered tag: nothing released */
        memset(buf, 0xa5, cl + 1);
        cr_assert_eq(hwc_aes_gcm_decrypt(&k, iv, il, aad, al, buf, ct, cl, tag, tl),
                     HWC_ERR_AUTH_FAILED, "[%s] GCM tcId %ld accepted", t->kernel, c->tc_id);
        for (size_t i = 0; i < cl; i++) cr_assert_eq(buf[i], 0, "[%s] GCM tcId %ld released", t->kernel, c->tc_id);
        cr_assert_eq(buf[cl], 0xa5, "written past the message");
        t->invalid++;
    }
    hwc_wipe(&k, sizeof k);
    free(buf), free(key), free(iv), free(aad), free(msg), free(ct), free(tag);
}

static void gcm_kernel(const char *kernel, void *arg) {
    tally t = {kernel, 0, 0, 0};
    long n = wp_each("aes_gcm_test.json", gcm_case, &t);
    cr_assert(t.run > 0 && t.invalid > 0 && t.refused > 0 && t.run + t.invalid + t.refused == n);
    *(long *)arg += n;
}

Test(wycheproof, aes_gcm) {
    long n = 0;
    int kernels = hwc_test_each_kernel("aes", gcm_kernel, &n);
    fprintf(stderr, "[wycheproof] aes_gcm_test.json: %ld vectors on %d kernels\n", n / kernels,
            kernels);
}
