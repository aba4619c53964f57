#!/bin/sh
# Times this tree against a baseline commit row by row in ONE process
# (bench/ab_main.c): both libraries are linked into one program, the
# baseline's symbols renamed, and their batches alternate in every round, so
# a shared machine's slow phases hit both alike. Default baseline: the 0.1
# release (d269ae7).
#   usage: scripts/ab-baseline.sh [COMMIT [hwcrypt-ab options: --rounds N --batch-ms MS --family F --only TEXT[|TEXT...] --more]]
# Work files go to $AB_WORK (default /tmp/hwcrypt-ab). Needs git, cmake, ninja,
# binutils and the Debian packages of scripts/deps.sh.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-d269ae7}
[ $# -gt 0 ] && shift
work=${AB_WORK:-/tmp/hwcrypt-ab}
cc=${CC:-cc}
# Both libraries and both copies of bench/ab_ops.c are built with functions,
# loops and jump-only branch targets on 64-byte boundaries (no padding on a
# path that runs): a 20-40-cycle call moves by up to 20% with where the
# linker happens to place it (two copies of the SAME source measured
# 0.8-1.2x on 16-64-byte rows with default alignment).
align=${AB_ALIGN:--falign-functions=64 -falign-jumps=64 -falign-loops=64}
rm -rf "$work/base-src"
mkdir -p "$work/base-src"
git -C "$root" archive "$base" | tar -x -C "$work/base-src"
for t in base new; do
    src=$root
    [ $t = base ] && src=$work/base-src
    cmake -S "$src" -B "$work/$t" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$align" >/dev/null
    cmake --build "$work/$t" --target hwcrypt_static >/dev/null
done
cmake --build "$work/new" --target hwc_bench >/dev/null
# every global the baseline defines gets the prefix hwcbase_, in its objects
# and (by macros) in its headers as ab_ops.c sees them
nm -g --defined-only "$work/base/libhwcrypt.a" | awk 'NF == 3 { print $3 }' | sort -u >"$work/base.syms"
awk '{ print $1 " hwcbase_" $1 }' "$work/base.syms" >"$work/base.map"
awk '{ print "#define " $1 " hwcbase_" $1 }' "$work/base.syms" >"$work/base_rename.h"
objcopy --redefine-syms="$work/base.map" "$work/base/libhwcrypt.a" "$work/libhwcbase.a"
flags="-O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra $align"
# the 0.2 rows (GCM, CBC over many messages) where the baseline has them
v02=""
grep -rqs hwc_aes_gcm_setkey "$work/base-src/include" && v02=-DAB_V02
$cc $flags -I"$root/include" -DAB_V02 -DAB_PREFIX=new_ -c "$root/bench/ab_ops.c" -o "$work/ab_ops_new.o"
$cc $flags -I"$work/base-src/include" -include "$work/base_rename.h" $v02 -DAB_PREFIX=base_ \
    -c "$root/bench/ab_ops.c" -o "$work/ab_ops_base.o"
$cc $flags -I"$root/include" -I"$root/bench" "$root/bench/ab_main.c" "$work/ab_ops_new.o" "$work/ab_ops_base.o" \
    "$work/new/bench/libhwc_bench.a" "$work/new/libhwcrypt.a" "$work/libhwcbase.a" \
    -lcpu_features -ldl -lm -o "$work/hwcrypt-ab"
echo "baseline $base ($(git -C "$root" log -1 --format=%h "$base")) against $(git -C "$root" describe --always --dirty)"
"$work/hwcrypt-ab" "$@"
