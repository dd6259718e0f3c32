"""An OpenAI-compatible chat server on loopback with one mode per reply shape, for tests and bench.

The request's ``model`` picks the mode. Every request is recorded (body, headers,
path) in ``server.requests``. The pre-flight request (``max_tokens == 1``) gets a
plain reply in every mode except those that fail it on purpose, so a hostile reply
shape reaches the agent loop.

Modes: ``saver`` (lists, saves the declared deliverable, finishes; reports usage),
``slow-saver`` (the same, 0.3 s per reply), ``flaky-500`` (one 500, then saver),
``unauthorized`` (401), ``missing-model`` (404), ``echo-key`` (the agent's first call
gets a 400 whose body echoes the Authorization header), ``echo-key-ok`` (a 200 reply whose
text has legal words like "authorization:" and the echoed header), ``tool-calls-string``,
``tool-calls-ints``, ``function-string``, ``deep-<n>`` (content nested n deep),
``huge-<MiB>`` (a reply body of that many MiB, streamed), ``drip`` (one byte every
0.5 s), ``redirect`` (a 302 to ``server.redirect_to``), ``calls-<n>x<KiB>[x<per reply>]``
(n save_deliverable calls of that many KiB each, distinct names, all in one reply or
so many per reply, streamed), ``big-result``
(asks for a page larger than the tool-result limit).
"""

from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer, read_request

MEMO = ("# Risk memo\n\n" + "The record shows a legal problem we must address. " * 20).strip()
USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


def _declared(body: dict) -> str:
    user = next((m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user"), "")
    found = re.search(r"Deliverable\(s\) to save: ([^,\n]+)", user)
    return found.group(1).strip() if found else "memo.docx"


def _call(n: int, name: str, args: dict) -> dict:
    return {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def _message(content=None, tool_calls=None) -> dict:
    msg: dict = {"role": "assistant", "content": content}
    if tool_calls is not None:
        msg["tool_calls"] = tool_calls
    return msg


def _saver(body: dict, turn: int) -> dict:
    steps = [_message(None, [_call(0, "list_documents", {})]),
             _message(None, [_call(1, "save_deliverable", {"filename": _declared(body), "content": MEMO})]),
             _message("Saved.")]
    return steps[min(turn, len(steps) - 1)]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status: int, data: bytes, headers: dict | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _reply(self, message: dict) -> None:
        if self.streaming:
            return self._stream(message)
        self._send(200, json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                                    "usage": USAGE}).encode())

    def _stream(self, message: dict) -> None:
        """The same reply as server-sent events (``"stream": true``, as verifiers' proxy asks)."""
        delta: dict = {"role": "assistant", "content": message.get("content")}
        if message.get("tool_calls"):
            delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(message["tool_calls"])]
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        events = [{"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m",
                   "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                  {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m", "choices": [], "usage": USAGE}]
        data = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send(status, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode())

    def do_POST(self):
        body = read_request(self)
        server = self.server
        with server.lock:  # type: ignore[attr-defined]
            count = server.seen[body["model"]] = server.seen.get(body["model"], 0) + 1  # type: ignore[attr-defined]
        model = body["model"]
        self.streaming = bool(body.get("stream"))
        if model == "unauthorized":
            return self._error(401, "Incorrect API key provided: sk-te****. You can find your API key at the dashboard.")
        if model == "missing-model":
            return self._error(404, "The model `missing-model` does not exist or you do not have access to it.")
        if body.get("max_tokens") == 1:
            return self._reply(_message("pong"))
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if model == "saver":
            return self._reply(_saver(body, turn))
        if model == "slow-saver":
            time.sleep(0.3)
            return self._reply(_saver(body, turn))
        if model == "flaky-500":
            return self._error(500, "try again") if count == 2 else self._reply(_saver(body, turn))
        if model == "echo-key":
            echoed = {"error": {"message": f"bad request; you sent Authorization: {self.headers.get('Authorization')}",
                                "headers": {"authorization": self.headers.get("Authorization")}}}
            return self._send(400, json.dumps(echoed).encode())
        if model == "echo-key-ok":  # a 200 reply whose text carries legal words and the echoed key
            return self._reply(_message("Board authorization: pending. Bearer bonds are excluded. "
                                        f"You sent {self.headers.get('Authorization')}"))
        if model == "tool-calls-string":
            return self._reply(_message(None, "save_deliverable"))
        if model == "tool-calls-ints":
            return self._reply(_message(None, [1, 2, 3]))
        if model == "function-string":
            return self._reply(_message(None, [{"id": "c1", "type": "function", "function": "save_deliverable"}]))
        if model.startswith("deep-"):
            n = int(model.split("-")[1])
            raw = b'{"choices": [{"message": {"role": "assistant", "content": ' + b"[" * n + b"]" * n + b"}}]}"
            return self._send(200, raw)
        if model.startswith("huge-"):
            return self._huge(int(model.split("-")[1]) * 1024 * 1024)
        if model == "drip":
            return self._drip()
        if model == "redirect":
            self.send_response(302)
            self.send_header("Location", server.redirect_to)  # type: ignore[attr-defined]
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if model.startswith("calls-"):
            n, kib, *per = (int(x) for x in model.split("-")[1].split("x"))
            per_turn = per[0] if per else n
            first = turn * per_turn
            if first >= n:
                return self._reply(_message("done"))
            return self._stream_calls(range(first, min(n, first + per_turn)), kib)
        if model == "big-result":
            if turn:
                return self._reply(_message("done"))
            return self._reply(_message(None, [_call(0, "read_document", {"name": "01-lease-extract.txt"})]))
        return self._error(404, f"unknown test model {model}")

    def _stream_calls(self, indices: range, kib: int) -> None:
        """One reply with a save_deliverable call per index, each ``kib`` KiB, streamed call by call."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        content = "x" * (kib * 1024)
        try:
            self.wfile.write(b'{"usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}, '
                             b'"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [')
            for k, i in enumerate(indices):
                call = _call(i, "save_deliverable", {"filename": f"f{i}.txt", "content": content})
                self.wfile.write((", " if k else "").encode() + json.dumps(call).encode())
            self.wfile.write(b"]}}]}")
        except OSError:  # the client stopped reading at its limit
            pass

    def _huge(self, size: int) -> None:
        """A syntactically valid reply of ``size`` bytes, streamed without holding it in memory."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()  # no Content-Length: the client must count as it reads
        head = b'{"choices": [{"message": {"role": "assistant", "content": "'
        tail = b'"}}]}'
        self.wfile.write(head)
        chunk = b"a" * (1024 * 1024)
        left = size - len(head) - len(tail)
        try:
            while left > 0:
                self.wfile.write(chunk[:left])
                left -= len(chunk)
            self.wfile.write(tail)
        except OSError:  # the client stopped reading at its limit
            pass

    def _drip(self) -> None:
        data = json.dumps({"choices": [{"message": _message("done")}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            for b in data:
                self.wfile.write(bytes([b]))
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass


class ChatServer(LoopbackServer):
    """``with ChatServer() as s:`` then ``lae run --base-url s.base_url --model <mode>``."""

    handler = _Handler

    def __enter__(self):
        super().__enter__()
        self.httpd.redirect_to = "http://127.0.0.1:9/v1/chat/completions"  # type: ignore[attr-defined]
        return self
