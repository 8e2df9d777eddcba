#!/usr/bin/env python3
"""Feeds the ddp checks and ddp-lint broken and extreme C++, and fails on a
crash.

usage: mutate_sources.py --tidy BIN --lint BIN --inputs DIR --work DIR
                         [--seed N] [--per-file N] [SOURCE...]
                         [--torch DIR --real-sources FILE... --real-count N
                          [--examples DIR] [--no-pch] [--jobs N]]

Mock-header sources (SOURCE, the check tests, which use the mock headers in
--inputs): from each it writes --per-file variants: the file cut at a random
byte, a random line deleted, two lines swapped, every '}' of a random line
removed, a random run of bytes replaced by noise. It adds generated
extremes: 200 nested rank-dependent branches, a function of 20,000
statements, a switch of 2000 cases, collectives behind macros and token
pasting, a recursive template instantiated 300 deep, lambdas nested 100
deep, goto spaghetti, and mutual recursion.

Real-header sources (--real-sources, compiled against the real LibTorch
headers in --torch, and with -I --examples for the example programs):
--real-count mutants, drawn with the seed from the sources and from these
mutations, in turn: the generic ones above, a deleted #include, an undeclared
type or initializer in a structured binding, a lambda with a parameter of an
undeclared type, a range-for over an undeclared range, a broken template
(instantiated), a class left unterminated, and calls of another LibTorch
release's API (c10d::Backend, getBackend, std::shared_ptr<ProcessGroup::Work>,
<c10d/...> includes, c10d::ops with other arguments). Parsing the LibTorch
headers is most of the cost (8-15 s a file on 2 cores), so they are
precompiled once into --work (unless --no-pch); a mutant whose includes
changed is compiled without the precompiled header, as it is written.

Then it runs ddp-clang-tidy (-checks='-*,ddp-*') and ddp-lint on every file,
in batches (--jobs at a time). A crash is a signal, an exit code other than
0 and 1 (2 too for ddp-lint, its input-error code), or a crash report in the
output. Compile errors in the variants are expected: the checks must survive
them. Prints one line per tool with the counts, the mutants per kind, the
time, and the failing command and its output on a crash.
Exit status: 1 on a crash, else 0.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time

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


def delete_line(lines, rng):
    i = rng.randrange(len(lines))
    return "\n".join(lines[:i] + lines[i + 1:])


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


# Mutations of sources written against the real LibTorch headers. Each takes
# the text and the generator and returns the mutant, or None where it does
# not apply; the second value says whether the includes changed (then the
# precompiled headers cannot stand in for them).

def statement_lines(lines):
    """Lines after which a statement can go: indented ones ending in ';'."""
    return [i for i, l in enumerate(lines)
            if l.startswith((" ", "\t")) and l.rstrip().endswith(";")]


def insert_statement(text, rng, snippets):
    lines = text.split("\n")
    where = statement_lines(lines)
    if not where:
        return None
    i = rng.choice(where)
    indent = re.match(r"\s*", lines[i]).group(0)
    lines.insert(i + 1, indent + rng.choice(snippets))
    return "\n".join(lines)


def delete_include(text, rng):
    lines = text.split("\n")
    includes = [i for i, l in enumerate(lines) if l.startswith("#include")]
    if not includes:
        return None
    del lines[rng.choice(includes)]
    return "\n".join(lines)


BINDINGS = [
    "const auto [ddp_a, ddp_b] = ddp_undeclared(0);",
    "auto [ddp_c, ddp_d] = DdpUndeclaredPair{};",
    "const auto &[ddp_e, ddp_f] = std::make_pair(DdpUndeclared{}, 1);",
    "for (const auto &[ddp_k, ddp_v] : ddp_undeclared_map) { (void)ddp_k; }",
]
LAMBDAS = [
    "auto ddp_l = [&](const DdpUndeclared &x) { return x.barrier(); };",
    "auto ddp_m = [&](auto x) -> DdpUndeclared { return x; }; ddp_m(1);",
    "[&](DdpUndeclared *pg) { if (pg->getRank() == 0) pg->barrier(); }(nullptr);",
]
RANGE_FORS = [
    "for (auto &ddp_x : ddp_undeclared_range) { (void)ddp_x; }",
    "for (DdpUndeclared &ddp_y : ddp_items()) { ddp_y.allreduce(); }",
    "for (auto &ddp_z : ddp_undeclared_range) { if (ddp_z.rank == 0) break; }",
]
TEMPLATES = [
    "template <typename T> void ddp_broken(T t) { t.template undeclared<int>(); }\n"
    "void ddp_use() { ddp_broken(1); }",
    "template <typename T> struct DdpBroken { T value; void sync() { value.barrier(); } };\n"
    "void ddp_use2() { DdpBroken<int> b; b.sync(); }",
    "template <class PG> void ddp_sync(PG &pg) { if (pg.getRank() == 0) pg.barrier(; }",
    "template <typename T> struct DdpOpen { void f() { if (x) {",
]
# Calls of another LibTorch release's API: (pattern, replacement, includes?).
OTHER_RELEASE = [
    (r"c10::intrusive_ptr<c10d::ProcessGroup>", "c10::intrusive_ptr<c10d::Backend>", False),
    (r"c10d::ProcessGroup\b", "c10d::Backend", False),
    (r"->allreduce\(", "->getBackend(c10::DeviceType::CPU)->allreduce(", False),
    (r"->barrier\(\)", "->barrier(c10d::BarrierOptions{}, 2)", False),
    (r"c10::intrusive_ptr<c10d::Work>", "std::shared_ptr<c10d::ProcessGroup::Work>", False),
    (r"->getRank\(\)", "->getRank(0)", False),
    (r"(\w+)->allreduce\((\w+)\)", r"c10d::ops::allreduce(\1, \2, 1)", False),
    (r"#include <torch/csrc/distributed/c10d/", "#include <c10d/", True),
]


def other_release(text, rng):
    usable = [r for r in OTHER_RELEASE if re.search(r[0], text)]
    if not usable:
        return None, False
    pattern, replacement, includes = rng.choice(usable)
    matches = list(re.finditer(pattern, text))
    m = rng.choice(matches)
    # One occurrence, or all of them.
    if rng.random() < 0.5:
        return re.sub(pattern, replacement, text), includes
    return text[:m.start()] + m.expand(replacement) + text[m.end():], includes


def unterminated_class(text, rng):
    lines = text.split("\n")
    classes = [i for i, l in enumerate(lines)
               if re.match(r"(struct|class) \w+.*\{\s*$", l)]
    if not classes:
        return None
    start = rng.choice(classes)
    # Keep the class's first lines, drop the rest of the file.
    return "\n".join(lines[:start + 1 + rng.randrange(1, 8)])


REAL_KINDS = [
    ("cut", lambda t, r: (t[:r.randrange(len(t) + 1)], False)),
    ("delete-line", lambda t, r: (delete_line(t.split("\n"), r), False)),
    ("swap-lines", lambda t, r: (swap(t.split("\n"), r), False)),
    ("drop-braces", lambda t, r: (drop_braces(t.split("\n"), r), False)),
    ("noise", lambda t, r: (noise(t, r), False)),
    ("delete-include", lambda t, r: (delete_include(t, r), True)),
    ("structured-binding", lambda t, r: (insert_statement(t, r, BINDINGS), False)),
    ("lambda", lambda t, r: (insert_statement(t, r, LAMBDAS), False)),
    ("range-for", lambda t, r: (insert_statement(t, r, RANGE_FORS), False)),
    ("template", lambda t, r: (insert_after_includes(t, r, TEMPLATES), False)),
    ("unterminated-class", lambda t, r: (unterminated_class(t, r), False)),
    ("other-release", other_release),
]


def insert_after_includes(text, rng, snippets):
    lines = text.split("\n")
    last = max([i for i, l in enumerate(lines) if l.startswith("#include")],
               default=-1)
    # Anywhere after the includes, at the top level or not.
    i = rng.randrange(last + 1, len(lines) + 1)
    lines.insert(i, rng.choice(snippets))
    return "\n".join(lines)


def real_mutants(sources, rng, count):
    """(name, text, kind, includes_changed) for count mutants."""
    texts = []
    for source in sorted(sources):
        with open(source, encoding="utf-8", errors="replace") as f:
            texts.append((source, f.read()))
    out = []
    attempt = 0
    while len(out) < count and attempt < count * 20:
        attempt += 1
        source, text = rng.choice(texts)
        kind, make = REAL_KINDS[len(out) % len(REAL_KINDS)]
        mutant, includes = make(text, rng)
        if mutant is None or mutant == text:
            continue
        parent = os.path.basename(os.path.dirname(source))
        stem = os.path.splitext(os.path.basename(source))[0]
        name = "real-%04d-%s-%s-%s.cpp" % (len(out), kind, parent, stem)
        out.append((name, mutant, kind, includes))
    return out


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


def write(work, files):
    paths = []
    for name, text in files:
        path = os.path.join(work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)
    return paths


def precompile(args, flags):
    """Builds the precompiled LibTorch headers; returns the flags that use
    it."""
    header = os.path.join(args.work, "ddp-mutants-pch.h")
    pch = header + ".pch"
    with open(header, "w", encoding="utf-8") as f:
        f.write("#include <torch/torch.h>\n"
                "#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>\n"
                "#include <torch/csrc/distributed/c10d/TCPStore.hpp>\n"
                "#include <torch/csrc/distributed/c10d/Ops.hpp>\n")
    subprocess.run([args.cxx, "-x", "c++-header"] + flags +
                   [header, "-o", pch], check=True)
    return ["-include-pch", pch]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tidy", required=True)
    parser.add_argument("--lint", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-file", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--torch", help="the LibTorch C++ API include dir")
    parser.add_argument("--examples", help="examples/, for common/*.h")
    parser.add_argument("--real-sources", nargs="+", action="extend",
                        default=[])
    parser.add_argument("--real-count", type=int, default=0)
    parser.add_argument("--no-pch", action="store_true")
    parser.add_argument("--cxx", default="clang++",
                        help="the Clang that precompiles the headers: the "
                             "release the tools are built on")
    parser.add_argument("--no-generated", action="store_true",
                        help="leave out the generated extremes")
    parser.add_argument("sources", nargs="*")
    args = parser.parse_args()

    started = time.time()
    rng = random.Random(args.seed)
    os.makedirs(args.work, exist_ok=True)
    mock_files = []
    for source in sorted(args.sources):
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
        stem = os.path.splitext(os.path.basename(source))[0]
        for i, variant in enumerate(mutants(text, rng, args.per_file)):
            mock_files.append(("%s.%d.cpp" % (stem, i), variant))
    if not args.no_generated and args.sources:
        for name, text in generated().items():
            mock_files.append((name + ".cpp", text))

    # Groups of files that share compiler flags.
    groups = []
    if mock_files:
        groups.append(("mock", write(args.work, mock_files),
                       ["-std=c++17", "-isystem", args.inputs,
                        "-ferror-limit=0"]))
    kinds = {}
    if args.real_count:
        if not args.torch or not args.real_sources:
            parser.error("--real-count needs --torch and --real-sources")
        real = real_mutants(args.real_sources, rng, args.real_count)
        # 1.13's c10d headers also as <c10d/...>, as code for 1.7 includes
        # them.
        flags = ["-std=c++17", "-DUSE_C10D_GLOO", "-isystem", args.torch,
                 "-isystem", os.path.join(os.path.dirname(os.path.dirname(
                     args.torch.rstrip("/"))), "distributed")]
        if args.examples:
            flags += ["-I", args.examples]
        pch = [] if args.no_pch else precompile(args, flags)
        with_pch = [(n, t) for n, t, k, inc in real if not inc]
        without = [(n, t) for n, t, k, inc in real if inc]
        for n, t, k, inc in real:
            kinds[k] = kinds.get(k, 0) + 1
        if with_pch:
            groups.append(("real", write(args.work, with_pch), flags + pch))
        if without:
            groups.append(("real-includes", write(args.work, without), flags))

    total = sum(len(paths) for _, paths, _ in groups)
    crashes = 0
    for tool, base, allowed in (
            ("ddp-clang-tidy", [args.tidy, "-checks=-*,ddp-*", "--quiet"],
             (0, 1)),
            ("ddp-lint", [args.lint, "--no-cache", "-j1"], (0, 1, 2))):
        batches = [(batch, flags) for _, paths, flags in groups
                   for i in range(0, len(paths), args.batch)
                   for batch in [paths[i:i + args.batch]]]

        def check(item):
            batch, flags = item
            ok, code, out = run(base + batch + ["--"] + flags, allowed)
            failed = []
            if not ok:
                # Find the file: run the batch's files one by one.
                for path in batch:
                    ok1, code1, out1 = run(base + [path, "--"] + flags, allowed)
                    if not ok1:
                        failed.append((path, code1, out1))
            return failed

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for failed in pool.map(check, batches):
                for path, code, out in failed:
                    crashes += 1
                    print("CRASH: %s on %s (exit %d):\n%s" %
                          (tool, path, code, out[-3000:]))
        print("%s: %d files in %d runs" % (tool, total, len(batches)))
    if kinds:
        print("real-header mutants: %d (%s)" % (
            sum(kinds.values()),
            ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    print("%d files, %d crashes, %.0f s" % (total, crashes,
                                            time.time() - started))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
