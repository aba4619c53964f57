#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages hwcrypt needs that are missing.
#   deps.sh build   compiler, CMake, Ninja, cpu_features, Criterion, bench peers
#   deps.sh test    + valgrind, qemu-user (old-CPU and AArch64 runs), clang, llvm,
#                   clang-19 with its sanitizer runtimes and libFuzzer (fuzz/, MSan, TSan)
set -euo pipefail
want=(build-essential cmake ninja-build pkg-config libcpu-features-dev libcriterion-dev
      libssl-dev libmbedtls-dev nettle-dev libgcrypt20-dev libgmp-dev)
# intel-ipsec-mb, a bench peer (multi-buffer CMAC/CBC, GCM): x86-64 only
if [ "$(dpkg --print-architecture)" = amd64 ]; then want+=(libipsec-mb-dev); fi
if [ "${1:-build}" = test ]; then
  want+=(valgrind qemu-user clang llvm gcc-aarch64-linux-gnu mmdebstrap python3 coreutils
         clang-19 libclang-rt-19-dev libfuzzer-19-dev
         openssl libengine-gost-openssl)   # the openssl command and gostprov: provider tests
fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q -o DPkg::Lock::Timeout=300 >/dev/null
$sudo apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
# The downloaded .debs are not needed once installed; on a short disk (CI once
# ran out of space) they go.
avail=$(df -Pm /var/cache/apt | awk 'NR == 2 {print $4}')
if [ "${avail:-0}" -lt 8192 ]; then
  echo "deps: $avail MB free: apt-get clean"; $sudo apt-get clean
fi
