#!/usr/bin/env python3
"""Feeds the ddp checks and ddp-lint broken and extreme C++, and fails on a
crash.

usage: mutate_sources.py --tidy BIN --lint BIN --inputs DIR --work DIR
                         [--seed N] [--per-file N] SOURCE...

From each SOURCE (the check tests, which use the mock headers in --inputs)
it writes --per-file variants: the file cut at a random byte, a random line
deleted, two lines swapped, every '}' of a random line removed, a random run
of bytes replaced by noise. It adds generated extremes: 200 nested
rank-dependent branches, a function of 20,000 statements, a switch of 2000
cases, collectives behind macros and token pasting, a recursive template
instantiated 300 deep, lambdas nested 100 deep, goto spaghetti, and mutual
recursion. Then it runs ddp-clang-tidy (-checks='-*,ddp-*') and ddp-lint on
them, in batches.

A crash is a signal, an exit code other than 0 and 1 (2 too for ddp-lint, its
input-error code), or a crash report in the output. Compile errors in the
variants are expected: the checks must survive them. Prints one line per
tool with the counts, and the failing command and its output on a crash.
Exit status: 1 on a crash, else 0.
"""
import argparse
import os
import random
import subprocess
import sys

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:",
                 "ERROR: AddressSanitizer", "runtime error:",
                 "ERROR: LeakSanitizer")
PRELUDE = "#include <c10d/ProcessGroup.hpp>\nusing T = std::vector<at::Tensor>;\n"


def mutants(text, rng, count):
    lines = text.split("\n")
    makers = [
        lambda: text[:rng.randrange(len(text) + 1)],
        lambda: "\n".join(l for i, l in enumerate(lines)
                          if i != rng.randrange(len(lines))),
        lambda: swap(lines, rng),
        lambda: drop_braces(lines, rng),
        lambda: noise(text, rng),
    ]
    return [makers[i % len(makers)]() for i in range(count)]


def swap(lines, rng):
    out = list(lines)
    i, j = rng.randrange(len(out)), rng.randrange(len(out))
    out[i], out[j] = out[j], out[i]
    return "\n".join(out)


def drop_braces(lines, rng):
    out = list(lines)
    candidates = [i for i, l in enumerate(out) if "}" in l] or [0]
    i = rng.choice(candidates)
    out[i] = out[i].replace("}", "")
    return "\n".join(out)


def noise(text, rng):
    start = rng.randrange(len(text) + 1)
    junk = "".join(rng.choice("{}()<>;:,&|!=+-*/%#\"' \nabcrank") for _ in
                   range(rng.randrange(1, 40)))
    return text[:start] + junk + text[start + rng.randrange(0, 40):]


def generated():
    g = {}
    body = ["void nested(c10d::ProcessGroup *pg, T &t) {",
            "  int rank = pg->getRank();"]
    body += ["  if (rank > %d) {" % i for i in range(200)]
    body += ["  pg->allreduce(t);"] + ["  }"] * 200 + ["}"]
    g["deep-nesting"] = PRELUDE + "\n".join(body)
    body = ["void huge(c10d::ProcessGroup *pg, T &t) {",
            "  int rank = pg->getRank(); int x = 0;"]
    for i in range(20000):
        body.append("  x += rank * %d;" % i if i % 100 else
                    "  if (x > %d) pg->allreduce(t);" % i)
    g["huge-function"] = PRELUDE + "\n".join(body + ["}"])
    body = ["void cases(c10d::ProcessGroup *pg, T &t) {",
            "  switch (pg->getRank()) {"]
    for i in range(2000):
        body.append("  case %d: %s break;" % (
            i, "pg->barrier();" if i % 7 else "pg->allreduce(t);"))
    g["big-switch"] = PRELUDE + "\n".join(body + ["  }", "}"])
    g["macros"] = PRELUDE + """
#define RANK pg->getRank()
#define CALL(op, ...) pg->op(__VA_ARGS__)
#define CAT(a, b) a##b
#define SYNC_IF(c) if (c) CALL(barrier); else CALL(allreduce, t)
#define REPEAT4(x) x x x x
void macros(c10d::ProcessGroup *pg, T &t) {
  int CAT(ra, nk) = RANK;
  REPEAT4(SYNC_IF(rank == 0);)
  if (CAT(ra, nk)) CALL(allreduce, t);
#if defined(__clang__)
  if (rank) CALL(barrier);
#endif
}
"""
    g["templates"] = PRELUDE + """
template <int N> struct Depth {
  static void run(c10d::ProcessGroup *pg, T &t) {
    if (pg->getRank() == N % 3) pg->barrier();
    Depth<N - 1>::run(pg, t);
  }
};
template <> struct Depth<0> {
  static void run(c10d::ProcessGroup *pg, T &t) { pg->allreduce(t); }
};
template <typename F, typename... Rest> void each(F f, Rest... r) {
  (f(r), ...);
}
void templates(c10d::ProcessGroup *pg, T &t) {
  Depth<300>::run(pg, t);
  each([&](int r) { if (r == pg->getRank()) pg->barrier(); }, 1, 2, 3, 4);
}
"""
    body = ["void lambdas(c10d::ProcessGroup *pg, T &t) {",
            "  int rank = pg->getRank();"]
    body += ["  [&] {" for _ in range(100)]
    body += ["  if (rank) pg->barrier();"] + ["  }();"] * 100 + ["}"]
    g["nested-lambdas"] = PRELUDE + "\n".join(body)
    body = ["void spaghetti(c10d::ProcessGroup *pg, T &t) {",
            "  int rank = pg->getRank(), i = 0;"]
    for k in range(300):
        body.append("l%d: if (rank + i++ > %d) goto l%d; pg->allreduce(t);"
                    % (k, k, (k * 7919) % 300))
    g["goto-spaghetti"] = PRELUDE + "\n".join(body + ["}"])
    g["mutual-recursion"] = PRELUDE + "".join(
        "void r%d(c10d::ProcessGroup *pg, T &t, int n);\n" % k
        for k in range(50)) + "".join(
        "void r%d(c10d::ProcessGroup *pg, T &t, int n) {\n"
        "  if (n == pg->getRank()) { pg->barrier(); return; }\n"
        "  r%d(pg, t, n - 1); r%d(pg, t, n + 1);\n}\n" % (k, (k + 1) % 50,
                                                         (k * 3) % 50)
        for k in range(50))
    return g


def run(cmd, allowed):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    out = proc.stdout
    ok = proc.returncode in allowed and not any(m in out for m in CRASH_MARKERS)
    return ok, proc.returncode, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tidy", required=True)
    parser.add_argument("--lint", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-file", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    os.makedirs(args.work, exist_ok=True)
    files = []
    for source in sorted(args.sources):
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
        stem = os.path.splitext(os.path.basename(source))[0]
        for i, variant in enumerate(mutants(text, rng, args.per_file)):
            files.append(("%s.%d.cpp" % (stem, i), variant))
    for name, text in generated().items():
        files.append((name + ".cpp", text))
    paths = []
    for name, text in files:
        path = os.path.join(args.work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)

    flags = ["-std=c++17", "-isystem", args.inputs, "-ferror-limit=0"]
    crashes = 0
    for tool, base, allowed in (
            ("ddp-clang-tidy", [args.tidy, "-checks=-*,ddp-*", "--quiet"],
             (0, 1)),
            ("ddp-lint", [args.lint, "--no-cache"], (0, 1, 2))):
        runs = 0
        for i in range(0, len(paths), args.batch):
            batch = paths[i:i + args.batch]
            ok, code, out = run(base + batch + ["--"] + flags, allowed)
            runs += 1
            if not ok:
                # Find the file: run the batch's files one by one.
                for path in batch:
                    ok1, code1, out1 = run(base + [path, "--"] + flags, allowed)
                    if not ok1:
                        crashes += 1
                        print("CRASH: %s on %s (exit %d):\n%s" %
                              (tool, path, code1, out1[-3000:]))
        print("%s: %d files in %d runs" % (tool, len(paths), runs))
    print("%d files, %d crashes" % (len(paths), crashes))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
