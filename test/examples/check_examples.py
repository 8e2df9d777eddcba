#!/usr/bin/env python3
"""End-to-end check of the example programs in examples/.

For every examples/<pattern>/{buggy,fixed}.cpp this script

1. builds the program (CMake + Ninja, with the Clang next to clang-tidy);
2. runs the analyzer on it (clang-tidy with the ddp-lint plugin,
   -checks='-*,ddp-*', -p <compilation database>) and records which ddp
   checks fired;
3. runs the program as 2 ranks with examples/run_ranks.py and records
   whether all ranks finished cleanly;

and prints one table row per program: does the analyzer's verdict agree with
what really happens at run time? A buggy program agrees when the check
expected for its pattern fired and the run did not end cleanly; a fixed
program agrees when no ddp check fired and the run ended cleanly. The last
line counts the programs and the agreements; the exit status is 1 if any
program disagrees.

A known limitation of the analyzer is declared in KNOWN_LIMITATIONS: the
program is expected to produce no finding although it hangs. It is counted
separately and is not a failure as long as it behaves exactly as declared
(if the analyzer starts reporting it, the row disagrees: update the table).

Usage (lit runs it from test/examples/examples.test):
    check_examples.py --examples <repo>/examples --work <dir> \\
        --clang-tidy <clang-tidy> --plugin <libDdpLintPlugin.so>

Build and analysis are CPU-bound: on 2 cores the whole run takes about
2.5 minutes (3.5 when another copy of it runs at the same time); lit's
per-test limit is 15 minutes. To keep it short, the programs are
compiled with a precompiled header (DDP_EXAMPLES_PCH=ON), while the analyzer
reads a second, plain compilation database without it - the one a user of
the examples gets. The programs run one at a time: the buggy ones while the
analyzer runs (at most two analyzer processes), the fixed ones afterwards,
so that CPU contention cannot make a collective of a correct program time
out.

With --runtime-cache (or $DDP_EXAMPLES_RUNTIME_CACHE), a run in which every
program agrees keeps its run reports there, keyed by the contents of
examples/ and the launch settings; a later run of the same programs (the
test suite runs this test for each LLVM release and on a sanitizer build)
takes them from there instead of building and running the programs again,
and analyses them as usual. The header line of the table says so.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

# The check that must fire on each buggy program. Patterns not listed here
# expect ddp-collective-in-rank-branch.
EXPECTED_CHECK = {
    "rank_gated_barrier": "ddp-rank-gated-barrier",
    "send_recv_deadlock": "ddp-p2p-deadlock",
    "loader_per_rank_data": "ddp-sampler-drop-last",
}

# Patterns whose bug is not about the order of collectives: ddp-lint (the
# whole-program driver, which compares collective sequences) is not expected
# to report them, and its verdict is shown but not judged.
DRIVER_DOES_NOT_APPLY = {"send_recv_deadlock"}
DEFAULT_EXPECTED_CHECK = "ddp-collective-in-rank-branch"

# Programs on which the analyzer is known to be wrong, with the reason. Such
# a program is expected to produce no finding and still not to run cleanly.
KNOWN_LIMITATIONS = {
}

VARIANTS = ("buggy", "fixed")
WARNING_RE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>.*) "
    r"\[(?P<check>ddp-[A-Za-z0-9-]+)\]$")
ERROR_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: ")


def log(message):
    """Progress goes to stderr (lit shows it when the test fails)."""
    print("[check_examples %6.1fs] %s" % (time.monotonic() - START, message),
          file=sys.stderr, flush=True)


START = time.monotonic()


def run_checked(command, what, **kwargs):
    """Runs a build step; on failure prints its output and exits."""
    proc = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kwargs)
    if proc.returncode != 0:
        print(proc.stdout, file=sys.stderr)
        sys.exit("check_examples.py: %s failed (exit %d): %s" %
                 (what, proc.returncode, " ".join(command)))
    return proc.stdout


def remove_stale_runs(parent):
    """Removes the run-<pid> directories of earlier runs that are over."""
    for entry in os.listdir(parent):
        match = re.fullmatch(r"run-(\d+)", entry)
        if not match:
            continue
        pid = int(match.group(1))
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        except PermissionError:
            alive = True
        if not alive:
            shutil.rmtree(os.path.join(parent, entry), ignore_errors=True)


def find_programs(examples):
    """Returns [(pattern, variant, source)] for every example, sorted."""
    programs = []
    for pattern in sorted(os.listdir(examples)):
        for variant in VARIANTS:
            source = os.path.join(examples, pattern, variant + ".cpp")
            if os.path.isfile(source):
                programs.append((pattern, variant, source))
    return programs


def cmake_common(args):
    return ["-G", "Ninja", "-DCMAKE_CXX_COMPILER=" + args.cxx,
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]


def configure_database(args, db_dir):
    """Writes a plain compilation database (no precompiled header) into
    db_dir for the analyzer."""
    log("configuring %s (compilation database for the analyzer)" % db_dir)
    run_checked([args.cmake, "-S", args.examples, "-B", db_dir] +
                cmake_common(args) + ["-DDDP_EXAMPLES_PCH=OFF"],
                "cmake (database)")


def configure_and_build(args, build_dir, db_dir):
    """Builds the examples into build_dir, and the analyzer's database."""
    configure_database(args, db_dir)
    common = cmake_common(args)
    log("configuring %s (build, with a precompiled header)" % build_dir)
    run_checked([args.cmake, "-S", args.examples, "-B", build_dir] + common +
                ["-DDDP_EXAMPLES_PCH=ON"], "cmake (build)")
    log("building with %s -j%d" % (args.ninja, args.build_jobs))
    run_checked([args.ninja, "-C", build_dir, "-j%d" % args.build_jobs],
                "ninja")
    log("build finished")


def analyze(args, db_dir, source):
    """Runs the analyzer on one file. Returns a dict with the checks that
    fired, the warning lines, and an error description (or None)."""
    command = [args.clang_tidy, "--load=" + args.plugin,
               "-checks=-*,ddp-*", "-p", db_dir, source]
    started = time.monotonic()
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              stdin=subprocess.DEVNULL,
                              timeout=args.analyzer_timeout)
    except subprocess.TimeoutExpired:
        return {"checks": [], "warnings": [],
                "error": "clang-tidy did not finish in %gs" %
                         args.analyzer_timeout,
                "seconds": time.monotonic() - started}
    warnings = []
    errors = []
    for line in proc.stdout.splitlines():
        match = WARNING_RE.match(line)
        if match:
            warnings.append(match)
        elif ERROR_RE.match(line):
            errors.append(line)
    error = None
    if proc.returncode != 0 or errors:
        detail = (errors or proc.stderr.strip().splitlines() or [""])[0]
        error = "clang-tidy exit %d: %s" % (proc.returncode, detail)
    return {
        "checks": sorted({w.group("check") for w in warnings}),
        "warnings": ["%s:%s:%s: %s [%s]" % (
            os.path.relpath(w.group("file"), args.examples), w.group("line"),
            w.group("col"), w.group("msg"), w.group("check"))
            for w in warnings],
        "error": error,
        "seconds": time.monotonic() - started,
    }


def processes_running(executable):
    """PIDs of the processes whose executable is the given file: stragglers
    of a program of our private build directory."""
    pids = []
    target = os.path.realpath(executable)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % entry) == target:
                pids.append(int(entry))
        except OSError:
            pass
    return pids


def kill_stragglers(executable):
    for pid in processes_running(executable):
        log("killing straggler %d (%s)" % (pid, executable))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


SHORTEN = [
    (re.compile(r"^error: "), ""),
    (re.compile(r"^\[[^\]]*\.(?:cc|cpp|h):\d+\] "), ""),   # [gloo/...cc:81]
    (re.compile(r" \[[0-9.:a-fA-F]+\]:\d+"), ""),          # peer address
    (re.compile(r"\s+"), " "),
]


def short_reason(rank):
    """A one-line, run-independent description of a rank that did not
    finish cleanly."""
    if rank["status"] == "killed":
        return "killed at the time limit"
    text = rank["last_stderr_line"]
    for pattern, replacement in SHORTEN:
        text = pattern.sub(replacement, text)
    text = text.strip()
    if rank["exit_code"] is not None and rank["exit_code"] < 0:
        try:
            how = signal.Signals(-rank["exit_code"]).name
        except ValueError:
            how = "signal %d" % -rank["exit_code"]
        text = how + (": " + text if text else "")
    elif not text:
        text = "exit %s" % rank["exit_code"]
    if len(text) > 70:
        text = text[:67] + "..."
    return text


def describe_run(report):
    """'clean' or 'hang-or-error (rank 1: ...; ranks 0,1: ...)'."""
    if report["outcome"] == "clean":
        return "clean"
    reasons = {}
    for rank in report["ranks"]:
        if rank["status"] != "finished":
            reasons.setdefault(short_reason(rank), []).append(rank["rank"])
    parts = ["%s %s: %s" % ("ranks" if len(ranks) > 1 else "rank",
                            ",".join(str(r) for r in ranks), reason)
             for reason, ranks in reasons.items()]
    return "hang-or-error (%s)" % "; ".join(parts)


def run_program(args, executable):
    """Runs the program as args.nproc ranks; returns run_ranks.py's JSON
    report. Retries (at most twice) when the rendezvous port was taken by
    somebody else between run_ranks.py choosing it and rank 0 binding it."""
    command = [sys.executable, args.launcher, "--nproc", str(args.nproc),
               "--timeout", str(args.run_timeout),
               "--collective-timeout-ms", str(args.collective_timeout_ms),
               "--json", "--", executable]
    for attempt in range(3):
        launcher = subprocess.Popen(command, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    stdin=subprocess.DEVNULL,
                                    start_new_session=True)
        try:
            out, err = launcher.communicate(timeout=args.run_timeout + 30)
        except subprocess.TimeoutExpired:
            # SIGINT lets run_ranks.py's clean-up kill its ranks.
            os.killpg(launcher.pid, signal.SIGINT)
            try:
                out, err = launcher.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(launcher.pid, signal.SIGKILL)
                out, err = launcher.communicate()
        finally:
            kill_stragglers(executable)
        try:
            report = json.loads(out)
        except ValueError:
            return {"outcome": "hang-or-error", "ranks": [],
                    "launcher_error": (err.strip() or out.strip() or
                                       "run_ranks.py exit %s" %
                                       launcher.returncode)}
        port_taken = any("Address already in use" in r["stderr"]
                         for r in report["ranks"])
        if report["outcome"] == "clean" or not port_taken:
            return report
        log("port %s was taken, running %s again" %
            (report["master_port"], os.path.basename(executable)))
    return report


def lint_all(args, db_dir, programs):
    """Runs ddp-lint once over every program. Returns, per source file, the
    rules of its findings, or raises on an analyzer failure."""
    command = [args.ddp_lint, "-p", db_dir, "--no-cache", "--format=json",
               "-j%d" % args.analyzer_jobs] + [p[2] for p in programs]
    proc = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL,
                          timeout=args.analyzer_timeout * len(programs))
    if proc.returncode not in (0, 1):
        raise RuntimeError("ddp-lint exit %d: %s" % (
            proc.returncode, (proc.stderr.strip().splitlines() or [""])[0]))
    report = json.loads(proc.stdout)
    rules = {os.path.realpath(p[2]): [] for p in programs}
    for finding in report["findings"]:
        path = os.path.realpath(os.path.join(os.getcwd(),
                                             finding["location"]["file"]))
        rules.setdefault(path, []).append(finding["rule"])
    return rules


def verdict_of(analysis):
    if analysis["error"]:
        return "analyzer error"
    return ", ".join(analysis["checks"]) if analysis["checks"] else \
        "no finding"


def judge(pattern, variant, analysis, report, lint=None):
    """Returns 'agree', 'known limitation' or 'DISAGREE' and a note. \p lint
    is the list of ddp-lint's rules that fired on the file (None: not run)."""
    clean = report["outcome"] == "clean"
    if analysis["error"]:
        return "DISAGREE", "the analyzer failed: " + analysis["error"]
    known = KNOWN_LIMITATIONS.get((pattern, variant))
    if known:
        if not analysis["checks"] and not clean and not lint:
            return "known limitation", known
        return "DISAGREE", ("declared a known limitation (%s) but the "
                            "analyzer reported %s and the run was %s; "
                            "update KNOWN_LIMITATIONS" %
                            (known, verdict_of(analysis), report["outcome"]))
    if variant == "buggy":
        expected = EXPECTED_CHECK.get(pattern, DEFAULT_EXPECTED_CHECK)
        problems = []
        if expected not in analysis["checks"]:
            problems.append("expected %s to fire" % expected)
        if lint is not None and not lint:
            problems.append("expected a ddp-lint finding")
        if clean:
            problems.append("expected the run not to end cleanly")
    else:
        problems = []
        if analysis["checks"]:
            problems.append("expected no finding")
        if lint:
            problems.append("expected no ddp-lint finding")
        if not clean:
            problems.append("expected a clean run")
    if problems:
        return "DISAGREE", "; ".join(problems)
    return "agree", ""


def format_table(rows):
    headers = ("pattern", "variant", "analyzer", "runtime", "result")
    table = [headers] + [(r["pattern"], r["variant"], r["verdict"],
                          r["runtime"], r["result"]) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    return ["  ".join([row[i].ljust(widths[i]) for i in range(4)] +
                      [row[4]]).rstrip() for row in table]


def runtime_key(args):
    """A key for what running the programs shows: the contents of every
    file the programs are built from, and the launch settings. The compiler
    is left out: a program's behaviour with 2 ranks on Gloo does not depend
    on which Clang built it."""
    digest = hashlib.sha256()
    for base, dirs, files in os.walk(args.examples):
        dirs[:] = sorted(d for d in dirs if d != "ci")
        for name in sorted(files):
            if name.endswith((".cpp", ".h", ".txt", ".py")):
                path = os.path.join(base, name)
                digest.update(os.path.relpath(path, args.examples).encode())
                with open(path, "rb") as f:
                    digest.update(hashlib.sha256(f.read()).digest())
    digest.update(("%d %d %g" % (args.nproc, args.collective_timeout_ms,
                                 args.run_timeout)).encode())
    return digest.hexdigest()[:24]


def cached_reports(args, programs):
    """The run reports of an earlier run of the same programs, or None."""
    if not args.runtime_cache:
        return None
    path = os.path.join(args.runtime_cache, runtime_key(args) + ".json")
    try:
        with open(path) as f:
            stored = json.load(f)
    except (OSError, ValueError):
        return None
    reports = {}
    for pattern, variant, _ in programs:
        report = stored.get("%s/%s" % (pattern, variant))
        if report is None:
            return None
        reports[(pattern, variant)] = report
    log("run reports of every program from %s" % path)
    return reports


def store_reports(args, reports):
    """Keeps the run reports for the next run of the same programs (the
    test suite runs this test once per LLVM release and once on a
    sanitizer build)."""
    if not args.runtime_cache:
        return
    os.makedirs(args.runtime_cache, exist_ok=True)
    path = os.path.join(args.runtime_cache, runtime_key(args) + ".json")
    temporary = path + ".%d" % os.getpid()
    with open(temporary, "w") as f:
        json.dump({"%s/%s" % key: report for key, report in reports.items()},
                  f, indent=1)
    os.replace(temporary, path)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples",
                        default=os.path.join(here, "..", "..", "examples"),
                        help="the examples/ directory of the repository")
    parser.add_argument("--work", required=True,
                        help="scratch directory for the builds")
    parser.add_argument("--clang-tidy", required=True,
                        help="the clang-tidy to load the plugin into")
    parser.add_argument("--plugin", required=True,
                        help="libDdpLintPlugin.so")
    parser.add_argument("--ddp-lint", help="also run the whole-program "
                        "driver over every example, once")
    parser.add_argument("--cxx", help="C++ compiler (default: the clang++ "
                        "next to clang-tidy)")
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--ninja", default="ninja")
    parser.add_argument("--build-jobs", type=int, default=2)
    parser.add_argument("--analyzer-jobs", type=int, default=2)
    parser.add_argument("--analyzer-timeout", type=float, default=240)
    parser.add_argument("--nproc", type=int, default=2)
    parser.add_argument("--run-timeout", type=float, default=40,
                        help="overall time limit of one run, in seconds")
    parser.add_argument("--collective-timeout-ms", type=int, default=4000)
    parser.add_argument("--only", action="append", default=[],
                        help="only these patterns (repeatable)")
    parser.add_argument("--runtime-cache",
                        default=os.environ.get("DDP_EXAMPLES_RUNTIME_CACHE"),
                        help="reuse the run reports of an earlier run of the "
                        "same programs kept in this directory, and keep "
                        "this run's there when every program agrees "
                        "(default: $DDP_EXAMPLES_RUNTIME_CACHE)")
    args = parser.parse_args(argv)

    args.examples = os.path.realpath(args.examples)
    args.launcher = os.path.join(args.examples, "run_ranks.py")
    if not args.cxx:
        args.cxx = os.path.join(os.path.dirname(args.clang_tidy), "clang++")
    for path in (args.clang_tidy, args.plugin, args.cxx, args.launcher):
        if not os.path.exists(path):
            sys.exit("check_examples.py: %s does not exist" % path)

    programs = [p for p in find_programs(args.examples)
                if not args.only or p[0] in args.only]
    if not programs:
        sys.exit("check_examples.py: no examples found in " + args.examples)

    # A directory of our own under --work, so that two runs at the same time
    # (two lit runs on one build tree) cannot get in each other's way. Left
    # behind by runs that are no longer alive are removed.
    os.makedirs(args.work, exist_ok=True)
    remove_stale_runs(args.work)
    work = os.path.join(os.path.abspath(args.work), "run-%d" % os.getpid())
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    build_dir = os.path.join(work, "build")
    db_dir = os.path.join(work, "compile-db")
    reports = cached_reports(args, programs)
    from_cache = reports is not None
    if from_cache:
        configure_database(args, db_dir)
    else:
        configure_and_build(args, build_dir, db_dir)
        reports = {}

    # The analyzer runs in a small pool. Meanwhile the buggy programs run,
    # one at a time: they are mostly waiting for a collective timeout, and
    # CPU contention cannot make them end cleanly. The fixed programs run
    # afterwards, one at a time on an otherwise idle machine (as far as this
    # test is concerned), so that a slow rank cannot make a collective time
    # out.
    analyses = {}
    lock = threading.Lock()

    def analyze_one(program):
        pattern, variant, source = program
        result = analyze(args, db_dir, source)
        with lock:
            analyses[(pattern, variant)] = result
        log("analysed %s/%s.cpp in %.1fs: %s" % (pattern, variant,
                                                  result["seconds"],
                                                  verdict_of(result)))

    def run_all(variant):
        if from_cache:
            return
        for pattern, program_variant, _ in programs:
            if program_variant != variant:
                continue
            executable = os.path.join(build_dir,
                                      "%s_%s" % (pattern, variant))
            started = time.monotonic()
            report = run_program(args, executable)
            reports[(pattern, variant)] = report
            log("ran %s_%s in %.1fs: %s" % (pattern, variant,
                                            time.monotonic() - started,
                                            describe_run(report)))

    with concurrent.futures.ThreadPoolExecutor(args.analyzer_jobs) as pool:
        futures = [pool.submit(analyze_one, p) for p in programs]
        run_all("buggy")
        for future in futures:
            future.result()
    run_all("fixed")
    lint = None
    if args.ddp_lint:
        started = time.monotonic()
        lint = lint_all(args, db_dir, programs)
        log("ddp-lint analysed %d programs in %.1fs" %
            (len(programs), time.monotonic() - started))

    rows = []
    for pattern, variant, source in programs:
        analysis = analyses[(pattern, variant)]
        report = reports[(pattern, variant)]
        rules = None if lint is None else lint.get(
            os.path.realpath(source), [])
        judged = None if pattern in DRIVER_DOES_NOT_APPLY else rules
        result, note = judge(pattern, variant, analysis, report, judged)
        runtime = describe_run(report)
        if "launcher_error" in report:
            runtime += " [launcher: %s]" % report["launcher_error"]
        verdict = verdict_of(analysis)
        if rules is not None:
            verdict += "; ddp-lint: " + (", ".join(sorted(set(rules))) or
                                         "no finding")
        rows.append({"pattern": pattern, "variant": variant,
                     "verdict": verdict, "runtime": runtime,
                     "result": result, "note": note, "analysis": analysis})

    lines = ["Examples: analyzer verdict (clang-tidy -checks='-*,ddp-*') vs. "
             "%d ranks at run time (collective timeout %d ms)%s" %
             (args.nproc, args.collective_timeout_ms,
              "; run reports of an earlier run of the same programs"
              if from_cache else ""), ""]
    lines += format_table(rows)
    lines.append("")
    for row in rows:
        if row["note"] or row["analysis"]["warnings"]:
            lines.append("%s/%s.cpp: %s" % (
                row["pattern"], row["variant"],
                row["result"] + (" - " + row["note"] if row["note"] else "")))
            for warning in row["analysis"]["warnings"]:
                lines.append("    " + warning)
    agree = sum(r["result"] == "agree" for r in rows)
    known = sum(r["result"] == "known limitation" for r in rows)
    disagree = len(rows) - agree - known
    lines.append("")
    lines.append("%d programs, %d agree, %d known limitation%s, %d DISAGREE" %
                 (len(rows), agree, known, "" if known == 1 else "s",
                  disagree))
    print("\n".join(lines))
    if not disagree and not from_cache:
        store_reports(args, reports)
    # A copy for reading after a lit run (which passes stdout to FileCheck).
    report_file = os.path.join(os.path.abspath(args.work), "last-report.txt")
    with open(report_file, "w") as out:
        out.write("\n".join(lines) + "\n")
    log("report written to " + report_file)
    if disagree:
        log("keeping %s for inspection" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    log("total %.1fs" % (time.monotonic() - START))
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
