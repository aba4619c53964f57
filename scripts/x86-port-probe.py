#!/usr/bin/env python3
"""Which vector instructions take the AES units' time on this x86 CPU (docs/gcm.md).

A loop of 96 independent VAESENC of one width over 16 registers
runs at the AES units' rate. The probe adds 24 independent instructions of one
kind and reports, per added instruction, the cycles it costs on its own and
the cycles it adds to the AES stream. An instruction that adds nothing runs on
other units; one that adds as much as it costs alone runs only where AES runs.
From these a loop's floor follows: the GCM loops of impl/x86/aes_gcm_x86.h are
bound by the AES units' time (AES rounds, carry-less multiplies and the
shuffles that share them) until the vector ALUs fill up too (--mix, below;
docs/gcm.md).

    python3 scripts/x86-port-probe.py [--cpu N] [--width 128|256|512 ...]
    python3 scripts/x86-port-probe.py --mix [--cpu N]

--mix: zmm mixes of a GCM batch's kinds instead, each instruction independent
and spread evenly (AES rounds of 8 chains, VPCLMULQDQ, XORs): whether one
kind's time hides under another's when a loop has all three.

Timed by the driver of scripts/gcm-zmm-floor.py (core cycles from a chain of
dependent adds; the median of 9 readings, each the best of 5). A busy SMT
sibling slows the loops and not the clock chain: run it a few times and take
the lowest figures.
"""
import argparse
import importlib.util
import os

AES_OPS = 96
ADDED = 24
# name, AT&T template ({r}: register prefix, {s}: a source, {d}: a destination), needs AVX-512
# and optionally the /proc/cpuinfo flag it needs beyond the width's
KINDS = [
    ("vpclmulqdq", "vpclmulqdq $0x11, %{r}m14, {s}, {d}", False),
    ("vpshufb", "vpshufb %{r}m14, {s}, {d}", False),
    ("vpalignr", "vpalignr $8, %{r}m14, {s}, {d}", False),
    ("vpslldq", "vpslldq $4, {s}, {d}", False),
    ("vpshufd", "vpshufd $0x4e, {s}, {d}", False),
    ("vpsrlq", "vpsrlq $63, {s}, {d}", False),
    ("vpaddd", "vpaddd %{r}m14, {s}, {d}", False),
    ("vpxor", "vpxor %{r}m14, {s}, {d}", False),
    ("vpternlogd", "vpternlogd $0x96, %{r}m14, {s}, {d}", True),
    ("vpermi2d", "vpermi2d %{r}m14, {s}, {d}", True),
    ("vshufi64x2", "vshufi64x2 $0x4e, %{r}m14, {s}, {d}", True),
    ("vpsllq", "vpsllq $7, {s}, {d}", False),
    ("vpsllvq", "vpsllvq %{r}m14, {s}, {d}", False, "avx2"),
    ("vpunpcklqdq", "vpunpcklqdq %{r}m14, {s}, {d}", False),
    ("vpandq", "vpandq %{r}m14, {s}, {d}", True),
    ("vpblendmq", "vpblendmq %{r}m14, {s}, {d}", True),
    ("vpermq", "vpermq $0x4e, {s}, {d}", True),
    ("vprolq", "vprolq $7, {s}, {d}", True),
    ("vpmullq", "vpmullq %{r}m14, {s}, {d}", True, "avx512dq"),
    ("vpshldq", "vpshldq $7, %{r}m14, {s}, {d}", True, "avx512_vbmi2"),
    ("vpmadd52luq", "vpmadd52luq %{r}m14, {s}, {d}", True, "avx512ifma"),
    ("vgf2p8affineqb", "vgf2p8affineqb $0, %{r}m14, {s}, {d}", False, "gfni"),
    ("vgf2p8mulb", "vgf2p8mulb %{r}m14, {s}, {d}", False, "gfni"),
]


def body(width, kind, evex):
    """The loop's instructions: AES over registers 0-12, the added kind reading
    13/14/15 (16+ with EVEX) and writing 15 (or 16+): no chain through them."""
    r = {128: "x", 256: "y", 512: "z"}[width]
    lines = [f"  vaesenc %{r}mm13, %{r}mm{i % 13}, %{r}mm{i % 13}" for i in range(AES_OPS)]
    if kind is not None:
        for i, ins in enumerate(kind_alone(width, kind, evex)):
            lines.insert(i * (AES_OPS // ADDED + 1), ins)
    return lines


def kind_alone(width, kind, evex):
    """ADDED instructions of the kind, none depending on another."""
    r = {128: "x", 256: "y", 512: "z"}[width]
    tmpl = kind[1].replace("{r}m14", f"{r}mm{30 if evex else 14}")
    if evex and kind[0] == "vpxor":
        tmpl = tmpl.replace("vpxor ", "vpxord ")
    return [tmpl.format(s=f"%{r}mm{(16 + i % 6) if evex else 13}", d=f"%{r}mm{(24 + i % 6) if evex else 15}")
            for i in range(ADDED)]


# zmm mixes (--mix): AES rounds (8 chains, AES-128: 80, AES-256: 112 per
# 32 blocks), VPCLMULQDQ (26 per 32 blocks), XORs
MIXES = [(80, 0, 0), (0, 26, 0), (0, 0, 76), (80, 26, 0), (80, 26, 30), (80, 26, 60), (80, 26, 76),
         (112, 0, 0), (112, 26, 0), (112, 26, 76)]


def spread(base, other):
    """base with other's lines spread evenly among them."""
    out, j = [], 0
    for i, line in enumerate(base):
        out.append(line)
        while j < len(other) and j * len(base) <= i * len(other):
            out.append(other[j])
            j += 1
    return out + other[j:]


def mix(aes, clmul, xors):
    a = [f"  vaesenc %zmm15, %zmm{i % 8}, %zmm{i % 8}" for i in range(aes)]
    c = [f"  vpclmulqdq $0x00, %zmm14, %zmm{8 + i % 2}, %zmm{10 + i % 2}" for i in range(clmul)]
    x = [f"  vpxord %zmm14, %zmm9, %zmm{12 + i % 2}" for i in range(xors)]
    return spread(spread(a, c), x)


def wrap(lines):
    return ("\n".join([".text", ".globl gcm_floor_loop", ".p2align 6", "gcm_floor_loop:", ".p2align 6", "1:"]
                      + lines + ["  dec %rdi", "  jnz 1b", "  vzeroupper", "  ret",
                                 '.section .note.GNU-stack,"",@progbits']) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, help="pin to this CPU (taskset)")
    ap.add_argument("--width", type=int, nargs="*", choices=(128, 256, 512))
    ap.add_argument("--mix", action="store_true", help="zmm mixes of AES, VPCLMULQDQ and XOR")
    o = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gcm_zmm_floor", os.path.join(here, "gcm-zmm-floor.py"))
    zmm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zmm)
    with open("/proc/cpuinfo") as f:
        flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    widths = o.width or [w for w, need in ((128, ["aes", "pclmulqdq"]), (256, ["vaes", "vpclmulqdq", "avx2"]),
                                           (512, ["vaes", "vpclmulqdq", "avx512f", "avx512bw"]))
                         if all(x in flags for x in need)]
    has512 = all(x in flags for x in ("avx512f", "avx512bw", "avx512vl"))

    def time(lines):
        return zmm.build_and_run(wrap(lines), 100, 64, o.cpu, "", quiet=True)

    if o.mix:
        zmm.require_flags(["vaes", "vpclmulqdq", "avx512f"])
        print("zmm mixes, cycles per pass (one pass: 32 blocks of a GCM batch)")
        print(f"  {'VAESENC':>7s} {'VPCLMULQDQ':>10s} {'VPXORD':>6s} {'cycles':>7s}")
        for m in MIXES:
            print(f"  {m[0]:7d} {m[1]:10d} {m[2]:6d} {time(mix(*m)):7.1f}")
        return
    print(f"{AES_OPS} independent AES rounds + {ADDED} instructions of one kind, cycles per added instruction")
    for w in widths:
        zmm.require_flags(["aes", "avx"] if w == 128 else ["vaes", "avx2"] + (["avx512f"] if w == 512 else []))
        base = time(body(w, None, w == 512))
        print(f"\nwidth {w}: {AES_OPS} AES rounds alone {base:.1f} cycles ({AES_OPS / base:.2f} per cycle)")
        print(f"  {'instruction':12s} {'alone':>7s} {'added to AES':>13s}")
        for k in KINDS:
            evex = w == 512 or k[2]
            if (evex and not has512) or (k[0] in ("vshufi64x2", "vpermq") and w == 128):
                continue
            if len(k) > 3 and k[3] not in flags:
                continue
            alone = time(kind_alone(w, k, evex)) / ADDED
            added = (time(body(w, k, evex)) - base) / ADDED
            print(f"  {k[0]:12s} {alone:7.2f} {added:13.2f}")


if __name__ == "__main__":
    main()
