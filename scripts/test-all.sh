#!/usr/bin/env bash
# Second command of the README (and what .ci/run calls): the whole test suite.
#  1. Release build with -Werror, the Criterion suite + CLI checks (ctest),
#     the same with clang, and with the distribution's packaging flags (-O2);
#     the stack scan in Debug and MinSizeRel builds
#  2. ASan + UBSan build, the same suite
#  3. old-CPU dispatch under qemu-x86_64 (Nehalem, Westmere, Haswell, max):
#     the right kernel is active and the suite passes
#  4. install, then a consumer built with find_package and with pkg-config
#  5. AArch64 leg: cross-build, suite under qemu-aarch64 (.ci/arm64.sh)
#  6. ASan + UBSan clang-19 build: the suite, then the differential fuzzers
#     (fuzz/), each for HWC_FUZZ_SECONDS, with their execution counts
#  7. ThreadSanitizer: cold init and kernel switching races (tests/tsan_threads.c)
#  8. MemorySanitizer constant-time check on every x86 kernel and mode, and the
#     planted leaks it must report (tests/ct_msan.c, docs/constant-time.md)
# Ends with one line "N passed, N failed" (test programs / ctest entries).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=$(nproc)
t0=$SECONDS
passed=0
failed=0
failures=()
free_mb() { df -Pm . | awk 'NR == 2 {print $4}'; }
log() { printf '\n[test-all +%ds, %s MB free] %s\n' "$((SECONDS - t0))" "$(free_mb)" "$*"; }
# CI once ran out of disk while linking the ASan suite (491 s in; its tree was
# 2.4 GB, now 0.37: hwcrypt_in_tree, CMakeLists.txt): each build tree goes as
# soon as its leg is done (HWC_KEEP_BUILDS=1 keeps them), and the sanitizer
# legs carry line tables only (-g1), which is all their reports use.
# A leg that failed keeps its tree: fuzz crash inputs and logs stay to read.
drop_build() {  # $1 = build tree no later leg needs, $2 = failures before the leg
  [ "${HWC_KEEP_BUILDS:-0}" = 1 ] || [ "$failed" != "$2" ] && return 0
  echo "dropping $1 ($(du -sm "$1" 2>/dev/null | cut -f1) MB)"; rm -rf "$1"
}
count_ctest() {  # $1 = label, $2 = ctest output file
  local line total bad
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of' "$2" | tail -n 1)
  if [ -z "$line" ]; then
    failed=$((failed + 1)); failures+=("$1: ctest did not run"); return
  fi
  bad=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.*failed out of ([0-9]+).*/\1/' <<<"$line")
  passed=$((passed + total - bad)); failed=$((failed + bad))
  [ "$bad" = 0 ] || failures+=("$1: $bad of $total failed")
}
step_ok() { passed=$((passed + 1)); }
step_fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAILED: $1"; }

bash scripts/deps.sh test || { echo "dependency installation failed"; exit 1; }
ulimit -c 0

# 1. Release + -Werror
log "release build (-Werror)"
cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWC_WERROR=ON >/dev/null &&
  cmake --build build-ci -j"$jobs" || { echo "release build failed"; exit 1; }
log "suite (native, automatic kernels)"
ctest --test-dir build-ci --output-on-failure -j"$jobs" 2>&1 | tee build-ci/ctest.log
count_ctest "native" build-ci/ctest.log
./build-ci/tools/hwcrypt info
./build-ci/tools/hwcrypt selftest && step_ok || step_fail "selftest"

# 1b. clang: the same suite, including the valgrind constant-time checks
#     (clang once turned a masked table scan into a secret-dependent branch)
if command -v clang >/dev/null; then
  log "clang build (-Werror) and suite"
  leg_failed=$failed
  if CC=clang cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWC_WERROR=ON \
       -DHWC_BUILD_BENCH=ON >/dev/null && cmake --build build-clang -j"$jobs" >/dev/null; then
    ctest --test-dir build-clang --output-on-failure -j"$jobs" 2>&1 | tee build-clang/ctest.log
    count_ctest "clang" build-clang/ctest.log
    drop_build build-clang "$leg_failed"
  else
    step_fail "clang build"
  fi
fi

# 1c. The distribution's packaging flags (dpkg-buildflags: -O2, stack protector,
#     _FORTIFY_SOURCE; CMAKE_BUILD_TYPE None, as Debian's cmake helper builds):
#     the suite, the stack scan included. impl/ stays at -O3 (CMakeLists.txt,
#     HWC_KERNELS_O3): at -O2 gcc 12 kept avx512's XTS tweaks in its frame.
log "packaging flags build (-O2, hardening) and suite"
leg_failed=$failed
if command -v dpkg-buildflags >/dev/null; then
  pkg_cflags="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
  pkg_ldflags=$(dpkg-buildflags --get LDFLAGS)
else   # what Debian 12's dpkg-buildflags prints
  pkg_cflags="-g -O2 -fstack-protector-strong -Wformat -Werror=format-security -Wdate-time -D_FORTIFY_SOURCE=2"
  pkg_ldflags="-Wl,-z,relro"
fi
if CFLAGS="$pkg_cflags" LDFLAGS="$pkg_ldflags" cmake -S . -B build-pkg -G Ninja -DCMAKE_BUILD_TYPE=None \
     -DHWC_WERROR=ON -DHWC_BUILD_BENCH=OFF -DHWC_BUILD_PROVIDER=OFF >/dev/null &&
   cmake --build build-pkg -j"$jobs" >/dev/null; then
  ctest --test-dir build-pkg --output-on-failure -j"$jobs" 2>&1 | tee build-pkg/ctest.log
  count_ctest "packaging flags" build-pkg/ctest.log
  drop_build build-pkg "$leg_failed"
else
  step_fail "packaging flags build"
fi

# 1d. The stack scan in the other CMake build types: Debug (core/ at -O0,
#     where a subkey copy once stayed in hwc_cmac_final's frame) and
#     MinSizeRel (-Os). RelWithDebInfo is -O2, as in 1c. Only the two scan
#     programs are built (the library twice: 1-1.5 minutes each in CI).
for bt in Debug MinSizeRel; do
  log "stack scan, $bt build"
  leg_failed=$failed
  tree=build-scan-$bt
  if cmake -S . -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=$bt -DHWC_WERROR=ON -DHWC_BUILD_BENCH=OFF \
       -DHWC_BUILD_PROVIDER=OFF -DHWC_BUILD_TOOLS=OFF >/dev/null &&
     cmake --build "$tree" -j"$jobs" --target test_stack_scan test_stack_scan_fallback >/dev/null; then
    ctest --test-dir "$tree" --output-on-failure -R '^test_stack_scan' 2>&1 | tee "$tree/ctest.log"
    count_ctest "stack scan $bt" "$tree/ctest.log"
    drop_build "$tree" "$leg_failed"
  else
    step_fail "stack scan $bt build"
  fi
done

# 2. ASan + UBSan. This leg, the fuzzers and TSan build at -O1, as the
#    sanitizers' documentation and OSS-Fuzz do: gcc took 11 minutes for
#    impl/x86/aes_avx512.c instrumented at -O2, 5.7 at -O1, and the suite runs
#    10% longer. The MSan constant-time leg keeps -O2, like the release build.
san_o1=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
log "ASan + UBSan build and suite"
leg_failed=$failed
cmake -S . -B build-asan -G Ninja "${san_o1[@]}" -DHWC_WERROR=ON \
  -DHWC_SANITIZE=ON -DHWC_BUILD_BENCH=ON >/dev/null &&
  cmake --build build-asan -j"$jobs" || { echo "sanitizer build failed"; exit 1; }
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" 2>&1 |
  tee build-asan/ctest.log
count_ctest "asan" build-asan/ctest.log
drop_build build-asan "$leg_failed"

# 3. Old CPUs under qemu-x86_64: expected active kernels, then every test program.
log "old-CPU dispatch under qemu-x86_64"
qemu=$(command -v qemu-x86_64 || true)
if [ -z "$qemu" ]; then
  step_fail "qemu-x86_64 missing"
else
  # model: expected aes / mpi kernels (TCG has no AVX-512; Haswell has no ADX)
  for spec in "Nehalem generic generic" "Westmere aesni generic" "Haswell aesni generic" \
              "max vaes-avx2 adx"; do
    read -r model want_aes want_mpi <<<"$spec"
    info=$(QEMU_CPU=$model "$qemu" build-ci/tools/hwcrypt info --json)
    got_aes=$(grep -o '"aes":{"active":"[^"]*"' <<<"$info" | sed 's/.*"active":"//; s/"$//')
    got_mpi=$(grep -o '"mpi":{"active":"[^"]*"' <<<"$info" | sed 's/.*"active":"//; s/"$//')
    if [ "$got_aes" = "$want_aes" ] && [ "$got_mpi" = "$want_mpi" ]; then
      echo "qemu $model: aes=$got_aes mpi=$got_mpi (as expected)"; step_ok
    else
      step_fail "qemu $model: aes=$got_aes mpi=$got_mpi, expected aes=$want_aes mpi=$want_mpi"
    fi
    # qemu 7.2 TCG computes VAESENC on ymm wrongly (a two-line program shows
    # _mm256_aesenc_epi128 != two _mm_aesenc_si128 under -cpu max; natively
    # they agree): vaes-avx2 is tested natively, here only its selection.
    skip=""; why=""
    if [ "$model" = max ]; then skip="aes/vaes-avx2"; why="qemu 7.2 VAES ymm emulation bug"; fi
    for t in build-ci/tests/test_*; do
      [ -x "$t" ] || continue
      if QEMU_CPU=$model QEMU_SHIM_EMULATOR=$qemu HWC_TEST_QUICK=1 HWC_TEST_SKIP=$skip \
         HWC_TEST_SKIP_WHY=$why "$qemu" "$t" >"$t.$model.log" 2>&1; then
        step_ok
      else
        tail -n 30 "$t.$model.log"; step_fail "qemu $model: $(basename "$t")"
      fi
    done
    if [ -z "$skip" ]; then
      QEMU_CPU=$model "$qemu" build-ci/tools/hwcrypt selftest >/dev/null && step_ok ||
        step_fail "qemu $model: selftest"
    fi
  done
fi

# 4. Install and build consumers against the installed package.
log "install + consumers (find_package, pkg-config)"
prefix=$root/build-ci/prefix
rm -rf "$prefix" build-ci/consumer
if cmake --install build-ci --prefix "$prefix" >/dev/null &&
   cmake -S tests/consumer -B build-ci/consumer -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null &&
   cmake --build build-ci/consumer >/dev/null &&
   LD_LIBRARY_PATH=$prefix/lib ./build-ci/consumer/example && ./build-ci/consumer/example_static; then
  step_ok
else
  step_fail "consumer via find_package"
fi
libdir=$(find "$prefix" -name hwcrypt.pc -printf '%h\n' | head -n 1)
if [ -n "$libdir" ] &&
   cc -std=c11 -o build-ci/consumer/example_pc tests/consumer/example.c \
     $(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs hwcrypt) &&
   LD_LIBRARY_PATH=$(dirname "$libdir") ./build-ci/consumer/example_pc &&
   cc -std=c11 -o build-ci/consumer/example_pc_static tests/consumer/example.c \
     $(PKG_CONFIG_PATH=$libdir pkg-config --static --cflags hwcrypt) \
     "$(dirname "$libdir")/libhwcrypt.a" $(PKG_CONFIG_PATH=$libdir pkg-config --static --libs-only-l hwcrypt | sed 's/-lhwcrypt//') &&
   ./build-ci/consumer/example_pc_static; then
  step_ok
else
  step_fail "consumer via pkg-config"
fi

# 5. AArch64
if [ -f .ci/arm64.sh ] && [ "${HWC_SKIP_ARM64:-0}" != 1 ]; then
  log "AArch64 leg"
  leg_failed=$failed
  if bash .ci/arm64.sh 2>&1 | tee build-ci/arm64.log; then step_ok; else step_fail "AArch64 leg"; fi
  drop_build build-arm64-gcc "$leg_failed"; drop_build build-arm64-clang "$leg_failed"
fi

# 6. Differential fuzzing: every kernel against generic and OpenSSL/libgcrypt/GMP.
#    The same clang-19 ASan + UBSan tree first runs the Criterion suite: clang's
#    UBSan checks more than gcc's (it found NULL + 0 in a test that gcc's passed).
fuzz_secs=${HWC_FUZZ_SECONDS:-30}
log "clang-19 ASan + UBSan: the suite, then the fuzzers (${fuzz_secs} s each)"
leg_failed=$failed
if CC=clang-19 cmake -S . -B build-fuzz -G Ninja "${san_o1[@]}" -DHWC_WERROR=ON \
     -DHWC_SANITIZE=ON -DHWC_FUZZ=ON -DHWC_BUILD_PROVIDER=OFF -DHWC_BUILD_BENCH=OFF \
     -DHWC_BUILD_TOOLS=OFF >/dev/null && cmake --build build-fuzz -j"$jobs" >/dev/null; then
  ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-fuzz --output-on-failure -j"$jobs" 2>&1 |
    tee build-fuzz/ctest.log
  count_ctest "clang-19 asan" build-fuzz/ctest.log
  for h in aes aes_many cmac gcm streebog modexp; do
    work=build-fuzz/corpus-$h
    rm -rf "$work" && mkdir -p "$work"   # new inputs go here, never into fuzz/corpus
    if ./build-fuzz/fuzz/fuzz_$h -max_total_time="$fuzz_secs" -artifact_prefix=build-fuzz/ \
         "$work" "fuzz/corpus/$h" >"build-fuzz/fuzz_$h.log" 2>&1; then
      echo "fuzz_$h: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "build-fuzz/fuzz_$h.log")"
      step_ok
    else
      tail -n 30 "build-fuzz/fuzz_$h.log"; step_fail "fuzz_$h (input in build-fuzz/crash-*)"
    fi
  done
  drop_build build-fuzz "$leg_failed"
else
  step_fail "fuzz build"
fi

# 7. ThreadSanitizer (Criterion's runner cannot start under TSan: a plain program).
log "ThreadSanitizer: init and kernel-switching races"
leg_failed=$failed
if CC=clang-19 cmake -S . -B build-tsan -G Ninja "${san_o1[@]}" -DHWC_WERROR=ON \
     -DHWC_TSAN=ON -DHWC_BUILD_PROVIDER=OFF -DHWC_BUILD_BENCH=OFF -DHWC_BUILD_TOOLS=OFF >/dev/null &&
   cmake --build build-tsan -j"$jobs" --target tsan_threads >/dev/null; then
  for i in 1 2 3; do   # three fresh processes: three cold inits
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" ./build-tsan/tests/tsan_threads &&
      step_ok || step_fail "tsan_threads (run $i)"
  done
  drop_build build-tsan "$leg_failed"
else
  step_fail "tsan build"
fi

# 8. MemorySanitizer constant-time check (only ct_msan is built with MSan).
log "MemorySanitizer constant-time check"
if CC=clang-19 cmake -S . -B build-msan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWC_WERROR=ON \
     -DHWC_MSAN=ON -DHWC_BUILD_PROVIDER=OFF -DHWC_BUILD_BENCH=OFF -DHWC_BUILD_TOOLS=OFF >/dev/null &&
   cmake --build build-msan -j"$jobs" --target ct_msan >/dev/null; then
  ctest --test-dir build-msan -R '^ct_msan' --output-on-failure -j"$jobs" 2>&1 | tee build-msan/ctest.log
  count_ctest "msan" build-msan/ctest.log
else
  step_fail "msan build"
fi

log "done in $((SECONDS - t0)) s"
for f in "${failures[@]}"; do echo "  failed: $f"; done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
