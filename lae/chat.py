"""The one client for OpenAI-compatible chat-completions endpoints (``lae run`` and the judge).

Standard library only (``http.client``), so the core needs no SDK. What it guarantees,
in one place:

* **bounded**: every request has a wall-clock *deadline* (a watchdog closes the socket,
  so a server dripping one byte at a time cannot stretch it), the reply body is read in
  chunks and refused past ``max_reply_bytes``, and the JSON is parsed with a depth limit;
  each refusal names the limit and the option that sets it;
* **retries**: 429, 5xx, timeouts and connection errors, with bounded exponential
  backoff (``Retry-After`` honoured up to the bound); other 4xx are final;
* **secrets**: the API key and any ``Authorization``/``api-key`` value are redacted from
  every error message and every reply before anything else sees them, and a redirect to
  another origin is refused, so credentials are never sent there;
* **typed replies**: a reply whose shape is wrong (``tool_calls`` a string, a list of
  numbers, ``function`` a string, ...) is a :class:`ChatError` naming the field, never an
  ``AttributeError`` later.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from lae.jsonio import JSONDepthError, loads

__all__ = ["ChatError", "ChatLimits", "Completion", "Endpoint", "Usage", "public_url", "redact"]

REDACTED = "[REDACTED]"
_MAX_REDIRECTS = 3
_CHUNK = 64 * 1024
_SECRET_FIELDS = re.compile(
    r"""(?ix)
    ( (?:authorization|proxy-authorization|api[-_]?key|x-api-key)   # a credential header or field
      ["']?\s*[:=]\s*["']? )                                        # its separator (header, JSON or query)
    ( (?:bearer|basic)\s+ )?                                        # an optional scheme
    [^\s"',;&}]+                                                    # the value
    """)
_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{4,}")


def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with every secret and every ``Authorization``/``api-key`` value replaced."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    text = _SECRET_FIELDS.sub(lambda m: f"{m.group(1)}{m.group(2) or ''}{REDACTED}", text)
    return _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)


def public_url(url: str) -> str:
    """The URL without user info, query or fragment (what a run records and prints)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


class ChatLimits(BaseModel):
    """Per-request bounds (``lae run`` options of the same names)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_reply_bytes: int = Field(8 * 1024 * 1024, ge=1024, description="Largest reply body read (--max-reply-bytes).")
    request_deadline: float = Field(300.0, gt=0, description="Wall-clock seconds per request, retries apart (--request-deadline).")
    max_json_depth: int = Field(64, ge=4, le=10_000, description="Deepest JSON nesting accepted in a reply (--max-json-depth).")


class Usage(BaseModel):
    """Token usage as the API reports it (``usage``); zeros when it reports none."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    total_tokens: int = Field(0, ge=0)

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     total_tokens=self.total_tokens + other.total_tokens)


@dataclass(frozen=True)
class Completion:
    """One validated reply: the assistant message (``content``, ``tool_calls``) and its usage."""

    message: dict
    usage: Usage
    attempts: int


class ChatError(Exception):
    """A call failed for good (after retries); the message is already redacted."""

    def __init__(self, message: str, *, kind: str, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.kind = kind  # connection | http | redirect | limit | malformed
        self.status = status
        self.attempts = attempts


class _Retry(Exception):
    def __init__(self, reason: str, retry_after: str | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


@dataclass
class Endpoint:
    """An OpenAI-compatible endpoint: ``POST {base_url}/chat/completions``."""

    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key: str | None = field(default=None, repr=False)
    limits: ChatLimits = field(default_factory=ChatLimits)
    retries: int = 4
    backoff: float = 1.0
    max_backoff: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    # -- public -----------------------------------------------------------
    def complete(self, messages: list[dict], tools: list[dict] | None = None, **extra: object) -> Completion:
        """Send one chat request; return the validated assistant message and usage."""
        body: dict = {"model": self.model, "messages": messages, **extra}
        if tools:
            body.update(tools=tools, tool_choice="auto")
        payload, attempts = self.post(body)
        try:
            message, usage = parse_reply(payload)
        except ValueError as exc:
            raise ChatError(f"{self.where}: malformed reply: {exc}", kind="malformed", attempts=attempts) from None
        return Completion(message, usage, attempts)

    def ping(self) -> None:
        """The pre-flight check: one cheap request (one token) that proves endpoint, model and key."""
        self.complete([{"role": "user", "content": "ping"}], max_tokens=1)

    @property
    def where(self) -> str:
        return public_url(self.base_url.rstrip("/") + "/chat/completions")

    def post(self, body: dict) -> tuple[object, int]:
        """POST ``body``; retry what is worth retrying; return (parsed JSON, attempts)."""
        data = json.dumps(body).encode("utf-8")
        last = "no attempt made"
        for attempt in range(self.retries + 1):
            try:
                return self._once(data), attempt + 1
            except _Retry as exc:
                last = str(exc)
                if attempt < self.retries:
                    self.sleep(self._delay(attempt, exc.retry_after))
            except ChatError as exc:
                exc.attempts = attempt + 1
                raise
        n = self.retries + 1
        raise ChatError(f"{self.where}: gave up after {n} attempt{'s' if n != 1 else ''} ({last})", kind="connection",
                        attempts=self.retries + 1)

    # -- internals ----------------------------------------------------------
    def _redact(self, text: str) -> str:
        return redact(text, (self.api_key,) if self.api_key else ())

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay = self.backoff * (2 ** attempt)
        if retry_after:
            try:
                delay = max(delay, float(retry_after))
            except ValueError:
                pass
        return min(self.max_backoff, max(0.0, delay))

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def _once(self, data: bytes) -> object:
        url = self.base_url.rstrip("/") + "/chat/completions"
        deadline = time.monotonic() + self.limits.request_deadline
        for _ in range(_MAX_REDIRECTS + 1):
            status, headers, raw = self._exchange(url, data, deadline)
            if status in (301, 302, 303, 307, 308):
                url = self._follow(url, headers.get("Location"))
                continue
            return self._decode(status, headers, raw)
        raise ChatError(f"{self.where}: more than {_MAX_REDIRECTS} redirects", kind="redirect", status=status)

    def _follow(self, url: str, location: str | None) -> str:
        target = urllib.parse.urljoin(url, location or "")
        a, b = urllib.parse.urlsplit(url), urllib.parse.urlsplit(target)
        if (a.scheme, a.hostname, a.port) != (b.scheme, b.hostname, b.port):
            # Security: the request carries the API key; another origin must never see it.
            raise ChatError(f"{self.where}: redirect to another origin ({public_url(target)}) refused: credentials are "
                            "never sent to another host (point --base-url at the final endpoint)", kind="redirect")
        return target

    def _exchange(self, url: str, data: bytes, deadline: float) -> tuple[int, http.client.HTTPMessage, bytes]:
        parts = urllib.parse.urlsplit(url)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Retry(f"deadline of {self.limits.request_deadline:g}s passed (--request-deadline)")
        conn, path = _connection(parts, remaining)
        expired = threading.Event()

        def watchdog() -> None:  # the deadline covers the whole exchange, not each socket read
            expired.set()
            sock = conn.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        timer = threading.Timer(remaining, watchdog)
        timer.daemon = True
        timer.start()
        try:
            conn.request("POST", path, body=data, headers=self._headers())
            response = conn.getresponse()
            raw = self._read_body(response, deadline)
            if expired.is_set():  # the watchdog cut the body short: what was read is incomplete
                raise OSError("deadline")
            return response.status, response.headers, raw
        except ChatError:
            raise
        except (OSError, http.client.HTTPException) as exc:
            if expired.is_set() or time.monotonic() >= deadline:
                raise _Retry(f"no complete reply within the deadline of {self.limits.request_deadline:g}s "
                             "(--request-deadline)") from None
            raise _Retry(self._redact(f"{type(exc).__name__}: {exc}")) from None
        finally:
            timer.cancel()
            conn.close()

    def _read_body(self, response: http.client.HTTPResponse, deadline: float) -> bytes:
        limit = self.limits.max_reply_bytes
        declared = response.getheader("Content-Length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise ChatError(f"{self.where}: reply of {int(declared):,} bytes exceeds the limit of {limit:,} bytes "
                            "(--max-reply-bytes)", kind="limit", status=response.status)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = response.read1(_CHUNK) if hasattr(response, "read1") else response.read(_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise ChatError(f"{self.where}: reply exceeds the limit of {limit:,} bytes (--max-reply-bytes)",
                                kind="limit", status=response.status)
            if time.monotonic() >= deadline:
                raise OSError("deadline")
            chunks.append(chunk)
        return b"".join(chunks)

    def _decode(self, status: int, headers: http.client.HTTPMessage, raw: bytes) -> object:
        text = raw.decode("utf-8", errors="replace")
        if status == 429 or status >= 500:
            raise _Retry(f"HTTP {status}", headers.get("Retry-After"))
        if status >= 300:
            raise ChatError(f"{self.where}: HTTP {status}: {self._redact(_brief(text))}", kind="http", status=status)
        # A reply is the model's text (memos, transcripts): only the key itself is removed, so
        # words such as "authorization:" or "bearer" in a memo are never altered.
        if self.api_key and len(self.api_key) >= 4:
            text = text.replace(self.api_key, REDACTED)
        try:
            return loads(text, max_depth=self.limits.max_json_depth)
        except JSONDepthError as exc:
            raise ChatError(f"{self.where}: malformed reply: {exc} (--max-json-depth)", kind="limit") from None
        except ValueError as exc:
            raise ChatError(f"{self.where}: malformed reply: not JSON ({exc})", kind="malformed") from None


def _connection(parts: urllib.parse.SplitResult, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    """A connection to the URL's host, or through ``$https_proxy``/``$http_proxy`` (honouring
    ``$no_proxy``) as urllib would: an https URL is tunnelled (CONNECT), so the proxy never
    sees the request or its key; an http URL is sent to the proxy with its absolute URL."""
    path = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    https = parts.scheme == "https"
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and not urllib.request.proxy_bypass(parts.hostname or ""):
        via = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if https:  # CONNECT in the clear to the proxy, then TLS to the target through the tunnel
            tunnel = http.client.HTTPSConnection(via.hostname or "", via.port, timeout=timeout)
            tunnel.set_tunnel(parts.hostname or "", parts.port)
            return tunnel, path
        conn = http.client.HTTPConnection(via.hostname or "", via.port, timeout=timeout)
        return conn, urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))
    conn_type = http.client.HTTPSConnection if https else http.client.HTTPConnection
    return conn_type(parts.hostname or "", parts.port, timeout=timeout), path


def _brief(text: str, limit: int = 300) -> str:
    """The server's message: ``error.message`` of an OpenAI-style body, else the body's start."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        err = data.get("error")
        msg = err.get("message") if isinstance(err, dict) else err if isinstance(err, str) else data.get("message")
        if isinstance(msg, str) and msg.strip():
            text = msg
    text = " ".join(text.split())
    return text[:limit] + ("…" if len(text) > limit else "") if text else "(empty body)"


# ------------------------------------------------------------------ reply shape
def parse_reply(payload: object) -> tuple[dict, Usage]:
    """The assistant message and usage of a chat-completions reply; ``ValueError`` naming
    the field when the shape is wrong."""
    if not isinstance(payload, dict):
        raise ValueError(f"the reply is {_kind(payload)}, expected an object")
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices:
        raise ValueError("choices must be a non-empty list")
    choice = choices[0]
    if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
        raise ValueError("choices[0].message must be an object")
    raw = choice["message"]
    content = raw.get("content")
    if content is not None and not isinstance(content, (str, list)):
        raise ValueError(f"choices[0].message.content is {_kind(content)}, expected text")
    message: dict = {"role": "assistant", "content": content}
    calls = _tool_calls(raw.get("tool_calls"))
    if calls:
        message["tool_calls"] = calls
    return message, _usage(payload.get("usage"))


def _tool_calls(value: object) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"choices[0].message.tool_calls is {_kind(value)}, expected a list")
    calls = []
    for i, call in enumerate(value):
        where = f"choices[0].message.tool_calls[{i}]"
        if not isinstance(call, dict):
            raise ValueError(f"{where} is {_kind(call)}, expected an object")
        fn = call.get("function")
        if not isinstance(fn, dict):
            raise ValueError(f"{where}.function is {_kind(fn)}, expected an object")
        name, arguments = fn.get("name"), fn.get("arguments")
        if not isinstance(name, str):
            raise ValueError(f"{where}.function.name is {_kind(name)}, expected text")
        if isinstance(arguments, dict):
            arguments = json.dumps(arguments)
        if arguments is not None and not isinstance(arguments, str):
            raise ValueError(f"{where}.function.arguments is {_kind(arguments)}, expected a JSON string")
        call_id = call.get("id")
        calls.append({"id": call_id if isinstance(call_id, str) else f"call_{i}", "type": "function",
                      "function": {"name": name, "arguments": arguments or "{}"}})
    return calls


def _usage(value: object) -> Usage:
    if not isinstance(value, dict):
        return Usage()
    counts = {k: v for k in ("prompt_tokens", "completion_tokens", "total_tokens")
              if isinstance(v := value.get(k), int) and not isinstance(v, bool) and v >= 0}
    return Usage(**counts)


def _kind(value: object) -> str:
    """What a JSON value is, with its article: "a string", "an object", "a list of numbers"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        first = value[0] if value else None
        return "a list" + (f" of {_kind(first)[2:]}s" if value and not isinstance(first, (dict, list)) else "")
    return "an object"
