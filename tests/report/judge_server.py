"""A scripted OpenAI-compatible judge on loopback, for tests.

The request's ``model`` picks the script; the criterion id is read from the user
message. Every request is recorded (body and headers) so tests can check
temperature 0, the key header and the retry count.
"""

from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer, read_request

PASSING = {"C-001", "C-002", "C-003", "C-008", "C-009", "C-010"}


def verdict_for(criterion: str) -> dict:
    verdict = "PASS" if criterion in PASSING else "FAIL"
    return {"verdict": verdict, "reasoning": f"{criterion}: scripted {verdict.lower()}."}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass

    def _reply(self, status: int, content: str | None = None, headers: dict | None = None, raw: bytes | None = None):
        data = raw if raw is not None else (json.dumps({"choices": [{"index": 0, "message": {
            "role": "assistant", "content": content}, "finish_reason": "stop"}]}).encode() if content is not None else b"")
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = read_request(self)
        server = self.server
        with server.lock:  # type: ignore[attr-defined]
            user = body["messages"][-1]["content"]
            criterion = re.search(r"Criterion (\S+):", user).group(1)
            key = (body["model"], criterion)
            server.seen[key] = server.seen.get(key, 0) + 1  # type: ignore[attr-defined]
            seen = server.seen[key]  # type: ignore[attr-defined]
        model = body["model"]
        good = json.dumps(verdict_for(criterion))
        if model == "good":
            return self._reply(200, good)
        if model == "flaky":  # first call of each criterion: 429, then the answer
            return self._reply(429, headers={"Retry-After": "0"}) if seen == 1 else self._reply(200, good)
        if model == "server-error":
            return self._reply(503)
        if model == "bad-request":
            return self._reply(400, raw=b'{"error": "bad model"}')
        if model == "slow":  # past the client's timeout on the first call, fine afterwards
            if seen == 1:
                time.sleep(2.5)
            return self._reply(200, good)
        if model == "malformed":
            replies = {"C-001": "```json\n" + good + "\n```",        # fenced: accepted
                       "C-002": "I think it passes.",                  # not JSON
                       "C-003": json.dumps({"verdict": "MAYBE"}),       # not PASS/FAIL
                       "C-004": json.dumps(["PASS"]),                   # not an object
                       "C-005": json.dumps({"verdict": "pass", "reasoning": 3})}  # reasoning not text
            if criterion == "C-006":
                return self._reply(200, raw=b"{not json")             # the HTTP body itself is broken
            return self._reply(200, replies.get(criterion, good))
        return self._reply(404)


class JudgeServer(LoopbackServer):
    handler = _Handler
