#!/usr/bin/env bash
# Installs everything ddp-lint needs on a Debian 12 machine, from Debian's
# packages: LLVM/Clang 22 (and 19 with --with-llvm19), fmt, the real LibTorch
# headers and libraries with Gloo, Open MPI's headers, gRPC and Protobuf (which
# clangd's libraries need, for ddp-clangd), PyYAML and git (the pre-commit
# and CI workflow tests); and, from the npm
# registry, Microsoft's SARIF Multitool (the tests validate ddp-lint's SARIF).
#
# usage: scripts/install-deps.sh [--with-llvm19]
set -euo pipefail

packages=(
  cmake ninja-build python3 python3-psutil
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  libclang-rt-22-dev libfuzzer-22-dev
  libfmt-dev libzstd-dev
  libicu72
  libtorch-dev libgloo-dev
  libopenmpi-dev libgtest-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev
  python3-yaml git
)
if [[ "${1:-}" == "--with-llvm19" ]]; then
  packages+=(clang-19 clang-tidy-19 libclang-19-dev llvm-19-dev llvm-19-tools)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
root=$(cd "$(dirname "$0")/.." && pwd)
sarif_tool="$root/build-tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
install_sarif_tool() {
  [[ -x $sarif_tool ]] && return 0
  if ! command -v npm >/dev/null; then
    echo "install-deps: npm not found; the SARIF validation tests will fail" >&2
    return 0
  fi
  # A registry that stops answering must not hold the run until CI's limit
  # (it did once, with no output): each attempt is bounded, and a third
  # failure is reported here, before lit says the validator is missing.
  local attempt
  for attempt in 1 2 3; do
    echo "install-deps: installing the SARIF Multitool with npm (attempt $attempt)"
    if timeout 300 npm install --silent --prefix "$root/build-tools/sarif" \
      --save-exact --fetch-retries=2 --fetch-timeout=60000 \
      @microsoft/sarif-multitool@5.7.0 >/dev/null; then
      return 0
    fi
    sleep $((attempt * 10))
  done
  echo "install-deps: npm could not install the SARIF Multitool" >&2
}

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages are installed"
  install_sarif_tool
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
echo "install-deps: done"
install_sarif_tool
