#!/usr/bin/env python3
"""Runs a command and fails unless it exits with the given code.

usage: expect_exit.py CODE COMMAND [ARG ...]

The command's output passes through, so FileCheck can read it.
"""
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit(__doc__)
want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect_exit: %s exited with %d, expected %d\n"
                     % (sys.argv[2], got, want))
    sys.exit(1)
