#!/usr/bin/env python3
"""Gets the sources of the real-code benchmark and makes their compile databases.

    bench/real_code/prepare.py [--repos a,b] [--root /work/realcode] [--force]

For each repository of manifest.json:

1. the source, at the manifest's commit, goes to ROOT/src/<id>: cloned from a
   local mirror (MIRROR/<owner>+<name>/repo, as the search tool's `fetch`
   leaves it) when there is one, else from https://github.com/<owner>/<name>.
   An existing checkout at the right commit is used as it is; one at another
   commit is an error (it is never reset: someone else may be reading it).
   The submodules the manifest lists ("submodules", paths) are checked out
   as `git clone --recursive` would: at the commit the tree records, from
   the URL of .gitmodules (or its local mirror).
   A repository too large to fetch whole names a Debian source package of
   the same release instead ("debian_source": package, version, the
   upstream tarball and the paths to extract): it is downloaded with
   `apt-get source --download-only` (a deb-src list of its own, under
   ROOT/apt; the system's apt configuration is not touched) and only those
   paths are extracted; the tree is then not a git checkout, and a file
   .debian-source in it records the version.
2. its compile database goes to ROOT/cdb/<id>/compile_commands.json, made
   the way a user would make it:
   - "cmake": a configure of the project (`cmake -S SRC -B ROOT/cdb/<id>
     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON` and the manifest's options). The
     build directory is the database's directory, since the database names
     headers that the configure generates there. Nothing is built.
   - "generated": source globs and the flags a user would write by hand, for
     projects whose configure cannot work here (missing submodules, a
     Makefile-only build, setup.py). Headers that the project's configure
     would generate from a template (CMake's configure_file) are made the
     same way from the manifest's "configure_files" (template, output and
     the @NAME@ values) under ROOT/cdb/<id>/generated, which the flags name
     as {generated}.

The code fetched is only read: no target of it is ever built or run. The
sources stay outside this repository; nothing under ROOT is committed.
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def placeholders(src, cdb):
    """What the flags of a generated database may name: {src}, {generated},
    {mpi}, {cuda}, {torch}."""
    try:
        mpi = subprocess.run(["mpicc", "--showme:compile"], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        mpi = "-I/usr/lib/x86_64-linux-gnu/openmpi/include"
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    return {
        "src": src,
        "generated": os.path.join(cdb, "generated"),
        "mpi": mpi,
        "cuda": cuda,
        # LibTorch as Debian installs it (libtorch-dev 1.13).
        "torch": "-isystem /usr/include/torch/csrc/api/include",
    }


def expand(flags, values):
    out = []
    for flag in flags:
        out.extend(shlex.split(flag.format(**values)))
    return out


def load_manifest(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def run(cmd, **kw):
    print("+ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    return subprocess.run(cmd, **kw)


DEB_SRC = """Types: deb-src
URIs: http://deb.debian.org/debian
Suites: %s
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def get_debian_source(repo, root):
    """Extracts repo's paths from the Debian source package it names."""
    spec = repo["debian_source"]
    dest = os.path.join(root, "src", repo["id"])
    marker = os.path.join(dest, ".debian-source")
    want = "%s %s" % (spec["package"], spec["version"])
    if os.path.exists(marker):
        with open(marker) as f:
            have = f.read().strip()
        if have != want:
            sys.exit("prepare: '%s' holds %s, not %s; move it away or use "
                     "--root" % (dest, have, want))
        return dest
    apt = os.path.join(root, "apt")
    for sub in ("sources", "lists/partial", "cache/archives/partial", "dl"):
        os.makedirs(os.path.join(apt, sub), exist_ok=True)
    with open(os.path.join(apt, "sources", "src.sources"), "w") as f:
        f.write(DEB_SRC % spec.get("suite", "bookworm"))
    opts = ["-o", "Dir::Etc::SourceList=/dev/null",
            "-o", "Dir::Etc::SourceParts=" + os.path.join(apt, "sources"),
            "-o", "Dir::State::Lists=" + os.path.join(apt, "lists"),
            "-o", "Dir::Cache=" + os.path.join(apt, "cache")]
    tarball = os.path.join(apt, "dl", spec["tarball"])
    if not os.path.exists(tarball):
        if run(["apt-get", "-q"] + opts + ["update"]).returncode or run(
                ["apt-get", "-q"] + opts +
                ["source", "--download-only", "--tar-only",
                 "%s=%s" % (spec["package"], spec["version"])],
                cwd=os.path.join(apt, "dl")).returncode \
                or not os.path.exists(tarball):
            sys.exit("prepare: could not download the source of %s" % want)
    os.makedirs(dest, exist_ok=True)
    top = spec["top"]
    if run(["tar", "-xf", tarball, "-C", dest, "--strip-components=1"] +
           ["%s/%s" % (top, path) for path in spec["paths"]]).returncode:
        sys.exit("prepare: could not extract %s" % tarball)
    with open(marker, "w") as f:
        f.write(want + "\n")
    return dest


def get_source(repo, root, mirror):
    if "debian_source" in repo:
        return get_debian_source(repo, root)
    dest = os.path.join(root, "src", repo["id"])
    commit = repo["commit"]
    if os.path.isdir(os.path.join(dest, ".git")):
        head = subprocess.run(["git", "-C", dest, "rev-parse", "HEAD"],
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        if head != commit:
            sys.exit("prepare: '%s' is at %s, not %s; move it away or use "
                     "--root" % (dest, head, commit))
        return dest
    owner, name = repo["github"].split("/")
    local = os.path.join(mirror, "%s+%s" % (owner, name), "repo")
    if os.path.isdir(os.path.join(local, ".git")):
        local = os.path.join(local, ".git")
    origin = local if os.path.isdir(local) else \
        "https://github.com/%s/%s" % (owner, name)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if run(["git", "clone", "-q", "--no-checkout", origin, dest]).returncode:
        sys.exit("prepare: could not clone %s" % origin)
    if run(["git", "-C", dest, "checkout", "-q", commit]).returncode:
        # Snapshots lack files of 4 MiB and more; the checkout still lays out
        # every other file, which is what the analysis reads.
        print("prepare: warning: '%s' checked out with missing objects" % dest)
    return dest


def clone_at(url, commit, dest, mirror):
    """Clones url (or its local mirror) into dest and checks out commit."""
    origin = url
    if url.startswith("https://github.com/"):
        owner, name = url[len("https://github.com/"):].rstrip("/").split("/")[:2]
        if name.endswith(".git"):
            name = name[:-4]
        local = os.path.join(mirror, "%s+%s" % (owner, name), "repo")
        if os.path.isdir(os.path.join(local, ".git")):
            local = os.path.join(local, ".git")
        if os.path.isdir(local):
            origin = local
    if run(["git", "clone", "-q", "--no-checkout", origin, dest]).returncode:
        sys.exit("prepare: could not clone %s" % origin)
    if run(["git", "-C", dest, "checkout", "-q", commit]).returncode:
        print("prepare: warning: '%s' checked out with missing objects" % dest)


def get_submodules(repo, src, mirror):
    for path in repo.get("submodules", []):
        dest = os.path.join(src, path)
        tree = subprocess.run(["git", "-C", src, "ls-tree", "HEAD", path],
                              stdout=subprocess.PIPE, text=True).stdout.split()
        if len(tree) < 3 or tree[1] != "commit":
            sys.exit("prepare: '%s' has no submodule at '%s'" % (repo["id"], path))
        commit = tree[2]
        if os.path.exists(os.path.join(dest, ".git")):
            continue
        urls = subprocess.run(
            ["git", "-C", src, "config", "-f", ".gitmodules", "--get-regexp",
             r"^submodule\..*\.path$"], stdout=subprocess.PIPE, text=True).stdout
        name = next((line.split()[0][len("submodule."):-len(".path")]
                     for line in urls.splitlines() if line.split()[1] == path),
                    None)
        url = name and subprocess.run(
            ["git", "-C", src, "config", "-f", ".gitmodules",
             "submodule.%s.url" % name], stdout=subprocess.PIPE,
            text=True).stdout.strip()
        if not url:
            sys.exit("prepare: .gitmodules of '%s' has no URL for '%s'"
                     % (repo["id"], path))
        if os.path.isdir(dest):
            os.rmdir(dest)  # the empty directory of an uninitialised submodule
        clone_at(url, commit, dest, mirror)


def cmake_database(repo, src, cdb):
    spec = repo["database"]
    source_dir = os.path.join(src, spec.get("source_dir", "."))
    cmd = ["cmake", "-S", source_dir, "-B", cdb,
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + spec.get("options", [])
    env = dict(os.environ, **spec.get("env", {}))
    proc = run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
               text=True, errors="replace")
    with open(os.path.join(cdb, "configure.log"), "w") as f:
        f.write(proc.stdout)
    if proc.returncode or not os.path.exists(
            os.path.join(cdb, "compile_commands.json")):
        print(proc.stdout[-3000:])
        sys.exit("prepare: the configure of '%s' failed (log in %s)"
                 % (repo["id"], cdb))


def matches(rel, patterns):
    return any(fnmatch.fnmatchcase(rel, p) for p in patterns)


def configure_file(src, cdb, spec):
    """CMake's configure_file(... @ONLY) of one template: @NAME@ becomes the
    manifest's value; a name it does not give is an error."""
    with open(os.path.join(src, spec["template"]), encoding="utf-8") as f:
        text = f.read()

    def value(match):
        name = match.group(1)
        if name not in spec["values"]:
            sys.exit("prepare: %s names @%s@, which the manifest does not give"
                     % (spec["template"], name))
        return spec["values"][name]

    out = os.path.join(cdb, "generated", spec["output"])
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)@", value, text))


def generated_database(repo, src, cdb):
    spec = repo["database"]
    values = placeholders(src, cdb)
    for template in spec.get("configure_files", []):
        configure_file(src, cdb, template)
    entries, seen = [], set()
    for group in spec["groups"]:
        compiler = group.get("compiler", "clang++")
        flags = expand(group.get("flags", []), values)
        directory = os.path.join(src, group.get("directory", "."))
        files = []
        for pattern in group["sources"]:
            files.extend(glob.glob(os.path.join(src, pattern), recursive=True))
        for path in sorted(set(files)):
            rel = os.path.relpath(path, src)
            if matches(rel, group.get("exclude", []) + spec.get("exclude", [])):
                continue
            if rel in seen:
                continue
            seen.add(rel)
            entries.append({"directory": directory, "file": path,
                            "arguments": [compiler] + flags + ["-c", path]})
    os.makedirs(cdb, exist_ok=True)
    with open(os.path.join(cdb, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def count_units(cdb):
    with open(os.path.join(cdb, "compile_commands.json")) as f:
        entries = json.load(f)
    return len({os.path.normpath(os.path.join(e["directory"], e["file"]))
                for e in entries})


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    parser.add_argument("--root", default="/work/realcode",
                        help="where src/<id> and cdb/<id> go (outside the repository)")
    parser.add_argument("--mirror", default="/work/.mirror",
                        help="local mirrors <owner>+<name>/repo, used before GitHub")
    parser.add_argument("--repos", help="comma-separated ids (default: all)")
    parser.add_argument("--force", action="store_true",
                        help="make the databases again even if they exist")
    args = parser.parse_args()

    manifest = load_manifest(args.manifest)
    wanted = set(args.repos.split(",")) if args.repos else None
    for repo in manifest["repositories"]:
        if wanted and repo["id"] not in wanted:
            continue
        src = get_source(repo, args.root, args.mirror)
        get_submodules(repo, src, args.mirror)
        cdb = os.path.join(args.root, "cdb", repo["id"])
        if os.path.exists(os.path.join(cdb, "compile_commands.json")) \
                and not args.force:
            print("%s: database exists (%d TUs)" % (repo["id"], count_units(cdb)))
            continue
        if args.force and os.path.isdir(cdb):
            shutil.rmtree(cdb)
        os.makedirs(cdb, exist_ok=True)
        method = repo["database"]["method"]
        if method == "cmake":
            cmake_database(repo, src, cdb)
        elif method == "generated":
            generated_database(repo, src, cdb)
        else:
            sys.exit("prepare: unknown method '%s'" % method)
        print("%s: %d TUs in %s" % (repo["id"], count_units(cdb), cdb), flush=True)


if __name__ == "__main__":
    main()
