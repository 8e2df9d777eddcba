#!/usr/bin/env python3
"""Writes OUT_DIR/compile_commands.json for the .cpp files of SRC_DIR.

usage: make_cdb.py [--recursive] OUT_DIR SRC_DIR [FILE ...] -- FLAGS...

Every file gets `clang++ FLAGS -c FILE`, run in SRC_DIR. With FILEs, only
those (which need not exist, to test missing files); with --recursive, the
.cpp files of SRC_DIR's subdirectories too.
"""
import json
import os
import sys


def main():
    args = sys.argv[1:]
    recursive = bool(args) and args[0] == "--recursive"
    if recursive:
        args = args[1:]
    if "--" not in args or len(args) < 3:
        sys.exit(__doc__)
    split = args.index("--")
    out_dir, src_dir, files = args[0], args[1], args[2:split]
    flags = args[split + 1:]
    src_dir = os.path.abspath(src_dir)
    if not files and recursive:
        files = sorted(os.path.relpath(os.path.join(d, f), src_dir)
                       for d, _, names in os.walk(src_dir)
                       for f in names if f.endswith(".cpp"))
    elif not files:
        files = sorted(f for f in os.listdir(src_dir) if f.endswith(".cpp"))
    commands = [{"directory": src_dir,
                 "file": f,
                 "arguments": ["clang++"] + flags + ["-c", f]}
                for f in files]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)


if __name__ == "__main__":
    main()
