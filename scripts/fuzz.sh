#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (with AddressSanitizer and
# UndefinedBehaviorSanitizer) against one LLVM release and runs each for a
# bounded time, starting from the seed corpus in fuzz/corpus/<input>/. Exits
# non-zero if a target crashes, leaks or trips a sanitizer; the input that
# did is left in the work directory.
#
# The mutations come from a fixed seed (DDP_FUZZ_SEED, default 1), so that a
# run in CI explores the same inputs each time; DDP_FUZZ_SEED=0 lets
# libFuzzer pick one, for longer runs.
#
# Given BUILD_DIR, the targets are those of that build, which must be a
# sanitizer build configured with -DDDP_FUZZ=ON (scripts/test.sh's, so that
# CI compiles the instrumented code once); without it, a build of their own
# in build/fuzz-N.
#
# usage: scripts/fuzz.sh [SECONDS per target (default 60)] [LLVM_MAJOR (default 22)]
#                        [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
major=${2:-22}
build=${3:-}
preload=
if [[ -n $build ]]; then
  if ! grep -q '^DDP_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null ||
    ! grep -q '^DDP_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "fuzz.sh: $build is not a sanitizer build with -DDDP_FUZZ=ON" >&2
    exit 2
  fi
  build=$(cd "$build" && pwd)
  # Its targets link the shared ASan runtime after libstdc++.
  preload=$(clang++-"$major" -print-runtime-dir)/libclang_rt.asan-x86_64.so
else
  build=$root/build/fuzz-$major
  sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDDP_LLVM_VERSION="$major" -DDDP_FUZZ=ON -DBUILD_TESTING=OFF \
    -DCMAKE_CXX_FLAGS="$sanitizers -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
targets=(summary_file baseline check_options compile_database
  preamble_record leading_includes)
ninja -C "$build" -j"$(nproc)" "${targets[@]/%/_fuzzer}"

work=$(mktemp -d)
status=0
for input in "${targets[@]}"; do
  corpus=$work/$input
  mkdir -p "$corpus"
  cp "$root/fuzz/corpus/$input/"* "$corpus/"
  echo "=== fuzz $input for ${seconds}s"
  (cd "$work" && LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1 \
    "$build/fuzz/${input}_fuzzer" -max_total_time="$seconds" \
    -seed="${DDP_FUZZ_SEED:-1}" \
    -print_final_stats=1 -artifact_prefix="$work/$input-" "$corpus" \
    2>"$work/$input.log") || status=$?
  grep -aE "^(stat::number_of_executed_units|stat::new_units_added|Done)" \
    "$work/$input.log" || true
  if [[ $status -ne 0 ]]; then
    echo "fuzz: $input failed; its log and the crashing input are in $work"
    tail -40 "$work/$input.log"
    exit 1
  fi
done
rm -rf "$work"
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no finding"
