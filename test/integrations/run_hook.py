#!/usr/bin/env python3
"""Runs one hook of a .pre-commit-hooks.yaml the way pre-commit runs it.

usage: run_hook.py HOOK_REPO HOOK_ID

pre-commit is not installed on the test machines; this does what it does for
`pre-commit run HOOK_ID` in the git repository of the current directory, for
hooks of language `script` or `system` (no environment to install):

- the staged files are `git diff --staged --name-only --no-ext-diff -z
  --diff-filter=ACMRTUXB`, paths relative to the root of the repository;
- a file is passed when `files` matches it (re.search), `exclude` does not,
  and it has every tag of `types` (only `file` is known here: a regular
  file); with none, the hook is skipped unless `always_run`;
- the command is shlex.split(entry) + args + the files (none when
  `pass_filenames` is false), run in the root of the repository; for
  `script`, entry[0] is a path in the hook repository, for `system` it is
  looked up on PATH;
- the hook fails when the command exits non-zero; this exits with its code.

pre-commit also splits long file lists over several runs (xargs), possibly in
parallel; the few files of a test always fit in one.

The hooks file is read with PyYAML when it is installed, and always with the
small reader below for the subset of YAML the file uses; when both ran, they
must agree.
"""
import os
import re
import shlex
import subprocess
import sys

KNOWN_KEYS = {
    "id", "name", "description", "entry", "language", "files", "exclude",
    "types", "types_or", "exclude_types", "args", "pass_filenames",
    "require_serial", "always_run", "minimum_pre_commit_version", "stages",
    "verbose",
}


def fail(message):
    sys.stderr.write("run_hook: error: %s\n" % message)
    sys.exit(3)


def scalar(text, where):
    """One YAML flow scalar of the subset: quoted, a flow list, or plain."""
    text = text.strip()
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            fail("%s: unterminated quote" % where)
        return text[1:-1].replace("''", "'")
    if text.startswith('"'):
        fail("%s: double-quoted scalars are not in the subset" % where)
    if text.startswith("["):
        if not text.endswith("]"):
            fail("%s: unterminated flow list" % where)
        inner = text[1:-1].strip()
        return [scalar(item, where) for item in inner.split(",")] if inner else []
    text = re.sub(r"\s+#.*$", "", text)
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return text


def read_subset(path):
    """A list of mappings of scalars, as .pre-commit-hooks.yaml holds."""
    hooks = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            where = "%s:%d" % (path, number)
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.fullmatch(r"(- |  )([A-Za-z_]+):(?: (.*))?\n?", line)
            if not m:
                fail("%s: not in the YAML subset this reader knows" % where)
            if m.group(1) == "- ":
                hooks.append({})
            elif not hooks:
                fail("%s: a key outside the list" % where)
            if m.group(3) is None:
                fail("%s: block values are not in the subset" % where)
            hooks[-1][m.group(2)] = scalar(m.group(3), where)
    return hooks


def read_hooks(path):
    hooks = read_subset(path)
    try:
        import yaml
    except ImportError:
        return hooks
    with open(path) as f:
        parsed = yaml.safe_load(f)
    if parsed != hooks:
        fail("PyYAML and the subset reader disagree on %s:\n%r\n%r"
             % (path, parsed, hooks))
    return hooks


def staged_files():
    out = subprocess.check_output(
        ["git", "diff", "--staged", "--name-only", "--no-ext-diff", "-z",
         "--diff-filter=ACMRTUXB"])
    return [f for f in out.decode().split("\0") if f]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    hook_repo, hook_id = os.path.abspath(sys.argv[1]), sys.argv[2]
    hooks = read_hooks(os.path.join(hook_repo, ".pre-commit-hooks.yaml"))
    matching = [h for h in hooks if h.get("id") == hook_id]
    if len(matching) != 1:
        fail("%d hooks with id %r" % (len(matching), hook_id))
    hook = matching[0]
    unknown = set(hook) - KNOWN_KEYS
    if unknown:
        fail("keys this emulation does not know: %s" % sorted(unknown))
    for key in ("types_or", "exclude_types"):
        if hook.get(key):
            fail("%s is not emulated" % key)
    if set(hook.get("types", ["file"])) != {"file"}:
        fail("types other than 'file' are not emulated")
    language = hook.get("language")
    if language not in ("script", "system"):
        fail("language %r is not emulated" % language)

    root = subprocess.check_output(
        ["git", "rev-parse", "--show-toplevel"]).decode().strip()
    os.chdir(root)
    files_re = re.compile(hook.get("files", ""))
    exclude_re = re.compile(hook.get("exclude", "^$"))
    files = [f for f in staged_files()
             if files_re.search(f) and not exclude_re.search(f)
             and os.path.isfile(f)]
    if not files and not hook.get("always_run", False):
        sys.stderr.write("run_hook: %s: (no files to check) Skipped\n"
                         % hook_id)
        return 0

    cmd = shlex.split(hook["entry"])
    if language == "script":
        cmd[0] = os.path.join(hook_repo, cmd[0])
    cmd += list(hook.get("args", []))
    if hook.get("pass_filenames", True):
        cmd += files
    sys.stderr.write("run_hook: %s: %s\n" % (
        hook_id, " ".join([os.path.basename(cmd[0])] + cmd[1:])))
    sys.stderr.flush()
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
