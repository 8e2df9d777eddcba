#!/usr/bin/env python3
"""Prints the real-code benchmark's table from a results directory.

    bench/real_code/table.py RESULTS [--verdicts FILE] [--unjudged] [--missing] [--causes]

Per repository and per front end (the checks through ddp-clang-tidy, "tidy";
the whole-program driver, "lint"): TUs, TUs with compile errors, functions
skipped, findings, true positives, false positives, findings not yet judged,
and precision (TP / (TP + FP), over the judged findings); totals per front
end; then crashes and hangs, and the true positives of the verdicts file
that this run no longer reports (lost recall).

A verdict applies to a finding with the same repository, tool, file, line
and rule (message and column may change). --unjudged lists the findings that
have none; --missing lists every verdict that matches no finding.

For ddp-lint, "TUs err" and "skipped" are the report's
`translation_units_with_errors` and `functions_skipped` where its JSON has
them ("-" otherwise), and "refused" the TUs it could not analyse at all
(its `errors`).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def key(repo, f):
    return (repo, f["tool"], f["file"], int(f["line"]), f["rule"])


def load_verdicts(path):
    with open(path) as f:
        data = json.load(f)
    verdicts = {}
    for v in data["verdicts"]:
        k = key(v["repo"], v)
        if v["verdict"] not in ("TP", "FP"):
            sys.exit("table: bad verdict %r for %s" % (v["verdict"], k))
        verdicts[k] = v
    return verdicts


def load_results(results, manifest):
    repos = []
    for repo in manifest["repositories"]:
        d = os.path.join(results, repo["id"])
        if not os.path.exists(os.path.join(d, "summary.json")):
            continue
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
        findings = {}
        for tool in ("tidy", "lint"):
            path = os.path.join(d, "findings-%s.json" % tool)
            if os.path.exists(path):
                with open(path) as f:
                    findings[tool] = json.load(f)
        repos.append((repo["id"], summary, findings))
    return repos


def fmt(value):
    return "-" if value is None else str(value)


def precision(tp, fp):
    return "-" if tp + fp == 0 else "%.0f%%" % (100.0 * tp / (tp + fp))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    parser.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    parser.add_argument("--unjudged", action="store_true",
                        help="list the findings that have no verdict")
    parser.add_argument("--missing", action="store_true",
                        help="list the verdicts that match no finding")
    parser.add_argument("--causes", action="store_true",
                        help="count this run's false positives by cause, with examples")
    args = parser.parse_args()

    with open(args.manifest) as f:
        manifest = json.load(f)
    verdicts = load_verdicts(args.verdicts) if os.path.exists(
        args.verdicts) else {}
    repos = load_results(args.results, manifest)
    if not repos:
        sys.exit("table: no results in '%s'" % args.results)

    matched, unjudged, failures, fp_by_cause = set(), [], [], {}
    for tool, title in (("tidy", "ddp-clang-tidy (per TU)"),
                        ("lint", "ddp-lint (per database)")):
        if tool == "tidy":
            head = ("repository", "TUs", "TUs err", "skipped", "findings",
                    "TP", "FP", "unjudged", "precision", "time s")
        else:
            head = ("repository", "TUs", "TUs err", "refused", "skipped",
                    "findings", "TP", "FP", "unjudged", "precision", "time s")
        rows = []
        total = dict(tus=0, err=0, refused=0, skipped=0, findings=0, tp=0,
                     fp=0, un=0, time=0.0)
        err_known = skip_known = True
        for rid, summary, findings in repos:
            s = summary.get(tool)
            if s is None:
                continue
            tp = fp = un = 0
            for f in findings.get(tool, []):
                v = verdicts.get(key(rid, f))
                if v is None:
                    un += 1
                    unjudged.append((rid, f))
                else:
                    matched.add(key(rid, f))
                    if v["verdict"] == "FP":
                        fp_by_cause.setdefault((tool, v.get("cause", "-")),
                                               []).append((rid, f))
                    tp += v["verdict"] == "TP"
                    fp += v["verdict"] == "FP"
            n = len(findings.get(tool, []))
            if tool == "tidy":
                err, skipped, seconds = (s["tus_with_errors"],
                                         s["functions_skipped"],
                                         s["wall_seconds"])
                for u in s["crashed"]:
                    failures.append("%s: ddp-clang-tidy crashed on %s" % (rid, u))
                for u in s["hung"]:
                    failures.append("%s: ddp-clang-tidy hung on %s" % (rid, u))
                rows.append((rid, summary["tus"], err, skipped, n, tp, fp, un,
                             precision(tp, fp), "%.0f" % seconds))
            else:
                err, skipped, seconds = (s["translation_units_with_errors"],
                                         s["functions_skipped"], s["seconds"])
                if s["crashed"]:
                    failures.append("%s: ddp-lint crashed (exit %s)"
                                    % (rid, s["exit"]))
                if s["hung"]:
                    failures.append("%s: ddp-lint hung" % rid)
                rows.append((rid, summary["tus"], fmt(err), s["errors"],
                             fmt(skipped), n, tp, fp, un, precision(tp, fp),
                             "%.0f" % seconds))
                total["refused"] += s["errors"]
            err_known &= err is not None
            skip_known &= skipped is not None
            total["tus"] += summary["tus"]
            total["err"] += err or 0
            total["skipped"] += skipped or 0
            total["findings"] += n
            total["tp"] += tp
            total["fp"] += fp
            total["un"] += un
            total["time"] += float(seconds or 0)
        if not rows:
            continue
        if tool == "tidy":
            rows.append(("total", total["tus"], total["err"], total["skipped"],
                         total["findings"], total["tp"], total["fp"],
                         total["un"], precision(total["tp"], total["fp"]),
                         "%.0f" % total["time"]))
        else:
            rows.append(("total", total["tus"],
                         total["err"] if err_known else "-",
                         total["refused"],
                         total["skipped"] if skip_known else "-",
                         total["findings"], total["tp"], total["fp"],
                         total["un"], precision(total["tp"], total["fp"]),
                         "%.0f" % total["time"]))
        widths = [max(len(str(r[i])) for r in rows + [head])
                  for i in range(len(head))]
        print(title)
        line = "  ".join(str(h).ljust(w) if i == 0 else str(h).rjust(w)
                         for i, (h, w) in enumerate(zip(head, widths)))
        print(line)
        print("-" * len(line))
        for r in rows:
            if r[0] == "total":
                print("-" * len(line))
            print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                            for i, (c, w) in enumerate(zip(r, widths))))
        print()

    print("crashes and hangs: %s" % (len(failures) or "none"))
    for f in failures:
        print("  " + f)
    present = {rid for rid, _, _ in repos}
    missing = [v for k, v in sorted(verdicts.items())
               if k not in matched and k[0] in present]
    # A verdict whose finding is now reported as part of another one (two
    # operands of one condition, say) names it in superseded_by.
    lost = [v for v in missing if v["verdict"] == "TP"
            and not ("superseded_by" in v and
                     (v["repo"], v["tool"], v["file"], v["superseded_by"],
                      v["rule"]) in matched)]
    print("true positives of the verdicts no longer reported: %s"
          % (len(lost) or "none"))
    for v in lost:
        print("  %s %s %s:%s [%s]: %s" % (v["repo"], v["tool"], v["file"],
                                          v["line"], v["rule"], v["reason"]))
    if args.missing:
        print("\nverdicts that match no finding of this run (%d):" % len(missing))
        for v in missing:
            print("  %s %s %s %s:%s [%s]" % (v["verdict"], v["repo"], v["tool"],
                                            v["file"], v["line"], v["rule"]))
    if args.causes:
        print("\nfalse positives by cause (tool, cause: count, examples):")
        for (tool, cause), items in sorted(fp_by_cause.items(),
                                           key=lambda x: (x[0][0], -len(x[1]))):
            examples = ", ".join("%s %s:%s" % (rid, f["file"], f["line"])
                                 for rid, f in items[:3])
            print("  %s %s: %d (%s)" % (tool, cause, len(items), examples))
    if args.unjudged:
        print("\nfindings without a verdict (%d):" % len(unjudged))
        for rid, f in unjudged:
            print("  %s %s %s:%s:%s [%s] %s" % (rid, f["tool"], f["file"],
                                               f["line"], f["column"],
                                               f["rule"], f["message"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
