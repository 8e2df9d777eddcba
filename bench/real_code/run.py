#!/usr/bin/env python3
"""Runs both front ends over the repositories of the real-code benchmark.

    bench/real_code/run.py --build build/llvm-22 --out RESULTS [--repos a,b] [-j 2]

For each repository of manifest.json (its source and compile database made by
prepare.py under --root):

- bin/ddp-clang-tidy -checks='-*,ddp-*' on every TU of the database, one run
  per TU, with a time limit (--timeout);
- bin/ddp-lint once on the whole database (--format=json, --no-cache).

Both run under `nice`. It writes, under RESULTS/<id>/:

- findings-tidy.json, findings-lint.json: the normalised findings, one object
  each: tool ("tidy" or "lint"), file (relative to the repository), line,
  column, rule (the check, or ddp-lint's rule), message, and `extra` (notes,
  sides) to help whoever judges them. A finding in a header that several TUs
  include is listed once.
- summary.json: TUs; for the checks, TUs with compile errors (every error
  diagnostic counts, the implicit-declaration errors of C included), crashes,
  hangs, functions skipped (the budget remarks) and time; for ddp-lint, its
  exit code, crash or hang, time, and the counts its JSON report gives:
  `translation_units_with_errors`, `functions_skipped` and `incomplete` when
  present (null otherwise), and `errors` (the TUs it refused).
- tidy.log (every TU's output), lint.json (ddp-lint's report), lint.log.

bench/real_code/table.py RESULTS prints the table. Exit status: 1 if anything
crashed or hung, else 0.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:",
                 "ERROR: AddressSanitizer", "runtime error:",
                 "ERROR: LeakSanitizer")
DIAG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): "
                  r"(?P<level>warning|remark|note|error): (?P<msg>.*?)"
                  r"(?: \[(?P<tag>[^\]]+)\])?$")
# clang-tidy prints errors without a location ("error: 'x.h' file not found")
# only for fatal errors in the command line; those also count.
BARE_ERROR = re.compile(r"^error: .*\[clang-diagnostic-[^\]]+\]$")


def load_units(database_dir):
    with open(os.path.join(database_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    units, seen = [], set()
    for e in entries:
        path = e["file"] if os.path.isabs(e["file"]) else os.path.join(
            e["directory"], e["file"])
        path = os.path.normpath(path)
        if path not in seen:
            seen.add(path)
            units.append((path, e["directory"]))
    return units


def crashed(returncode, output):
    return (returncode is not None and returncode < 0) or any(
        m in output for m in CRASH_MARKERS)


def relative(path, directory, src):
    if not os.path.isabs(path):
        path = os.path.join(directory, path)
    path = os.path.realpath(path)
    rel = os.path.relpath(path, os.path.realpath(src))
    return path if rel.startswith("..") else rel


def parse_tidy(output, directory, src):
    """Warnings and remarks of ddp checks, with their notes; compile errors."""
    findings, remarks, errors = [], [], 0
    current = None
    for line in output.splitlines():
        if BARE_ERROR.match(line):
            errors += 1
            continue
        m = DIAG.match(line)
        if not m:
            continue
        level, tag = m["level"], m["tag"] or ""
        if level == "error" and (tag.startswith("clang-diagnostic-")
                                 or not tag):
            errors += 1
            current = None
            continue
        if level == "note":
            if current is not None:
                current["extra"]["notes"].append("%s:%s:%s: %s" % (
                    relative(m["file"], directory, src), m["line"],
                    m["column"], m["msg"]))
            continue
        if not tag.startswith("ddp-"):
            current = None
            continue
        item = {"tool": "tidy", "file": relative(m["file"], directory, src),
                "line": int(m["line"]), "column": int(m["column"]),
                "rule": tag.split(",")[0], "message": m["msg"],
                "extra": {"notes": []}}
        if level == "remark":
            remarks.append(item)
            current = None
        else:
            findings.append(item)
            current = item
    return findings, remarks, errors


def run_tidy(tidy, cdb, src, unit, directory, timeout):
    cmd = ["nice", "-n", "10", tidy, "-checks=-*,ddp-*", "-p", cdb, unit,
           "--quiet"]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout)
        output, code, hung = proc.stdout, proc.returncode, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        output = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
        code, hung = None, True
    seconds = time.monotonic() - start
    findings, remarks, errors = parse_tidy(output, directory, src)
    return {"unit": os.path.relpath(unit, src), "seconds": round(seconds, 2),
            "exit": code, "hung": hung,
            "crashed": (not hung) and crashed(code, output),
            "compile_errors": errors, "findings": findings,
            "remarks": remarks, "output": output}


def run_lint(lint, cdb, src, out_dir, jobs, timeout):
    report = os.path.join(out_dir, "lint.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = ["nice", "-n", "10", lint, "-p", cdb, "--no-cache", "--format=json",
           "-o", report, "-j", str(jobs), "--source-root", src]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=timeout)
        code, output, hung = proc.returncode, proc.stdout, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        output = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
        code, hung = None, True
    seconds = time.monotonic() - start
    with open(os.path.join(out_dir, "lint.log"), "w") as f:
        f.write(output)
    data = {}
    if os.path.exists(report):
        try:
            with open(report) as f:
                data = json.load(f)
        except ValueError:
            data = {}
    findings, seen = [], set()
    for item in data.get("findings", []):
        loc = item["location"]
        f = {"tool": "lint", "file": loc["file"], "line": loc["line"],
             "column": loc["column"], "rule": item["rule"],
             "message": item["message"],
             "extra": {"check": item.get("check"),
                       "function": item.get("function"),
                       "site": item.get("site"),
                       "why": [w["message"] for w in item.get("why", [])],
                       "sides": item.get("sides", [])}}
        key = (f["file"], f["line"], f["column"], f["rule"], f["message"])
        if key not in seen:
            seen.add(key)
            findings.append(f)
    summary = {
        "exit": code, "hung": hung, "seconds": round(seconds, 1),
        # 0 clean, 1 findings, 2 input errors (a TU that did not parse).
        "crashed": (not hung) and (crashed(code, output)
                                   or code not in (0, 1, 2)),
        "translation_units": data.get("translation_units"),
        "translation_units_with_errors": data.get(
            "translation_units_with_errors"),
        "functions_skipped": data.get("functions_skipped"),
        "incomplete": len(data["incomplete"]) if "incomplete" in data else None,
        "errors": len(data.get("errors", [])),
        "skipped": len(data.get("skipped", [])),
        "findings": len(findings),
    }
    return findings, summary


def dedup(findings):
    out, seen = [], {}
    for f in findings:
        key = (f["file"], f["line"], f["column"], f["rule"], f["message"])
        if key in seen:
            seen[key]["extra"]["tus"] = seen[key]["extra"].get("tus", 1) + 1
            continue
        seen[key] = f
        out.append(f)
    return out


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


def run_repo(repo, args, tidy, lint):
    rid = repo["id"]
    src = os.path.join(args.root, "src", rid)
    cdb = os.path.join(args.root, "cdb", rid)
    out_dir = os.path.join(args.out, rid)
    os.makedirs(out_dir, exist_ok=True)
    units = load_units(cdb)
    failed = False
    summary = {"id": rid, "github": repo["github"], "commit": repo["commit"],
               "tus": len(units)}
    if not args.no_tidy:
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            results = list(pool.map(
                lambda u: run_tidy(tidy, cdb, src, u[0], u[1], args.timeout),
                units))
        wall = time.monotonic() - start
        with open(os.path.join(out_dir, "tidy.log"), "w") as f:
            for r in results:
                f.write("=== %s (exit %s, %.1f s%s%s)\n%s\n" % (
                    r["unit"], r["exit"], r["seconds"],
                    ", HUNG" if r["hung"] else "",
                    ", CRASHED" if r["crashed"] else "", r["output"]))
        findings = dedup([f for r in results for f in r["findings"]])
        write_json(os.path.join(out_dir, "findings-tidy.json"), findings)
        times = sorted(r["seconds"] for r in results)
        summary["tidy"] = {
            "tus_with_errors": sum(r["compile_errors"] > 0 for r in results),
            "crashed": [r["unit"] for r in results if r["crashed"]],
            "hung": [r["unit"] for r in results if r["hung"]],
            "functions_skipped": len({(x["file"], x["line"]) for r in results
                                      for x in r["remarks"]}),
            "findings": len(findings),
            "wall_seconds": round(wall, 1),
            "cpu_seconds_sum": round(sum(times), 1),
            "median_tu_seconds": times[len(times) // 2] if times else 0,
            "max_tu_seconds": times[-1] if times else 0,
            "slowest_tu": max(results, key=lambda r: r["seconds"])["unit"]
            if results else None,
        }
        failed |= bool(summary["tidy"]["crashed"] or summary["tidy"]["hung"])
    if not args.no_lint:
        findings, lint_summary = run_lint(lint, cdb, src, out_dir, args.j,
                                          args.lint_timeout)
        write_json(os.path.join(out_dir, "findings-lint.json"), findings)
        summary["lint"] = lint_summary
        failed |= lint_summary["crashed"] or lint_summary["hung"]
    old = os.path.join(out_dir, "summary.json")
    if os.path.exists(old):
        # A run of one front end keeps the other's summary.
        with open(old) as f:
            previous = json.load(f)
        for key in ("tidy", "lint"):
            if key not in summary and key in previous:
                summary[key] = previous[key]
    write_json(old, summary)
    return summary, failed


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True,
                        help="build directory with bin/ddp-clang-tidy and bin/ddp-lint")
    parser.add_argument("--out", required=True, help="results directory")
    parser.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    parser.add_argument("--root", default="/work/realcode",
                        help="where prepare.py put src/<id> and cdb/<id>")
    parser.add_argument("--repos", help="comma-separated ids (default: all)")
    parser.add_argument("-j", type=int, default=2,
                        help="TUs at once (default 2; the machine is shared)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="time limit of one ddp-clang-tidy run (s)")
    parser.add_argument("--lint-timeout", type=float, default=5400,
                        help="time limit of one ddp-lint run (s)")
    parser.add_argument("--no-tidy", action="store_true")
    parser.add_argument("--no-lint", action="store_true")
    args = parser.parse_args()

    tidy = os.path.abspath(os.path.join(args.build, "bin", "ddp-clang-tidy"))
    lint = os.path.abspath(os.path.join(args.build, "bin", "ddp-lint"))
    for tool in (tidy, lint):
        if not os.access(tool, os.X_OK):
            sys.exit("run: error: '%s' not found (build the project)" % tool)
    with open(args.manifest) as f:
        manifest = json.load(f)
    wanted = args.repos.split(",") if args.repos else None
    repos = [r for r in manifest["repositories"]
             if not wanted or r["id"] in wanted]
    if wanted and len(repos) != len(wanted):
        sys.exit("run: error: unknown id in --repos")
    # Every database is looked for before anything runs: a missing one is
    # an error named at once, not after an hour of the others.
    missing = [r["id"] for r in repos
               if not os.path.exists(os.path.join(
                   args.root, "cdb", r["id"], "compile_commands.json"))]
    if missing:
        sys.exit("run: error: no database for %s (run prepare.py, or leave "
                 "them out with --repos)" % ", ".join(missing))
    os.makedirs(args.out, exist_ok=True)
    failed = False
    for repo in repos:
        summary, bad = run_repo(repo, args, tidy, lint)
        failed |= bad
        t, l = summary.get("tidy", {}), summary.get("lint", {})
        print("%s: %d TUs; tidy: %s findings, %s TUs with errors, %d crashed, "
              "%d hung, %s s; lint: exit %s, %s findings, %s s" % (
                  repo["id"], summary["tus"], t.get("findings"),
                  t.get("tus_with_errors"), len(t.get("crashed", [])),
                  len(t.get("hung", [])), t.get("wall_seconds"),
                  l.get("exit"), l.get("findings"), l.get("seconds")),
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
