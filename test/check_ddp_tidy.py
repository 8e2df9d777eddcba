#!/usr/bin/env python3
"""Runs a ddp check on a test file and verifies its output with FileCheck.

In the style of clang-tidy's check_clang_tidy.py: the test file holds
CHECK-MESSAGES (warnings), CHECK-NOTES (warnings and notes) and CHECK-FIXES
(the file after -fix) lines. The test runs twice, through the plugin loaded
into the host clang-tidy and through ddp-clang-tidy, and both must agree.

usage: check_ddp_tidy.py --plugin=LIB --host-tidy=BIN --builtin=BIN
                         --filecheck=BIN [--tool=plugin|builtin|both]
                         [--expect-compile-errors]
                         INPUT CHECK TEMP [-- TIDY-ARGS... [-- COMPILER-ARGS...]]
A file without CHECK-MESSAGES or CHECK-NOTES must draw no warning at all.
With --expect-compile-errors the file does not compile: clang-tidy must
print its compile errors and exit with 1 (not crash), and the checks'
diagnostics are verified as usual, without the errors.
"""
import argparse
import os
import re
import subprocess
import sys


def fail(message):
    sys.stderr.write("check_ddp_tidy: " + message + "\n")
    sys.exit(1)


def run(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    return proc.returncode, proc.stdout, proc.stderr


def filecheck(filecheck_bin, check_file, input_text, prefix, extra):
    cmd = [filecheck_bin, check_file, "--check-prefix=" + prefix,
           "--dump-input=fail"] + extra
    proc = subprocess.run(cmd, input=input_text, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        fail("FileCheck failed for " + prefix)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--host-tidy", required=True)
    parser.add_argument("--builtin", required=True)
    parser.add_argument("--filecheck", required=True)
    parser.add_argument("--tool", default="both",
                        choices=["plugin", "builtin", "both"])
    parser.add_argument("--expect-compile-errors", action="store_true")
    parser.add_argument("input")
    parser.add_argument("check")
    parser.add_argument("temp")
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        split = argv.index("--")
        argv, rest = argv[:split], argv[split + 1:]
    args = parser.parse_args(argv)
    tidy_args, compiler_args = rest, []
    if "--" in rest:
        split = rest.index("--")
        tidy_args, compiler_args = rest[:split], rest[split + 1:]

    with open(args.input, encoding="utf-8") as f:
        source = f.read()
    has_messages = re.search(r"CHECK-MESSAGES", source) is not None
    has_notes = re.search(r"CHECK-NOTES", source) is not None
    has_fixes = re.search(r"CHECK-FIXES", source) is not None
    # The checked copy keeps every line (so [[@LINE]] stays right) but not
    # the expectations themselves.
    cleaned = re.sub(r"//\s*CHECK-(MESSAGES|NOTES|FIXES)[-A-Z]*:[^\r\n]*",
                     "//", source)
    ext = os.path.splitext(args.input)[1] or ".cpp"

    tools = []
    if args.tool in ("plugin", "both"):
        tools.append(("plugin", [args.host_tidy, "--load=" + args.plugin]))
    if args.tool in ("builtin", "both"):
        tools.append(("builtin", [args.builtin]))

    outputs = {}
    for name, tidy in tools:
        temp = args.temp + "." + name + ext
        with open(temp, "w", encoding="utf-8") as f:
            f.write(cleaned)
        cmd = tidy + [temp, "-fix", "--checks=-*," + args.check,
                      "--config={}"] + tidy_args + ["--"] + compiler_args
        code, out, err = run(cmd, name)
        # Keep only diagnostics, with the temporary path made neutral.
        diags = [line.replace(temp, "INPUT") for line in out.splitlines()
                 if re.search(r": (warning|error|note):", line)
                 and "note: FIX-IT applied" not in line]
        errors = [line for line in diags if re.search(r": error:", line)]
        if args.expect_compile_errors:
            if code != 1 or not errors:
                fail("%s: expected compile errors and exit 1, got exit %d:"
                     "\n%s\n%s" % (name, code, out, err))
            # The errors, and the notes that belong to them.
            kept, in_error = [], False
            for line in diags:
                if ": note:" not in line:
                    in_error = re.search(r": error:", line) is not None
                if not in_error:
                    kept.append(line)
            diags = kept
        elif errors or code not in (0, 1):
            fail("%s: clang-tidy failed (exit %d):\n%s\n%s" %
                 (name, code, out, err))
        text = "\n".join(diags) + "\n"
        outputs[name] = text
        sys.stdout.write("--- %s ---\n%s" % (name, text))
        if has_messages:
            warnings = "\n".join(l for l in diags if ": note:" not in l) + "\n"
            filecheck(args.filecheck, args.input, warnings, "CHECK-MESSAGES",
                      ["--implicit-check-not={{warning|error}}:"])
        if has_notes:
            filecheck(args.filecheck, args.input, text, "CHECK-NOTES",
                      ["--implicit-check-not={{note|warning|error}}:"])
        if not has_messages and not has_notes and any(
                ": warning:" in line for line in diags):
            fail("%s: expected no warnings, got:\n%s" % (name, text))
        with open(temp, encoding="utf-8") as f:
            fixed = f.read()
        if has_fixes:
            filecheck(args.filecheck, args.input, fixed, "CHECK-FIXES",
                      ["--strict-whitespace"])
        elif fixed != cleaned:
            fail("%s: the check changed the file, but it has no CHECK-FIXES" %
                 name)

    if len(set(outputs.values())) > 1:
        fail("the plugin and ddp-clang-tidy disagree:\n" +
             "\n".join("--- %s ---\n%s" % kv for kv in outputs.items()))


if __name__ == "__main__":
    main()
