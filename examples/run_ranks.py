#!/usr/bin/env python3
"""Run one example program as N ranks on this machine, like torchrun would.

Usage:
    run_ranks.py [--nproc 2] [--timeout SECONDS] [--collective-timeout-ms MS]
                 [--json] -- ./program [args...]

Every rank gets the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR=127.0.0.1, MASTER_PORT=<a free port>) plus DDP_EXAMPLE_TIMEOUT_MS,
which the examples use as their collective timeout. All ranks are killed when
the overall time limit runs out. Afterwards one line per rank says whether it
finished, failed or was killed, followed by the overall outcome:

    rank 0: finished
    rank 1: failed (exit 1): <last line of its stderr>
    outcome: hang-or-error

The exit status is 0 only if every rank exited with status 0.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

MASTER_ADDR = "127.0.0.1"


def free_port():
    """Returns a TCP port on loopback that nothing is listening on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((MASTER_ADDR, 0))
        return sock.getsockname()[1]


def last_line(text):
    """Returns the last non-blank line of text, or an empty string."""
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def kill_group(proc):
    """Kills a rank together with anything it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(command, nproc, time_limit, collective_timeout_ms):
    ranks = []
    try:
        port = start_ranks(command, nproc, collective_timeout_ms, ranks)
        wait_for_ranks(ranks, time_limit)
    finally:
        # Never leave a rank behind: not on a start-up error, not on Ctrl-C.
        for r in ranks:
            if r["proc"].poll() is None:
                r["killed"] = True
                kill_group(r["proc"])

    results = []
    for r in ranks:
        returncode = r["proc"].wait()
        r["out"].seek(0)
        r["err"].seek(0)
        stdout = r["out"].read().decode(errors="replace")
        stderr = r["err"].read().decode(errors="replace")
        r["out"].close()
        r["err"].close()
        if r["killed"]:
            status = "killed"
        elif returncode == 0:
            status = "finished"
        else:
            status = "failed"
        results.append({
            "rank": r["rank"],
            "status": status,
            "exit_code": returncode,
            "stdout": stdout,
            "stderr": stderr,
            "last_stderr_line": last_line(stderr),
        })
    return port, results


def start_ranks(command, nproc, collective_timeout_ms, ranks):
    """Starts nproc copies of command, appending one entry per rank to ranks.

    Returns the MASTER_PORT given to them.
    """
    port = free_port()
    for rank in range(nproc):
        env = dict(os.environ)
        env.update({
            "RANK": str(rank),
            "LOCAL_RANK": str(rank),
            "WORLD_SIZE": str(nproc),
            "LOCAL_WORLD_SIZE": str(nproc),
            "MASTER_ADDR": MASTER_ADDR,
            "MASTER_PORT": str(port),
            "DDP_EXAMPLE_TIMEOUT_MS": str(collective_timeout_ms),
        })
        # Output goes to temporary files rather than pipes so that a chatty
        # rank can never block on a full pipe while we wait for the others.
        out = tempfile.TemporaryFile()
        err = tempfile.TemporaryFile()
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL,
                                start_new_session=True)
        ranks.append({"rank": rank, "proc": proc, "out": out, "err": err,
                      "killed": False})
    return port


def wait_for_ranks(ranks, time_limit):
    """Waits until every rank has exited or time_limit seconds have passed.

    Ranks still running at the limit are killed (a hang).
    """
    deadline = time.monotonic() + time_limit
    while any(r["proc"].poll() is None for r in ranks):
        if time.monotonic() >= deadline:
            for r in ranks:
                if r["proc"].poll() is None:
                    r["killed"] = True
                    kill_group(r["proc"])
            return
        time.sleep(0.05)


def describe(result):
    """Formats the one-line summary for a rank."""
    rank = result["rank"]
    if result["status"] == "finished":
        return "rank %d: finished" % rank
    if result["status"] == "killed":
        return "rank %d: killed at the time limit" % rank
    code = result["exit_code"]
    if code < 0:
        try:
            how = "signal %s" % signal.Signals(-code).name
        except ValueError:
            how = "signal %d" % -code
    else:
        how = "exit %d" % code
    line = "rank %d: failed (%s)" % (rank, how)
    if result["last_stderr_line"]:
        line += ": " + result["last_stderr_line"]
    return line


def main(argv):
    parser = argparse.ArgumentParser(
        description="Run a program as N torchrun-style ranks on loopback.",
        usage="%(prog)s [options] -- program [args...]")
    parser.add_argument("--nproc", type=int, default=2,
                        help="number of ranks to start (default: 2)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="overall time limit in seconds; ranks still "
                             "running then are killed (default: 60)")
    parser.add_argument("--collective-timeout-ms", type=int, default=5000,
                        help="collective timeout passed to the program as "
                             "DDP_EXAMPLE_TIMEOUT_MS (default: 5000)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON object instead of text")
    parser.add_argument("--verbose", action="store_true",
                        help="also print each rank's stdout and stderr")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the program to run, after --")
    args = parser.parse_args(argv)

    command = args.command
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("no program given (put it after --)")
    if args.nproc < 1:
        parser.error("--nproc must be at least 1")

    try:
        port, results = run(command, args.nproc, args.timeout,
                            args.collective_timeout_ms)
    except OSError as exc:
        print("run_ranks.py: cannot start %s: %s" % (command[0], exc),
              file=sys.stderr)
        return 2

    clean = all(r["status"] == "finished" for r in results)
    outcome = "clean" if clean else "hang-or-error"

    if args.json:
        report = {
            "command": command,
            "nproc": args.nproc,
            "master_port": port,
            "time_limit_s": args.timeout,
            "collective_timeout_ms": args.collective_timeout_ms,
            "ranks": [{
                "rank": r["rank"],
                "status": r["status"],
                "exit_code": None if r["status"] == "killed"
                else r["exit_code"],
                "last_stderr_line": r["last_stderr_line"],
                "summary": describe(r),
                "stdout": r["stdout"],
                "stderr": r["stderr"],
            } for r in results],
            "outcome": outcome,
        }
        print(json.dumps(report, indent=2))
    else:
        if args.verbose:
            for r in results:
                for name in ("stdout", "stderr"):
                    for line in r[name].splitlines():
                        print("[rank %d %s] %s" % (r["rank"], name, line))
        for r in results:
            print(describe(r))
        print("outcome: " + outcome)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
