#!/usr/bin/env python3
"""Re-triages a known-gaps test file one case at a time.

usage: split_known_gaps.py GAPS-FILE CHECK-NAME BUILD-DIR
                           [--out-dir DIR] [-v]

The known-gaps files (checks/*-known-gaps*.cpp) are XFAIL as a whole, so lit
cannot tell which of their cases pass now. This script writes every case to
its own file (OUT-DIR/NN-name.cpp, default /tmp/gaps/<gaps-file-stem>/), with
the preamble of the gaps file (RUN line, includes, shared declarations) but
without its XFAIL line, and runs each with check_ddp_tidy.py exactly as lit
would. It prints PASS or FAIL per case, and for a failure the first line
where the output and the expectations part (-v: every case's diagnostics).
A case that PASSes belongs in a regular test file now; for one that FAILs,
check that its FIXME still says what the tool does. The exit status is 0
unless the script itself fails. The tools come from BUILD-DIR/test/
lit.site.cfg.py (else BUILD-DIR/lib, BUILD-DIR/bin), the tidy and compiler
arguments from the gaps file's RUN line, as lit substitutes them.

Splitting:
  * Every case holds exactly one `// FIXME(analysis)` comment.
  * Usually the FIXME comes first and the case ends before the next FIXME.
    Some files put the FIXME after the code, just above the CHECK lines; the
    case then starts at the blank line above its FIXME's paragraph. In both
    layouts a case starts at the beginning of the blank-line-separated
    paragraph that holds its FIXME, unless that paragraph also holds the
    previous FIXME (then the case starts at its own FIXME).
  * Everything before the first case is the preamble; lines after the last
    CHECK line of a case that are only comments (section headers such as
    `// --- False negatives ---`) stay with the case; they are harmless.
[[@LINE+-N]] offsets are relative, so they stay right in the extracted files.

Beware: check_ddp_tidy.py turns on CHECK-NOTES (or CHECK-MESSAGES) mode if
the word appears anywhere in a file, even in prose. The script warns when a
case or the preamble mentions one of these words outside a CHECK line.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

FIXME = re.compile(r"^\s*//\s*FIXME\(analysis\)")
XFAIL = re.compile(r"^\s*//\s*XFAIL:")
RUN = re.compile(r"^\s*//\s*RUN:\s?(.*)$")
CHECK_LINE = re.compile(r"^\s*//\s*CHECK-(MESSAGES|NOTES|FIXES)[-A-Z]*:")
MODE_WORD = re.compile(r"CHECK-(MESSAGES|NOTES)")
# A function definition that starts in column 0 (possibly over several lines).
DEFINITION = re.compile(
    r"^(?:\[\[[^\]]*\]\]\s*)?(?!struct\b|class\b|using\b|typedef\b|return\b)"
    r"[A-Za-z_][\w:<>,\s\*&]*?\b(~?\w+)\s*\([^;]*$")

HERE = os.path.dirname(os.path.abspath(__file__))


def read_site_config(build_dir):
    """Reads the tool paths CMake wrote into BUILD/test/lit.site.cfg.py."""
    cfg = {}
    path = os.path.join(build_dir, "test", "lit.site.cfg.py")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r'^config\.(\w+)\s*=\s*"([^"]*)"', f.read(),
                                 re.M):
                cfg[m.group(1)] = m.group(2)
    llvm_root = cfg.get("llvm_root", "")
    return {
        "plugin": cfg.get("ddp_plugin",
                          os.path.join(build_dir, "lib",
                                       "libDdpLintPlugin.so")),
        "builtin": cfg.get("ddp_clang_tidy",
                           os.path.join(build_dir, "bin", "ddp-clang-tidy")),
        "host_tidy": cfg.get("host_clang_tidy",
                             os.path.join(llvm_root, "bin", "clang-tidy")),
        "filecheck": cfg.get("filecheck",
                             os.path.join(llvm_root, "bin", "FileCheck")),
        "python": sys.executable,
    }


def run_arguments(lines, check, inputs):
    """The tidy and compiler arguments of the file's RUN line, as lit runs
    them (text after %t), with %mock_flags and %inputs substituted."""
    text = ""
    for line in lines:
        m = RUN.match(line)
        if not m:
            continue
        part = m.group(1).rstrip()
        text += " " + part[:-1] if part.endswith("\\") else " " + part
        if not part.endswith("\\"):
            break
    mock = "-std=c++17 -isystem " + inputs
    text = text.replace("%mock_flags", mock).replace("%inputs", inputs)
    words = shlex.split(text)
    if "%check_ddp_tidy" not in words or "%t" not in words:
        sys.stderr.write("warning: no %check_ddp_tidy RUN line; using "
                         "'-- -- %mock_flags'\n")
        return ["--", "--"] + mock.split()
    run_check = words[words.index("%check_ddp_tidy") + 2]
    if run_check != check:
        sys.stderr.write("warning: the RUN line checks %s, running %s\n" %
                         (run_check, check))
    return words[words.index("%t") + 1:]


def split_cases(lines):
    """Returns (preamble lines, [case lines...])."""
    fixmes = [i for i, l in enumerate(lines) if FIXME.match(l)]
    if not fixmes:
        return lines, []

    def paragraph_start(i):
        while i > 0 and lines[i - 1].strip():
            i -= 1
        return i

    starts = []
    for k, f in enumerate(fixmes):
        start = paragraph_start(f)
        if k and start <= fixmes[k - 1]:
            start = f
        starts.append(start)
    preamble = [l for l in lines[:starts[0]] if not XFAIL.match(l)]
    cases = [lines[s:e] for s, e in zip(starts, starts[1:] + [len(lines)])]
    return preamble, cases


def case_name(case):
    name = None
    for line in case:
        m = DEFINITION.match(line)
        if m and not line.lstrip().startswith("//"):
            name = m.group(1).lstrip("~")
    return name or "case"


def mode_words_in_prose(lines):
    return [l.strip() for l in lines
            if MODE_WORD.search(l) and not CHECK_LINE.match(l)]


def first_difference(stderr, stdout):
    """The first error of check_ddp_tidy.py / FileCheck: what was expected,
    and the first output line that was not matched by then."""
    lines = stderr.splitlines()
    # The diagnostics FileCheck read: those of the first tool, all of them for
    # CHECK-NOTES, the warnings only for CHECK-MESSAGES.
    diags = []
    for line in stdout.splitlines():
        if line.startswith("--- "):
            if diags:
                break
            continue
        if line.strip():
            diags.append(line)
    out = []
    for i, line in enumerate(lines):
        if not re.search(r"(^|: )error: ", line):
            continue
        message = line.split("error: ", 1)[1]
        out.append(message)
        # FileCheck prints the pattern, then a caret line, then where it
        # looked: "<stdin>:L:C: note: scanning from here" (a check not
        # found) or "<stdin>:L:C: note: found here" (an excluded string).
        if i + 1 < len(lines):
            out.append("  expected: " + lines[i + 1].strip())
        if "CHECK-MESSAGES" in message:
            diags = [d for d in diags if ": note: " not in d]
        for j in range(i + 2, min(i + 12, len(lines))):
            m = re.match(r"<stdin>:(\d+):(\d+): note: (scanning from|found) "
                         r"here", lines[j])
            if not m:
                continue
            row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
            # Scanning starts right after the last match, often at the end
            # of the line that match was on.
            if m.group(3) == "scanning from" and row < len(diags) and \
                    col >= len(diags[row].rstrip()):
                row += 1
            got = diags[row] if row < len(diags) else "(no more diagnostics)"
            out.append("  got:      " + got)
            break
        break
    if not out:
        msgs = [l for l in lines if l.startswith("check_ddp_tidy:")]
        if msgs:
            out.append(re.sub(r",? got:$", "", msgs[0][len("check_ddp_tidy: "):]))
            # The diagnostics follow the message (unexpected warnings).
            idx = lines.index(msgs[0])
            out += ["  got:      " + l for l in lines[idx + 1:]
                    if ": warning: " in l][:1]
    return out or ["(no message; exit status only)"]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gaps_file")
    parser.add_argument("check")
    parser.add_argument("build_dir")
    parser.add_argument("--out-dir", help="default: /tmp/gaps/<file stem>")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print every case's diagnostics")
    args = parser.parse_args()

    with open(args.gaps_file, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    stem = os.path.splitext(os.path.basename(args.gaps_file))[0]
    out_dir = args.out_dir or os.path.join("/tmp/gaps", stem)
    os.makedirs(out_dir, exist_ok=True)
    # Files of an earlier run (cases may have moved out since).
    for old in os.listdir(out_dir):
        if re.match(r"^\d{2}-[\w~-]+\.cpp(\.tmp\.\w+\.cpp)?$", old):
            os.remove(os.path.join(out_dir, old))

    tools = read_site_config(os.path.abspath(args.build_dir))
    for key in ("plugin", "builtin", "host_tidy", "filecheck"):
        if not os.path.exists(tools[key]):
            sys.exit("error: %s not found: %s" % (key, tools[key]))
    inputs = os.path.join(HERE, "Inputs")
    rest = run_arguments(lines, args.check, inputs)

    preamble, cases = split_cases(lines)
    if not cases:
        sys.exit("error: no // FIXME(analysis) comment in " + args.gaps_file)
    for word in mode_words_in_prose(preamble):
        print("warning: the preamble mentions a CHECK mode word, which "
              "switches that mode on for every case: " + word)

    failed = 0
    seen = {}
    for k, case in enumerate(cases, 1):
        name = case_name(case)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name += "-%d" % seen[name]
        path = os.path.join(out_dir, "%02d-%s.cpp" % (k, name))
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(preamble + case) + "\n")
        cmd = [tools["python"], os.path.join(HERE, "check_ddp_tidy.py"),
               "--plugin=" + tools["plugin"],
               "--host-tidy=" + tools["host_tidy"],
               "--builtin=" + tools["builtin"],
               "--filecheck=" + tools["filecheck"],
               path, args.check, path + ".tmp"] + rest
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        status = "PASS" if proc.returncode == 0 else "FAIL"
        failed += proc.returncode != 0
        print("%s  %02d %s  (%s)" % (status, k, name, path))
        for word in mode_words_in_prose(case):
            print("      warning: prose mentions a CHECK mode word: " + word)
        if proc.returncode != 0:
            for line in first_difference(proc.stderr, proc.stdout):
                print("      " + line)
        if args.verbose:
            seen_tool = False
            for line in proc.stdout.splitlines():
                if line.startswith("--- "):
                    # Both tools print the same diagnostics when they agree.
                    if seen_tool:
                        break
                    seen_tool = True
                    continue
                print("      | " + line)
    print("%d of %d cases pass, %d fail" %
          (len(cases) - failed, len(cases), failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
