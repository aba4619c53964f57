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
# as GNU sha256sum: a malformed line is counted, and fails only with --strict
expect_rc 0 "check malformed line" "$bin" hash streebog512 --check "$tmp/mixed.sum"
grep -q "improperly formatted" "$tmp/err" && ok || bad "malformed line warning"
expect_rc 1 "check malformed line --strict" "$bin" hash streebog512 --check --strict "$tmp/mixed.sum"
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
cp "$tmp/err" "$tmp/bench-probe"

# --help and --version: on stdout, exit 0
for args in "--help" "help" "--version" "version" "hash --help" "hash streebog512 --help" "hash streebog512 --version"; do
  expect_rc 0 "$args" "$bin" $args
  [ -s "$tmp/out" ] && ok || bad "$args prints nothing"
done
grep -q "hwcrypt.* [0-9]*\.[0-9]*\.[0-9]*" "$tmp/out" && ok || bad "--version names hwcrypt and a version"

# --check reads lines of any length: a comment longer than any buffer cannot
# smuggle a checksum line in behind it
{ printf '#%08200d' 0; printf '%s  %s\n' "$m1_512" "$tmp/m1"; } >"$tmp/long.sum"
expect_rc 1 "long comment line" "$bin" hash streebog512 -c "$tmp/long.sum"
grep -q "OK" "$tmp/out" && bad "long comment line verified a file" || ok
grep -q "no properly formatted" "$tmp/err" && ok || bad "long comment: no formatted lines message"
# and a checksum line with a long name is read whole
longname=$tmp/$(printf 'n%.0s' $(seq 200))
cp "$tmp/m1" "$longname"
printf '%s  %s\n' "$m1_512" "$longname" >"$tmp/longname.sum"
expect_rc 0 "long name line" "$bin" hash streebog512 -c "$tmp/longname.sum"
# BSD lines as --tag writes them and as rhash --bsd writes them (GOST12-512)
expect_rc 0 "tag" "$bin" hash streebog512 --tag "$tmp/m1"
grep -qx "STREEBOG-512 ($tmp/m1) = $m1_512" "$tmp/out" && ok || bad "tag line: $(cat "$tmp/out")"
cp "$tmp/out" "$tmp/tag.sum"
expect_rc 0 "check tag line" "$bin" hash streebog512 -c "$tmp/tag.sum"
printf 'GOST12-256 (%s) = %s\n' "$tmp/m1" "$m1_256" >"$tmp/rhash.sum"
expect_rc 0 "check rhash tag line" "$bin" hash streebog256 -c "$tmp/rhash.sum"
# gost12sum's one-space lines
printf '%s %s\n' "$m1_256" "$tmp/m1" >"$tmp/onespace.sum"
expect_rc 0 "check one-space line" "$bin" hash streebog256 -c "$tmp/onespace.sum"
grep -q ": OK" "$tmp/out" && ok || bad "one-space line verified"
# read errors on the list and write errors on stdout exit 1
expect_rc 1 "list is a directory" "$bin" hash streebog512 -c "$tmp"
grep -q "read error" "$tmp/err" && ok || bad "list read error message"
expect_rc 1 "write error on stdout" sh -c "'$bin' hash streebog512 '$tmp/m1' >/dev/full"
expect_rc 1 "write error on check output" sh -c "'$bin' hash streebog512 -c '$tmp/good.sum' >/dev/full"
expect_rc 1 "write error on info" sh -c "'$bin' info >/dev/full"

# info --json is valid UTF-8 JSON whatever bytes HWCRYPT_KERNEL holds
for v in "$(printf 'aes=\377\376,\001"\\x')" "$(printf '\303\251\355\240\200\360\237\230\200\300\257')" "$(printf 'a\tb\177')"; do
  HWCRYPT_KERNEL=$v "$bin" info --json >"$tmp/out" 2>/dev/null
  if python3 -c 'import sys, json
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
assert isinstance(d["HWCRYPT_KERNEL"], str) and d["families"]' "$tmp/out"; then ok; else bad "info --json with HWCRYPT_KERNEL=$(printf %q "$v")"; fi
done

# bench refuses NaN, infinities, non-numbers and out-of-range values (fast, before any timing);
# a build without the benchmark (-DHWC_BUILD_BENCH=OFF) says so instead, and is reported
if grep -q "no benchmark" "$tmp/bench-probe"; then
  echo "cli: this hwcrypt has no benchmark (HWC_BUILD_BENCH=OFF): bench option checks not run"
else
  for a in "--batch-ms nan" "--batch-ms inf" "--batch-ms -inf" "--batch-ms 1e400" "--batch-ms abc" \
           "--batch-ms 0" "--batch-ms -1" "--batch-ms 2ms" "--rounds 32" "--rounds 0" "--rounds 5.5" \
           "--rounds x" "--rounds 99999999999999999999"; do
    expect_rc 2 "bench $a" timeout 10 "$bin" bench $a
    grep -q "refused" "$tmp/err" && ok || bad "bench $a message"
  done
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
