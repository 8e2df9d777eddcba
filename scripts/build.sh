#!/usr/bin/env bash
# Configures and builds ddp-lint against one LLVM release.
#
# usage: scripts/build.sh [LLVM_MAJOR (default 22)] [BUILD_DIR (default build/llvm-N)]
#                         [CMAKE_ARGS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
major=${1:-22}
build=${2:-$root/build/llvm-$major}
shift $(($# < 2 ? $# : 2))
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DDDP_LLVM_VERSION="$major" "$@" >/dev/null
ninja -C "$build" -j"$(nproc)"
echo "build: ddp-lint for LLVM $major in $build"
