#!/usr/bin/env bash
# `cmake --install` into a scratch prefix puts hwcrypt.so in the modules
# directory under that prefix (loadable by name from there) and both man
# pages in place. Usage: install_test.sh BUILD_DIR MODULESDIR_RELATIVE
set -u
# openssl with the sanitizer runtimes preloaded when the module is built with them
openssl() { LD_PRELOAD="${HWC_OPENSSL_PRELOAD:-${LD_PRELOAD:-}}" command openssl "$@"; }
build=$1 rel=$2
case $rel in /*)
  echo "SKIP: HWC_OSSL_MODULESDIR=$rel is absolute: installing would write outside a scratch prefix"
  exit 77 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cmake --install "$build" --prefix "$tmp" >"$tmp/log" 2>&1 || { echo "FAIL: cmake --install"; cat "$tmp/log"; exit 1; }
mod=$tmp/$rel
for f in "$mod/hwcrypt.so" "$tmp/share/man/man1/hwcrypt.1" "$tmp/share/man/man7/hwcrypt-provider.7"; do
  [ -f "$f" ] || { echo "FAIL: not installed: $f"; fail=1; }
done
OPENSSL_MODULES=$mod openssl list -providers -provider hwcrypt 2>&1 | grep -q "hwcrypt provider (kernels:" ||
  { echo "FAIL: installed module does not load by name from $mod"; fail=1; }
if command -v groff >/dev/null; then
  for m in man/man1/hwcrypt.1 man/man7/hwcrypt-provider.7; do
    out=$(groff -man -ww -z "$tmp/share/$m" 2>&1)
    [ -z "$out" ] || { echo "FAIL: groff warnings in $m: $out"; fail=1; }
  done
fi
[ $fail = 0 ] && echo "install: module and man pages in place"
exit $fail
