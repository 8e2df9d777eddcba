#!/usr/bin/env python3
"""Writes OUT_DIR/compile_commands.json for the .cpp files of SRC_DIR.

usage: make_cdb.py OUT_DIR SRC_DIR [FILE ...] -- FLAGS...

Every file gets `clang++ FLAGS -c FILE`, run in SRC_DIR. With FILEs, only
those (which need not exist, to test missing files).
"""
import json
import os
import sys


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 3:
        sys.exit(__doc__)
    split = args.index("--")
    out_dir, src_dir, files = args[0], args[1], args[2:split]
    flags = args[split + 1:]
    src_dir = os.path.abspath(src_dir)
    if not files:
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
