/* hwc_init, hwc_kernels, hwc_kernel_active, hwc_kernel_select and the active
 * kernel tables core/ asks for. Init runs once (pthread_once) and publishes a
 * state that never changes again except the per-family active index, an
 * atomic. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "hwcrypt/dispatch.h"
#include "hwcrypt/status.h"
#include "internal/kernel.h"
#include "dispatch/state.h"

enum { REASON_AUTO, REASON_ENV, REASON_SELECT };
static const char *const reason_names[] = {"automatic", "HWCRYPT_KERNEL", "hwc_kernel_select"};

static hwc_dispatch_state g_state;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Atomic int g_active[HWC_NFAM];
static _Atomic int g_reason[HWC_NFAM];
/* The active kernel table per family, NULL until init: the hot path of every
   call is one acquire load (no pthread_once call once initialised). */
const void *_Atomic hwc_active_table[HWC_NFAM];
static const void *g_table[HWC_MAX_KERNELS];   /* impl or its variant, by registry index */
static char g_features[512];
static char g_requires[HWC_MAX_KERNELS][160];   /* readable `needs` per kernel */

/* Highest-priority usable kernel not excluded; generic if all are excluded. */
static int automatic_choice(const hwc_dispatch_state *st, int fam) {
    int fallback = -1;
    for (int j = 0; j < st->count[fam]; j++) {
        int i = st->order[fam][j];
        if (!st->usable[i]) continue;
        if (!st->excluded[i]) return i;
        fallback = i;   /* lowest usable, in case everything is excluded */
    }
    return fallback;
}

static void set_active(int fam, int idx, int reason) {
    atomic_store(&g_active[fam], idx);
    atomic_store(&g_reason[fam], reason);
    atomic_store_explicit(&hwc_active_table[fam], g_table[idx], memory_order_release);
}

static void build_state(void) {
    hwc_dispatch_state *st = &g_state;
    memset(st, 0, sizeof *st);
    hwc_cpu_detect(&st->cpu);
    hwc_feature_names(st->cpu.features, g_features, sizeof g_features);
    if (hwc_registry_len > HWC_MAX_KERNELS) abort();   /* a build error, not input */
    for (size_t i = 0; i < hwc_registry_len; i++) {
        const hwc_registry_entry *e = &hwc_registry[i];
        if (!e->impl) continue;   /* not compiled into this build: in no list */
        st->usable[i] = (st->cpu.features & e->needs) == e->needs;
        g_table[i] = e->variant && (st->cpu.features & e->variant_needs) == e->variant_needs
                         ? e->variant : e->impl;
        st->priority[i] = e->priority;
        hwc_feature_names(e->needs, g_requires[i], sizeof g_requires[i]);
        /* Width policy: on cores that downclock for zmm, rank 512-bit kernels
           just below the 256-bit ones (200). */
        if ((e->flags & HWC_KF_ZMM) && st->cpu.zmm_slows_core) st->priority[i] = 150;
        int fam = e->family, *ord = st->order[fam], n = st->count[fam]++;
        /* insertion sort, descending priority, registry order on ties */
        while (n > 0 && st->priority[ord[n - 1]] < st->priority[i]) {
            ord[n] = ord[n - 1];
            n--;
        }
        ord[n] = (int)i;
    }
    for (int f = 0; f < HWC_NFAM; f++) st->forced[f] = -1;
    st->init_status = hwc_env_apply(st, getenv("HWCRYPT_KERNEL"), stderr);
    for (int f = 0; f < HWC_NFAM; f++) {
        int forced = st->forced[f];
        set_active(f, forced >= 0 ? forced : automatic_choice(st, f), forced >= 0 ? REASON_ENV : REASON_AUTO);
    }
}

static const hwc_dispatch_state *state(void) {
    pthread_once(&g_once, build_state);
    return &g_state;
}

const hwc_dispatch_state *hwc_dispatch_state_get(void) { return state(); }

int hwc_init(void) { return state()->init_status; }

const char *hwc_cpu_features(void) {
    state();
    return g_features;
}

size_t hwc_kernels(const char *family, hwc_kernel_info *out, size_t max) {
    const hwc_dispatch_state *st = state();
    if (!family) return 0;
    int fam = hwc_family_index(family);
    if (fam < 0) return 0;
    for (int j = 0; j < st->count[fam] && out && (size_t)j < max; j++) {
        int i = st->order[fam][j];
        out[j].family = hwc_family_names[fam];
        out[j].name = hwc_registry[i].name;
        out[j].requires = g_requires[i];
        out[j].priority = st->priority[i];
        out[j].usable = st->usable[i];
    }
    return (size_t)st->count[fam];
}

const char *hwc_kernel_active(const char *family) {
    state();
    int fam = family ? hwc_family_index(family) : -1;
    return fam < 0 ? NULL : hwc_registry[atomic_load(&g_active[fam])].name;
}

const char *hwc_kernel_reason(const char *family) {
    state();
    int fam = family ? hwc_family_index(family) : -1;
    return fam < 0 ? NULL : reason_names[atomic_load(&g_reason[fam])];
}

int hwc_kernel_select(const char *family, const char *kernel) {
    const hwc_dispatch_state *st = state();
    if (!family) return HWC_ERR_NULL_POINTER;
    int fam = hwc_family_index(family);
    if (fam < 0) return HWC_ERR_UNKNOWN_FAMILY;
    if (!kernel) {
        set_active(fam, automatic_choice(st, fam), REASON_AUTO);
        return HWC_OK;
    }
    int idx = hwc_kernel_index(fam, kernel);
    if (idx < 0) return HWC_ERR_UNKNOWN_KERNEL;
    if (!st->usable[idx]) return HWC_ERR_KERNEL_UNAVAILABLE;   /* or not compiled in */
    set_active(fam, idx, REASON_SELECT);
    return HWC_OK;
}

const void *hwc_active_table_init(int family) {
    state();
    return atomic_load_explicit(&hwc_active_table[family], memory_order_acquire);
}

const char *const *hwc_families(void) { return hwc_family_names; }
