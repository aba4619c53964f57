/* HWCRYPT_KERNEL: "family=kernel", "kernel" (every family that has it) and
 * "-kernel" (never automatic), comma-separated, read once at init. A bad item
 * is skipped with one line on stderr; the rest still apply. */
#include <string.h>
#include "hwcrypt/status.h"
#include "state.h"

static void report(FILE *err, const char *item, const char *what, const char *choices) {
    if (err) fprintf(err, "hwcrypt: HWCRYPT_KERNEL item '%s' ignored: %s (choices: %s)\n",
                     item, what, choices);
}

static int first_error(int current, int e) { return current != HWC_OK ? current : e; }

/* family=kernel */
static int apply_pair(hwc_dispatch_state *st, const char *item, const char *fam_name,
                      const char *kname, FILE *err) {
    char choices[256], what[160];
    int fam = hwc_family_index(fam_name);
    if (fam < 0) {
        report(err, item, "unknown family", "aes, streebog, mpi");
        return HWC_ERR_UNKNOWN_FAMILY;
    }
    hwc_usable_names(st, fam, choices, sizeof choices);
    int idx = hwc_kernel_index(fam, kname);
    if (idx < 0) {
        int reserved = hwc_kernel_reserved(fam, kname);
        snprintf(what, sizeof what, reserved ? "kernel '%s' is not compiled into this build"
                                             : "unknown kernel '%s'", kname);
        report(err, item, what, choices);
        return reserved ? HWC_ERR_KERNEL_UNAVAILABLE : HWC_ERR_UNKNOWN_KERNEL;
    }
    if (!st->usable[idx]) {
        snprintf(what, sizeof what, "this CPU/OS cannot run kernel '%s'", kname);
        report(err, item, what, choices);
        return HWC_ERR_KERNEL_UNAVAILABLE;
    }
    st->forced[fam] = idx;
    return HWC_OK;
}

/* kernel: every family that has a kernel of that name; one line for the item
   naming the families where it could not be used. */
static int apply_name(hwc_dispatch_state *st, const char *item, const char *kname, FILE *err) {
    int rc = HWC_OK, known = 0, applied = 0;
    char failed[128] = "";
    for (int fam = 0; fam < HWC_NFAM; fam++) {
        int compiled = hwc_kernel_index(fam, kname) >= 0;
        if (!compiled && !hwc_kernel_reserved(fam, kname)) continue;
        known = 1;
        int e = apply_pair(st, item, hwc_family_names[fam], kname, NULL);
        if (e == HWC_OK) {
            applied = 1;
        } else if (compiled) {   /* compiled in but this CPU cannot run it */
            size_t used = strlen(failed);
            snprintf(failed + used, sizeof failed - used, "%s%s", used ? ", " : "",
                     hwc_family_names[fam]);
            rc = first_error(rc, e);
        }
    }
    if (!known) {
        report(err, item, "no family has a kernel of that name",
               "a kernel name, family=kernel or -kernel");
        return HWC_ERR_UNKNOWN_KERNEL;
    }
    if (!applied && !failed[0]) {
        report(err, item, "kernel is not compiled into this build", "see 'hwcrypt info'");
        return HWC_ERR_KERNEL_UNAVAILABLE;
    }
    if (failed[0]) {
        char what[200];
        snprintf(what, sizeof what, "this CPU/OS cannot run it for %s", failed);
        report(err, item, what, "see 'hwcrypt info'");
    }
    return rc;
}

/* -kernel: excluded from automatic choice. Not compiled in is fine. */
static int apply_exclusion(hwc_dispatch_state *st, const char *item, const char *kname, FILE *err) {
    int known = 0;
    for (int fam = 0; fam < HWC_NFAM; fam++) {
        if (hwc_kernel_reserved(fam, kname)) known = 1;
        int idx = hwc_kernel_index(fam, kname);
        if (idx >= 0) {
            st->excluded[idx] = 1;
            known = 1;
        }
    }
    if (!known) {
        report(err, item, "no family has a kernel of that name", "a kernel name to exclude");
        return HWC_ERR_UNKNOWN_KERNEL;
    }
    return HWC_OK;
}

static void trim(char **s) {
    while (**s == ' ' || **s == '\t') (*s)++;
    size_t n = strlen(*s);
    while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t')) (*s)[--n] = '\0';
}

int hwc_env_apply(hwc_dispatch_state *st, const char *spec, FILE *err) {
    int rc = HWC_OK;
    char buf[512];
    if (!spec || !*spec) return HWC_OK;
    if (strlen(spec) >= sizeof buf) {
        report(err, "(whole value)", "longer than 511 characters", "a shorter list");
        return HWC_ERR_BAD_ARGUMENT;
    }
    memcpy(buf, spec, strlen(spec) + 1);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        trim(&item);
        if (!*item) continue;
        char *eq = strchr(item, '=');
        char shown[512];
        snprintf(shown, sizeof shown, "%s", item);
        if (eq) {
            *eq = '\0';
            char *fam = item, *kname = eq + 1;
            trim(&fam);
            trim(&kname);
            rc = first_error(rc, apply_pair(st, shown, fam, kname, err));
        } else if (item[0] == '-') {
            char *kname = item + 1;
            trim(&kname);
            rc = first_error(rc, apply_exclusion(st, shown, kname, err));
        } else {
            rc = first_error(rc, apply_name(st, shown, item, err));
        }
    }
    return rc;
}
