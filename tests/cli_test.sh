#!/usr/bin/env bash
# The hwcrypt command: hash (files, stdin, --check), info, selftest, and its
# error paths (missing file, directory, bad checksum lines, bad usage).
# Usage: cli_test.sh /path/to/hwcrypt
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() {  # want_rc description command...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, wanted $want"; cat "$tmp/err"; fi
}
# RFC 6986 section 10.1 M1, digests as API.md prints them
m1_512=1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48
m1_256=9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500
printf '%s' 012345678901234567890123456789012345678901234567890123456789012 >"$tmp/m1"

expect_rc 0 "hash file" "$bin" hash streebog512 "$tmp/m1"
grep -qx "$m1_512  $tmp/m1" "$tmp/out" && ok || bad "streebog512 digest line: $(cat "$tmp/out")"
expect_rc 0 "hash 256" "$bin" hash streebog256 "$tmp/m1"
grep -qx "$m1_256  $tmp/m1" "$tmp/out" && ok || bad "streebog256 digest line"
"$bin" hash streebog512 <"$tmp/m1" >"$tmp/out" 2>&1 && grep -qx "$m1_512  -" "$tmp/out" && ok || bad "stdin (no file)"
"$bin" hash streebog512 - <"$tmp/m1" >"$tmp/out" 2>&1 && grep -qx "$m1_512  -" "$tmp/out" && ok || bad "stdin (-)"

# a large file streams in pieces: same digest as through a pipe in odd chunks
head -c 3000001 /dev/zero | tr '\0' 'x' >"$tmp/big"
a=$("$bin" hash streebog256 "$tmp/big" | cut -d' ' -f1)
b=$(dd if="$tmp/big" bs=7919 status=none | "$bin" hash streebog256 | cut -d' ' -f1)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "large file vs pipe: $a / $b"

# --check: good, mismatching, unreadable and malformed lines
printf '%s  %s\n' "$m1_512" "$tmp/m1" >"$tmp/good.sum"
expect_rc 0 "check good" "$bin" hash streebog512 --check "$tmp/good.sum"
grep -q ": OK" "$tmp/out" && ok || bad "check good prints OK"
printf '%s  %s\n' "${m1_512/1b/1c}" "$tmp/m1" >"$tmp/bad.sum"
expect_rc 1 "check mismatch" "$bin" hash streebog512 --check "$tmp/bad.sum"
grep -q ": FAILED" "$tmp/out" && ok || bad "check mismatch prints FAILED"
printf '%s  %s\n' "$m1_512" "$tmp/nonexistent" >"$tmp/missing.sum"
expect_rc 1 "check missing file" "$bin" hash streebog512 --check "$tmp/missing.sum"
printf 'not a checksum line\n%s  %s\n' "$m1_512" "$tmp/m1" >"$tmp/mixed.sum"
expect_rc 1 "check malformed line" "$bin" hash streebog512 --check "$tmp/mixed.sum"
grep -q "improperly formatted" "$tmp/err" && ok || bad "malformed line warning"
printf '%s  %s\n' "$m1_256" "$tmp/m1" >"$tmp/short.sum"
expect_rc 1 "256-bit line checked as 512" "$bin" hash streebog512 --check "$tmp/short.sum"
expect_rc 1 "check list missing" "$bin" hash streebog512 --check "$tmp/nolist"

# errors: missing file, directory, unknown algorithm, bad usage
expect_rc 1 "missing file" "$bin" hash streebog512 "$tmp/nonexistent"
grep -q "nonexistent" "$tmp/err" && ok || bad "missing file message"
expect_rc 1 "directory" "$bin" hash streebog512 "$tmp"
grep -q "Is a directory" "$tmp/err" && ok || bad "directory message"
expect_rc 1 "one bad file among good" "$bin" hash streebog512 "$tmp/m1" "$tmp/nonexistent"
grep -q "$m1_512" "$tmp/out" && ok || bad "good file still hashed"
expect_rc 2 "unknown algorithm" "$bin" hash sha1 "$tmp/m1"
expect_rc 2 "no algorithm" "$bin" hash
expect_rc 2 "unknown command" "$bin" frobnicate
expect_rc 2 "no command" "$bin"
expect_rc 2 "info bad option" "$bin" info --bogus

# info and selftest
expect_rc 0 "info" "$bin" info
grep -q "^aes: active" "$tmp/out" && grep -q "^streebog: active" "$tmp/out" && grep -q "^mpi: active" "$tmp/out" && ok || bad "info lists families"
expect_rc 0 "info --json" "$bin" info --json
grep -q '"families":{"aes":{"active":' "$tmp/out" && ok || bad "info --json shape"
HWCRYPT_KERNEL=aes=nosuch "$bin" info >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -q "aes=nosuch" "$tmp/err" && grep -q "HWCRYPT_KERNEL error" "$tmp/out" && ok || bad "info with bad HWCRYPT_KERNEL"
expect_rc 0 "selftest" "$bin" selftest
expect_rc 2 "bench bad option" "$bin" bench --bogus

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
