#!/usr/bin/env bash
# Runs the provider's EVP test once per usable kernel of the aes and streebog
# families, forced through HWCRYPT_KERNEL (the provider reads it when it
# loads). With aes=generic the test checks that no AES algorithm is offered.
# Usage: each_kernel.sh provider_evp_test hwcrypt
set -u
evp=$1 cli=$2
fail=0 ran=""
for fam in aes streebog; do
  kernels=$("$cli" info --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(k["name"] for k in d["families"][sys.argv[1]]["kernels"] if k["usable"]))' "$fam")
  skipped=$("$cli" info --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(", ".join("%s (missing %s)" % (k["name"], k["missing"]) for k in d["families"][sys.argv[1]]["kernels"] if not k["usable"]))' "$fam")
  for k in $kernels; do
    if HWCRYPT_KERNEL="$fam=$k" "$evp" >/tmp/each_kernel.$$ 2>&1; then
      ran="$ran $fam=$k"
    else
      fail=1
      echo "FAIL: HWCRYPT_KERNEL=$fam=$k"
      cat /tmp/each_kernel.$$
    fi
  done
  echo "[$fam] ran through the provider:$(echo " $kernels"); not usable here: ${skipped:-none}"
done
rm -f /tmp/each_kernel.$$
[ -n "$ran" ] || { echo "FAIL: no kernel ran"; exit 1; }
exit $fail
