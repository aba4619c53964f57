#!/usr/bin/env python3
"""The floor of the ymm (vaes-avx2) AES-128-GCM batch loop on the machine it runs on (docs/gcm.md).

Writes the stitched loop of impl/x86/aes_gcm_x86.h (gcm_batch, ymm, AES-128)
as assembly in a fixed order, with the instructions the C loop has: 8 vectors
(16 blocks) of counter blocks (a byte shuffle, a XOR with round key 0 and a
32-bit add per vector), 9 VAESENC rounds and VAESENCLAST, one vector of the
batch's input hashed after each of rounds 1-7 (a load, a byte swap, 3
VPCLMULQDQ, Karatsuba with VPSHUFD), vector 0 with x and one reduction (2
VPCLMULQDQ) after round 9, the lane sum, 8 stores. The hash input is the
batch's own input (decryption's form). A call runs --batches consecutive
batches of 256 bytes (64: 16 KiB, L1-resident), timed by the driver of
scripts/gcm-zmm-floor.py (core cycles from a chain of dependent adds).

    python3 scripts/gcm-ymm-floor.py [--cpu N] [--batches 64] [--regs 16|32]
                                     [--ctr kernel|xor] [--no-reduce] [--no-hash] [--group 1|2]

--regs 16: the 16 registers of AVX2, constants and x as memory operands (what
an AVX2-only CPU allows); 32: the constants, the counter step and x held in
ymm16-ymm20 (EVEX forms, needs AVX512VL: a bound, not a kernel). --ctr xor:
counter blocks from memory, one XOR each (cheaper than any real counter).
--no-hash: the CTR part alone (the AES floor of the loop). --group 2: two
batches per reduction (gcm_group): the first leaves its sums unreduced, the
second adds to them and reduces.
"""
import argparse
import importlib.util
import os
import sys


def loop_asm(regs, ctr, reduce_, hash_, group=1):
    """AT&T assembly of gcm_floor_loop(n, keys, htab, in, out, consts).

    keys: 11 round keys, each broadcast to 32 bytes; htab: powers at 32 i,
    Karatsuba keys at 256 + 32 i; consts: byte-swap mask 0, counter mask 32,
    counter step 64, fold constant 96, x at 128, counter blocks from 192.
    ymm0-7 blocks, ymm8 round key, ymm9-11 lo/hi/mid, ymm12-14 scratch,
    ymm15 counter words; --regs 32: ymm16-20 the five consts."""
    a = []
    e = a.append
    x = "vpxord" if regs == 32 else "vpxor"
    c = {k: f"{off}(%r9)" for k, off in (("bsw", 0), ("cm", 32), ("step", 64), ("fold", 96), ("x", 128))}
    e(".text\n.globl gcm_floor_loop\n.type gcm_floor_loop,@function\n.p2align 6\ngcm_floor_loop:")
    e("  vmovdqu 192(%r9), %ymm15")
    if regs == 32:
        for i, k in enumerate(("bsw", "cm", "step", "fold", "x")):
            e(f"  vmovdqu64 {c[k]}, %ymm{16 + i}")
            c[k] = f"%ymm{16 + i}"
    e(".p2align 6\n1:")
    for b in range(group):
        batch_asm(e, x, c, regs, ctr, reduce_, hash_, b == 0, b == group - 1)
        e("  add $256, %rcx\n  add $256, %r8")
    e(f"  sub ${group}, %rdi\n  jnz 1b\n  vzeroupper\n  ret")
    e('.section .note.GNU-stack,"",@progbits')
    return "\n".join(a) + "\n"


def batch_asm(e, x, c, regs, ctr, reduce_, hash_, first, last):
    """One batch of 256 bytes; sums zeroed in the first of a group, reduced in the last."""
    if hash_ and first:
        e(f"  {x} %ymm9, %ymm9, %ymm9\n  {x} %ymm10, %ymm10, %ymm10\n  {x} %ymm11, %ymm11, %ymm11")
    e("  vmovdqu (%rsi), %ymm8")
    for i in range(8):
        if ctr == "xor":
            e(f"  {x} {224 + 32 * i}(%r9), %ymm8, %ymm{i}")
        else:
            e(f"  vpshufb {c['cm']}, %ymm15, %ymm{i}\n  {x} %ymm8, %ymm{i}, %ymm{i}")
            e(f"  vpaddd {c['step']}, %ymm15, %ymm15")

    def product(v, with_x):   # vector v of the input times its power, Karatsuba
        e(f"  vmovdqu {32 * v}(%rcx), %ymm12\n  vpshufb {c['bsw']}, %ymm12, %ymm12")
        if with_x:
            e(f"  {x} {c['x']}, %ymm12, %ymm12")
        e(f"  vpshufd $0x4e, %ymm12, %ymm13\n  {x} %ymm12, %ymm13, %ymm13")
        for imm, off, src, acc in (("0x00", 0, 12, 9), ("0x11", 0, 12, 10), ("0x00", 256, 13, 11)):
            e(f"  vpclmulqdq ${imm}, {off + 32 * v}(%rdx), %ymm{src}, %ymm14\n  {x} %ymm14, %ymm{acc}, %ymm{acc}")

    def close():
        product(0, first)
        if not last:
            return
        if reduce_:   # gh_reduce: m = mid ^ lo ^ hi, folded twice into hi
            fold = c["fold"]
            e(f"  {x} %ymm9, %ymm11, %ymm11\n  {x} %ymm10, %ymm11, %ymm11")
            e(f"  vpclmulqdq $0x00, {fold}, %ymm9, %ymm14\n  vpshufd $0x4e, %ymm9, %ymm13")
            e(f"  {x} %ymm14, %ymm11, %ymm11\n  {x} %ymm13, %ymm11, %ymm11")
            e(f"  vpclmulqdq $0x00, {fold}, %ymm11, %ymm14\n  vpshufd $0x4e, %ymm11, %ymm13")
            e(f"  {x} %ymm14, %ymm10, %ymm10\n  {x} %ymm13, %ymm10, %ymm10")
        e(f"  vextracti128 $1, %ymm10, %xmm12\n  vpxor %xmm12, %xmm10, %xmm12")
        e(f"  vmovdqa64 %ymm12, {c['x']}" if regs == 32 else f"  vmovdqu %ymm12, {c['x']}")

    for r in range(1, 10):
        e(f"  vmovdqu {32 * r}(%rsi), %ymm8")
        for i in range(8):
            e(f"  vaesenc %ymm8, %ymm{i}, %ymm{i}")
        if hash_ and r < 8:
            product(r, False)
        if hash_ and r == 9:
            close()
    e("  vmovdqu 320(%rsi), %ymm8")
    for i in range(8):
        e(f"  {x} {32 * i}(%rcx), %ymm8, %ymm12\n  vaesenclast %ymm12, %ymm{i}, %ymm{i}")
        e(f"  vmovdqu %ymm{i}, {32 * i}(%r8)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, help="pin to this CPU (taskset)")
    ap.add_argument("--batches", type=int, default=64, help="batches of 256 bytes per call (64: 16 KiB)")
    ap.add_argument("--regs", type=int, choices=(16, 32), default=16)
    ap.add_argument("--ctr", choices=("kernel", "xor"), default="kernel")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--no-hash", action="store_true")
    ap.add_argument("--group", type=int, choices=(1, 2), default=1, help="batches per reduction")
    o = ap.parse_args()
    if o.batches < 1 or o.batches > 256 or o.batches % o.group:
        sys.exit("--batches: 1..256, a multiple of --group")
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gcm_zmm_floor", os.path.join(here, "gcm-zmm-floor.py"))
    zmm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zmm)
    zmm.require_flags(["avx2", "vaes", "vpclmulqdq"] + (["avx512vl"] if o.regs == 32 else []))
    zmm.build_and_run(loop_asm(o.regs, o.ctr, not o.no_reduce, not o.no_hash, o.group), o.batches, 256, o.cpu,
                      f"ymm, {o.batches} batches of {o.group} per reduction, {o.regs} registers, counters {o.ctr}, "
                      f"hash {'no' if o.no_hash else 'yes'}, reduction {'no' if o.no_reduce else 'yes'}")


if __name__ == "__main__":
    main()
