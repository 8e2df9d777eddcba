# lit configuration for ddp-lint. CMake writes lit.site.cfg.py, which loads
# this file with the paths of the build.
import os
import shutil

import lit.formats

config.name = "ddp-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".c", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ddp_obj_root, "test")
# A guard against a regression to exponential time (path enumeration): no
# check test takes more than a few seconds (the examples test, which builds
# and runs every example program, a few minutes). lit needs psutil for it
# (Debian's python3-psutil, which scripts/install-deps.sh installs).
try:
    import psutil  # noqa: F401
    lit_config.maxIndividualTestTime = 900
except ImportError:
    lit_config.note("python3-psutil is missing: no per-test time limit")

config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in", "check_ddp_tidy.py",
                   "split_known_gaps.py", "make_cdb.py", "lsan.supp", "validate_sarif.py",
                   "expect_exit.py", "gen_branches.py", "lsp_diagnostics.py"]

config.environment["PATH"] = os.pathsep.join(
    [os.path.join(config.llvm_root, "bin"), config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR", "CI", "SARIF_MULTITOOL", "DDP_EXAMPLES_RUNTIME_CACHE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# A sanitizer build (DDP_SANITIZE): every report aborts the process, which
# fails the test even under `not` (lit tells a crash from a failure). Leaks
# are checked at exit (LeakSanitizer); UBSan stops at the first error.
if getattr(config, "sanitize", False):
    config.available_features.add("sanitizers")
    suppressions = os.path.join(config.test_source_root, "lsan.supp")
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=1:abort_on_error=1:strict_string_checks=1:"
        "detect_stack_use_after_return=1:check_initialization_order=1")
    config.environment["LSAN_OPTIONS"] = "suppressions=" + suppressions
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:abort_on_error=1"
    # Debian's clang-tidy runs 35% slower with the runtime preloaded; the
    # examples test analyses 42 files on the real LibTorch headers.
    if lit_config.maxIndividualTestTime:
        lit_config.maxIndividualTestTime = 1800

inputs = os.path.join(config.test_source_root, "Inputs")
checker = os.path.join(config.test_source_root, "check_ddp_tidy.py")
config.substitutions.append(
    ("%check_ddp_tidy",
     "%s %s --plugin=%s --host-tidy=%s --builtin=%s --filecheck=%s" %
     (config.python, checker, config.ddp_plugin, config.host_clang_tidy,
      config.ddp_clang_tidy, config.filecheck)))
config.substitutions.append(("%ddp_clang_tidy", config.ddp_clang_tidy))
# The whole-program driver, and what its tests need: a compile database for
# a directory of sources, and Microsoft's SARIF validator.
config.substitutions.append(("%ddp_lint", config.ddp_lint))
driver_tests = os.path.join(config.test_source_root, "driver")
config.substitutions.append(
    ("%make_cdb", "%s %s" % (config.python,
                             os.path.join(driver_tests, "make_cdb.py"))))
config.substitutions.append(
    ("%validate_sarif", "%s %s" % (config.python,
                                   os.path.join(driver_tests,
                                                "validate_sarif.py"))))
config.substitutions.append(
    ("%expect_exit", "%s %s" % (config.python,
                                os.path.join(driver_tests, "expect_exit.py"))))
# clangd with the ddp checks (when the build made it: DDP_CLANGD), and an
# editor's side of the language server protocol to drive it.
if config.ddp_clangd:
    config.available_features.add("ddp-clangd")
    config.substitutions.append(("%ddp_clangd", config.ddp_clangd))
elif os.environ.get("CI") == "true" and not getattr(config, "sanitize", False):
    # (The sanitizer build leaves ddp-clangd out: see scripts/test.sh.)
    lit_config.fatal("CI must build ddp-clangd (scripts/install-deps.sh "
                     "installs what it needs)")
config.substitutions.append(
    ("%lsp_diagnostics",
     "%s %s" % (config.python, os.path.join(config.test_source_root, "clangd",
                                            "lsp_diagnostics.py"))))
config.substitutions.append(("%host_clang_tidy", config.host_clang_tidy))
config.substitutions.append(
    ("%clangxx", os.path.join(config.llvm_root, "bin", "clang++")))
config.substitutions.append(("%ddp_plugin", config.ddp_plugin))
# The Python interpreter of the build, for scripts (test/examples/).
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%mock_flags", "-std=c++17 -isystem " + inputs))
# CUDA host code without a CUDA installation: the tests declare the little
# they use. The installation path names nothing, so that one found on the
# machine does not change which launch-configuration function Clang calls.
config.substitutions.append(
    ("%cuda_host_flags",
     "-x cuda --cuda-host-only -nocudainc -nocudalib --cuda-path=" +
     os.path.join(inputs, "no-cuda-installation")))

# Real headers. CI installs them; a missing one there is an error, not a skip.
torch_api = "/usr/include/torch/csrc/api/include"
real = {
    "libtorch": os.path.exists(
        "/usr/include/torch/csrc/distributed/c10d/ProcessGroupGloo.hpp"),
    "mpi": os.path.exists("/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h"),
    "gloo": os.path.exists("/usr/include/gloo/allreduce.h"),
    "nccl": any(os.path.exists(p) for p in
                ("/usr/include/nccl.h", "/usr/local/cuda/include/nccl.h")),
}
# Microsoft's SARIF validator, which scripts/install-deps.sh installs with npm.
real["sarif-multitool"] = os.path.exists(os.path.join(
    config.ddp_src_root, "build-tools", "sarif", "node_modules", "@microsoft",
    "sarif-multitool-linux", "Sarif.Multitool")) or "SARIF_MULTITOOL" in os.environ
for feature, present in real.items():
    if present:
        config.available_features.add(feature)
    elif os.environ.get("CI") == "true" and feature != "nccl":
        lit_config.fatal("CI must install the real %s headers" % feature)
config.substitutions.append(
    ("%torch_flags", "-std=c++17 -DUSE_C10D_GLOO -isystem " + torch_api))
config.substitutions.append(
    ("%mpi_flags", "-isystem /usr/lib/x86_64-linux-gnu/openmpi/include"))
nccl_dir = "/usr/local/cuda/include" if os.path.exists(
    "/usr/local/cuda/include/nccl.h") else "/usr/include"
config.substitutions.append(("%nccl_flags", "-isystem " + nccl_dir))
config.available_features.add("llvm-%s" % config.llvm_major)

# A clang-tidy of another LLVM release, to show the plugin refuses to load.
for other in ("19", "22"):
    other_tidy = "/usr/lib/llvm-%s/bin/clang-tidy" % other
    if other != config.llvm_major and os.path.exists(other_tidy):
        config.available_features.add("other-clang-tidy")
        config.substitutions.append(("%other_clang_tidy", other_tidy))
        config.substitutions.append(("%other_major", other))
        break

# The examples test builds, runs and analyses every example program in the
# LLVM 22 build. The LLVM 19 and sanitizer builds analyse a fixed sample of
# them (the run reports come from the first run's cache): each further
# program is another parse of the real LibTorch headers (8-15 s on 2 cores,
# more with sanitizers). One pattern per check family:
# an early exit, a value only one rank computed, a point-to-point deadlock,
# uneven batches, parameters unused on some paths.
if config.llvm_major != "22" or getattr(config, "sanitize", False):
    config.substitutions.append(
        ("%examples_sample", " ".join(
            "--only " + p for p in ("early_return", "nan_skip",
                                    "send_recv_deadlock", "uneven_batches",
                                    "unused_param_grads"))))
else:
    config.substitutions.append(("%examples_sample", ""))
