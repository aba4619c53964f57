#!/usr/bin/env bash
# `openssl speed -evp` through the hwcrypt provider against the provider a
# user would otherwise get (OpenSSL's default for AES, gost-engine's gostprov
# for Streebog), interleaved round by round in one run; prints a Markdown
# table of median MB/s per block size, core cycles/byte (core clock
# calibrated by `hwcrypt bench`) and the ratio.
# Usage: provider/speed.sh BUILD_DIR [rounds] [seconds]
set -eu
build=$(cd "$1" && pwd) rounds=${2:-5} secs=${3:-1}
hw=(-provider-path "$build/provider" -provider hwcrypt -provider default -propquery '?provider=hwcrypt')
ghz=$("$build/tools/hwcrypt" bench --family streebog --rounds 1 --batch-ms 0.1 2>/dev/null |
      sed -n 's/.*core clock \([0-9.]*\) GHz.*/\1/p' | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # label, algorithm, provider options...
  local label=$1 alg=$2; shift 2
  openssl speed -mr -seconds "$secs" "$@" -evp "$alg" 2>/dev/null | grep '^+F:' | cut -d: -f4- >>"$tmp/$label"
}
for ((r = 0; r < rounds; r++)); do
  run aes_default aes-128-ctr -provider default
  run aes_hwcrypt aes-128-ctr "${hw[@]}"
  run gost_gostprov md_gost12_512 -provider gostprov -provider default
  run gost_hwcrypt md_gost12_512 "${hw[@]}"
done

median() {  # column of a label's file
  cut -d: -f"$2" "$tmp/$1" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo "openssl $(openssl version | cut -d' ' -f2), hwcrypt $("$build/tools/hwcrypt" version | cut -d' ' -f2)," \
     "kernels: $(openssl list -providers -provider-path "$build/provider" -provider hwcrypt | sed -n 's/.*(kernels: \(.*\))/\1/p');" \
     "core clock ${ghz} GHz; medians of $rounds interleaved rounds of ${secs} s (wall time)"
echo
echo "| algorithm | block | peer | peer MB/s | peer c/B | hwcrypt MB/s | hwcrypt c/B | ratio |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
sizes=(16 64 256 1024 8192 16384)
for pair in "aes-128-ctr aes_default aes_hwcrypt default" "md_gost12_512 gost_gostprov gost_hwcrypt gostprov"; do
  set -- $pair
  for i in "${!sizes[@]}"; do
    p=$(median "$2" $((i + 1))) h=$(median "$3" $((i + 1)))
    awk -v a="$1" -v s="${sizes[$i]}" -v peer="$4" -v p="$p" -v h="$h" -v g="$ghz" 'BEGIN {
      printf "| %s | %d | %s | %.0f | %.3f | %.0f | %.3f | %.2fx |\n", a, s, peer, p / 1e6, g * 1e9 / p, h / 1e6, g * 1e9 / h, h / p }'
  done
done
