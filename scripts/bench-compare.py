#!/usr/bin/env python3
"""Compare two builds of hwcrypt row by row: `bench-compare.py OLD NEW [ROUNDS]
[bench options...]` runs `OLD bench --json` and `NEW bench --json` alternately
ROUNDS times each (same sitting), takes the median cycles per unit of every row
the two have in common (rows of our kernels, not peers), and prints the rows
ordered by NEW/OLD (a ratio above 1 is slower)."""
import json, statistics, subprocess, sys

def run(binary, opts):
    out = subprocess.run([binary, "bench", "--json"] + opts, capture_output=True, text=True, check=True).stdout
    rows = json.loads(out)["rows"]
    return {(r["family"], r["op"], r["size"], r["impl"]): r["cycles_per_unit"] for r in rows if not r["peer"]}

def main():
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    opts = sys.argv[4:] or ["--full"]
    samples = {old: {}, new: {}}
    for _ in range(rounds):
        for b in (old, new):
            for k, v in run(b, opts).items():
                samples[b].setdefault(k, []).append(v)
    common = sorted(set(samples[old]) & set(samples[new]))
    ratios = []
    for k in common:
        o, n = statistics.median(samples[old][k]), statistics.median(samples[new][k])
        ratios.append((n / o, k, o, n))
    ratios.sort(reverse=True)
    print("| family | op | size | kernel | before | after | after/before |")
    print("|---|---|---|---|---|---|---|")
    for r, k, o, n in ratios:
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {o:.4g} | {n:.4g} | {r:.3f} |")
    slower = [x for x in ratios if x[0] > 1.02]
    print(f"\n{len(common)} rows compared, {len(slower)} slower by more than 2%, median ratio "
          f"{statistics.median([x[0] for x in ratios]):.3f}")

if __name__ == "__main__":
    main()
