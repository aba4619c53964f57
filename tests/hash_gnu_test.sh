#!/usr/bin/env bash
# `hwcrypt hash streebog512` against GNU sha256sum on the same cases: every
# option, escaping, --check line shapes and error paths. Each case runs once
# per tool in a fresh directory with the same files; lists are written by the
# tool itself and then edited the same way. Exit codes must be equal; stdout
# and stderr must be equal after digests, program and algorithm names are
# replaced by placeholders.
# Usage: hash_gnu_test.sh /path/to/hwcrypt
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! sha256sum --version 2>/dev/null | grep -q 'GNU coreutils'; then
  echo "SKIP: GNU sha256sum (coreutils) not found: no reference to compare with"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
nl=$(printf 'n\nl') cr=$(printf 'c\rr')

setup() {
  printf abc >a; printf 'second file' >b; printf x >'b\c'; printf y >"$nl"; printf z >"$cr"
  printf q >'x y'; printf w >"it's"; printf e >zz
}
normalize() {
  sed -E -e 's/[0-9a-fA-F]{64}([0-9a-fA-F]{64})?/<HEX>/g' -e "s/hwcrypt hash/<PROG>/g" \
      -e "s/sha256sum/<PROG>/g" -e "s/hwcrypt/<PROG>/g" -e 's/STREEBOG-512|SHA256/<TAG>/g' "$1"
}
# corrupt the first hex digit of line $1 of list $2 (a mismatch, still well formed)
flip() { sed -i -E "$1{s/^0/1/;t;s/^[0-9a-f]/0/}" "$2"; }

case_() {  # description, shell text using $H (the hashing command)
  local what=$1 script=$2 side
  for side in gnu hwc; do
    rm -rf "$tmp/$side"; mkdir "$tmp/$side"
    (
      cd "$tmp/$side" || exit 99
      setup
      if [ $side = gnu ]; then H=sha256sum; else H="$bin hash streebog512"; fi
      export H
      eval "$script" >"$tmp/$side.out" 2>"$tmp/$side.err"
      echo $? >"$tmp/$side.rc"
    )
    normalize "$tmp/$side.out" >"$tmp/$side.nout"
    normalize "$tmp/$side.err" >"$tmp/$side.nerr"
  done
  local g h
  g=$(cat "$tmp/gnu.rc") h=$(cat "$tmp/hwc.rc")
  if [ "$g" = "$h" ] && cmp -s "$tmp/gnu.nout" "$tmp/hwc.nout" && cmp -s "$tmp/gnu.nerr" "$tmp/hwc.nerr"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $what: exit gnu $g, hwcrypt $h"
    diff "$tmp/gnu.nout" "$tmp/hwc.nout" | sed 's/^/  stdout: /'
    diff "$tmp/gnu.nerr" "$tmp/hwc.nerr" | sed 's/^/  stderr: /'
  fi
}

# printing
case_ "files" '$H a b'
case_ "stdin" 'printf abc | $H'
case_ "stdin as -" 'printf abc | $H -'
case_ "binary mark" '$H -b a; $H --binary b'
case_ "text mark" '$H -t a'
case_ "tag" '$H --tag a b'
case_ "tag escaped names" '$H --tag "b\c" "$nl" "$cr"'
case_ "escaped names" '$H "b\c" "$nl" "$cr" a'
case_ "zero" '$H -z a "b\c" "$nl" | tr "\0" "|"'
case_ "zero tag" '$H -z --tag a "$nl" | tr "\0" "|"'
case_ "options after files" '$H a --tag b'
case_ "-- ends options" '$H -- a'
case_ "missing file" '$H nofile a'
case_ "quoted names in messages" '$H "no such" "it'"'"'s missing" "$(printf "c\001d")"'
case_ "directory" '$H . a'
case_ "write error" '$H a >/dev/full'
case_ "write error tag" '$H --tag a b >/dev/full'
# --check: line shapes
case_ "check two-space" '$H a b "b\c" "$nl" "$cr" >l; $H -c l'
case_ "check binary lines" '$H -b a b >l; $H --check l'
case_ "check tag lines" '$H --tag a "b\c" "$nl" "$cr" >l; $H -c l'
case_ "check one-space" '$H a b | sed "s/  / /" >l; $H -c l'
case_ "check one-space after two" '{ $H a; $H b | sed "s/  / /"; } >l; $H -c l'
case_ "check two after one-space" '{ $H b | sed "s/  / /"; $H a; } >l; $H -c l'
case_ "check uppercase hex" '$H zz | tr a-f A-F >l; $H -c l'
case_ "check CRLF, comments, blank lines" '{ echo "# comment"; echo; $H a | sed "s/\$/\r/"; } >l; $H -c l'
case_ "check leading blanks" '$H a | sed "s/^/  /" >l; $H -c l'
case_ "check stdin list" '$H a b | $H -c'
case_ "check two lists" '$H a >l1; $H b >l2; flip 1 l2; $H -c l1 l2'
case_ "check bad escape" '$H "b\c" | sed "s/b\\\\\\\\c/b\\\\q/" >l; cat l; $H -c l'
case_ "check tag wrong length" '$H --tag a | sed "s/.\$//" >l; $H -c l'
case_ "check directory entry" '$H a | sed "s/a\$/./" >l; $H -c l'
# --check: results and the five check options
case_ "mismatch" '$H a b >l; flip 2 l; $H -c l'
case_ "two mismatches" '$H a b >l; flip 1 l; flip 2 l; $H -c l'
case_ "missing listed" '$H a b >l; rm b; $H -c l'
case_ "quiet ok" '$H a b >l; $H -c --quiet l'
case_ "quiet mismatch" '$H a b >l; flip 2 l; $H -c --quiet l'
case_ "status ok" '$H a b >l; $H -c --status l'
case_ "status mismatch" '$H a b >l; flip 2 l; $H -c --status l'
case_ "status missing" '$H a b >l; rm a; $H -c --status l'
case_ "status then warn" '{ echo junk; $H a; } >l; $H -c --status --warn l'
case_ "warn then quiet" '{ echo junk; $H a; } >l; $H -c --warn --quiet l'
case_ "malformed" '{ echo junk; $H a; echo junk2; } >l; $H -c l'
case_ "malformed warn" '{ echo junk; $H a; echo junk2; } >l; $H -c -w l'
case_ "malformed strict" '{ echo junk; $H a; } >l; $H -c --strict l'
case_ "malformed strict warn" '{ $H a; echo junk; } >l; $H -c --strict --warn l'
case_ "strict clean" '$H a >l; $H -c --strict l'
case_ "ignore-missing all missing" '$H a b >l; rm a b; $H -c --ignore-missing l'
case_ "ignore-missing some" '$H a b >l; rm b; $H -c --ignore-missing l'
case_ "ignore-missing mismatch" '$H a b >l; rm b; flip 1 l; $H -c --ignore-missing l'
case_ "ignore-missing status" '$H a b >l; rm a b; $H -c --ignore-missing --status l'
case_ "no formatted lines" 'echo junk | $H -c'
case_ "no formatted lines status" 'echo junk | $H -c --status'
case_ "empty list" '$H -c /dev/null'
case_ "list missing" '$H -c nolist'
case_ "list is a directory" '$H -c .'
case_ "check write error" '$H a b >l; $H -c l >/dev/full'
case_ "long comment hides no checksum" '{ printf "#%08192d" 0; $H a; } | tr -d "\n" >l; echo >>l; $H -c l'
case_ "long name line" '$H a | sed "s/a\$/$(printf "%05000d" 0)/" >l; $H -c l'
# usage errors
case_ "status without check" '$H --status a'
case_ "quiet without check" '$H --quiet a'
case_ "warn without check" '$H --warn a'
case_ "strict without check" '$H --strict a'
case_ "ignore-missing without check" '$H --ignore-missing a'
case_ "tag with check" '$H a >l; $H --tag -c l'
case_ "zero with check" '$H a >l; $H -z -c l'
case_ "binary with check" '$H a >l; $H -b -c l'
case_ "tag with text" '$H --tag -t a'
case_ "unknown long option" '$H --bogus a'
case_ "unknown short option" '$H -q a'

echo "hash vs GNU sha256sum: $pass passed, $fail failed"
[ "$fail" = 0 ]
