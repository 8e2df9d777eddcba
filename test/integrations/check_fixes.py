#!/usr/bin/env python3
"""Reads a clang-tidy --export-fixes file as a review bot does, and prints it.

usage: check_fixes.py FIXES.yaml

The format (clang::tooling::TranslationUnitDiagnostics): MainSourceFile, and
Diagnostics, each with DiagnosticName, DiagnosticMessage {Message, FilePath,
FileOffset, Replacements [{FilePath, Offset, Length, ReplacementText}]},
Notes, Level and BuildDirectory; relative FilePaths are relative to
BuildDirectory. run-clang-tidy -export-fixes FILE merges the files of all
translation units into one of the same shape.

Prints one line per diagnostic, note and replacement, with file:line:col taken
from the offsets in the file on disk, and the text each replacement removes:

  ddp-rank-gated-barrier train.cpp:14:9 Warning: 'barrier' is ...
    note train.cpp:12:7: this condition depends on the rank
    replace train.cpp:13:43 "\\n    pg->barrier()->wait();" with ""

Fails (exit 1) on a missing key or an offset outside its file. Needs PyYAML
(Debian's python3-yaml, a dependency of clang-tidy-N).
"""
import json
import os
import sys

import yaml


def position(path, offset):
    with open(path, "rb") as f:
        data = f.read()
    if not 0 <= offset <= len(data):
        sys.exit("check_fixes: offset %d outside %s (%d bytes)"
                 % (offset, path, len(data)))
    before = data[:offset]
    line = before.count(b"\n") + 1
    col = offset - (before.rfind(b"\n") + 1) + 1
    return data, line, col


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = yaml.safe_load(f)
    if "MainSourceFile" not in doc:
        sys.exit("check_fixes: no MainSourceFile")
    for diag in doc["Diagnostics"]:
        build = diag["BuildDirectory"]
        msg = diag["DiagnosticMessage"]
        path = os.path.join(build, msg["FilePath"])
        _, line, col = position(path, msg["FileOffset"])
        print("%s %s:%d:%d %s: %s" % (diag["DiagnosticName"],
                                      os.path.basename(path), line, col,
                                      diag["Level"], msg["Message"]))
        for note in diag.get("Notes", []):
            npath = os.path.join(build, note["FilePath"])
            _, nline, ncol = position(npath, note["FileOffset"])
            print("  note %s:%d:%d: %s" % (os.path.basename(npath), nline,
                                           ncol, note["Message"]))
        for repl in msg["Replacements"]:
            rpath = os.path.join(build, repl["FilePath"])
            data, rline, rcol = position(rpath, repl["Offset"])
            old = data[repl["Offset"]:repl["Offset"] + repl["Length"]]
            print("  replace %s:%d:%d %s with %s" % (
                os.path.basename(rpath), rline, rcol,
                json.dumps(old.decode()), json.dumps(repl["ReplacementText"])))


if __name__ == "__main__":
    main()
