#!/usr/bin/env python3
"""Synthetic zmm AES-128-XTS batches: where the tweak steps go (docs/aes-batch.md).

Writes one XTS batch of impl/x86/aes_x86_xts.h's held loop as assembly (8
vectors of 4 blocks in flight, the 11 round keys in registers, each vector
loaded, whitened with its tweak and k_0, 9 rounds, the last round keyed by
k_10 ^ T, stored) with the next batch's x^32 tweak step (VPSHUFD, AND,
VPCLMULQDQ, VPTERNLOGD per vector) placed by --order:

    spread  one vector's step after each of rounds 1-8
    early   all eight steps before the first round
    after   all eight steps after the stores (the tree's order)

--form:
    ecb     no tweaks (the AES work alone)
    regs    the tweaks in registers; "spread" overwrites a tweak before its
            last round (timing only: not a valid program)
    buf     the last round's keys k_10 ^ T stored to a frame buffer before
            the rounds and read back as VAESENCLAST's memory operand, so
            that a tweak can be stepped early (a valid program in any order)
    lanes16 16 vectors in flight, tweaks U = T ^ k_10 read from memory, each
            stepped by x^64 in place (VPCLMULQDQ, VPSLLDQ, VPTERNLOGD); the
            last round then reads the stepped value (timing only: a valid
            program writes the next set to a second buffer)

Timed by the driver of scripts/gcm-zmm-floor.py (core cycles from a chain of
dependent adds); printed per 32 blocks (512 bytes). Needs gcc and a CPU with
AVX-512, VAES and VPCLMULQDQ. A busy SMT sibling slows the loops and not the
clock: run it a few times and take the lowest figures.

    python3 scripts/xts-zmm-floor.py [--cpu N] [--form buf] [--order spread]
"""
import argparse
import importlib.util
import os


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def key(r):
    return f"%zmm{16 + r}"   # round keys k_0..k_10 in zmm16-26


def step_x32(t):
    """tweak_x32 of impl/x86/aes_x86_xts.h on register t (mask zmm29, 0x87 zmm28)."""
    return [f"  vpshufd $0x93, {t}, {t}", f"  vpandd %zmm29, {t}, %zmm31",
            f"  vpclmulqdq $0x00, %zmm28, %zmm31, %zmm27", f"  vpternlogd $0x96, %zmm31, %zmm27, {t}"]


def batch(form, order):
    nv = 16 if form == "lanes16" else 8
    pre, rounds, post, steps = [], [], [], []
    for i in range(nv):
        pre.append(f"  vmovdqu64 {64 * i}(%rcx), %zmm{i}")
        if form == "ecb":
            pre.append(f"  vpxord {key(0)}, %zmm{i}, %zmm{i}")
        elif form == "lanes16":   # U = T ^ k_10 in memory; zmm27 = k_0 ^ k_10
            pre.append(f"  vpternlogd $0x96, {64 * i}(%rdx), %zmm27, %zmm{i}")
        else:
            pre.append(f"  vpternlogd $0x96, %zmm{8 + i}, {key(0)}, %zmm{i}")
            if form == "buf":
                pre += [f"  vpxord {key(10)}, %zmm{8 + i}, %zmm30", f"  vmovdqa64 %zmm30, {64 * i}(%rdx)"]
    for r in range(1, 10):
        rounds.append([f"  vaesenc {key(r)}, %zmm{i}, %zmm{i}" for i in range(nv)])
    for i in range(nv):
        if form == "ecb":
            post.append(f"  vaesenclast {key(10)}, %zmm{i}, %zmm{i}")
        elif form == "regs":
            post += [f"  vpxord {key(10)}, %zmm{8 + i}, %zmm30", f"  vaesenclast %zmm30, %zmm{i}, %zmm{i}"]
        else:
            post.append(f"  vaesenclast {64 * i}(%rdx), %zmm{i}, %zmm{i}")
        post.append(f"  vmovdqu64 %zmm{i}, {64 * i}(%r8)")
    if form in ("regs", "buf"):
        steps = [step_x32(f"%zmm{8 + i}") for i in range(nv)]
    elif form == "lanes16":   # U x^64 ^ d in memory (d = k_10 x^64 ^ k_10: zmm29)
        steps = [[f"  vmovdqa64 {64 * i}(%rdx), %zmm30", f"  vpclmulqdq $0x01, %zmm28, %zmm30, %zmm31",
                  "  vpslldq $8, %zmm30, %zmm30", "  vpternlogd $0x96, %zmm31, %zmm29, %zmm30",
                  f"  vmovdqa64 %zmm30, {64 * i}(%rdx)"] for i in range(nv)]
    body = list(pre)
    if order == "early":
        body += sum(steps, [])
    for r, rnd in enumerate(rounds):
        body += rnd
        if order == "spread" and steps and r < 8:   # after rounds 1-8: one vector's step (lanes16: two)
            body += steps[r] if nv == 8 else steps[2 * r] + steps[2 * r + 1]
    body += post
    if order == "after":
        body += sum(steps, [])
    return body, nv


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, help="pin to this CPU (taskset)")
    ap.add_argument("--form", choices=("ecb", "regs", "buf", "lanes16"), nargs="*")
    ap.add_argument("--order", choices=("spread", "early", "after"), nargs="*")
    o = ap.parse_args()
    zmm = load("gcm_zmm_floor", "gcm-zmm-floor.py")
    probe = load("x86_port_probe", "x86-port-probe.py")
    zmm.require_flags(["vaes", "vpclmulqdq", "avx512f"])
    print("cycles per 32 blocks")
    for form in o.form or ("ecb", "regs", "buf", "lanes16"):
        for order in (["-"] if form == "ecb" else o.order or ("spread", "early", "after")):
            body, nv = batch(form, order)
            c = zmm.build_and_run(probe.wrap(body), 100, 64, o.cpu, "", quiet=True)
            print(f"  {form:8s} {order:7s} {c * 8 / nv:6.1f}")


if __name__ == "__main__":
    main()
