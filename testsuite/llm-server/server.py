#!/usr/bin/env python3
"""A scripted LLM server for kcc's tests: OpenAI chat completions
(POST /v1/chat/completions) and Anthropic messages (POST /v1/messages) on
127.0.0.1, answering from fixture files and injecting faults on request.

Standard library only. See README.md next to this file for the fixture
format; in short:

  server.py --fixtures DIR [--script FILE] [--port-file F]

prints "PORT <n>" as its first line (and writes <n> to F), then serves
until SIGTERM or POST /shutdown. GET /stats and GET /requests tell a test
what it received; POST /reset forgets it.
"""

import argparse
import json
import os
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MARKER = "[[fixture:"


class State:
    def __init__(self, fixtures, script):
        self.dir = fixtures
        self.script = script
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.requests = []
        self.by_path = {}
        self.by_fixture = {}
        self.counters = {}  # sequence counters, by marker
        self.script_pos = 0
        self.inflight = 0  # requests being answered now
        self.peak = 0      # most answered at once since the last reset


STATE = None


def load_fixture(name):
    """(directives, text) of DIR/NAME.txt."""
    if "/" in name or name.startswith("."):
        raise ValueError("bad fixture name %r" % name)
    path = os.path.join(STATE.dir, name + ".txt")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    directives = {}
    i = 0
    while i < len(lines) and lines[i].startswith("@"):
        word, _, rest = lines[i][1:].partition(" ")
        directives[word] = rest.strip()
        i += 1
    return directives, "\n".join(lines[i:])


def sequence(name):
    """Fixture names of DIR/NAME.seq, or None when there is no such file."""
    path = os.path.join(STATE.dir, name + ".seq")
    if "/" in name or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        seq = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return seq or None


def last_user_text(body):
    """Text of the last user message, for both wire formats."""
    for m in reversed(body.get("messages") or []):
        if not isinstance(m, dict) or m.get("role") != "user":
            continue
        c = m.get("content")
        if isinstance(c, list):  # anthropic content blocks
            c = " ".join(b.get("text", "") for b in c if isinstance(b, dict))
        return c if isinstance(c, str) else ""
    return ""


def choose(body):
    """Pick the fixture for a request: marker, then script, then default.

    [[fixture:NAME]] or [[fixture:NAME#ID]]: NAME is a fixture (NAME.txt)
    or a sequence (NAME.seq); the ID only separates the counters of
    sequences, so two tests can each start a sequence from its beginning.
    """
    text = last_user_text(body)
    at = text.find(MARKER)
    with STATE.lock:
        if at >= 0:
            end = text.find("]]", at)
            marker = text[at + len(MARKER):end if end >= 0 else None].strip()
            name = marker.split("#", 1)[0]
            seq = sequence(name)
            if not seq:
                return name
            n = STATE.counters.get(marker, 0)
            STATE.counters[marker] = n + 1
            return seq[min(n, len(seq) - 1)]
        if STATE.script:
            n = STATE.script_pos
            STATE.script_pos += 1
            return STATE.script[min(n, len(STATE.script) - 1)]
    return "default"


def openai_answer(model, text, usage):
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                  "total_tokens": usage[0] + usage[1]},
    }


def anthropic_answer(model, text, usage):
    return {
        "id": "msg_test", "type": "message", "role": "assistant",
        "model": model, "stop_reason": "end_turn",
        "content": [{"type": "text", "text": text}],
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (timeout) closes its end: not worth a trace.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: tests read /requests
        pass

    def send_json(self, code, obj, extra=None):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with STATE.lock:
            if self.path == "/stats":
                obj = {"requests": len(STATE.requests),
                       "by_path": STATE.by_path, "by_fixture": STATE.by_fixture,
                       "peak_inflight": STATE.peak}
            elif self.path == "/requests":
                obj = STATE.requests
            else:
                obj = None
        if obj is None:
            self.send_json(404, {"error": {"message": "no such page"}})
        else:
            self.send_json(200, obj)

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return raw, json.loads(raw or b"{}")
        except ValueError:
            return raw, None

    def do_POST(self):
        if self.path == "/shutdown":
            self.send_json(200, {"ok": True})
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return
        if self.path == "/reset":
            with STATE.lock:
                STATE.reset()
            self.send_json(200, {"ok": True})
            return
        raw, body = self.read_body()
        if self.path not in ("/v1/chat/completions", "/v1/messages"):
            self.send_json(404, {"error": {"message": "no route " + self.path}})
            return
        if not isinstance(body, dict):
            self.send_json(400, {"error": {"message": "request body is not JSON"}})
            return
        name = choose(body)
        with STATE.lock:
            STATE.requests.append({
                "n": len(STATE.requests) + 1, "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body, "fixture": name})
            STATE.by_path[self.path] = STATE.by_path.get(self.path, 0) + 1
            STATE.by_fixture[name] = STATE.by_fixture.get(name, 0) + 1
            STATE.inflight += 1
            STATE.peak = max(STATE.peak, STATE.inflight)
        try:
            try:
                directives, text = load_fixture(name)
            except (OSError, ValueError) as e:
                self.send_json(500, {"error": {"message": "fixture: %s" % e}})
                return
            self.answer(body, directives, text)
        finally:
            with STATE.lock:
                STATE.inflight -= 1

    def key_of_request(self):
        auth = self.headers.get("Authorization") or ""
        return self.headers.get("x-api-key") or auth.replace("Bearer ", "")

    def answer(self, body, d, text):
        if "delay" in d:
            time.sleep(float(d["delay"]))
        if "reset" in d:  # RST, no answer at all
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        status = int(d.get("status", "200"))
        extra = {}
        if "retry-after" in d:
            extra["Retry-After"] = d["retry-after"]
        if status != 200:
            msg = d.get("error", "injected error")
            if "echo-key" in d:  # as some servers do: tests check we redact
                msg += " (key: %s)" % self.key_of_request()
            self.close_connection = status >= 500
            self.send_json(status, {"error": {"message": msg, "type": "test"}}, extra)
            return
        model = body.get("model", "?")
        text = text.replace("{model}", str(model))
        usage = [int(x) for x in d.get("usage", "%d %d" % (
            len(json.dumps(body.get("messages"))) // 4, len(text) // 4)).split()]
        make = anthropic_answer if self.path == "/v1/messages" else openai_answer
        data = json.dumps(make(model, text, usage)).encode()
        if "malformed" in d:
            data = data[: len(data) // 2] + b"}}{"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if "truncate" in d:  # promise more than we send, then hang up
            self.send_header("Content-Length", str(len(data) + 100))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            self.close_connection = True
            return
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    global STATE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixtures", required=True, help="directory of NAME.txt / NAME.seq")
    ap.add_argument("--script", help="file of fixture names, one a request")
    ap.add_argument("--port-file", help="write the port here once listening")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    script = None
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            script = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    STATE = State(args.fixtures, script)
    srv = Server(("127.0.0.1", args.port), Handler)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    port = srv.server_address[1]
    print("PORT %d" % port, flush=True)
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, args.port_file)  # readers never see half a number
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
