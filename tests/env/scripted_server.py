"""A scripted OpenAI-compatible chat-completions server on loopback, for tests.

The reply depends on the request's ``model`` and on how many assistant turns the
conversation already has, so each model name is a scripted agent.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer

MEMO = (
    "# Harbor Street lease: risk memo\n\n"
    "Our first and most urgent point concerns timing. The tenant's deadline to exercise the renewal option is "
    "June 30, 2025 under Section 9.1, and operations staff wrongly believe it falls later in the year; we advise "
    "that the client serve written notice of renewal this month.\n\n"
    "Second, the tenant has given a broad-form indemnity in Section 11.3. Because it reaches losses caused by the "
    "landlord itself, we recommend that the client narrow the indemnity when the lease is renewed."
)


def tool_call(n: int, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def script(model: str, turn: int) -> dict:
    if model == "saver":
        steps = [tool_call(0, "list_documents", {}), tool_call(1, "read_document", {"name": "01-lease-extract.txt"}),
                 tool_call(2, "save_deliverable", {"filename": "lease-risk-memo.docx", "content": MEMO}),
                 {"role": "assistant", "content": "Saved."}]
    elif model == "never-saves":
        steps = [tool_call(0, "list_documents", {}), {"role": "assistant", "content": MEMO}]
    elif model == "md-saver":
        steps = [tool_call(0, "save_deliverable", {"filename": "lease-risk-memo.md", "content": MEMO}),
                 {"role": "assistant", "content": "Saved as markdown."}]
    elif model == "looper":
        return tool_call(turn, "list_documents", {})
    else:
        raise KeyError(model)
    return steps[min(turn, len(steps) - 1)]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length))
        model = body["model"]
        self.server.requests.append(body)  # type: ignore[attr-defined]
        if model == "flaky-429" and sum(1 for r in self.server.requests if r["model"] == model) == 1:  # type: ignore[attr-defined]
            self.send_response(429)
            self.end_headers()
            return
        if model == "flaky-429":
            model = "saver"
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        try:
            message = script(model, turn)
        except KeyError:
            self.send_response(404)
            self.end_headers()
            return
        data = json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class ScriptedServer(LoopbackServer):
    handler = _Handler
