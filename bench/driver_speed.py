#!/usr/bin/env python3
"""What ddp-lint costs on a multi-TU LibTorch program, as ratios.

1. Cold: `ddp-lint -p DB --no-cache -jN` against the baseline, `clang++
   -fsyntax-only` on every TU of the same compile database, N at a time:
   the parse that any analysis pays. Runs alternate in pairs; the median of
   the per-pair ratios is printed (target: at most 1.15).
2. Cache: a first run with an empty cache against a second run on the
   unchanged tree (target: the second at least 10x faster).
3. Linear time: functions of 40, 400 and 4000 sequential rank-dependent
   branches (mock headers), each with one unbalanced branch: analysis time
   per branch stays flat, and each gets exactly one finding.
4. The shared preamble: the example programs (21 TUs, each including
   <torch/torch.h> and the c10d Gloo headers through common/dist_setup.h),
   one compile database run in examples/. Cold `ddp-lint --no-cache -jN`
   (with the preamble), the same with --no-preamble, and the sum of `clang++
   -fsyntax-only` over the TUs N at a time, in rotating order; per run the
   ratios to the parse; median, min and max of wall time (target: at most
   0.4 with the preamble) and of CPU time (user + system of the processes).

usage: bench/driver_speed.py --ddp-lint build/llvm-22/bin/ddp-lint
           [--clang /usr/lib/llvm-22/bin/clang++] [--runs 3] [-j 2]
           [--program test/driver/Inputs/torch-trainer]
           [--cases cold,cache,linear,preamble]
"""
import argparse
import concurrent.futures
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_FLAGS = ["-std=c++17", "-DUSE_C10D_GLOO",
               "-isystem", "/usr/include/torch/csrc/api/include",
               "-I", os.path.join(ROOT, "examples")]
MOCK_FLAGS = ["-std=c++17", "-isystem", os.path.join(ROOT, "test", "Inputs")]


def write_cdb(out_dir, src_dir, files, flags):
    commands = [{"directory": src_dir, "file": f,
                 "arguments": ["clang++"] + flags + ["-c", f]} for f in files]
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as out:
        json.dump(commands, out)
    return commands


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd, ok=(0, 1), cwd=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, cwd=cwd)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        sys.exit("bench: %s failed (%d):\n%s%s" % (cmd[0], proc.returncode,
                                                   proc.stdout, proc.stderr))
    return elapsed, proc.stdout


def syntax_only(clang, commands, jobs):
    def one(c):
        return timed([clang, "-fsyntax-only"] + c["arguments"][1:-2] +
                     [c["file"]], ok=(0,), cwd=c["directory"])
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, commands))
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ddp-lint", required=True)
    parser.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("-j", type=int, default=os.cpu_count())
    parser.add_argument("--program", default=os.path.join(
        ROOT, "test", "driver", "Inputs", "torch-trainer"))
    parser.add_argument("--cases", default="cold,cache,linear,preamble",
                        help="which of cold, cache, linear, preamble to run")
    args = parser.parse_args()
    cases = set(args.cases.split(","))
    lint = os.path.abspath(args.ddp_lint)
    program = os.path.abspath(args.program)
    files = sorted(f for f in os.listdir(program) if f.endswith(".cpp"))
    work = tempfile.mkdtemp(prefix="ddp-bench-")
    try:
        commands = write_cdb(work, program, files, TORCH_FLAGS)
        print("program: %s (%d TUs), -j%d, %d runs" %
              (program, len(files), args.j, args.runs))

        # 1. Cold runs against the parse.
        ratios = []
        for run in range(args.runs if "cold" in cases else 0):
            pair = {}
            order = ["base", "lint"] if run % 2 == 0 else ["lint", "base"]
            for which in order:
                if which == "base":
                    pair[which] = syntax_only(args.clang, commands, args.j)
                else:
                    pair[which] = timed([lint, "-p", work, "--no-cache",
                                         "-j%d" % args.j])[0]
            ratios.append(pair["lint"] / pair["base"])
            print("  cold run %d: clang++ -fsyntax-only %.1f s, ddp-lint "
                  "%.1f s, ratio %.3f" % (run + 1, pair["base"], pair["lint"],
                                          ratios[-1]))
        if ratios:
            print("cold ratio ddp-lint / clang++ -fsyntax-only: median %.3f "
                  "(target <= 1.15)" % statistics.median(ratios))

        # 2. The cache.
        speedups = []
        for run in range(args.runs if "cache" in cases else 0):
            cache = os.path.join(work, "cache-%d" % run)
            first = timed([lint, "-p", work, "--cache-dir", cache,
                           "-j%d" % args.j])[0]
            second = timed([lint, "-p", work, "--cache-dir", cache,
                            "-j%d" % args.j])[0]
            speedups.append(first / second)
            print("  cache run %d: first %.2f s, second %.3f s, %.0fx" %
                  (run + 1, first, second, speedups[-1]))
        if speedups:
            print("cache speed-up, second run on an unchanged tree: median "
                  "%.0fx (target >= 10x)" % statistics.median(speedups))

        # 3. Linear time in the number of branches.
        gen = os.path.join(ROOT, "test", "driver", "gen_branches.py")
        per_branch = []
        for n in (40, 400, 4000) if "linear" in cases else ():
            src = os.path.join(work, "branches-%d" % n)
            os.makedirs(src)
            subprocess.run([sys.executable, gen,
                            os.path.join(src, "many.cpp"), str(n), str(n // 2)],
                           check=True)
            write_cdb(src, src, ["many.cpp"], MOCK_FLAGS)
            base = syntax_only(args.clang, [{"directory": src,
                                             "file": "many.cpp",
                                             "arguments": ["clang++"] +
                                             MOCK_FLAGS + ["-c", "many.cpp"]}],
                               1)
            elapsed, out = timed([lint, "-p", src, "--no-cache",
                                  "--format=json"])
            findings = len(json.loads(out)["findings"])
            per_branch.append(max(elapsed - base, 0) / n * 1e3)
            print("  %4d branches: ddp-lint %.2f s (parse alone %.2f s), %d "
                  "finding%s, %.3f ms per branch beyond the parse" %
                  (n, elapsed, base, findings, "" if findings == 1 else "s",
                   per_branch[-1]))

        # 4. The shared preamble, on the examples.
        if "preamble" in cases:
            preamble_case(args, lint, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def spread(values):
    return "median %.3f (min %.3f, max %.3f)" % (
        statistics.median(values), min(values), max(values))


def preamble_case(args, lint, work):
    examples = os.path.join(ROOT, "examples")
    files = sorted(os.path.relpath(os.path.join(d, f), examples)
                   for d, _, names in os.walk(examples)
                   for f in names if f.endswith(".cpp"))
    db = os.path.join(work, "examples-db")
    os.makedirs(db)
    commands = write_cdb(db, examples, files, TORCH_FLAGS)
    print("preamble: examples/ (%d TUs, one compile database), -j%d, %d runs"
          % (len(files), args.j, args.runs))
    runners = {
        "parse": lambda: syntax_only(args.clang, commands, args.j),
        "preamble": lambda: timed([lint, "-p", db, "--no-cache",
                                   "-j%d" % args.j])[0],
        "no-preamble": lambda: timed([lint, "-p", db, "--no-cache",
                                      "--no-preamble", "-j%d" % args.j])[0],
    }
    order = ["parse", "preamble", "no-preamble"]
    wall = {k: [] for k in order}
    cpu = {k: [] for k in order}
    for run in range(args.runs):
        # Each command goes first, second and third in turn.
        turn = order[run % 3:] + order[:run % 3]
        for which in turn:
            before = children_cpu()
            wall[which].append(runners[which]())
            cpu[which].append(children_cpu() - before)
        print("  run %d (%s): parse %.1f s (cpu %.1f s), ddp-lint %.1f s "
              "(cpu %.1f s, %.3fx), --no-preamble %.1f s (cpu %.1f s, "
              "%.3fx)" % (run + 1, ", ".join(turn), wall["parse"][-1],
                          cpu["parse"][-1], wall["preamble"][-1],
                          cpu["preamble"][-1],
                          wall["preamble"][-1] / wall["parse"][-1],
                          wall["no-preamble"][-1], cpu["no-preamble"][-1],
                          wall["no-preamble"][-1] / wall["parse"][-1]))
    for name, times in (("wall", wall), ("cpu", cpu)):
        print("%s: clang++ -fsyntax-only (sum over the TUs, -j%d) %s s" %
              (name, args.j, spread(times["parse"])))
        for which in ("preamble", "no-preamble"):
            ratios = [a / b for a, b in zip(times[which], times["parse"])]
            print("%s: ddp-lint%s %s s; ratio to the parse %s%s" % (
                name, "" if which == "preamble" else " --no-preamble",
                spread(times[which]), spread(ratios),
                " (target <= 0.4)" if which == "preamble" and
                name == "wall" else ""))


if __name__ == "__main__":
    main()
