#!/usr/bin/env python3
"""Validate a SARIF file with Microsoft's SARIF Multitool, GitHub rules included.

Usage: validate_sarif.py [--notes] FILE.sarif

Runs `Sarif.Multitool validate --rule-kind "Gh;Sarif"` on FILE, reads the SARIF
log the multitool writes (its exit code says nothing about the findings: it is 0
whether or not errors were found), and prints one line per error or warning,

    RULEID: message (file:line:column)

errors first, then a last line `sarif-validate: N errors, M warnings`.
With --notes, note-level results are printed too (after the warnings); they are
not counted.

Exit status: 1 if there is an error, else 0; 2 if the multitool cannot be found
or run.

Where the multitool is looked for, in this order:
  1. $SARIF_MULTITOOL: the native Sarif.Multitool binary (or the directory of an
     npm install, e.g. build-tools/sarif);
  2. <repo>/build-tools/sarif/node_modules/@microsoft/sarif-multitool-linux/
     Sarif.Multitool, where <repo> is two levels above this script; install it
     with
         npm install --prefix build-tools/sarif @microsoft/sarif-multitool
  3. Sarif.Multitool, then sarif-multitool (the npm wrapper), on PATH.
The npm wrapper (bin.js) is never run itself: it passes its arguments through
/bin/sh, which splits "Gh;Sarif" at the ';'. The script runs the native binary
that the wrapper would run.

What the multitool itself misses, and this script adds:
  * SARIF2006 (UrisShouldBeReachable) is turned off through a --config file: it
    makes the validator fetch the $schema URI over the network.
  * A result, rule configuration or run with a value outside one of the
    schema's enums (e.g. "level": "warn"), or a malformed "uuid"/"date-time"
    value, makes the multitool skip the whole file without a word (0 results,
    executionSuccessful true). Such values are checked here against the schema
    shipped beside the binary (sarif-2.1.0.json) and reported as SCHEMA errors.

The multitool is a self-contained .NET 8 program; it needs libicu (Debian:
libicu72) unless DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1, which this script
sets unless the caller set it.
"""

import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
NPM_PREFIX = os.path.join(REPO_ROOT, "build-tools", "sarif")
NATIVE_REL = os.path.join("node_modules", "@microsoft", "sarif-multitool-linux",
                          "Sarif.Multitool")
INSTALL_HINT = ("install it with: npm install --prefix %s @microsoft/sarif-multitool"
                " (or set SARIF_MULTITOOL to the Sarif.Multitool binary)"
                % NPM_PREFIX)
TIMEOUT_SECONDS = 300

# Turns SARIF2006 off; the other rules keep their defaults.
CONFIG_XML = """<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" Type="Driver.RuleEnabledState" />
  </Properties>
</Properties>
"""


class ToolError(Exception):
    """The multitool cannot be found or run."""


def native_from_wrapper(path):
    """The native binary that an npm wrapper (bin.js or its .bin link) runs."""
    real = os.path.realpath(path)
    pkg_dir = os.path.dirname(real)  # .../@microsoft/sarif-multitool[-linux]
    for cand in (os.path.join(pkg_dir, "Sarif.Multitool"),
                 os.path.join(os.path.dirname(pkg_dir), "sarif-multitool-linux",
                              "Sarif.Multitool")):
        if os.path.isfile(cand):
            return cand
    return None


def resolve(path):
    """A usable native binary for PATH (file, npm prefix dir or wrapper)."""
    if os.path.isdir(path):
        for rel in (NATIVE_REL, "Sarif.Multitool"):
            cand = os.path.join(path, rel)
            if os.path.isfile(cand):
                return cand
        return None
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        head = f.read(64)
    if head.startswith(b"#!") and b"node" in head:
        return native_from_wrapper(path)
    return path


def find_multitool():
    env = os.environ.get("SARIF_MULTITOOL")
    if env:
        tool = resolve(env)
        if not tool:
            raise ToolError("SARIF_MULTITOOL=%s is not the Sarif.Multitool binary"
                            " or an npm install of it; %s" % (env, INSTALL_HINT))
        return tool
    tool = resolve(os.path.join(NPM_PREFIX, NATIVE_REL))
    if tool:
        return tool
    for name in ("Sarif.Multitool", "sarif-multitool"):
        found = shutil.which(name)
        if found:
            tool = resolve(found)
            if tool:
                return tool
    raise ToolError("SARIF Multitool not found; " + INSTALL_HINT)


# --- what the multitool skips silently: enums and uuid/date-time formats ---

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


def bad_format(fmt, value):
    if fmt == "uuid":
        return not UUID_RE.match(value)
    if fmt == "date-time":
        try:
            datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return True
    return False


def schema_check(doc, schema):
    """Enum and uuid/date-time violations, as (path, message) pairs."""
    defs = schema.get("definitions", {})
    problems = []

    def deref(node):
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 50:
            ref = node["$ref"]
            if not ref.startswith("#/definitions/"):
                return {}
            node = defs.get(ref[len("#/definitions/"):], {})
            seen += 1
        return node if isinstance(node, dict) else {}

    def walk(value, node, path):
        node = deref(node)
        if "enum" in node and value not in node["enum"]:
            problems.append((path, "%s is not one of %s" % (
                json.dumps(value), ", ".join(json.dumps(e) for e in node["enum"]))))
        fmt = node.get("format")
        if fmt and isinstance(value, str) and bad_format(fmt, value):
            problems.append((path, "%s is not a valid %s" % (json.dumps(value), fmt)))
        if isinstance(value, dict):
            props = node.get("properties", {})
            extra = node.get("additionalProperties")
            for key, sub in value.items():
                if key in props:
                    walk(sub, props[key], "%s.%s" % (path, key) if path else key)
                elif isinstance(extra, dict):
                    walk(sub, extra, "%s['%s']" % (path, key))
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            for i, sub in enumerate(value):
                walk(sub, node["items"], "%s[%d]" % (path, i))

    walk(doc, schema, "")
    return problems


# --- the multitool's output log ---

def format_message(message, rule):
    """message.text, or the rule's messageStrings[message.id] with arguments."""
    text = message.get("text")
    if text is None:
        template = rule.get("messageStrings", {}).get(message.get("id"), {})
        text = template.get("text", message.get("id", ""))
        args = message.get("arguments", [])

        def sub(m):
            if m.group(0) in ("{{", "}}"):
                return m.group(0)[0]
            i = int(m.group(1))
            return args[i] if i < len(args) else m.group(0)

        text = re.sub(r"\{\{|\}\}|\{(\d+)\}", sub, text)
        if text.startswith(": "):  # "{0}: ..." with an empty JSON path (the root)
            text = text[2:]
    return " ".join(text.split())


def location_of(result):
    for loc in result.get("locations", []):
        phys = loc.get("physicalLocation", {})
        uri = phys.get("artifactLocation", {}).get("uri", "")
        name = os.path.basename(urllib.parse.unquote(urllib.parse.urlsplit(uri).path)) if uri else "?"
        region = phys.get("region", {})
        if "startLine" in region:
            return "%s:%d:%d" % (name, region["startLine"],
                                 region.get("startColumn", 1))
        return name
    return "?"


def read_log(path):
    """(level, ruleId, message, location) for every result and notification."""
    with open(path, encoding="utf-8-sig") as f:
        log = json.load(f)
    found = []
    for run in log.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        by_id = {r.get("id"): r for r in rules}
        for res in run.get("results", []):
            idx = res.get("ruleIndex", -1)
            rule = rules[idx] if 0 <= idx < len(rules) else by_id.get(res.get("ruleId"), {})
            found.append((res.get("level", "warning"), res.get("ruleId", "?"),
                          format_message(res.get("message", {}), rule),
                          location_of(res)))
        for inv in run.get("invocations", []):
            for note in (inv.get("toolExecutionNotifications", []) +
                         inv.get("toolConfigurationNotifications", [])):
                desc = note.get("descriptor", {}).get("id") or "TOOL"
                text = format_message(note.get("message", {}), {})
                if desc == "WRN999.RuleExplicitlyDisabled" and "'SARIF2006'" in text:
                    continue  # our own --config; see CONFIG_XML
                found.append((note.get("level", "warning"), desc, text,
                              location_of(note)))
    return found


def run_multitool(tool, sarif, notes):
    if not os.access(tool, os.X_OK):
        raise ToolError("%s is not executable (npm skipped its postinstall"
                        " script?): chmod u+x it" % tool)
    env = dict(os.environ)
    env.setdefault("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
    with tempfile.TemporaryDirectory(prefix="sarif-validate-") as tmp:
        config = os.path.join(tmp, "config.xml")
        with open(config, "w") as f:
            f.write(CONFIG_XML)
        out = os.path.join(tmp, "validation.sarif")
        cmd = [tool, "validate", "--rule-kind", "Gh;Sarif",
               "--level", "Error;Warning;Note" if notes else "Error;Warning",
               "--config", config, "--quiet", "true", "--log", "ForceOverwrite",
               "--output", out, os.path.abspath(sarif)]
        try:
            proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
        except OSError as e:
            raise ToolError("cannot run %s: %s; %s" % (tool, e, INSTALL_HINT))
        except subprocess.TimeoutExpired:
            raise ToolError("%s timed out after %d s" % (tool, TIMEOUT_SECONDS))
        output = proc.stdout.decode("utf-8", "replace").strip()
        if proc.returncode != 0 or not os.path.isfile(out):
            first = output.splitlines()[0] if output else "no output"
            if "ICU" in output:
                first += " (install libicu72, or set DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1)"
            raise ToolError("%s failed (exit %d): %s" % (tool, proc.returncode, first))
        return read_log(out)


def main(argv):
    args = argv[1:]
    notes = "--notes" in args
    args = [a for a in args if a != "--notes"]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: %s [--notes] FILE.sarif\n" % os.path.basename(argv[0]))
        return 2
    sarif = args[0]
    if not os.path.isfile(sarif):
        print("sarif-validate: no such file: %s" % sarif)
        return 2
    try:
        tool = find_multitool()
        found = run_multitool(tool, sarif, notes)
    except ToolError as e:
        print("sarif-validate: %s" % e)
        return 2

    schema_path = os.path.join(os.path.dirname(tool), "sarif-2.1.0.json")
    try:
        with open(sarif, encoding="utf-8-sig") as f:
            doc = json.load(f)
        with open(schema_path, encoding="utf-8-sig") as f:
            schema = json.load(f)
    except (OSError, ValueError):
        pass  # a JSON syntax error is the multitool's JSON0001; no schema, no check
    else:
        name = os.path.basename(sarif)
        for path, msg in schema_check(doc, schema):
            found.append(("error", "SCHEMA", "%s: %s (the multitool skips such a"
                          " file silently)" % (path, msg), name))

    order = {"error": 0, "warning": 1, "note": 2}
    shown = [f for f in found if f[0] in ("error", "warning") or (notes and f[0] == "note")]
    shown.sort(key=lambda f: order.get(f[0], 3))
    for level, rule_id, message, where in shown:
        print("%s: %s (%s)" % (rule_id, message, where))
    errors = sum(1 for f in found if f[0] == "error")
    warnings = sum(1 for f in found if f[0] == "warning")
    print("sarif-validate: %d errors, %d warnings" % (errors, warnings))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
