"""A scripted HTTP server on 127.0.0.1 for tests (model and judge endpoints share it)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # tests send several requests at once

    def handle_error(self, request, client_address):
        """A client that timed out has hung up: the late reply's broken pipe is expected."""


def read_request(handler: BaseHTTPRequestHandler) -> dict:
    """The JSON body of the POST being handled, recorded with its headers and path in the
    server's ``requests`` (under its lock)."""
    body = json.loads(handler.rfile.read(int(handler.headers.get("Content-Length", 0))))
    server = handler.server
    with server.lock:  # type: ignore[attr-defined]
        server.requests.append({"body": body, "headers": dict(handler.headers), "path": handler.path})  # type: ignore[attr-defined]
    return body


class LoopbackServer:
    """Context manager: serve ``handler`` on a free loopback port; ``base_url`` ends in /v1.

    The handler records requests in ``self.server.requests``; ``self.server.seen`` and
    ``self.server.lock`` are there for scripts that need per-key state."""

    handler: type[BaseHTTPRequestHandler]

    def __enter__(self):
        self.httpd = _Server(("127.0.0.1", 0), self.handler)
        self.httpd.requests = []  # type: ignore[attr-defined]
        self.httpd.seen = {}  # type: ignore[attr-defined]
        self.httpd.lock = threading.Lock()  # type: ignore[attr-defined]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        host, port = self.httpd.server_address[:2]
        self.base_url = f"http://{host}:{port}/v1"
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def requests(self) -> list[dict]:
        return self.httpd.requests  # type: ignore[attr-defined]
