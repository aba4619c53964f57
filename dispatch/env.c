/* HWCRYPT_KERNEL: "family=kernel", "kernel" (every family that has it) and
 * "-kernel" (never automatic), comma-separated, read once at init. The value
 * may be of any length: it is read item by item, in place. A bad item is
 * skipped with one line on stderr naming the choices; the rest still apply. */
#include <string.h>
#include "hwcrypt/status.h"
#include "dispatch/state.h"

/* A piece of the value: not NUL-terminated. */
typedef struct { const char *p; size_t n; } span;

static span trim(span s) {
    while (s.n && (s.p[0] == ' ' || s.p[0] == '\t')) s.p++, s.n--;
    while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t')) s.n--;
    return s;
}

/* The span as a C string for lookups and messages; longer names than any
   kernel or family are cut (they match nothing either way) and marked. */
static const char *cstr(span s, char *buf, size_t size) {
    if (s.n < size) {
        memcpy(buf, s.p, s.n);
        buf[s.n] = '\0';
    } else {
        memcpy(buf, s.p, size - 4);
        memcpy(buf + size - 4, "...", 4);
    }
    return buf;
}

static void report(FILE *err, const char *item, const char *what, const char *choices) {
    if (err) fprintf(err, "hwcrypt: HWCRYPT_KERNEL item '%s' ignored: %s (choices: %s)\n",
                     item, what, choices);
}

static int first_error(int current, int e) { return current != HWC_OK ? current : e; }

/* Comma-separated usable kernels of fam, best first. */
static void usable_names(const hwc_dispatch_state *st, int fam, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < st->count[fam]; j++) {
        int i = st->order[fam][j];
        if (!st->usable[i]) continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", hwc_registry[i].name);
        if (w < 0 || (size_t)w >= size - used) break;
        used += (size_t)w;
    }
}

/* family=kernel */
static int apply_pair(hwc_dispatch_state *st, const char *item, const char *fam_name,
                      const char *kname, FILE *err) {
    char choices[256], what[160];
    int fam = hwc_family_index(fam_name);
    if (fam < 0) {
        size_t used = 0;
        choices[0] = '\0';
        for (int f = 0; f < HWC_NFAM; f++)
            used += (size_t)snprintf(choices + used, sizeof choices - used, "%s%s", f ? ", " : "",
                                     hwc_family_names[f]);
        report(err, item, "unknown family", choices);
        return HWC_ERR_UNKNOWN_FAMILY;
    }
    usable_names(st, fam, choices, sizeof choices);
    int idx = hwc_kernel_index(fam, kname);
    if (idx < 0 || !hwc_registry[idx].impl) {
        snprintf(what, sizeof what, idx >= 0 ? "kernel '%s' is not compiled into this build"
                                             : "unknown kernel '%s'", kname);
        report(err, item, what, choices);
        return idx >= 0 ? HWC_ERR_KERNEL_UNAVAILABLE : HWC_ERR_UNKNOWN_KERNEL;
    }
    if (!st->usable[idx]) {
        snprintf(what, sizeof what, "this CPU/OS cannot run kernel '%s'", kname);
        report(err, item, what, choices);
        return HWC_ERR_KERNEL_UNAVAILABLE;
    }
    st->forced[fam] = idx;
    return HWC_OK;
}

/* One line naming the kernels this build has; returns `status`. */
static int report_names(FILE *err, const char *item, const char *what, int status) {
    char names[256];
    hwc_kernel_names(names, sizeof names);
    report(err, item, what, names);
    return status;
}

/* kernel: every family that has a kernel of that name; one line for the item
   naming the families where it could not be used. */
static int apply_name(hwc_dispatch_state *st, const char *item, const char *kname, FILE *err) {
    int rc = HWC_OK, applied = 0;
    char failed[128] = "";
    if (!hwc_kernel_name_known(kname))
        return report_names(err, item, "no family has a kernel of that name", HWC_ERR_UNKNOWN_KERNEL);
    for (int fam = 0; fam < HWC_NFAM; fam++) {
        int idx = hwc_kernel_index(fam, kname);
        if (idx < 0 || !hwc_registry[idx].impl) continue;
        int e = apply_pair(st, item, hwc_family_names[fam], kname, NULL);
        if (e == HWC_OK) {
            applied = 1;
        } else {   /* compiled in but this CPU cannot run it */
            size_t used = strlen(failed);
            snprintf(failed + used, sizeof failed - used, "%s%s", used ? ", " : "",
                     hwc_family_names[fam]);
            rc = first_error(rc, e);
        }
    }
    if (!applied && !failed[0])
        return report_names(err, item, "kernel is not compiled into this build", HWC_ERR_KERNEL_UNAVAILABLE);
    if (failed[0]) {
        char what[200];
        snprintf(what, sizeof what, "this CPU/OS cannot run it for %s", failed);
        report(err, item, what, "see 'hwcrypt info'");
    }
    return rc;
}

/* -kernel: excluded from automatic choice. Not compiled in is fine. */
static int apply_exclusion(hwc_dispatch_state *st, const char *item, const char *kname, FILE *err) {
    if (!hwc_kernel_name_known(kname))
        return report_names(err, item, "no family has a kernel of that name", HWC_ERR_UNKNOWN_KERNEL);
    for (int fam = 0; fam < HWC_NFAM; fam++) {
        int idx = hwc_kernel_index(fam, kname);
        if (idx >= 0) st->excluded[idx] = 1;
    }
    return HWC_OK;
}

static int apply_item(hwc_dispatch_state *st, span item, FILE *err) {
    char shown[160], fam[64], kname[64];
    const char *eq = memchr(item.p, '=', item.n);
    cstr(item, shown, sizeof shown);
    if (eq) {
        span f = trim((span){item.p, (size_t)(eq - item.p)});
        span k = trim((span){eq + 1, item.n - (size_t)(eq - item.p) - 1});
        return apply_pair(st, shown, cstr(f, fam, sizeof fam), cstr(k, kname, sizeof kname), err);
    }
    if (item.p[0] == '-')
        return apply_exclusion(st, shown, cstr(trim((span){item.p + 1, item.n - 1}), kname, sizeof kname),
                               err);
    return apply_name(st, shown, cstr(item, kname, sizeof kname), err);
}

int hwc_env_apply(hwc_dispatch_state *st, const char *spec, FILE *err) {
    int rc = HWC_OK;
    if (!spec) return HWC_OK;
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        span item = trim((span){p, n});
        if (item.n) rc = first_error(rc, apply_item(st, item, err));
        p += n + (comma != NULL);
    }
    return rc;
}
