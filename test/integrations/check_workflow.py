#!/usr/bin/env python3
"""Checks the example GitHub Actions workflow and runs its ddp-lint steps.

usage: check_workflow.py WORKFLOW REPO_ROOT DDP_LINT PROJECT_DIR

WORKFLOW is examples/ci/github-actions-ddp-lint.yml, REPO_ROOT this
repository, DDP_LINT the ddp-lint of the build under test, PROJECT_DIR a
project whose build/compile_commands.json the test wrote (what the workflow's
configure step makes).

Checks, failing (exit 1) on the first problem:
- the file is YAML (PyYAML) with the keys a workflow needs: `on` with
  pull_request, `permissions` with security-events: write, jobs whose steps
  each have one of `uses` (owner/repo[/path]@ref) or `run`;
- ddp-lint is checked out into a directory (`path`) of the workspace, and
  every path into it that a `run` names is in REPO_ROOT (executable when it
  is run), except the tools of the build, which must be under build/llvm-N
  of an earlier `scripts/build.sh N` step;
- the cache of that build is keyed on files that are in REPO_ROOT, and saved
  under the key its restore step computed;
- every option of every ddp-lint command is one that `ddp-lint --help`
  lists, and so is the --format value;
- upload-sarif uploads the -o of an earlier --format=sarif run, and a run
  prints --format=github annotations.

Then plays the job in PROJECT_DIR, step by step: the `run` steps that call
ddp-lint run with the shell GitHub uses (bash --noprofile --norc -eo pipefail
for `shell: bash`, sh -e otherwise), ddp-lint being DDP_LINT at the path the
workflow builds it to; a step after a failure runs only when its `if` says
always() or failure(); the SARIF upload-sarif would upload must be there
when it runs. Prints each step's exit code, what the cache steps would save
and what the SARIF file holds. Other steps are not played.
"""
import json
import os
import re
import shlex
import subprocess
import sys

import yaml


def fail(message):
    print("check_workflow: error: %s" % message)
    sys.exit(1)


def commands(script):
    """The simple commands of a run script, as lists of words."""
    result = []
    for line in script.splitlines():
        for part in re.split(r"\|\||&&|;|\|", line):
            try:
                words = shlex.split(part, comments=True)
            except ValueError as err:
                fail("cannot split %r: %s" % (part, err))
            if words:
                result.append(words)
    return result


def help_options(ddp_lint):
    text = subprocess.run([ddp_lint, "--help"], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout
    options = set(re.findall(r"^\s+(--?[\w-]+)", text, re.M))
    formats = set(re.findall(r"^\s+=(\w+)\s+-", text, re.M))
    return options, formats


class Job:
    def __init__(self, name, job, repo, ddp_lint):
        self.name = name
        self.steps = job.get("steps") or []
        if "runs-on" not in job or not self.steps:
            fail("job %s: no runs-on or no steps" % name)
        self.repo = repo
        self.ddp_lint = ddp_lint
        self.prefix = None  # where ddp-lint is checked out, with a '/'
        self.built = set()  # the N of scripts/build.sh N
        self.restores = {}  # id of a cache restore step -> its path
        self.sarif_outputs = []
        self.annotations = False
        self.uploaded = None

    def check(self):
        options, formats = help_options(self.ddp_lint)
        for index, step in enumerate(self.steps):
            name = step.get("name", "step %d" % index)
            if ("uses" in step) == ("run" in step):
                fail("%s: needs exactly one of `uses` and `run`" % name)
            if "uses" in step:
                self.check_uses(name, step)
            elif self.prefix:
                self.check_run(name, step["run"], options, formats)
        if not self.prefix:
            fail("job %s: ddp-lint is not checked out" % self.name)
        if self.uploaded is None:
            fail("job %s: no upload-sarif step" % self.name)
        if not self.annotations:
            fail("job %s: no ddp-lint --format=github step" % self.name)

    def build_path(self, path):
        return bool(self.prefix and path and re.fullmatch(
            re.escape(self.prefix) + r"build/llvm-\d+", path))

    def check_uses(self, name, step):
        uses, with_ = step["uses"], step.get("with", {})
        if not re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w./-]+)?@[\w.-]+", uses):
            fail("%s: bad action reference %r" % (name, uses))
        action = uses.split("@")[0]
        if action == "actions/checkout" and "repository" in with_:
            if not with_.get("path"):
                fail("%s: ddp-lint needs a `path`" % name)
            self.prefix = with_["path"].rstrip("/") + "/"
            print("ddp-lint is checked out into %s" % with_["path"])
        elif action == "actions/cache":
            fail("%s: actions/cache saves only when the job succeeds, and "
                 "this job fails on findings; use actions/cache/restore and "
                 "actions/cache/save" % name)
        elif action == "actions/cache/restore":
            if "id" in step:
                self.restores[step["id"]] = with_.get("path")
            if self.build_path(with_.get("path")):
                for pattern in re.findall(r"'([^']*)'", with_.get("key", "")):
                    if not pattern.startswith(self.prefix):
                        fail("%s: key hashes %s, outside ddp-lint"
                             % (name, pattern))
                    top = pattern[len(self.prefix):].split("*")[0]
                    if not os.path.exists(os.path.join(self.repo, top)):
                        fail("%s: key hashes %s, not in the repository"
                             % (name, pattern))
                print("%s: keyed on the sources of ddp-lint" % name)
        elif action == "actions/cache/save":
            m = re.fullmatch(r"\$\{\{ steps\.([\w-]+)\.outputs\."
                             r"cache-primary-key \}\}", with_.get("key", ""))
            if m and self.restores.get(m.group(1)) != with_.get("path"):
                fail("%s: saves %s under the key of a restore of %s"
                     % (name, with_.get("path"),
                        self.restores.get(m.group(1))))
        elif action == "github/codeql-action/upload-sarif":
            self.uploaded = with_.get("sarif_file")
            if self.uploaded not in self.sarif_outputs:
                fail("%s: uploads %r, which no earlier ddp-lint "
                     "--format=sarif step writes" % (name, self.uploaded))
            print("upload-sarif uploads %s, ddp-lint's SARIF" % self.uploaded)

    def check_run(self, name, script, options, formats):
        for words in commands(script):
            for position, word in enumerate(words):
                if not word.startswith(self.prefix):
                    continue
                rel = word[len(self.prefix):]
                m = re.fullmatch(r"build/llvm-(\d+)/bin/[\w-]+", rel)
                if m:
                    if m.group(1) not in self.built:
                        fail("%s: %s is not built by an earlier "
                             "scripts/build.sh %s" % (name, word, m.group(1)))
                    continue
                path = os.path.join(self.repo, rel)
                if not os.path.exists(path):
                    fail("%s: %s is not in the repository" % (name, rel))
                if position == 0 and not os.access(path, os.X_OK):
                    fail("%s: %s is not executable" % (name, rel))
                print("%s: %s is in the repository" % (name, rel))
                if rel == "scripts/build.sh" and position == 0:
                    self.built.add(words[1] if len(words) > 1 else "22")
            if not (words[0].startswith(self.prefix) and
                    words[0].endswith("/bin/ddp-lint")):
                continue
            args = words[1:]
            for i, arg in enumerate(args):
                if not arg.startswith("-"):
                    continue
                option, _, value = arg.partition("=")
                if option not in options:
                    fail("%s: ddp-lint has no option %s" % (name, option))
                if option == "--format":
                    if value not in formats:
                        fail("%s: ddp-lint has no --format=%s"
                             % (name, value))
                    self.annotations |= value == "github"
                if option == "-o" and "--format=sarif" in args:
                    self.sarif_outputs.append(args[i + 1])
            print("%s: ddp-lint %s: options known to ddp-lint --help"
                  % (name, " ".join(args)))

    def play(self, project):
        for major in self.built:
            bindir = os.path.join(project, self.prefix, "build",
                                  "llvm-" + major, "bin")
            os.makedirs(bindir, exist_ok=True)
            link = os.path.join(bindir, "ddp-lint")
            if not os.path.lexists(link):
                os.symlink(os.path.abspath(self.ddp_lint), link)
        failed = False
        for index, step in enumerate(self.steps):
            name = step.get("name", "step %d" % index)
            condition = str(step.get("if", ""))
            if failed and "always()" not in condition and \
                    "failure()" not in condition:
                print("step '%s': skipped" % name)
                continue
            action = step.get("uses", "").split("@")[0]
            with_ = step.get("with", {})
            if "/bin/ddp-lint" in step.get("run", ""):
                if step.get("shell") == "bash":
                    shell = ["bash", "--noprofile", "--norc", "-eo",
                             "pipefail", "-c"]
                else:
                    shell = ["sh", "-e", "-c"]
                sys.stdout.flush()
                status = subprocess.call(shell + [step["run"]], cwd=project)
                print("step '%s': exit %d" % (name, status))
                failed |= status != 0
            elif action == "actions/cache/save" and \
                    not self.build_path(with_.get("path")):
                # A path that is not there is a warning on GitHub, not an
                # error.
                if os.path.exists(os.path.join(project, with_["path"])):
                    print("step '%s': saves %s" % (name, with_["path"]))
                else:
                    print("step '%s': no %s to save" % (name, with_["path"]))
            elif action == "github/codeql-action/upload-sarif":
                path = os.path.join(project, with_["sarif_file"])
                if not os.path.exists(path):
                    fail("%s: no %s to upload" % (name, with_["sarif_file"]))
                with open(path) as f:
                    sarif = json.load(f)
                results = sarif["runs"][0]["results"]
                print("step '%s': %s: SARIF %s, %d results%s" % (
                    name, with_["sarif_file"], sarif["version"],
                    len(results), "".join(" " + r["ruleId"]
                                          for r in results)))
        print("the job %s" % ("fails" if failed else "passes"))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    workflow, repo, ddp_lint, project = sys.argv[1:]
    with open(workflow) as f:
        doc = yaml.safe_load(f)
    # `on` is a boolean key for YAML 1.1 readers such as PyYAML.
    triggers = doc.get("on", doc.get(True))
    if not triggers or "pull_request" not in triggers:
        fail("no `on: pull_request`")
    print("on: %s" % " ".join(sorted(triggers)))
    if doc.get("permissions", {}).get("security-events") != "write":
        fail("upload-sarif needs `permissions: security-events: write`")
    print("permissions: security-events: write")
    if not doc.get("jobs"):
        fail("no jobs")
    for name, spec in doc["jobs"].items():
        job = Job(name, spec, repo, ddp_lint)
        job.check()
        job.play(project)


if __name__ == "__main__":
    main()
