#!/usr/bin/env bash
# Builds the Debian package of ddp-lint (cpack -G DEB) and proves it on a
# fresh Debian 12 machine: a new bookworm root made with debootstrap, with
# this machine's apt sources, in which apt installs the package (and so what
# it Depends on) and LibTorch's headers. The installed ddp-clang-tidy, and
# clang-tidy with the installed plugin, must then report the rank-gated
# barrier in examples/rank_gated_barrier/buggy.cpp, and nothing in fixed.cpp;
# ddp-lint must report it too; and a CMake project must find the package with
# find_package(DdpLint) and get the warning in its build output.
#
# Needs root and Debian's mirror, and downloads about a gigabyte; it is not
# part of scripts/test.sh (docs/install.md).
#
# usage: scripts/test-deb.sh [BUILD_DIR (default build/llvm-22)]
# environment:
#   DDP_FRESH_ROOT   where to make the fresh root (default build/fresh-root);
#                    it is deleted and made anew on every run
#   DEBIAN_MIRROR    the mirror debootstrap fetches from
#                    (default http://deb.debian.org/debian)
#   DDP_APT_CACHE    a directory that keeps the downloaded .deb files between
#                    runs (default: none, everything is downloaded)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/llvm-22}
fresh=${DDP_FRESH_ROOT:-$root/build/fresh-root}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
flags=(-std=c++17 -DUSE_C10D_GLOO -isystem /usr/include/torch/csrc/api/include)

if [[ $(id -u) -ne 0 ]]; then
  echo "test-deb: needs root (debootstrap, chroot)" >&2
  exit 2
fi
for tool in debootstrap cpack dpkg-deb; do
  command -v "$tool" >/dev/null || {
    echo "test-deb: $tool not found (apt-get install debootstrap cmake dpkg-dev)" >&2
    exit 2
  }
done

echo "=== build and package"
"$root/scripts/build.sh" 22 "$build"
rm -f "$build"/ddp-lint_*.deb
(cd "$build" && cpack -G DEB)
deb=$(ls "$build"/ddp-lint_*.deb)
ls -l "$deb"
dpkg-deb --info "$deb"
# The plugin's clang-tidy and the libraries of ddp-clang-tidy and ddp-lint.
depends=$(dpkg-deb --field "$deb" Depends)
for dep in clang-tidy-22 libclang-cpp22 libllvm22; do
  if [[ ", $depends" != *", $dep"[\ ,]* && ", $depends" != *", $dep" ]]; then
    echo "test-deb: FAIL: the package does not depend on $dep" >&2
    exit 1
  fi
done

echo "=== fresh Debian 12 root in $fresh"
# Only /proc (and the optional apt cache) is mounted into the root:
# debootstrap makes the device nodes apt and dpkg need.
cleanup() {
  for m in var/cache/apt/archives proc; do
    if mountpoint -q "$fresh/$m" 2>/dev/null; then umount "$fresh/$m"; fi
  done
}
trap cleanup EXIT
cleanup
if grep -q " $fresh/" /proc/mounts; then
  echo "test-deb: something is still mounted under $fresh; not deleting it" >&2
  exit 1
fi
rm -rf --one-file-system "$fresh"
debootstrap --variant=minbase bookworm "$fresh" "$mirror" >"$fresh.debootstrap.log" 2>&1 \
  || { tail -20 "$fresh.debootstrap.log"; exit 1; }
echo "debootstrap: bookworm in $fresh ($(du -sh "$fresh" | cut -f1))"

# This machine's apt sources (and the keyrings they name), in place of the
# one debootstrap wrote.
rm -f "$fresh/etc/apt/sources.list"
shopt -s nullglob
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [[ -f $f ]] || continue
  mkdir -p "$fresh$(dirname "$f")"
  cp "$f" "$fresh$f"
  for key in $(grep -ohE '(Signed-By:|signed-by=) *[^] ]+' "$f" | sed -E 's/^(Signed-By:|signed-by=) *//'); do
    if [[ -f $key && ! -e $fresh$key ]]; then
      mkdir -p "$fresh$(dirname "$key")"
      cp "$key" "$fresh$key"
    fi
  done
done
shopt -u nullglob
# A snapshot mirror serves Release files past their Valid-Until date.
printf 'Acquire::Check-Valid-Until "false";\n' >"$fresh/etc/apt/apt.conf.d/99ddp-test-deb"
cp /etc/resolv.conf "$fresh/etc/resolv.conf"
mount -t proc proc "$fresh/proc"
if [[ -n ${DDP_APT_CACHE:-} ]]; then
  mkdir -p "$DDP_APT_CACHE"
  mount --bind "$DDP_APT_CACHE" "$fresh/var/cache/apt/archives"
fi

mkdir -p "$fresh/tmp/ddp-test"
cp "$deb" "$fresh/tmp/ddp-test/"
cp -r "$root/examples" "$fresh/tmp/ddp-test/examples"
debname=$(basename "$deb")

in_root() { chroot "$fresh" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

echo "=== apt-get install ./$debname libtorch-dev libgloo-dev"
in_root dpkg-query -W ddp-lint clang-tidy-22 libllvm22 2>&1 | sed 's/^/before: /' || true
in_root apt-get update -qq
in_root apt-get install -y -q --no-install-recommends "/tmp/ddp-test/$debname" \
  libtorch-dev libgloo-dev >"$fresh.apt.log" 2>&1 || { tail -30 "$fresh.apt.log"; exit 1; }
grep -E '^[0-9]+ upgraded' "$fresh.apt.log" || true
in_root dpkg-query -W ddp-lint clang-tidy-22 libclang-cpp22 libllvm22 | sed 's/^/installed: /'
in_root dpkg -L ddp-lint | grep -E 'bin/|\.so$|cmake/DdpLint/DdpLintConfig.cmake$'

status=0
run() { # name, pattern, expected matches (0: none, 1: some), command...
  local name=$1 pattern=$2 want=$3 out got
  shift 3
  echo "--- $name: $*"
  out=$(in_root "$@" 2>&1) || true
  echo "$out" | grep -E 'warning:|error:|note:|^[0-9]+ finding' || true
  got=$(echo "$out" | grep -cE "$pattern" || true)
  if [[ $want -gt 0 && $got -eq 0 ]] || [[ $want -eq 0 && $got -ne 0 ]]; then
    echo "test-deb: FAIL: $name: $got lines match '$pattern', expected $( [[ $want -gt 0 ]] && echo 'some' || echo 'none')"
    status=1
  else
    echo "test-deb: ok: $name"
  fi
}
barrier='warning: .*\[ddp-rank-gated-barrier\]'
ex=/tmp/ddp-test/examples
echo "=== the installed tools"
in_root sh -c 'ls -l /usr/bin/ddp-*; ddp-clang-tidy --version'
run "ddp-clang-tidy buggy.cpp" "$barrier" 1 ddp-clang-tidy -checks=-*,ddp-* \
  $ex/rank_gated_barrier/buggy.cpp -- "${flags[@]}" -I $ex
run "ddp-clang-tidy fixed.cpp" "$barrier" 0 ddp-clang-tidy -checks=-*,ddp-* \
  $ex/rank_gated_barrier/fixed.cpp -- "${flags[@]}" -I $ex
plugin=$(in_root dpkg -L ddp-lint | grep 'libDdpLintPlugin.so$')
run "clang-tidy-22 --load=$plugin buggy.cpp" "$barrier" 1 clang-tidy-22 --load="$plugin" \
  -checks=-*,ddp-* $ex/rank_gated_barrier/buggy.cpp -- "${flags[@]}" -I $ex
run "ddp-lint buggy.cpp" 'warning: .*\[ddp-collective-order\]' 1 ddp-lint \
  $ex/rank_gated_barrier/buggy.cpp -- "${flags[@]}" -I $ex

# A project that lints itself through the installed CMake package
# (test/Inputs/ddp-lint-consumer, on the mock headers).
echo "=== find_package(DdpLint) in a CMake project"
in_root apt-get install -y -q --no-install-recommends cmake ninja-build \
  >>"$fresh.apt.log" 2>&1 || { tail -30 "$fresh.apt.log"; exit 1; }
cp -r "$root/test/Inputs" "$fresh/tmp/ddp-test/Inputs"
consumer=/tmp/ddp-test/Inputs/ddp-lint-consumer
in_root cmake -S $consumer -B /tmp/ddp-test/consumer -G Ninja \
  -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
  -DDDP_MOCK_HEADERS=/tmp/ddp-test/Inputs -DDDP_CONSUMER_MODE=plugin \
  | grep -E 'DdpLint|CLANG_TIDY' || true
run "cmake --build (CMAKE_CXX_CLANG_TIDY from ddp_lint_enable_clang_tidy())" \
  "$barrier" 1 cmake --build /tmp/ddp-test/consumer

if [[ $status -eq 0 ]]; then echo "test-deb: PASS"; else echo "test-deb: FAILED"; fi
exit $status
