#!/usr/bin/env bash
# The openssl command with the hwcrypt provider: dgst (against `hwcrypt hash`,
# RFC 6986 and gost-engine's gostprov), mac (RFC 7836, RFC 4493, the default
# provider), kdf (R 50.1.111, the default provider's PBKDF2 over gostprov),
# enc round trips and byte-for-byte against the default provider, list, the
# error queue, and a configuration file ([provider_sect]) that makes plain
# `openssl dgst -md_gost12_512` use hwcrypt.
# Usage: openssl_cli_test.sh DIR_OF_hwcrypt.so /path/to/hwcrypt
set -u
# openssl with the sanitizer runtimes preloaded when the module is built with them
openssl() { LD_PRELOAD="${HWC_OPENSSL_PRELOAD:-${LD_PRELOAD:-}}" command openssl "$@"; }
dir=$(cd "$1" && pwd) cli=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
same() {  # description, expected, got
  if [ -n "$2" ] && [ "$2" = "$3" ]; then ok; else bad "$1: wanted '$2', got '$3'"; fi
}
P=(-provider-path "$dir" -provider hwcrypt)
hex() { od -An -v -tx1 | tr -d ' \n'; }
lower() { tr -d ':\n' | tr A-F a-f; }
gost=0
if openssl list -provider gostprov -providers >/dev/null 2>&1; then gost=1; else
  echo "note: gostprov (Debian libengine-gost-openssl, scripts/deps.sh) not installed: its cross-checks not run"
fi
aes=$(openssl list "${P[@]}" -cipher-algorithms 2>/dev/null | grep -c '@ hwcrypt')

# list: name, version and the active kernels
out=$(openssl list "${P[@]}" -providers)
echo "$out" | grep -q "name: hwcrypt provider (kernels: aes=.*, streebog=.*, mpi=" && ok || bad "list -providers: $out"
echo "$out" | grep -q "version: $("$cli" version | cut -d' ' -f2)" && ok || bad "list -providers version: $out"

# dgst: RFC 6986 M1, files of several sizes against hwcrypt hash and gostprov
printf '%s' 012345678901234567890123456789012345678901234567890123456789012 >"$tmp/m1"
same "dgst M1 512" 1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48 \
  "$(openssl dgst "${P[@]}" -md_gost12_512 -r "$tmp/m1" | cut -d' ' -f1)"
same "dgst M1 256" 9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500 \
  "$(openssl dgst "${P[@]}" -md_gost12_256 -r "$tmp/m1" | cut -d' ' -f1)"
for n in 0 1 63 64 65 1000 100000 1048579; do
  head -c $n /dev/urandom >"$tmp/f"
  for b in 256 512; do
    want=$("$cli" hash streebog$b "$tmp/f" | cut -d' ' -f1)
    same "dgst $b of $n bytes vs hwcrypt hash" "$want" "$(openssl dgst "${P[@]}" -md_gost12_$b -r "$tmp/f" | cut -d' ' -f1)"
    same "dgst $b ($n bytes) by OID name" "$want" \
      "$(openssl dgst "${P[@]}" -id-tc26-gost3411-12-$b -r "$tmp/f" 2>/dev/null | cut -d' ' -f1)"
    [ $gost = 1 ] && same "dgst $b of $n bytes vs gostprov" "$want" \
      "$(openssl dgst -provider gostprov -md_gost12_$b -r "$tmp/f" | cut -d' ' -f1)"
  done
done

# mac: HMAC (RFC 7836 4.1.1/4.1.2) and CMAC (RFC 4493 section 4) and against the default provider
k=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
printf '\001\046\275\270\170\000\257\041\103\101\105\145\143\170\001\000' >"$tmp/hm"
same "mac HMAC-512" a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a773d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6 \
  "$(openssl mac "${P[@]}" -digest md_gost12_512 -macopt hexkey:$k -in "$tmp/hm" HMAC | lower)"
same "mac HMAC-256" a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9 \
  "$(openssl mac "${P[@]}" -digest md_gost12_256 -macopt hexkey:$k -in "$tmp/hm" HMAC | lower)"
if [ $gost = 1 ]; then
  head -c 5000 /dev/urandom >"$tmp/f"
  same "mac HMAC-512 vs default HMAC over gostprov" \
    "$(openssl mac -provider gostprov -provider default -digest md_gost12_512 -macopt hexkey:$k$k$k -in "$tmp/f" HMAC)" \
    "$(openssl mac "${P[@]}" -digest md_gost12_512 -macopt hexkey:$k$k$k -in "$tmp/f" HMAC)"
fi
if [ "$aes" -gt 0 ]; then
  : >"$tmp/empty"
  same "mac CMAC RFC 4493 empty" bb1d6929e95937287fa37d129b756746 \
    "$(openssl mac "${P[@]}" -cipher AES-128-CBC -macopt hexkey:2b7e151628aed2a6abf7158809cf4f3c -in "$tmp/empty" CMAC | lower)"
  for c in AES-128-CBC AES-192-CBC AES-256-CBC; do
    kk=${k:0:$(( ${c:4:3} / 4 ))}
    head -c 777 /dev/urandom >"$tmp/f"
    same "mac CMAC $c vs default" "$(openssl mac -cipher $c -macopt hexkey:$kk -in "$tmp/f" CMAC)" \
      "$(openssl mac "${P[@]}" -cipher $c -macopt hexkey:$kk -in "$tmp/f" CMAC)"
  done
fi

# kdf: PBKDF2-HMAC-Streebog-512, R 50.1.111-2016 section 4 examples
kdf() { openssl kdf "${P[@]}" -keylen "$1" -kdfopt digest:"$2" -kdfopt pass:password -kdfopt salt:salt -kdfopt iter:"$3" PBKDF2 | lower; }
same "kdf c=1" 64770af7f748c3b1c9ac831dbcfd85c26111b30a8a657ddc3056b80ca73e040d2854fd36811f6d825cc4ab66ec0a68a490a9e5cf5156b3a2b7eecddbf9a16b47 "$(kdf 64 md_gost12_512 1)"
same "kdf c=2" 5a585bafdfbb6e8830d6d68aa3b43ac00d2e4aebce01c9b31c2caed56f0236d4d34b2b8fbd2c4e89d54d46f50e47d45bbac301571743119e8d3c42ba66d348de "$(kdf 64 md_gost12_512 2)"
same "kdf c=4096" e52deb9a2d2aaff4e2ac9d47a41f34c20376591c67807f0477e32549dc341bc7867c09841b6d58e29d0347c996301d55df0d34e47cf68f4e3c2cdaf1d9ab86c3 "$(kdf 64 md_gost12_512 4096)"
same "kdf 100 bytes" b2d8f1245fc4d29274802057e4b54e0a0753aa22fc53760b301cf008679e58fe4bee9addcae99ba2b0b20f431a9c5e50f395c89387d0945aedeca6eb4015dfc2bd2421ee9bb71183ba882ceebfef259f33f9e27dc6178cb89dc37428cf9cc52a2baa2d3a \
  "$(openssl kdf "${P[@]}" -keylen 100 -kdfopt digest:md_gost12_512 -kdfopt pass:passwordPASSWORDpassword \
     -kdfopt salt:saltSALTsaltSALTsaltSALTsaltSALTsalt -kdfopt iter:4096 PBKDF2 | lower)"
same "kdf with NUL bytes" 50df062885b69801a3c10248eb0a27ab6e522ffeb20c991c660f001475d73a4e167f782c18e97e92976d9c1d970831ea78ccb879f67068cdac1910740844e830 \
  "$(openssl kdf "${P[@]}" -keylen 64 -kdfopt digest:md_gost12_512 -kdfopt hexpass:7061737300776f7264 \
     -kdfopt hexsalt:7361006c74 -kdfopt iter:4096 PBKDF2 | lower)"
if [ $gost = 1 ]; then
  for d in md_gost12_256 md_gost12_512; do
    same "kdf $d 150 bytes vs default PBKDF2 over gostprov" \
      "$(openssl kdf -provider gostprov -provider default -keylen 150 -kdfopt digest:$d -kdfopt pass:password -kdfopt salt:salt -kdfopt iter:77 PBKDF2)" \
      "$(openssl kdf "${P[@]}" -keylen 150 -kdfopt digest:$d -kdfopt pass:password -kdfopt salt:salt -kdfopt iter:77 PBKDF2)"
  done
fi

# enc: round trips and byte-for-byte against the default provider
if [ "$aes" -gt 0 ]; then
  iv=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
  for n in 0 1 15 16 17 4096 100003; do
    head -c $n /dev/urandom >"$tmp/p"
    for c in aes-128-ecb aes-192-ecb aes-256-ecb aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ctr aes-192-ctr aes-256-ctr; do
      kk=${k:0:$(( ${c:4:3} / 4 ))}
      for pad in "" -nopad; do
        if [ -n "$pad" ] && [ "${c:8:3}" != ctr ] && [ $((n % 16)) != 0 ]; then continue; fi
        openssl enc -$c $pad -K $kk -iv $iv -in "$tmp/p" -out "$tmp/d" 2>/dev/null
        openssl enc "${P[@]}" -$c $pad -K $kk -iv $iv -in "$tmp/p" -out "$tmp/h" 2>/dev/null
        cmp -s "$tmp/d" "$tmp/h" && ok || bad "enc $c $pad $n bytes differs from the default provider"
        openssl enc "${P[@]}" -d -$c $pad -K $kk -iv $iv -in "$tmp/h" -out "$tmp/b" 2>/dev/null
        cmp -s "$tmp/p" "$tmp/b" && ok || bad "enc -d $c $pad $n bytes: no round trip"
      done
    done
  done
  # a wrong key: the padding error comes from hwcrypt through the error queue
  openssl enc -aes-128-cbc -K ${k:0:32} -iv $iv -in "$tmp/m1" -out "$tmp/d" 2>/dev/null
  openssl enc "${P[@]}" -d -aes-128-cbc -K ff${k:2:30} -iv $iv -in "$tmp/d" -out /dev/null 2>"$tmp/err"
  [ $? = 1 ] && grep -q ':hwcrypt:.*bad decrypt:.*PKCS#7' "$tmp/err" && ok || bad "bad decrypt error: $(cat "$tmp/err")"
else
  echo "note: the active aes kernel is generic: hwcrypt offers no AES (checked below)"
fi

# with the generic AES kernel, AES is left to other providers
HWCRYPT_KERNEL=aes=generic openssl list "${P[@]}" -cipher-algorithms -mac-algorithms >"$tmp/l" 2>&1
grep -q 'AES.*@ hwcrypt\|CMAC @ hwcrypt' "$tmp/l" && bad "aes=generic still offers AES" || ok
grep -q 'HMAC @ hwcrypt' "$tmp/l" && ok || bad "aes=generic: HMAC must stay"
HWCRYPT_KERNEL=aes=generic openssl list "${P[@]}" -providers | grep -q "aes=generic.*AES left to other providers" && ok || bad "list says AES left to others"

# configuration file: plain `openssl dgst -md_gost12_512` uses hwcrypt
cat >"$tmp/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
hwcrypt = hwcrypt_sect
[default_sect]
activate = 1
[hwcrypt_sect]
module = $dir/hwcrypt.so
activate = 1
CNF
want=$("$cli" hash streebog512 "$tmp/m1" | cut -d' ' -f1)
same "config file: dgst" "$want" "$(OPENSSL_CONF=$tmp/openssl.cnf openssl dgst -md_gost12_512 -r "$tmp/m1" | cut -d' ' -f1)"
OPENSSL_CONF=$tmp/openssl.cnf openssl list -providers | grep -q "hwcrypt provider (kernels:" && ok || bad "config file: list -providers"
OPENSSL_CONF=$tmp/openssl.cnf openssl list -digest-algorithms | grep -q "md_gost12_512.*@ hwcrypt" && ok || bad "config file: digest from hwcrypt"
# and the default provider's algorithms still work next to it (HMAC-SHA256 goes to default)
same "config file: HMAC-SHA256" "$(openssl mac -digest SHA256 -macopt key:k -in "$tmp/m1" HMAC)" \
  "$(OPENSSL_CONF=$tmp/openssl.cnf openssl mac -digest SHA256 -macopt key:k -in "$tmp/m1" HMAC)"
same "config file: PBKDF2-SHA256" "$(openssl kdf -keylen 20 -kdfopt digest:SHA256 -kdfopt pass:p -kdfopt salt:s -kdfopt iter:5 PBKDF2)" \
  "$(OPENSSL_CONF=$tmp/openssl.cnf openssl kdf -keylen 20 -kdfopt digest:SHA256 -kdfopt pass:p -kdfopt salt:s -kdfopt iter:5 PBKDF2)"

echo "provider via openssl: $pass passed, $fail failed"
[ "$fail" = 0 ]
