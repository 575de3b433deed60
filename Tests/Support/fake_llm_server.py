#!/usr/bin/env python3
"""A stand-in for an OpenAI-compatible chat-completions server (llama.cpp's llama-server).

Usage: fake_llm_server.py PORT [SLOW_SECONDS]   (PORT 0: any free port; it prints "listening PORT")

Listens on 127.0.0.1:PORT. The first path segment picks the behaviour, so one server serves every
test: POST /{mode}/v1/chat/completions with mode
  valid             a valid command: shutdown games for 4321 s, child Sam
  fenced            the same answer inside a Markdown code fence
  clarify           {"action": "clarify", "question": ...}
  allow-youtube     {"action": "allow", "apps": ["youtube"], "child": "her"}
  block-youtube     {"action": "block_app", "apps": ["youtube"]}
  invalid-json      content that is not JSON
  schema-violation  JSON that breaks the command schema
  bad-envelope      a 200 response without choices
  slow              a valid answer after SLOW_SECONDS (default 5)
  error500          HTTP 500
GET /health answers 200; GET /last-request returns the last request body received.
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VALID = {"action": "shutdown", "durationSeconds": 4321, "categories": ["games"], "child": "Sam"}
ALLOW_YOUTUBE = {"action": "allow", "apps": ["youtube"], "child": "her"}
BLOCK_YOUTUBE = {"action": "block_app", "apps": ["youtube"]}
SLOW_SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
last_request = {"body": None}
lock = threading.Lock()


def completion(content):
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path == "/health":
            self.send_json(200, {"status": "ok"})
        elif self.path == "/last-request":
            with lock:
                self.send_json(200, last_request["body"] or {})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        parts = self.path.strip("/").split("/")
        mode = parts[0] if parts else ""
        if parts[1:] != ["v1", "chat", "completions"]:
            self.send_json(404, {"error": "not found"})
            return
        try:
            with lock:
                last_request["body"] = json.loads(raw)
        except ValueError:
            self.send_json(400, {"error": "request is not JSON"})
            return
        if mode == "valid":
            self.send_json(200, completion(json.dumps(VALID)))
        elif mode == "fenced":
            self.send_json(200, completion("```json\n" + json.dumps(VALID) + "\n```"))
        elif mode == "clarify":
            self.send_json(200, completion(json.dumps({"action": "clarify", "question": "Which child?"})))
        elif mode == "allow-youtube":
            self.send_json(200, completion(json.dumps(ALLOW_YOUTUBE)))
        elif mode == "block-youtube":
            self.send_json(200, completion(json.dumps(BLOCK_YOUTUBE)))
        elif mode == "invalid-json":
            self.send_json(200, completion("Sure! Here is the command: {action: shutdown"))
        elif mode == "schema-violation":
            self.send_json(200, completion(json.dumps({"action": "explode", "durationSeconds": -5, "categories": ["toys"]})))
        elif mode == "bad-envelope":
            self.send_json(200, {"object": "chat.completion"})
        elif mode == "slow":
            time.sleep(SLOW_SECONDS)
            self.send_json(200, completion(json.dumps(VALID)))
        elif mode == "error500":
            self.send_json(500, {"error": {"message": "model crashed", "type": "server_error"}})
        else:
            self.send_json(404, {"error": "unknown mode " + mode})


def exit_with_parent(parent):
    """Stop when the process that started us is gone (a crashed test run cannot stop us)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main():
    # A child of a test runner may inherit blocked signals: let SIGTERM and SIGINT through.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if len(sys.argv) < 2:
        sys.exit("usage: fake_llm_server.py PORT [SLOW_SECONDS]")
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    # PORT 0: the system picks a free one; the first line says which (no race with another process).
    print("listening", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
