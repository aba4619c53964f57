#!/usr/bin/env bash
# CI leg for AArch64 (issue 5): cross-compile hwcrypt on this x86-64 Debian 12 host
# and run the Criterion suite under qemu-user.  Called by .ci/run; also runs alone:
#
#   bash .ci/arm64.sh                 # everything below
#   ARM64_SKIP_CLANG=1 bash .ci/arm64.sh   # gcc build only (quicker local loop)
#
# Steps: (1) host packages if missing, (2) arm64 sysroot at $ARM64_SYSROOT if
# missing, (3) gcc build with -Werror, ctest on qemu "max", "cortex-a53" and with
# HWCRYPT_KERNEL=generic, `hwcrypt info` on both CPU models, (4) clang build,
# ctest on "max".  See docs/arm64.md.  Setup and build errors stop the script at
# once; failing test passes are all run, listed at the end, and make it exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."

ARM64_SYSROOT=${ARM64_SYSROOT:-/opt/arm64-sysroot}
SUITE=${ARM64_SUITE:-bookworm}
# Only what the library and the tests need. Bench peers are optional and the
# bench is not run under emulation (libgit2-dev, pulled in by libcriterion-dev,
# happens to bring libssl-dev and libmbedtls-dev, which the bench then links).
SYSROOT_PKGS=libc6-dev,libcpu-features-dev,libcriterion-dev
JOBS=$(nproc)
t0=$SECONDS
log() { printf '[arm64 +%ds] %s\n' "$((SECONDS - t0))" "$*"; }

# Debian mirror for the sysroot: the first one this host's apt already uses
# (deb822 "URIs:" lines or one-line "deb" entries), unless given.
host_mirror() {  # $1 = regex the URI must match
  cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    awk '/^URIs:/ {print $2}
         /^deb / {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}' |
    grep -E "$1" | head -n 1 || true
}

# ---- 1. host tools (cross gcc + binutils, qemu-user, mmdebstrap, clang) ---------
need=()
pkgs=(gcc-aarch64-linux-gnu qemu-user mmdebstrap)
[ "${ARM64_SKIP_CLANG:-0}" = 1 ] || pkgs+=(clang)   # clang drives binutils' aarch64 ld
for pkg in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q -o DPkg::Lock::Timeout=300 >/dev/null
  apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "${need[@]}" >/dev/null
fi

# ---- 2. arm64 sysroot -----------------------------------------------------------
# A plain folder of unpacked arm64 .debs (mmdebstrap --variant=extract).  Not
# `dpkg --add-architecture arm64`: apt would then remove the host's
# libcriterion-dev (its libnanomsg5 versions differ between amd64 and arm64).
stamp="$SUITE $SYSROOT_PKGS v1"
if [ "$(cat "$ARM64_SYSROOT/.sysroot-stamp" 2>/dev/null)" != "$stamp" ]; then
  MIRROR=${ARM64_MIRROR:-$(host_mirror '/debian/?$')}
  SECURITY=${ARM64_SECURITY_MIRROR:-$(host_mirror 'debian-security/?$')}
  [ -n "$MIRROR" ] || { echo "arm64.sh: no Debian mirror in /etc/apt; set ARM64_MIRROR" >&2; exit 1; }
  sources=("deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main")
  [ -n "$SECURITY" ] && sources+=("deb $SECURITY $SUITE-security main")
  log "building sysroot $ARM64_SYSROOT from $MIRROR"
  tmp="$ARM64_SYSROOT.tmp"
  rm -rf "$tmp"
  mkdir -p "$(dirname "$ARM64_SYSROOT")"
  # Suite and sources on the command line (else mmdebstrap reads stdin); the
  # Valid-Until override keeps a dated snapshot mirror usable.
  mmdebstrap --quiet --arch=arm64 --variant=extract --include="$SYSROOT_PKGS" \
    --aptopt='Acquire::Check-Valid-Until "false"' "$SUITE" "$tmp" "${sources[@]}" </dev/null
  # Absolute symlinks (libm.so -> /lib/aarch64-linux-gnu/libm.so.6) would point
  # into the host inside a sysroot, and -lm would silently pick the static libm:
  # make them relative.
  for top in usr lib; do
    [ -d "$tmp/$top" ] || continue
    find "$tmp/$top" -type l -lname '/*' -print0 |
      while IFS= read -r -d '' link; do
        ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$tmp$(readlink "$link")")" "$link"
      done
  done
  echo "$stamp" >"$tmp/.sysroot-stamp"
  rm -rf "$ARM64_SYSROOT"
  mv "$tmp" "$ARM64_SYSROOT"
fi
log "sysroot ready"

# ---- 3./4. builds and test runs ------------------------------------------------
ulimit -c 0        # qemu would leave a qemu_*.core per crashing test otherwise
unset QEMU_CPU     # an empty QEMU_CPU makes qemu refuse to start; default = max

# The bench is not run under emulation (timings would be meaningless). The gcc
# build compiles it (`hwcrypt bench` on ARM64); the clang build leaves it out,
# so that a build without it (-DHWC_BUILD_BENCH=OFF: the CLI then has no
# `bench`) is built with -Werror too.
configure_build() {  # $1 = gcc|clang, $2 = HWC_BUILD_BENCH
  local dir=build-arm64-$1 bench=$2
  log "configure + build ($1, -Werror, bench=$bench)"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DARM64_SYSROOT="$ARM64_SYSROOT" -DARM64_COMPILER="$1" \
    -DHWC_WERROR=ON -DHWC_BUILD_BENCH=$bench >"$dir.configure.log" ||
    { cat "$dir.configure.log"; exit 1; }
  cmake --build "$dir" -j"$JOBS"
}

# Test passes keep going after a failure (so one run shows every broken
# configuration); the script exits non-zero at the end if any failed.
failures=()
run_ctest() {  # $1 = build dir, $2 = label, rest = extra ctest args
  local dir=$1 label=$2
  shift 2
  log "ctest $dir: $label"
  ctest --test-dir "$dir" --output-on-failure -j"$JOBS" "$@" || failures+=("ctest $dir: $label")
}

# `hwcrypt info` under qemu: which kernels exist, which are usable, and why not;
# then the active aes/mpi kernels from `info --json` must be the expected ones.
show_info() {  # $1 = build dir, $2 = qemu cpu model, $3 = expected aes, $4 = expected mpi
  local cli=$1/tools/hwcrypt json aes mpi
  [ -x "$cli" ] || { log "no $cli (tools not built)"; return 0; }
  log "hwcrypt info on qemu -cpu $2${HWCRYPT_KERNEL:+ (HWCRYPT_KERNEL=$HWCRYPT_KERNEL)}"
  qemu-aarch64 -cpu "$2" -L "$ARM64_SYSROOT" "$cli" info
  json=$(qemu-aarch64 -cpu "$2" -L "$ARM64_SYSROOT" "$cli" info --json)
  aes=$(grep -o '"aes":{"active":"[^"]*"' <<<"$json" | sed 's/.*"active":"//; s/"$//' || true)
  mpi=$(grep -o '"mpi":{"active":"[^"]*"' <<<"$json" | sed 's/.*"active":"//; s/"$//' || true)
  if [ "$aes" != "$3" ] || [ "$mpi" != "$4" ]; then
    echo "arm64.sh: on $2 active aes=$aes mpi=$mpi, expected aes=$3 mpi=$4" >&2
    failures+=("hwcrypt info on $2: aes=$aes mpi=$mpi, expected $3/$4")
    return 0
  fi
  log "active on $2: aes=$aes mpi=$mpi (as expected)"
}

configure_build gcc ON
# qemu 7.2 gives every model AES+PMULL, so neon is usable on both.
show_info build-arm64-gcc max neon armv8-asm
show_info build-arm64-gcc cortex-a53 neon armv8-asm
HWCRYPT_KERNEL=generic show_info build-arm64-gcc cortex-a53 generic generic
run_ctest build-arm64-gcc "qemu -cpu max (AES, PMULL, SHA3/EOR3, SVE...)"
QEMU_CPU=cortex-a53 run_ctest build-arm64-gcc \
  "qemu -cpu cortex-a53 (AES, PMULL, SHA1/2 only: SHA3/EOR3 would SIGILL)"
# Default choice forced to the portable kernels (test_env sets its own cases;
# the per-kernel suites still select every usable kernel explicitly).
HWCRYPT_KERNEL=generic run_ctest build-arm64-gcc "HWCRYPT_KERNEL=generic"

if [ "${ARM64_SKIP_CLANG:-0}" != 1 ]; then
  configure_build clang OFF
  run_ctest build-arm64-clang "clang build, qemu -cpu max"
fi
log "done in $((SECONDS - t0)) s"
if [ ${#failures[@]} -gt 0 ]; then
  printf 'arm64.sh FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
