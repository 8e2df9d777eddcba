#!/usr/bin/env bash
# From a fresh clone: installs the dependencies, builds ddp-lint against
# LLVM 22 and LLVM 19, runs the whole lit test suite against LLVM 22 and its
# check and driver tests against LLVM 19, runs the suite again on a build with
# AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer (LLVM 22;
# fixed samples of the slowest tests, see test/lit.cfg.py; each test says
# which runs leave it out), and runs the fuzz targets (scripts/fuzz.sh) for a
# bounded time.
#
# usage: scripts/test.sh [--only-22]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
majors=(22 19)
if [[ "${1:-}" == "--only-22" ]]; then majors=(22); fi
if [[ " ${majors[*]} " == *" 19 "* ]]; then
  "$root/scripts/install-deps.sh" --with-llvm19
else
  "$root/scripts/install-deps.sh"
fi

# The examples test builds and runs every example program with 2 ranks; the
# later runs (LLVM 19, sanitizers) reuse what the first run saw and only
# analyse the programs again (test/examples/check_examples.py).
export DDP_EXAMPLES_RUNTIME_CACHE=$root/build/examples-runtime
rm -rf "$DDP_EXAMPLES_RUNTIME_CACHE"

status=0
passed=0
failed=0
log=$(mktemp)
builds=()
for major in "${majors[@]}"; do builds+=("$major"); done
builds+=("22-sanitizers")
for name in "${builds[@]}"; do
  major=${name%%-*}
  build=$root/build/llvm-$name
  if [[ $name == *-sanitizers ]]; then
    # No ddp-clangd: clangd's static archives are not instrumented, and
    # LLVM's inline allocator templates poison memory in our instrumented
    # objects but not in theirs; the linker mixes the two (docs/design.md).
    # The fuzz targets are built here too (fuzz/CMakeLists.txt).
    "$root/scripts/build.sh" "$major" "$build" -DDDP_SANITIZE=ON \
      -DDDP_CLANGD=OFF -DDDP_FUZZ=ON -DCMAKE_CXX_FLAGS=-gline-tables-only
  else
    "$root/scripts/build.sh" "$major" "$build"
  fi
  lit=/usr/lib/llvm-$major/bin/lit
  [[ -x $lit ]] || lit="/usr/bin/python3 /usr/lib/llvm-$major/build/utils/lit/lit.py"
  echo "=== lit, LLVM $name"
  rc=0
  # LLVM 19 runs the check and driver tests: what differs between the
  # releases is the plugin and the AST they analyse; the examples,
  # integrations, installation and robustness tests run on the LLVM 22
  # builds.
  tests=("$build/test")
  if [[ $name == 19 ]]; then tests=("$build/test/checks" "$build/test/driver"); fi
  $lit -sv -j"$(nproc)" "${tests[@]}" 2>&1 | tee "$log" || rc=$?
  [[ $rc -eq 0 ]] || status=1
  # lit's summary lines: "  Passed: N (..%)", "  Failed: N (..%)", ...
  read -r p f < <(awk '
    /^ *(Passed|Expectedly Failed) *:/ { split($0, a, ":"); p += a[2] + 0 }
    /^ *(Failed|Unexpectedly Passed|Unresolved|Timed Out) *:/ { split($0, a, ":"); f += a[2] + 0 }
    END { print p + 0, f + 0 }' "$log")
  if [[ $p -eq 0 ]]; then status=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
done
rm -f "$log"
echo "$passed passed, $failed failed"

# The parsers of every input ddp-lint reads, fuzzed for a bounded time with
# AddressSanitizer and UndefinedBehaviorSanitizer, by the targets of the
# sanitizer build (DDP_FUZZ_SECONDS per target, default 20, from a fixed
# seed; longer runs: scripts/fuzz.sh with DDP_FUZZ_SEED=0).
echo "=== fuzz, LLVM 22"
if "$root/scripts/fuzz.sh" "${DDP_FUZZ_SECONDS:-20}" 22 \
  "$root/build/llvm-22-sanitizers"; then
  echo "fuzz: passed"
else
  echo "fuzz: FAILED"
  status=1
fi
exit $status
