#!/usr/bin/env python3
"""Opens source files in a language server the way an editor does and prints
the diagnostics the server publishes for each.

The server (ddp-clangd) is started with its arguments after `--` and spoken
to over stdio in JSON-RPC with Content-Length framing: initialize,
initialized, textDocument/didOpen of each file, then wait for the
textDocument/publishDiagnostics of each, then shutdown and exit. Each
diagnostic is printed on one line,

  <file>:<line>:<column>-<line>:<column>: <severity>: <message> [<code>]

with the range it highlights (1-based, as a compiler prints positions; the
end is exclusive), its related information (clang-tidy's notes) on lines of
their own below it as `  <file>:<line>:<column>: note: <message>`, and
`<file>: N diagnostics` after them, in the order the files were given; then,
in the same form and sorted by name, the diagnostics the server published
meanwhile for files it was not asked about (clangd's on the .clangd files it
read). Files are named relative to the directory that holds the opened ones
(other files by their absolute path).
Nothing else is printed on stdout.

Exit status: 0 when every file got its diagnostics, 1 when the server exited
or broke the protocol, 2 on a timeout (the server is killed; this script never
waits longer than --timeout seconds in all).

usage: lsp_diagnostics.py [--timeout S] [--log FILE] FILE... -- SERVER [ARG...]
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}


class ServerGone(Exception):
    pass


class Timeout(Exception):
    pass


def file_uri(path):
    return "file://" + urllib.request.pathname2url(os.path.abspath(path))


def uri_path(uri):
    return urllib.parse.unquote(urllib.parse.urlparse(uri).path)


class Connection:
    """JSON-RPC over the server's stdin and stdout."""

    def __init__(self, argv, log, deadline):
        self.deadline = deadline
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log)
        self.messages = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = out.readline()
                    if not line:
                        raise EOFError
                    line = line.decode("ascii").strip()
                    if not line:
                        break
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = out.read(int(headers["content-length"]))
                self.messages.put(json.loads(body.decode("utf-8")))
        except (EOFError, KeyError, ValueError) as e:
            self.messages.put(e)

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
            self.proc.stdin.write(body)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ServerGone("the server closed its input")

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        id = self.next_id
        self.next_id += 1
        self.send({"id": id, "method": method, "params": params})
        return id

    def receive(self):
        """The next message from the server."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Timeout()
        try:
            message = self.messages.get(timeout=left)
        except queue.Empty:
            raise Timeout()
        if isinstance(message, Exception):
            raise ServerGone("the server's output ended (%s)" %
                             type(message).__name__)
        # Requests from the server (workDoneProgress/create and the like)
        # get an empty result, as an editor would answer.
        if "method" in message and "id" in message:
            self.send({"id": message["id"], "result": None})
        return message

    def wait_response(self, id):
        while True:
            message = self.receive()
            if message.get("id") == id and "method" not in message:
                if "error" in message:
                    raise ServerGone("request %d failed: %s" %
                                     (id, message["error"]))
                return message.get("result")


def position(pos):
    return "%d:%d" % (pos["line"] + 1, pos["character"] + 1)


def format_diagnostics(name, diagnostics, relative):
    lines = []
    for d in sorted(diagnostics, key=lambda d: (d["range"]["start"]["line"],
                                                d["range"]["start"]["character"],
                                                d["message"])):
        code = " [%s]" % d["code"] if "code" in d else ""
        lines.append("%s:%s-%s: %s: %s%s" % (
            name, position(d["range"]["start"]), position(d["range"]["end"]),
            SEVERITY.get(d.get("severity"), "unknown"),
            d["message"].replace("\n", " | "), code))
        for info in d.get("relatedInformation", []):
            where = relative(uri_path(info["location"]["uri"]))
            lines.append("  %s:%s: note: %s" % (
                where, position(info["location"]["range"]["start"]),
                info["message"].replace("\n", " | ")))
    lines.append("%s: %d diagnostics" % (name, len(diagnostics)))
    return lines


def run(args, conn):
    root = os.path.commonpath(
        [os.path.dirname(os.path.abspath(f)) for f in args.files])

    def relative(path):
        rel = os.path.relpath(path, root)
        return path if rel.startswith("..") else rel
    init = conn.request("initialize", {
        "processId": os.getpid(),
        "rootUri": file_uri(root),
        "capabilities": {
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True,
                                       "codeDescriptionSupport": True},
            },
        },
    })
    conn.wait_response(init)
    conn.notify("initialized", {})

    wanted = {}
    for path in args.files:
        uri = file_uri(path)
        wanted[uri] = None
        with open(path, encoding="utf-8") as f:
            text = f.read()
        conn.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}})

    others = {}
    while any(v is None for v in wanted.values()):
        message = conn.receive()
        if message.get("method") != "textDocument/publishDiagnostics":
            continue
        params = message["params"]
        # clangd publishes once the AST of the opened version is built.
        if params["uri"] not in wanted:
            others[params["uri"]] = params["diagnostics"]
        elif params.get("version", 1) == 1:
            wanted[params["uri"]] = params["diagnostics"]

    for path in args.files:
        for line in format_diagnostics(relative(os.path.abspath(path)),
                                       wanted[file_uri(path)], relative):
            print(line)
    for name, diagnostics in sorted(
            (relative(uri_path(uri)), d) for uri, d in others.items()):
        for line in format_diagnostics(name, diagnostics, relative):
            print(line)
    sys.stdout.flush()

    conn.wait_response(conn.request("shutdown", None))
    conn.notify("exit", None)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: lsp_diagnostics.py [options] FILE... -- SERVER [ARG...]")
    split = argv.index("--")
    server = argv[split + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds for the whole session")
    parser.add_argument("--log", help="file for the server's stderr")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv[:split])
    if not server:
        sys.exit("lsp_diagnostics.py: no server command after --")

    deadline = time.monotonic() + args.timeout
    log = open(args.log, "wb") if args.log else subprocess.DEVNULL
    conn = Connection(server, log, deadline)
    status = 0
    try:
        run(args, conn)
    except Timeout:
        print("lsp_diagnostics.py: no diagnostics after %g s; killing the "
              "server" % args.timeout, file=sys.stderr)
        status = 2
    except ServerGone as e:
        print("lsp_diagnostics.py: %s" % e, file=sys.stderr)
        status = 1
    # After `exit` the server should end on its own (clangd first finishes
    # the file it is building); wait for it until the deadline, at least 10 s.
    try:
        conn.proc.wait(timeout=max(10.0, deadline - time.monotonic())
                       if status == 0 else 1.0)
    except subprocess.TimeoutExpired:
        conn.proc.kill()
        conn.proc.wait()
        if status == 0:
            print("lsp_diagnostics.py: the server did not exit after `exit`",
                  file=sys.stderr)
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
