#!/usr/bin/env bash
# The mutation test at full size: COUNT mutants (default 1000) of the code
# written against the real LibTorch headers (the real-header check tests and
# the example programs), and five of each mock-header check test with the
# generated extremes, through ddp-clang-tidy and ddp-lint. Prints the files,
# runs, mutants per kind, crashes and the time; exit 1 on a crash. The lit
# suite runs a small sample (test/robustness/mutated-*.test).
#
# usage: scripts/mutate.sh [BUILD_DIR (default build/llvm-22)] [COUNT] [SEED]
#   DDP_MUTATE_JOBS: runs at once (default: every core)
#   DDP_MUTATE_KEEP=1: keep the mutants (their directory is printed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/llvm-22}" && pwd)
count=${2:-1000}
seed=${3:-16}
major=$(sed -n 's/^DDP_LLVM_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
torch=/usr/include/torch/csrc/api/include
if [ ! -f "$torch/torch/torch.h" ]; then
  echo "mutate.sh: the LibTorch headers are not installed ($torch)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ddp-mutants.XXXXXX")
if [ "${DDP_MUTATE_KEEP:-0}" = 1 ]; then
  echo "mutants in $work"
else
  trap 'rm -rf "$work"' EXIT
fi
cd "$root"
nice python3 test/robustness/mutate_sources.py \
  --tidy "$build/bin/ddp-clang-tidy" --lint "$build/bin/ddp-lint" \
  --inputs test/Inputs --work "$work" --seed "$seed" --per-file 5 \
  --jobs "${DDP_MUTATE_JOBS:-$(nproc)}" \
  --cxx "/usr/lib/llvm-$major/bin/clang++" --torch "$torch" \
  --examples examples --real-count "$count" \
  --real-sources test/checks/*real*.cpp examples/*/*.cpp \
  -- test/checks/collective-in-rank-branch-*.cpp \
  test/checks/rank-gated-barrier-*.cpp test/checks/p2p-deadlock.cpp \
  test/checks/sampler-drop-last.cpp test/checks/forward-outside-no-sync.cpp \
  test/checks/unused-parameters.cpp \
  test/checks/rendezvous-config-communicators.cpp \
  test/checks/unresolved-calls-libtorch-*.cpp \
  test/checks/unresolved-calls-negatives.cpp
