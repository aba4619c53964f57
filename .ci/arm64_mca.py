#!/usr/bin/env python3
"""Static cycle estimates for the AArch64 hot loops with llvm-mca (docs/arm64.md).

No ARM hardware here and qemu timing means nothing, so the hot loops are
measured on paper: each kernel file is compiled to assembly with the same flags
as the build (aarch64-linux-gnu-gcc -O3, or clang --target), the loop of
interest is cut out (the body from a label to the last branch back to it that
holds the wanted number of AES or multiply instructions), and llvm-mca runs it
for each core model.  Result: cycles per iteration / work per iteration.

    python3 .ci/arm64_mca.py [--cc gcc|clang] [--mca llvm-mca-14] [--cpus a,b,...]

Prints a markdown table.  Needs gcc-aarch64-linux-gnu (or clang), llvm-mca and
the arm64 sysroot (.ci/arm64.sh makes it) for the C headers.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSROOT = os.environ.get("ARM64_SYSROOT", "/opt/arm64-sysroot")
BRANCH = re.compile(r"^\s*(b\.\w+|b|cbz|cbnz|tbz|tbnz|b(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le))\s+(.*)$")


def compile_asm(cc, src, flags):
    out = tempfile.NamedTemporaryFile(suffix=".s", delete=False).name
    if cc == "clang":
        cmd = ["clang", "--target=aarch64-linux-gnu", "--gcc-toolchain=/usr"]
    else:
        cmd = ["aarch64-linux-gnu-gcc"]
    cmd += ["--sysroot=" + SYSROOT, "-std=gnu11", "-O3", "-DNDEBUG",
            "-I" + ROOT, "-I" + os.path.join(ROOT, "include"), "-S", "-o", out, src] + flags
    subprocess.run(cmd, check=True)
    with open(out) as f:
        text = f.read()
    os.unlink(out)
    return text


def clean(lines):
    """Instructions only: no directives, comments, #APP markers."""
    body = []
    for line in lines:
        s = line.split("//")[0].rstrip()
        st = s.strip()
        if not st or st.startswith("#") or st.startswith("."):
            if re.match(r"^\s*\.L\w+:", s) or re.match(r"^\s*\d+:", s):
                body.append(st)   # keep local labels so branches resolve
            continue
        body.append(s)
    return body


def loops(asm):
    """(label, [lines]) for every backward branch target: the body from the
    label to the last branch back to it."""
    lines = asm.splitlines()
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\.L\w+|[A-Za-z_]\w*):", line)
        if not m:
            continue
        label = m.group(1)
        last = None
        for j in range(i + 1, min(len(lines), i + 4000)):
            b = BRANCH.match(lines[j])
            if b and b.group(3).split(",")[-1].strip() == label:
                last = j
            if re.match(r"^\s*\.size\b", lines[j]):
                break
        if last is not None:
            found.append((label, lines[i:last + 1]))
    return found


def pick(asm, func, mnemonic, count):
    """The loop inside `func` whose body has exactly `count` instructions matching `mnemonic` (a regex)."""
    m = re.search(r"^%s:[^\n]*\n(.*?)^\s*\.size\s+%s," % (re.escape(func), re.escape(func)), asm, re.S | re.M)
    if not m:
        sys.exit("function %s not found" % func)
    body = func + ":\n" + m.group(1)
    best = None
    for label, lines in loops(body):
        n = sum(1 for l in lines if re.match(r"^\s*%s\s" % mnemonic, l))
        if n == count and (best is None or len(lines) < len(best)):
            best = lines
    if best is None:
        sys.exit("no loop with %d x %s in %s" % (count, mnemonic, func))
    return clean(best)


def mca(mca_bin, cpu, body):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(body) + "\n")
        path = f.name
    r = subprocess.run([mca_bin, "-mtriple=aarch64", "-mcpu=" + cpu, "-iterations=1000", path],
                       capture_output=True, text=True)
    os.unlink(path)
    m = re.search(r"Total Cycles:\s+(\d+)", r.stdout)
    if not m:
        sys.exit("llvm-mca failed for %s:\n%s" % (cpu, r.stderr))
    return int(m.group(1)) / 1000.0


def object_loop(cc, src, branch):
    """The loop of an assembly source as assembled (its assembler macros
    expanded): from the target of the backward branch `branch` (mnemonic and
    register, e.g. "cbnz x5") to that branch, as llvm-mca input."""
    obj = tempfile.NamedTemporaryFile(suffix=".o", delete=False).name
    if cc == "clang":
        cmd = ["clang", "--target=aarch64-linux-gnu"]
    else:
        cmd = ["aarch64-linux-gnu-gcc"]
    subprocess.run(cmd + ["-I" + ROOT, "-c", "-o", obj, src], check=True)
    dis = subprocess.run(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", obj],
                         check=True, capture_output=True, text=True).stdout
    os.unlink(obj)
    insns = [(int(m.group(1), 16), m.group(2), m.group(3).split("<")[0].strip())
             for m in re.finditer(r"^\s*([0-9a-f]+):\s+(\S+)[ \t]*(.*)$", dis, re.M)]
    mnem, reg = branch.split()
    for i, (addr, op, args) in enumerate(insns):
        if op == mnem and args.startswith(reg + ","):
            target = int(args.split(",")[-1].strip(), 16)
            if target < addr:
                first = [a for a, _, _ in insns].index(target)
                body = ["%s\t%s" % (o, a) for _, o, a in insns[first:i]]
                return [".Lm:"] + body + ["%s\t%s, .Lm" % (op, reg)]
    sys.exit("no backward %s in %s" % (branch, src))


def func_body(asm, func):
    m = re.search(r"^%s:[^\n]*\n(.*?)^\s*\.size\s+%s," % (re.escape(func), re.escape(func)), asm, re.S | re.M)
    if not m:
        sys.exit("function %s not found" % func)
    return func + ":\n" + m.group(1)


def count(lines, mnemonic):
    return sum(1 for l in lines if re.match(r"^\s*%s\s" % mnemonic, l))


def generic_aes(cc, mca_bin, cpus):
    """Bitsliced generic AES-128 (impl/generic/aes_generic.c): encrypt8() does 8
    blocks at once with a loop over rounds 1..nr-1. llvm-mca runs straight-line
    code, so: C8 = encrypt8 as one pass (its round loop once) + 8 more round-loop
    bodies (nr - 1 = 9 rounds). CTR adds gen_ctr's batch loop (which holds one
    pass of its 8-iteration counter loop: + 7 more). XTS and CBC-enc are given
    as lower bounds from C8 alone (XTS: C8 per 8 blocks; CBC-enc: C8 per block,
    since each block goes through a padded 8-block batch)."""
    asm = compile_asm(cc, os.path.join(ROOT, "impl/generic/aes_generic.c"), [])
    enc8 = func_body(asm, "encrypt8")
    rnd = max((l for _, l in loops(enc8)), key=lambda l: count(l, "eor"))
    ctr_loops = loops(func_body(asm, "gen_ctr"))
    batch = max((l for _, l in ctr_loops), key=len)
    ctr_inner = min((l for _, l in ctr_loops), key=len)
    out = {"ctr": [], "xts": [], "cbc": []}
    for c in cpus:
        c8 = mca(mca_bin, c, clean(enc8.splitlines())) + 8 * mca(mca_bin, c, clean(rnd))
        over = mca(mca_bin, c, clean(batch)) + 7 * mca(mca_bin, c, clean(ctr_inner))
        out["ctr"].append((c8 + over) / 128)
        out["xts"].append(c8 / 128)
        out["cbc"].append(c8 / 16)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--mca", default="llvm-mca-14")
    ap.add_argument("--cpus", default="cortex-a53,cortex-a72,neoverse-n1,neoverse-v1")
    a = ap.parse_args()
    cpus = a.cpus.split(",")
    neon = compile_asm(a.cc, os.path.join(ROOT, "impl/arm64/aes_neon.c"), ["-march=armv8-a+crypto"])
    # (row label, loop body, work units per iteration, unit)
    rows = [
        ("neon AES-128-CTR, 8 blocks/iter", pick(neon, "neon_ctr", "aese", 80), 128, "c/B"),
        ("neon AES-128-CTR, 4 blocks/iter", pick(neon, "neon_ctr", "aese", 40), 64, "c/B"),
        ("neon AES-128-XTS enc, 8 blocks/iter", pick(neon, "neon_xts_encrypt", "aese", 80), 128, "c/B"),
        ("neon AES-128-XTS enc, 4 blocks/iter", pick(neon, "neon_xts_encrypt", "aese", 40), 64, "c/B"),
        ("neon AES-128-CBC enc (one chain)", pick(neon, "neon_cbc_encrypt", "aese", 10), 16, "c/B"),
        ("neon AES-128-GCM enc, 8 blocks/iter", pick(neon, "neon_gcm_encrypt", "aese", 80), 128, "c/B"),
        ("neon AES-128-GCM dec, 8 blocks/iter", pick(neon, "neon_gcm_decrypt", "aese", 80), 128, "c/B"),
        ("neon GHASH, 8 blocks/iter", pick(neon, "neon_ghash", "pmull2?", 26), 128, "c/B"),
    ]
    rows.append(("armv8-asm muladd, 8 limbs/iter",
                 object_loop(a.cc, os.path.join(ROOT, "impl/arm64/mpi_armv8.S"), "cbnz x5"), 8, "c/limb"))
    # The generic C kernels, built as the library builds them (no target flags).
    gen_mpi = compile_asm(a.cc, os.path.join(ROOT, "impl/generic/mpi_generic.c"), [])
    rows.append(("generic C muladd, 4 limbs/iter",
                 pick(gen_mpi, "hwc_mpi_generic_muladd_u128", "umulh", 4), 4, "c/limb"))
    print("| loop (%s -O3, %s) | unit | %s |" % (a.cc, a.mca, " | ".join(cpus)))
    print("|---|---|" + "---|" * len(cpus))
    for label, body, work, unit in rows:
        cyc = [mca(a.mca, c, body) for c in cpus]
        print("| %s | %s | %s |" % (label, unit, " | ".join("%.2f" % (x / work) for x in cyc)))
    g = generic_aes(a.cc, a.mca, cpus)
    for key, label in (("ctr", "generic C AES-128-CTR (bitsliced, 8 blocks/batch)"),
                       ("xts", "generic C AES-128-XTS enc, lower bound (cipher only)"),
                       ("cbc", "generic C AES-128-CBC enc, lower bound (1 batch/block)")):
        print("| %s | c/B | %s |" % (label, " | ".join("%.2f" % x for x in g[key])))

if __name__ == "__main__":
    main()
