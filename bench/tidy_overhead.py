#!/usr/bin/env python3
"""How much the ddp checks add to clang-tidy's own time on a LibTorch TU.

Runs, in pairs whose order alternates, a baseline that parses the
translation unit and `clang-tidy -checks='-*,ddp-*'` (the ddp checks loaded
as a plugin) on the same TU, and prints the median of the per-pair ratios.
Ratios from the same run are robust to the machine's speed; absolute times
are printed for context only.

The baseline: clang-tidy 22 with `-checks='-*'` stops before parsing ("no
checks enabled", or with --allow-no-checks it returns at once), so it cannot
serve. The baseline is the same release's `clang++ -fsyntax-only` with the
same flags: the parse that any clang-tidy run pays. The ratio therefore also
charges clang-tidy's own work (its AST matcher traversal) to the ddp checks,
and is an upper bound on what the checks add. The per-check time that
clang-tidy's --enable-check-profile measures is printed as well.

usage: bench/tidy_overhead.py --plugin build/llvm-22/lib/libDdpLintPlugin.so
                              [--clang-tidy /usr/lib/llvm-22/bin/clang-tidy]
                              [--runs 7] [--max-ratio 1.05] [TU]
The default TU is examples/rank_gated_barrier/buggy.cpp, which includes
<torch/torch.h> and the c10d Gloo headers.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_FLAGS = ["-std=c++17", "-DUSE_C10D_GLOO",
               "-isystem", "/usr/include/torch/csrc/api/include",
               "-I", os.path.join(ROOT, "examples")]


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1) or "error:" in proc.stdout:
        sys.exit("bench: clang-tidy failed:\n" + proc.stdout + proc.stderr)
    return elapsed, proc.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    parser.add_argument("--clang", default=None,
                        help="default: clang++ beside --clang-tidy")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--max-ratio", type=float, default=None,
                        help="exit 1 if the median ratio is above this")
    parser.add_argument("tu", nargs="?", default=os.path.join(
        ROOT, "examples", "rank_gated_barrier", "buggy.cpp"))
    args = parser.parse_args()

    clang = args.clang or os.path.join(os.path.dirname(args.clang_tidy),
                                       "clang++")
    base = [clang, "-fsyntax-only", args.tu] + TORCH_FLAGS
    ddp = [args.clang_tidy, "--load=" + args.plugin, "--checks=-*,ddp-*",
           "--quiet", args.tu, "--"] + TORCH_FLAGS

    timed(base)  # Warm the file cache.
    ratios, base_times, ddp_times = [], [], []
    findings = ""
    for i in range(args.runs):
        if i % 2 == 0:
            tb, _ = timed(base)
            td, findings = timed(ddp)
        else:
            td, findings = timed(ddp)
            tb, _ = timed(base)
        base_times.append(tb)
        ddp_times.append(td)
        ratios.append(td / tb)
        print("pair %d: baseline %.2fs, ddp %.2fs, ratio %.3f" %
              (i + 1, tb, td, td / tb))

    profile = subprocess.run(ddp[:1] + ["--enable-check-profile"] + ddp[1:],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True).stderr
    check_time = 0.0
    for line in profile.splitlines():
        if line.rstrip().endswith(" Total"):
            check_time = float(line.split()[-3])  # wall time
    median = statistics.median(ratios)
    print("TU: %s" % os.path.relpath(args.tu, ROOT))
    print("ddp warnings in the TU: %d" % findings.count("warning:"))
    print("median parse-only %.2fs, median clang-tidy ddp-* %.2fs" %
          (statistics.median(base_times), statistics.median(ddp_times)))
    print("time inside the ddp checks (--enable-check-profile): %.3fs" %
          check_time)
    print("median ratio (clang-tidy ddp-* / clang++ -fsyntax-only) over %d "
          "pairs: %.3f (%+.1f%%)" % (args.runs, median, (median - 1) * 100))
    if args.max_ratio is not None and median > args.max_ratio:
        print("bench: above the limit of %.3f" % args.max_ratio)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
