#!/usr/bin/env bash
# First command of the README: install what is missing, build, show which
# kernels this machine runs, and a short benchmark (under 20 s).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
./build/tools/hwcrypt info
./build/tools/hwcrypt bench --quick
