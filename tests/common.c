/* Shared test helpers (see common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "test_skip.h"
#include "dispatch/cpu.h"
#include "dispatch/registry.h"

size_t hwc_test_usable_kernels(const char *family, const char **names, size_t max) {
    hwc_kernel_info info[32];
    size_t n = hwc_kernels(family, info, 32), got = 0;
    for (size_t i = 0; i < n && i < 32; i++)
        if (info[i].usable && got < max) names[got++] = info[i].name;
    return got;
}

int hwc_test_each_kernel(const char *family, hwc_kernel_fn fn, void *arg) {
    hwc_kernel_info info[32];
    size_t n = hwc_kernels(family, info, 32);
    cr_assert(n > 0 && n <= 32, "family %s has %zu kernels", family, n);
    char ran[512] = "", skipped[512] = "";
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!info[i].usable) {
            size_t u = strlen(skipped);
            snprintf(skipped + u, sizeof skipped - u, "%s%s (needs %s)", u ? ", " : "",
                     info[i].name, info[i].requires);
            continue;
        }
        if (hwc_test_skipped(family, info[i].name)) {
            size_t u = strlen(skipped);
            snprintf(skipped + u, sizeof skipped - u, "%s%s (HWC_TEST_SKIP: %s)", u ? ", " : "",
                     info[i].name, getenv("HWC_TEST_SKIP_WHY") ? getenv("HWC_TEST_SKIP_WHY") : "no reason given");
            continue;
        }
        cr_assert_eq(hwc_kernel_select(family, info[i].name), HWC_OK, "select %s/%s", family,
                     info[i].name);
        cr_assert_str_eq(hwc_kernel_active(family), info[i].name);
        fn(info[i].name, arg);
        size_t u = strlen(ran);
        snprintf(ran + u, sizeof ran - u, "%s%s", u ? ", " : "", info[i].name);
        count++;
    }
    cr_assert_eq(hwc_kernel_select(family, NULL), HWC_OK);
    fprintf(stderr, "[%s] ran: %s; not run here: %s\n", family, ran, skipped[0] ? skipped : "none");
    cr_assert(count > 0, "no usable %s kernel ran", family);
    return count;
}

uint64_t hwc_test_seed(void) {
    const char *s = getenv("HWC_TEST_SEED");
    if (s && *s) return strtoull(s, NULL, 0);
    return 0x5EED2026ull;
}

int hwc_test_quick(void) {
    const char *q = getenv("HWC_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

void hwc_rng_init(hwc_rng *r, uint64_t seed) { r->s = seed; }

uint64_t hwc_rng_next(hwc_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void hwc_rng_fill(hwc_rng *r, void *buf, size_t len) {
    uint8_t *p = buf;
    while (len) {
        uint64_t v = hwc_rng_next(r);
        size_t k = len < 8 ? len : 8;
        memcpy(p, &v, k);
        p += k;
        len -= k;
    }
}

size_t hwc_rng_below(hwc_rng *r, size_t bound) { return (size_t)(hwc_rng_next(r) % bound); }

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t hwc_hex(const char *hex, uint8_t *out, size_t max) {
    size_t n = 0;
    int hi = -1;
    for (; *hex; hex++) {
        if (*hex == ' ' || *hex == '\n' || *hex == '\t') continue;
        int v = hexval(*hex);
        cr_assert(v >= 0, "bad hex digit '%c'", *hex);
        if (hi < 0) {
            hi = v;
        } else {
            cr_assert(n < max, "hex longer than %zu bytes", max);
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    cr_assert(hi < 0, "odd number of hex digits");
    return n;
}

const char *hwc_tohex(const void *p, size_t len) {
    static char bufs[4][2 * 1024 + 1];
    static int which;
    char *b = bufs[which++ & 3];
    const uint8_t *q = p;
    if (len > 1024) len = 1024;
    for (size_t i = 0; i < len; i++) sprintf(b + 2 * i, "%02x", q[i]);
    b[2 * len] = '\0';
    return b;
}

void hwc_guarded_alloc(hwc_guarded *g, size_t len, size_t misalign) {
    g->block = malloc(len + 128 + 64);
    cr_assert(g->block != NULL);
    memset(g->block, HWC_POISON, len + 128 + 64);
    g->p = g->block + 64 + (misalign & 63);
    g->len = len;
}

int hwc_guarded_intact(const hwc_guarded *g) {
    for (uint8_t *q = g->block; q < g->p; q++)
        if (*q != HWC_POISON) return 0;
    for (size_t i = 0; i < 64; i++)
        if (g->p[g->len + i] != HWC_POISON) return 0;
    return 1;
}

void hwc_guarded_free(hwc_guarded *g) {
    free(g->block);
    g->block = g->p = NULL;
}

int hwc_all_bytes(const void *p, size_t n, uint8_t v) {
    const uint8_t *q = p;
    for (size_t i = 0; i < n; i++)
        if (q[i] != v) return 0;
    return 1;
}

int hwc_test_kernel_tables(const char *family, const char *name, const void *t[2]) {
    const int fam = hwc_family_index(family), i = fam < 0 ? -1 : hwc_kernel_index(fam, name);
    cr_assert(i >= 0 && hwc_registry[i].impl, "kernel %s/%s is not in this build", family, name);
    const hwc_registry_entry *e = &hwc_registry[i];
    hwc_cpu cpu;
    hwc_cpu_detect(&cpu);
    const uint64_t isa = e->variant_needs & ~(uint64_t)HWC_T_ALL;
    t[0] = e->impl;
    if (!e->variant || e->variant == e->impl || (cpu.features & isa) != isa) return 1;
    t[1] = e->variant;
    return 2;
}
