#!/usr/bin/env python3
"""Prints findings of a benchmark run with their notes and the source around
them, to judge them.

    bench/real_code/show.py RESULTS REPO [--tool tidy|lint] [--unjudged]
                            [--file SUBSTRING] [--context N]
"""
import argparse
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def source_lines(path, line, context):
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return []
    lo, hi = max(1, line - context), min(len(lines), line + context)
    return ["%s%5d| %s" % (">" if i == line else " ", i, lines[i - 1].rstrip())
            for i in range(lo, hi + 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results")
    parser.add_argument("repo")
    parser.add_argument("--tool", choices=("tidy", "lint"))
    parser.add_argument("--root", default="/work/realcode")
    parser.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    parser.add_argument("--unjudged", action="store_true")
    parser.add_argument("--file", help="only files whose path contains this")
    parser.add_argument("--context", type=int, default=3)
    args = parser.parse_args()

    judged = set()
    if os.path.exists(args.verdicts):
        with open(args.verdicts) as f:
            for v in json.load(f)["verdicts"]:
                judged.add((v["repo"], v["tool"], v["file"], v["line"], v["rule"]))
    src = os.path.join(args.root, "src", args.repo)
    for tool in ("tidy", "lint"):
        if args.tool and tool != args.tool:
            continue
        path = os.path.join(args.results, args.repo, "findings-%s.json" % tool)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            findings = json.load(f)
        for f in findings:
            k = (args.repo, tool, f["file"], f["line"], f["rule"])
            if args.unjudged and k in judged:
                continue
            if args.file and args.file not in f["file"]:
                continue
            print("=" * 78)
            print("%s %s:%s:%s [%s] %s" % (tool, f["file"], f["line"],
                                          f["column"], f["rule"], f["message"]))
            extra = f.get("extra", {})
            for n in extra.get("notes", []):
                print("  note: " + n)
            for w in extra.get("why", []):
                print("  why: " + w)
            for s in extra.get("sides", []):
                print("  %s: %s" % (s["label"], s["sequence"][:600]))
            if extra.get("site"):
                site = extra["site"]
                print("  site: %s:%s" % (site["file"], site["line"]))
            print("\n".join(source_lines(os.path.join(src, f["file"]),
                                         f["line"], args.context)))
            if tool == "lint" and extra.get("site"):
                site = extra["site"]
                if (site["file"], site["line"]) != (f["file"], f["line"]):
                    print("  --- site")
                    print("\n".join(source_lines(os.path.join(src, site["file"]),
                                                 site["line"], 1)))


if __name__ == "__main__":
    main()
