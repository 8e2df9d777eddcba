#!/usr/bin/env python3
"""Runs the ddp checks and ddp-lint over every translation unit of real code,
and reports crashes, hangs, time per TU and findings.

    bench/real_code.py --build build/llvm-22 -p BUILD_DIR [-p ...] [options]
    bench/real_code.py --build build/llvm-22 --headers DIR:FLAGS [...]

Each -p names a directory holding a compile_commands.json (as a user would
point clang-tidy at their own tree). Each --headers makes one TU per header
under DIR (`#include "<header>"`) compiled with FLAGS, for the public headers
of a library (LibTorch's c10d and C++ API).

Every TU runs through bin/ddp-clang-tidy -checks='-*,ddp-*' with a time limit
(--timeout, 600 s by default); then ddp-lint runs once per database on the
whole program. A run that ends on a signal, prints a crash report ("PLEASE
submit a bug report", "Stack dump:", a sanitizer report) or exceeds the time
limit is a failure. A TU with compile errors is not a failure of ours (the
checks run on what parses), but is counted.

Prints one line per TU with findings, then a table per source; writes the
whole record as JSON with --json. Exit status: 1 if anything crashed or hung,
else 0.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:",
                 "ERROR: AddressSanitizer", "runtime error:",
                 "ERROR: LeakSanitizer")
FINDING = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+:\d+): (?P<level>warning|remark): "
                     r"(?P<msg>.*) \[(?P<check>ddp-[a-z0-9-]+)\]$")
COMPILE_ERROR = re.compile(r": error: .*\[clang-diagnostic-error\]$")


def load_database(directory):
    path = os.path.join(directory, "compile_commands.json")
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)
    seen, units = set(), []
    for e in entries:
        file = e["file"] if os.path.isabs(e["file"]) else os.path.join(
            e["directory"], e["file"])
        file = os.path.normpath(file)
        if file not in seen:
            seen.add(file)
            units.append(file)
    return path, units


def header_database(spec, workdir, index):
    """One TU per header under DIR, in a compile database of its own."""
    directory, _, flags = spec.partition(":")
    directory = os.path.abspath(directory)
    root = os.path.join(workdir, "headers-%d" % index)
    os.makedirs(root, exist_ok=True)
    entries = []
    for base, _, files in os.walk(directory):
        for name in sorted(files):
            if not name.endswith((".h", ".hpp")):
                continue
            header = os.path.join(base, name)
            rel = os.path.relpath(header, directory)
            tu = os.path.join(root, rel.replace(os.sep, "__") + ".cpp")
            with open(tu, "w", encoding="utf-8") as f:
                f.write('#include "%s"\n' % header)
            entries.append({"directory": root, "file": tu,
                            "arguments": ["clang++", "-c", tu]
                            + shlex.split(flags)})
    entries.sort(key=lambda e: e["file"])
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return root


def crashed(returncode, output):
    return returncode < 0 or any(m in output for m in CRASH_MARKERS)


def run_tidy(tidy, database_dir, unit, timeout):
    cmd = [tidy, "-checks=-*,ddp-*", "-p", database_dir, unit, "--quiet"]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout)
        output, code, hung = proc.stdout, proc.returncode, False
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode("utf-8", "replace") \
            if isinstance(e.stdout, bytes) else (e.stdout or "")
        code, hung = None, True
    seconds = time.monotonic() - start
    findings = []
    for line in output.splitlines():
        m = FINDING.match(line)
        if m:
            findings.append(m.groupdict())
    return {
        "unit": unit,
        "seconds": round(seconds, 3),
        "exit": code,
        "hung": hung,
        "crashed": (not hung) and crashed(code, output),
        "compile_errors": sum(1 for l in output.splitlines()
                              if COMPILE_ERROR.search(l)),
        "findings": findings,
        "crash_output": output[-4000:] if (not hung and crashed(code, output))
        else "",
    }


def run_lint(lint, database_dir, timeout, workdir):
    out = os.path.join(workdir, "lint-%d.json" % abs(hash(database_dir)))
    cmd = [lint, "-p", database_dir, "--no-cache", "--format=json", "-o", out]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout)
        code, output, hung = proc.returncode, proc.stdout, False
    except subprocess.TimeoutExpired:
        code, output, hung = None, "", True
    seconds = time.monotonic() - start
    report = {}
    if os.path.exists(out):
        try:
            with open(out, encoding="utf-8") as f:
                report = json.load(f)
        except ValueError:
            report = {}
    return {
        "database": database_dir,
        "seconds": round(seconds, 3),
        "exit": code,
        "hung": hung,
        # 0 no findings, 1 findings, 2 input errors (TUs that did not parse).
        "crashed": (not hung) and (crashed(code, output)
                                   or code not in (0, 1, 2)),
        "findings": report.get("findings", []),
        "skipped": report.get("skipped", []),
        "errors": len(report.get("errors", [])),
        "output": output[-4000:],
    }


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True,
                        help="build directory with bin/ddp-clang-tidy and bin/ddp-lint")
    parser.add_argument("-p", dest="databases", action="append", default=[],
                        help="directory with a compile_commands.json")
    parser.add_argument("--headers", action="append", default=[],
                        help="DIR:FLAGS, one TU per header under DIR")
    parser.add_argument("--name", action="append", default=[],
                        help="a name for each source, in order (-p first)")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--no-lint", action="store_true",
                        help="do not run ddp-lint on the whole program")
    parser.add_argument("--json", help="write the full record here")
    args = parser.parse_args()

    tidy = os.path.join(args.build, "bin", "ddp-clang-tidy")
    lint = os.path.join(args.build, "bin", "ddp-lint")
    for tool in (tidy, lint):
        if not os.access(tool, os.X_OK):
            sys.exit("real_code: error: '%s' not found (build the project)" % tool)
    workdir = tempfile.mkdtemp(prefix="ddp-real-code-")
    sources = [os.path.abspath(d) for d in args.databases]
    for i, spec in enumerate(args.headers):
        sources.append(header_database(spec, workdir, i))
    names = args.name + [os.path.basename(s.rstrip("/")) for s in
                         sources[len(args.name):]]

    record = {"sources": []}
    failed = False
    for name, source in zip(names, sources):
        try:
            _, units = load_database(source)
        except (OSError, ValueError, KeyError) as e:
            sys.exit("real_code: error: '%s': %s" % (source, e))
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            results = list(pool.map(
                lambda u: run_tidy(tidy, source, u, args.timeout), units))
        wall = time.monotonic() - start
        lint_result = None if args.no_lint else run_lint(
            lint, source, args.timeout * 4, workdir)
        for r in results:
            if r["crashed"] or r["hung"]:
                failed = True
                print("FAILED %s: %s" % ("hung" if r["hung"] else "crashed",
                                         r["unit"]))
                print(r["crash_output"])
            for f in r["findings"]:
                print("%s: %s: %s: %s [%s]" % (name, f["loc"], f["level"],
                                              f["msg"], f["check"]))
        if lint_result:
            if lint_result["crashed"] or lint_result["hung"]:
                failed = True
                print("FAILED ddp-lint on %s:\n%s" % (source,
                                                      lint_result["output"]))
            for f in lint_result["findings"]:
                loc = f["location"]
                print("%s: %s:%s:%s: ddp-lint: %s [%s]" % (
                    name, loc["file"], loc["line"], loc["column"],
                    f["message"], f["rule"]))
        times = sorted(r["seconds"] for r in results)
        record["sources"].append({
            "name": name, "database": source, "units": results,
            "lint": lint_result, "wall_seconds": round(wall, 1)})
        summary = {
            "tus": len(results),
            "crashed": sum(r["crashed"] for r in results),
            "hung": sum(r["hung"] for r in results),
            "with_compile_errors": sum(r["compile_errors"] > 0 for r in results),
            "warnings": sum(sum(f["level"] == "warning" for f in r["findings"])
                            for r in results),
            "remarks": sum(sum(f["level"] == "remark" for f in r["findings"])
                           for r in results),
            "median_s": times[len(times) // 2] if times else 0,
            "max_s": times[-1] if times else 0,
        }
        record["sources"][-1]["summary"] = summary
        lint_text = "-"
        if lint_result:
            lint_text = "exit %s, %d findings, %.0f s" % (
                lint_result["exit"], len(lint_result["findings"]),
                lint_result["seconds"])
        print("== %s: %d TUs, %d crashed, %d hung, %d with compile errors, "
              "%d warnings, %d remarks; time per TU median %.1f s, max %.1f s; "
              "ddp-lint: %s" % (name, summary["tus"], summary["crashed"],
                                summary["hung"], summary["with_compile_errors"],
                                summary["warnings"], summary["remarks"],
                                summary["median_s"], summary["max_s"], lint_text),
              flush=True)
    total = sum(s["summary"]["tus"] for s in record["sources"])
    bad = sum(s["summary"]["crashed"] + s["summary"]["hung"]
              for s in record["sources"])
    print("== total: %d TUs, %d crashed or hung" % (total, bad))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
