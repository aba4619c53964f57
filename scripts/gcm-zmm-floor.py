#!/usr/bin/env python3
"""The floor of the zmm AES-128-GCM batch loop on the machine it runs on (docs/gcm.md).

Writes the stitched loop of impl/x86/aes_gcm_x86.h (gcm_batch, zmm, AES-128,
the hash input in registers) as assembly in a fixed order: 8 vectors of
counter blocks, 9 VAESENC rounds and VAESENCLAST, the previous batch's 8
vectors hashed in four pairs (3 VPCLMULQDQ per vector, Karatsuba) with one
reduction (2 VPCLMULQDQ), the lane sum, 8 stores and 8 byte swaps. A call
runs --batches consecutive batches of one buffer (32: 16 KiB, L1-resident;
128: 64 KiB), and the figure is core cycles per call and per batch,
calibrated by a chain of dependent adds.

    python3 scripts/gcm-zmm-floor.py [--cpu N] [--batches 32] [--pairs 1,4,7] [--close 8]
                                     [--ctr kernel|kernel-table|perm|xor|addxor]
                                     [--no-bswap] [--no-reduce]

--pairs: the rounds after which pairs (1,2), (3,4), (5,6) go; --close: the
round after which pair (0,7), which takes x, and the reduction go (the kernel: pairs 1,4,7, close 8). --ctr: how
the counter blocks are made: "kernel", gcm_ctr_vectors' instructions (rk0's
word 3 spread and XORed into the byte-reversed counter words, the block ^ rk0,
a two-table permute per vector); "kernel-table", the same with those two
per-call values read from memory; "perm", only the permutes; "xor", one XOR
with round key 0 of blocks from memory (the cheapest imaginable, not a real
counter); "addxor", a VPADDD and a XOR per vector. Needs gcc and an x86-64
CPU with AVX-512, VAES and VPCLMULQDQ.
"""
import argparse
import os
import subprocess
import sys
import tempfile

DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>
#ifndef BB
#define BB 512   /* bytes per batch */
#endif
void gcm_floor_loop(long n, const void *keys, const void *htab, const void *in, void *out, const void *consts);
/* 200,000 dependent adds of a register, 1000 per loop pass, as bench/bench_core.c:
   an add of an immediate can be folded by the renamer (Zen 5), and a loop of one add
   per pass read up to 1.8x slower than one add per cycle on a Zen 4 host (docs/gcm.md). */
static uint64_t add_chain(void) {
    uint64_t t0 = __rdtsc();
    long x = 0, one = 1;
    for (long i = 0; i < 200; i++) __asm__ volatile(".rept 1000\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
    return __rdtsc() - t0;
}
int main(void) {
    static _Alignas(64) uint8_t keys[11 * 64], htab[1024], in[512 * NB], out[512 * NB], consts[1024];
    for (int i = 0; i < 1024; i++) htab[i] = (uint8_t)(i * 3);
    for (int i = 0; i < 1024; i++) consts[i] = (uint8_t)i;
    for (int i = 0; i < 704; i++) keys[i] = (uint8_t)(i * 5);
    double est[9];
    for (int b = 0; b < 9; b++) {   /* clock and loop timed side by side, best of 5 each */
        uint64_t mc = ~0ull, mt = ~0ull;
        for (int r = 0; r < 5; r++) {
            uint64_t c = add_chain();
            if (c < mc) mc = c;
            uint64_t t0 = __rdtsc();
            for (int q = 0; q < 200; q++) gcm_floor_loop(NB, keys, htab, in, out, consts);
            uint64_t t = __rdtsc() - t0;
            if (t < mt) mt = t;
        }
        est[b] = (double)mt * 200000.0 / (double)mc / 200.0;
    }
    for (int i = 1; i < 9; i++)   /* the median of the 9 estimates: one slow clock reading cannot pull it down */
        for (int j = i; j > 0 && est[j] < est[j - 1]; j--) {
            double t = est[j]; est[j] = est[j - 1]; est[j - 1] = t;
        }
    const double best = est[4];
    printf("%.0f cycles per call of %d batches: %.2f per batch (%.4f c/B)\n", best, NB, best / NB, best / NB / BB);
    return 0;
}
"""


def loop_asm(pairs_after, close_after, ctr, bswap, reduce_):
    """AT&T assembly of gcm_floor_loop(n, keys, htab, in, out, consts).

    zmm0-7 blocks, zmm8 round key, zmm9-16 the previous batch's output
    (hash input), zmm17-19 lo/hi/mid, zmm20 x, zmm21 byte-swap mask,
    zmm22 fold constant, zmm28/zmm30 counter words, zmm29 counter block,
    zmm23-27 and zmm31 scratch; k1 = 0xAA (blend of the pair)."""
    a = []
    e = a.append
    e(".text\n.globl gcm_floor_loop\n.type gcm_floor_loop,@function\n.p2align 6\ngcm_floor_loop:")
    e("  vmovdqu64 (%r9), %zmm21\n  vmovdqu64 64(%r9), %zmm22\n  vmovdqu64 128(%r9), %zmm28")
    e("  vmovdqu64 192(%r9), %zmm29\n  vmovdqu64 256(%r9), %zmm30")
    e("  movl $0xAA, %eax\n  kmovb %eax, %k1")
    for i in range(8):
        e(f"  vmovdqu64 {64 * i}(%rcx), %zmm{9 + i}")
    e("  vpxord %zmm20, %zmm20, %zmm20\n.p2align 6\n1:")
    e("  vpxord %zmm17, %zmm17, %zmm17\n  vpxord %zmm18, %zmm18, %zmm18\n  vpxord %zmm19, %zmm19, %zmm19")
    e("  vmovdqu64 (%rsi), %zmm8")
    # counter blocks ^ round key 0 into zmm0-7 (index vectors and blocks: consts + 192 + 64 i;
    # kernel: zmm28/zmm30 counter words, zmm29 counter block; zmm24, zmm26, zmm27, zmm31 free here)
    if ctr in ("kernel", "kernel-table"):
        if ctr == "kernel":
            e("  vpxord %zmm29, %zmm8, %zmm27\n  vpshufd $0xFF, %zmm8, %zmm26")
        e("  vpshufb 64(%r9), %zmm28, %zmm24\n  vpshufb 64(%r9), %zmm30, %zmm31")
        kw = "%zmm26" if ctr == "kernel" else "704(%r9)"
        e(f"  vpxord {kw}, %zmm24, %zmm24\n  vpxord {kw}, %zmm31, %zmm31")
        e("  vpaddd 128(%r9), %zmm28, %zmm28\n  vpaddd 128(%r9), %zmm30, %zmm30")
    for i in range(8):
        src = f"{192 + 64 * i}(%r9)"
        if ctr == "xor":
            e(f"  vpxord {src}, %zmm8, %zmm{i}")
        elif ctr == "perm":
            e(f"  vmovdqu64 {src}, %zmm{i}\n  vpermi2d %zmm8, %zmm28, %zmm{i}")
        elif ctr == "addxor":
            e(f"  vpaddd {src}, %zmm28, %zmm{i}\n  vpxord %zmm8, %zmm{i}, %zmm{i}")
        else:
            ivk = "%zmm27" if ctr == "kernel" else "640(%r9)"
            e(f"  vmovdqu64 {src}, %zmm{i}\n  vpermi2d {ivk}, %zmm{24 if i < 4 else 31}, %zmm{i}")
    if ctr in ("perm", "addxor"):
        e("  vpaddd 128(%r9), %zmm28, %zmm28")

    def pair(d, q, pd, pq):   # vectors d, q with powers at htab + pd, + pq (Karatsuba keys 512 on)
        e(f"  vpalignr $8, %zmm{d}, %zmm{q}, %zmm23\n  vpblendmq %zmm{q}, %zmm{d}, %zmm24{{%k1}}")
        e("  vpxord %zmm24, %zmm23, %zmm23")
        for imm, acc in (("0x00", 17), ("0x11", 18)):
            e(f"  vpclmulqdq ${imm}, {pd}(%rdx), %zmm{d}, %zmm25\n  vpclmulqdq ${imm}, {pq}(%rdx), %zmm{q}, %zmm26")
            e(f"  vpternlogd $0x96, %zmm26, %zmm25, %zmm{acc}")
        e(f"  vpclmulqdq $0x00, {512 + pd}(%rdx), %zmm23, %zmm25\n  vpclmulqdq $0x01, {512 + pq}(%rdx), %zmm23, %zmm26")
        e("  vpternlogd $0x96, %zmm26, %zmm25, %zmm19")

    def close():
        e("  vpxord %zmm20, %zmm9, %zmm9")
        pair(9, 16, 0, 448)
        if reduce_:
            e("  vpternlogd $0x96, %zmm17, %zmm18, %zmm19")
            e("  vpclmulqdq $0x00, %zmm22, %zmm17, %zmm25\n  vpalignr $8, %zmm17, %zmm17, %zmm26")
            e("  vpternlogd $0x96, %zmm26, %zmm25, %zmm19")
            e("  vpclmulqdq $0x00, %zmm22, %zmm19, %zmm25\n  vpalignr $8, %zmm19, %zmm19, %zmm26")
            e("  vpternlogd $0x96, %zmm26, %zmm25, %zmm18")
        e("  vextracti64x4 $1, %zmm18, %ymm25\n  vpxorq %ymm25, %ymm18, %ymm25")
        e("  vextracti32x4 $1, %ymm25, %xmm26\n  vpxorq %xmm26, %xmm25, %xmm20")

    pair_at = {r: 2 * j + 1 for j, r in enumerate(pairs_after)}
    for r in range(1, 10):
        e(f"  vmovdqu64 {64 * r}(%rsi), %zmm8")
        for i in range(8):
            e(f"  vaesenc %zmm8, %zmm{i}, %zmm{i}")
        if r in pair_at:
            v = pair_at[r]
            pair(9 + v, 10 + v, 64 * v, 64 * (v + 1))
        if r == close_after:
            close()
    e("  vmovdqu64 640(%rsi), %zmm8")
    for i in range(8):
        e(f"  vpxord {64 * i}(%rcx), %zmm8, %zmm27\n  vaesenclast %zmm27, %zmm{i}, %zmm{i}")
        e(f"  vmovdqu64 %zmm{i}, {64 * i}(%r8)")
        e(f"  vpshufb %zmm21, %zmm{i}, %zmm{9 + i}" if bswap else f"  vmovdqa64 %zmm{i}, %zmm{9 + i}")
    e("  add $512, %rcx\n  add $512, %r8\n  dec %rdi\n  jnz 1b\n  vzeroupper\n  ret")
    e('.section .note.GNU-stack,"",@progbits')
    return "\n".join(a) + "\n"


def require_flags(need):
    """Exits when /proc/cpuinfo lacks one of the flags the loop needs."""
    with open("/proc/cpuinfo") as f:
        flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    missing = [x for x in need if x not in flags]
    if missing:
        sys.exit("this CPU lacks " + ", ".join(missing) + ": the loop would stop on an illegal instruction")


def build_and_run(asm, batches, batch_bytes, cpu, label, quiet=False):
    """Builds the driver around the loop's assembly and prints label and its timing
    (quiet: returns the cycles per batch instead)."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "loop.S"), "w") as f:
            f.write(asm)
        with open(os.path.join(d, "driver.c"), "w") as f:
            f.write(DRIVER)
        exe = os.path.join(d, "floor")
        subprocess.run(["gcc", "-O2", f"-DNB={batches}", f"-DBB={batch_bytes}", "-o", exe,
                        os.path.join(d, "driver.c"), os.path.join(d, "loop.S")], check=True)
        cmd = (["taskset", "-c", str(cpu)] if cpu is not None else []) + [exe]
        if quiet:
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            return float(out.split(": ")[1].split()[0])
        print(label + ": ", end="", flush=True)
        subprocess.run(cmd, check=True)
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, help="pin to this CPU (taskset)")
    ap.add_argument("--pairs", default="1,4,7")
    ap.add_argument("--close", type=int, default=8)
    ap.add_argument("--batches", type=int, default=32, help="batches of 512 bytes per call (32: 16 KiB)")
    ap.add_argument("--ctr", choices=("kernel", "kernel-table", "perm", "xor", "addxor"), default="kernel")
    ap.add_argument("--no-bswap", action="store_true")
    ap.add_argument("--no-reduce", action="store_true")
    o = ap.parse_args()
    require_flags(("avx512f", "avx512bw", "vaes", "vpclmulqdq"))
    pairs = [int(x) for x in o.pairs.split(",")]
    if len(pairs) != 3 or not all(1 <= r <= 9 for r in pairs + [o.close]) or len(set(pairs)) != 3:
        sys.exit("--pairs: three distinct rounds in 1..9; --close: a round in 1..9")
    build_and_run(loop_asm(pairs, o.close, o.ctr, not o.no_bswap, not o.no_reduce), o.batches, 512, o.cpu,
                  f"{o.batches} batches, pairs after rounds {o.pairs}, close after {o.close}, counters {o.ctr}, "
                  f"byte swaps {'no' if o.no_bswap else 'yes'}, reduction {'no' if o.no_reduce else 'yes'}")


if __name__ == "__main__":
    main()
