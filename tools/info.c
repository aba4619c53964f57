/* hwcrypt info: what this CPU offers and which kernel each family runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/hwcrypt.h"
#include "dispatch/state.h"
#include "cli.h"

/* Features a kernel needs that this CPU/OS lacks, as names. */
static void missing_features(const hwc_dispatch_state *st, const char *family, const char *name,
                             char *buf, size_t size) {
    buf[0] = '\0';
    for (size_t i = 0; i < hwc_registry_len; i++) {
        const hwc_registry_entry *e = &hwc_registry[i];
        if (strcmp(hwc_family_names[e->family], family) || strcmp(e->name, name)) continue;
        hwc_feature_names(e->needs & ~st->cpu.features, buf, size);
    }
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no
   surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s) {
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        if (s[0] == 0xe0) lo = 0xa0;
        if (s[0] == 0xed) hi = 0x9f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        if (s[0] == 0xf0) lo = 0x90;
        if (s[0] == 0xf4) hi = 0x8f;
    } else return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

/* A JSON string (RFC 8259) of any bytes: valid UTF-8 is kept, control
   characters are \u escapes, each byte of an invalid sequence is U+FFFD. */
static void json_str(const char *str) {
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    putchar('"');
    while (*s) {
        size_t n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", stdout);
            s++;
        } else if (*s == '"' || *s == '\\') {
            printf("\\%c", *s++);
        } else if (*s < 0x20 || *s == 0x7f) {
            printf("\\u%04x", *s++);
        } else {
            fwrite(s, 1, n, stdout);
            s += n;
        }
    }
    putchar('"');
}

int hwc_cmd_info(int argc, char **argv) {
    int json = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else {
            fprintf(stderr, "hwcrypt info: unknown option '%s' (only --json)\n", argv[i]);
            return 2;
        }
    }
    int init = hwc_init();
    const hwc_dispatch_state *st = hwc_dispatch_state_get();
    const char *env = getenv("HWCRYPT_KERNEL");
    if (json) {
        printf("{\"version\":");
        json_str(hwc_version());
        printf(",\"cpu\":");
        json_str(st->cpu.brand);
        printf(",\"microarchitecture\":");
        json_str(st->cpu.uarch);
        printf(",\"features\":");
        json_str(hwc_cpu_features());
        printf(",\"zmm_slows_core\":%s,\"HWCRYPT_KERNEL\":", st->cpu.zmm_slows_core ? "true" : "false");
        if (env) json_str(env);
        else printf("null");
        printf(",\"init_status\":%d,\"init_error\":", init);
        if (init) json_str(hwc_strerror(init));
        else printf("null");
        printf(",\"families\":{");
    } else {
        printf("hwcrypt %s\n", hwc_version());
        printf("cpu:       %s (%s)\n", st->cpu.brand, st->cpu.uarch);
        printf("features:  %s\n", hwc_cpu_features()[0] ? hwc_cpu_features() : "(none hwcrypt uses)");
        if (st->cpu.zmm_slows_core)
            printf("policy:    512-bit kernels ranked below 256-bit ones (zmm lowers this core's clock)\n");
        printf("HWCRYPT_KERNEL: %s\n", env ? env : "(unset)");
        if (init) printf("HWCRYPT_KERNEL error: %s (see the lines above on stderr)\n", hwc_strerror(init));
    }
    for (size_t f = 0; hwc_families()[f]; f++) {
        hwc_kernel_info k[32];
        size_t n = hwc_kernels(hwc_families()[f], k, 32);
        const char *active = hwc_kernel_active(hwc_families()[f]);
        const char *reason = hwc_kernel_reason(hwc_families()[f]);
        if (json) {
            printf("%s\"%s\":{\"active\":", f ? "," : "", hwc_families()[f]);
            json_str(active);
            printf(",\"reason\":");
            json_str(reason);
            printf(",\"kernels\":[");
        } else {
            printf("\n%s: active %s (%s)\n", hwc_families()[f], active, reason);
            printf("  %-12s %8s  %-8s %s\n", "kernel", "priority", "usable", "requires / missing");
        }
        for (size_t i = 0; i < n && i < 32; i++) {
            char miss[256];
            missing_features(st, hwc_families()[f], k[i].name, miss, sizeof miss);
            int is_active = !strcmp(k[i].name, active);
            if (json) {
                printf("%s{\"name\":", i ? "," : "");
                json_str(k[i].name);
                printf(",\"priority\":%d,\"usable\":%s,\"active\":%s,\"requires\":", k[i].priority,
                       k[i].usable ? "true" : "false", is_active ? "true" : "false");
                json_str(k[i].requires);
                printf(",\"missing\":");
                json_str(miss);
                printf("}");
            } else {
                char req[300];
                if (k[i].usable)
                    snprintf(req, sizeof req, "%s", k[i].requires[0] ? k[i].requires : "-");
                else
                    snprintf(req, sizeof req, "%s; missing: %s", k[i].requires, miss);
                printf("%s %-12s %8d  %-8s %s\n", is_active ? "*" : " ", k[i].name, k[i].priority,
                       k[i].usable ? "yes" : "no", req);
            }
        }
        if (json) printf("]}");
    }
    if (json) printf("}}\n");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hwcrypt: write error\n");
        return 1;
    }
    return 0;
}
