# shellcheck shell=bash
# Finds the ddp-lint tools for the scripts beside this file (sourced, not
# run): the pre-commit hook entries and run-clang-tidy-ddp.
#
# Where a tool is looked for, first match wins:
#   1. its environment variable: DDP_CLANG_TIDY, DDP_LINT, DDP_PLUGIN;
#   2. PATH (ddp-clang-tidy, ddp-lint);
#   3. DDP_TOOLS_DIR (a build or install directory with bin/ and lib/);
#   4. beside this checkout: ../bin, ../lib (an installed layout), then
#      ../build/llvm-22 and ../build/llvm-19 (what scripts/build.sh writes).

ddp_scripts_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The directories that may hold bin/ and lib/ of a build of ddp-lint.
ddp_tool_dirs() {
  if [[ -n ${DDP_TOOLS_DIR:-} ]]; then echo "$DDP_TOOLS_DIR"; fi
  echo "$ddp_scripts_dir/.."
  echo "$ddp_scripts_dir/../build/llvm-22"
  echo "$ddp_scripts_dir/../build/llvm-19"
}

ddp_die() {
  echo "$(basename "$0"): error: $*" >&2
  exit 2
}

# ddp_find_program VAR NAME: the path of NAME (bin/NAME of a build), or
# nothing.
ddp_find_program() {
  local var=$1 name=$2 dir
  if [[ -n ${!var:-} ]]; then
    [[ -x ${!var} ]] || ddp_die "$var=${!var} is not an executable"
    echo "${!var}"
    return
  fi
  if command -v "$name" >/dev/null; then
    command -v "$name"
    return
  fi
  while read -r dir; do
    if [[ -x $dir/bin/$name ]]; then
      echo "$(cd "$dir/bin" && pwd)/$name"
      return
    fi
  done < <(ddp_tool_dirs)
}

# The clang-tidy plugin, or nothing.
ddp_find_plugin() {
  local dir
  if [[ -n ${DDP_PLUGIN:-} ]]; then
    [[ -f $DDP_PLUGIN ]] || ddp_die "DDP_PLUGIN=$DDP_PLUGIN does not exist"
    echo "$DDP_PLUGIN"
    return
  fi
  while read -r dir; do
    if [[ -f $dir/lib/libDdpLintPlugin.so ]]; then
      echo "$(cd "$dir/lib" && pwd)/libDdpLintPlugin.so"
      return
    fi
  done < <(ddp_tool_dirs)
}

# ddp_llvm_root PLUGIN: the LLVM the plugin was built against: DDP_LLVM_ROOT,
# else the DDP_LLVM_ROOT of the build the plugin is in (its CMakeCache.txt),
# else /usr/lib/llvm-22.
ddp_llvm_root() {
  local cache root
  if [[ -n ${DDP_LLVM_ROOT:-} ]]; then
    echo "$DDP_LLVM_ROOT"
    return
  fi
  cache=$(dirname "$1")/../CMakeCache.txt
  if [[ -f $cache ]]; then
    root=$(sed -n 's/^DDP_LLVM_ROOT:PATH=//p' "$cache")
    if [[ -n $root ]]; then
      echo "$root"
      return
    fi
  fi
  echo /usr/lib/llvm-22
}

# ddp_compile_db_dir [DIR]: the directory that holds compile_commands.json:
# DIR (from -p), else $DDP_BUILD_DIR, else ./build, else the current one.
ddp_compile_db_dir() {
  local dir=${1:-${DDP_BUILD_DIR:-}}
  if [[ -z $dir ]]; then
    if [[ -f build/compile_commands.json ]]; then
      dir=build
    elif [[ -f compile_commands.json ]]; then
      dir=.
    else
      ddp_die "no compile database: set DDP_BUILD_DIR or pass -p BUILD_DIR in the hook's args (looked for build/compile_commands.json and ./compile_commands.json)"
    fi
  fi
  [[ -f $dir/compile_commands.json ]] ||
    ddp_die "'$dir' has no compile_commands.json (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"
  echo "$dir"
}
