/* CPU feature detection: cpu_features for the bulk (x86: a table from its
 * feature enum to HWC_F_* bits), plus what cpu_features 0.7.0 leaves out
 * (GFNI; XCR0 gating of VAES/VPCLMULQDQ). Its bit-fields are signed 1-bit
 * fields that read -1 when set, so every test is != 0. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "dispatch/cpu.h"
#include "internal/ct.h"

#if defined(__x86_64__)
#include <cpu_features/cpuinfo_x86.h>
#include <cpuid.h>

/* XCR0 (OS-enabled register state); only valid when OSXSAVE is set. */
static uint64_t read_xcr0(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* cpu_features bit -> HWC_F_* bit, and the register state the OS must save
   (XCR0) before it counts. GFNI is read from CPUID below. */
enum { OS_ANY, OS_AVX, OS_AVX512 };
static const struct { X86FeaturesEnum feature; uint64_t bit; int os; } x86_bits[] = {
    {X86_SSE2, HWC_F_SSE2, OS_ANY}, {X86_SSSE3, HWC_F_SSSE3, OS_ANY},
    {X86_SSE4_1, HWC_F_SSE41, OS_ANY}, {X86_AES, HWC_F_AES, OS_ANY},
    {X86_PCLMULQDQ, HWC_F_PCLMUL, OS_ANY}, {X86_BMI2, HWC_F_BMI2, OS_ANY}, {X86_ADX, HWC_F_ADX, OS_ANY},
    {X86_AVX, HWC_F_AVX, OS_AVX}, {X86_AVX2, HWC_F_AVX2, OS_AVX}, {X86_VAES, HWC_F_VAES, OS_AVX},
    {X86_VPCLMULQDQ, HWC_F_VPCLMUL, OS_AVX}, {X86_AVX512F, HWC_F_AVX512F, OS_AVX512},
    {X86_AVX512BW, HWC_F_AVX512BW, OS_AVX512}, {X86_AVX512DQ, HWC_F_AVX512DQ, OS_AVX512},
    {X86_AVX512VL, HWC_F_AVX512VL, OS_AVX512}, {X86_AVX512IFMA, HWC_F_AVX512IFMA, OS_AVX512},
    {X86_AVX512VBMI, HWC_F_AVX512VBMI, OS_AVX512},
};

/* Ways of the L1 data cache, 0 when CPUID does not say: AMD's leaf
   0x80000005 (ECX bits 23:16), else the deterministic cache parameters of
   leaf 4 (EBX bits 31:22 plus one) for the level-1 data cache. */
static unsigned l1d_ways(void) {
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541u /* "Auth"enticAMD */ &&
        __get_cpuid(0x80000005, &a, &b, &c, &d))
        return (c >> 16) & 0xff;
    for (unsigned i = 0; i < 8 && __get_cpuid_count(4, i, &a, &b, &c, &d) && (a & 0x1f); i++)
        if ((a & 0x1f) == 1 && ((a >> 5) & 7) == 1) return (b >> 22) + 1;
    return 0;
}

void hwc_cpu_detect(hwc_cpu *cpu) {
    memset(cpu, 0, sizeof *cpu);
    const X86Info info = GetX86Info();
    HWC_MSAN_PUBLIC(&info, sizeof info);   /* cpu_features is not instrumented */
    const X86Features f = info.features;
    const uint64_t xcr0 = read_xcr0();
    int os_ok[3];
    os_ok[OS_ANY] = 1;
    os_ok[OS_AVX] = (xcr0 & 0x6) == 0x6;                              /* XMM + YMM state */
    os_ok[OS_AVX512] = os_ok[OS_AVX] && (xcr0 & 0xe0) == 0xe0;   /* opmask, ZMM_Hi256, Hi16_ZMM */
    uint64_t m = 0;
    for (size_t i = 0; i < sizeof x86_bits / sizeof x86_bits[0]; i++) {
        int has = GetX86FeaturesEnumValue(&f, x86_bits[i].feature);
        HWC_MSAN_PUBLIC(&has, sizeof has);
        if (has && os_ok[x86_bits[i].os]) m |= x86_bits[i].bit;
    }
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 8))) m |= HWC_F_GFNI;
    /* 32 KiB 8-way L1D (Zen 3/4) against 48 KiB 12-way (Zen 5, Ice Lake and
       later): the lane steps' staging thresholds (impl/x86/aes_x86_lanes.h) */
    const unsigned ways = l1d_ways();
    if (ways >= 1 && ways <= 8) m |= HWC_T_L1D_8WAY;
    cpu->features = m;

    const X86Microarchitecture ua = GetX86Microarchitecture(&info);
    HWC_MSAN_PUBLIC(&ua, sizeof ua);
    snprintf(cpu->uarch, sizeof cpu->uarch, "%s", GetX86MicroarchitectureName(ua));
    /* Width policy: 512-bit work lowers the clock on Skylake-SP/X,
       Cannon Lake, Ice Lake, Tiger Lake and Rocket Lake; not on AMD Zen 4+
       or Sapphire Rapids and later. */
    cpu->zmm_slows_core = ua == INTEL_SKL || ua == INTEL_CNL || ua == INTEL_ICL ||
                          ua == INTEL_TGL || ua == INTEL_RCL;
    /* None of Cannon/Ice/Tiger/Rocket Lake has AVX512_BF16. A CPU that claims
       one of those models and has BF16 is a virtual CPU model hiding a newer
       core (a Sapphire Rapids or Zen 4/5 host): trust the features, not the
       model. (Cooper Lake has BF16 but reports as SKL and keeps the ymm
       preference.) */
    if (ua != INTEL_SKL && f.avx512_bf16 != 0) cpu->zmm_slows_core = 0;
    snprintf(cpu->brand, sizeof cpu->brand, "%s", info.brand_string);
}

#elif defined(__aarch64__)
#include <sys/auxv.h>

/* Linux HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h). getauxval() is
   used instead of cpu_features' GetAarch64Info(), which Debian's build makes
   print to stdout when AT_HWCAP2 is 0. */
#define HWC_HWCAP_ASIMD (1ul << 1)
#define HWC_HWCAP_AES (1ul << 3)
#define HWC_HWCAP_PMULL (1ul << 4)
#define HWC_HWCAP_CPUID (1ul << 11)

/* 4 AES blocks in flight cover latency x issue width on the in-order and
   single-AES-pipe Arm cores (Cortex-A35/A53/A55; A57/A72/A73: one AES pipe,
   3-cycle latency); wider cores (Neoverse N1/V1/N2, Cortex-A76 and later,
   Apple, unknown parts) want 8. MIDR_EL1 is readable at EL0 when Linux sets
   HWCAP_CPUID (the kernel emulates the MRS); without it: a wide core. */
static int narrow_aes_core(unsigned long hwcap) {
    static const unsigned narrow[] = {0xd03, 0xd04, 0xd05, 0xd07, 0xd08, 0xd09};
    if (!(hwcap & HWC_HWCAP_CPUID)) return 0;
    uint64_t midr;
    __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
    const unsigned implementer = (unsigned)(midr >> 24) & 0xff;
    const unsigned part = (unsigned)(midr >> 4) & 0xfff;
    if (implementer != 0x41) return 0;   /* Arm Ltd */
    for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++)
        if (part == narrow[i]) return 1;
    return 0;
}

void hwc_cpu_detect(hwc_cpu *cpu) {
    memset(cpu, 0, sizeof *cpu);
    const unsigned long hw = getauxval(AT_HWCAP);
    uint64_t m = 0;
    if (hw & HWC_HWCAP_ASIMD) m |= HWC_F_ASIMD;
    if (hw & HWC_HWCAP_AES) m |= HWC_F_ARM_AES;
    if (hw & HWC_HWCAP_PMULL) m |= HWC_F_PMULL;
    if (narrow_aes_core(hw)) m |= HWC_T_NARROW_AES;
    cpu->features = m;
    snprintf(cpu->brand, sizeof cpu->brand, "AArch64 (Linux hwcaps 0x%lx)", hw);
    snprintf(cpu->uarch, sizeof cpu->uarch, "aarch64");
}

#else
void hwc_cpu_detect(hwc_cpu *cpu) {
    memset(cpu, 0, sizeof *cpu);
    snprintf(cpu->brand, sizeof cpu->brand, "unknown architecture");
    snprintf(cpu->uarch, sizeof cpu->uarch, "unknown");
}
#endif

static const struct { uint64_t bit; const char *name; } feature_names[] = {
    {HWC_F_SSE2, "sse2"}, {HWC_F_SSSE3, "ssse3"}, {HWC_F_SSE41, "sse4.1"},
    {HWC_F_AES, "aes"}, {HWC_F_PCLMUL, "pclmulqdq"}, {HWC_F_AVX, "avx"},
    {HWC_F_AVX2, "avx2"}, {HWC_F_BMI2, "bmi2"}, {HWC_F_ADX, "adx"},
    {HWC_F_VAES, "vaes"}, {HWC_F_VPCLMUL, "vpclmulqdq"}, {HWC_F_AVX512F, "avx512f"},
    {HWC_F_AVX512BW, "avx512bw"}, {HWC_F_AVX512DQ, "avx512dq"},
    {HWC_F_AVX512VL, "avx512vl"}, {HWC_F_AVX512IFMA, "avx512ifma"},
    {HWC_F_AVX512VBMI, "avx512vbmi"}, {HWC_F_GFNI, "gfni"},
    {HWC_F_ASIMD, "asimd"}, {HWC_F_ARM_AES, "aes"}, {HWC_F_PMULL, "pmull"},
};

void hwc_feature_names(uint64_t mask, char *buf, size_t size) {
    size_t used = 0;
    if (size == 0) return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
        if (!(mask & feature_names[i].bit)) continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? "," : "", feature_names[i].name);
        if (w < 0 || (size_t)w >= size - used) break;
        used += (size_t)w;
    }
}
