#!/usr/bin/env bash
# From a fresh clone: installs the dependencies, builds ddp-lint, and runs the
# ddp checks on the example programs in examples/ (through the plugin in
# clang-tidy-22), then the whole-program driver ddp-lint over all of them.
# Buggy programs get findings; fixed ones stay silent.
#
# usage: scripts/demo.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" 22
build=$root/build/llvm-22

# A compile database for the examples (configure only; no need to build them).
cmake -S "$root/examples" -B "$build/examples" -G Ninja \
  -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ >/dev/null

status=0
for source in "$root"/examples/*/*.cpp; do
  rel=${source#"$root"/}
  echo "=== $rel"
  /usr/lib/llvm-22/bin/clang-tidy --load="$build/lib/libDdpLintPlugin.so" \
    -p "$build/examples" --checks='-*,ddp-*' --quiet "$source" 2>/dev/null \
    | tee "$build/demo-output.txt"
  if grep -q "warning:" "$build/demo-output.txt"; then verdict=flagged; else verdict=clean; fi
  case "$rel:$verdict" in
    */buggy.cpp:flagged | */fixed.cpp:clean) echo "--- $rel: $verdict (as expected)" ;;
    *) echo "--- $rel: $verdict (UNEXPECTED)"; status=1 ;;
  esac
done

# The whole-program driver over every example at once.
echo "=== ddp-lint -p build/llvm-22/examples"
rc=0
(cd "$root" && "$build/bin/ddp-lint" -p "$build/examples") || rc=$?
if [[ $rc -ne 1 ]]; then
  echo "--- ddp-lint: exit $rc (UNEXPECTED: the buggy examples have findings)"
  status=1
fi
exit $status
