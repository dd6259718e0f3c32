"""Chat clients for the episode runner: OpenAI-compatible HTTP, and replay.

The HTTP client speaks the chat-completions wire format with the standard library
(``urllib``), so the core needs no SDK; any OpenAI-compatible server works. Retries
429 and 5xx with bounded exponential backoff; every call has a timeout.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lae.errors import InvalidInputError, Problem

__all__ = ["ChatClient", "ChatError", "OpenAICompatibleClient", "ReplayClient", "load_replay"]


class ChatError(Exception):
    """The model endpoint failed (after retries)."""


class ChatClient(Protocol):
    def complete(self, messages: list[dict], tools: list[dict]) -> dict:
        """Return the assistant message: ``{"role": "assistant", "content": ..., "tool_calls": [...]}``."""


@dataclass
class OpenAICompatibleClient:
    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key_var: str = "OPENAI_API_KEY"
    timeout: float = 120.0
    retries: int = 4
    temperature: float | None = None
    backoff: float = 1.0

    def complete(self, messages: list[dict], tools: list[dict]) -> dict:
        body: dict = {"model": self.model, "messages": messages, "tools": tools, "tool_choice": "auto"}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_var)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = self.base_url.rstrip("/") + "/chat/completions"
        last = ""
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    payload = json.loads(response.read().decode("utf-8"))
                message = payload["choices"][0]["message"]
                if not isinstance(message, dict):
                    raise ValueError("message is not an object")
                message.setdefault("role", "assistant")
                return message
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code}"
                if exc.code != 429 and exc.code < 500:
                    raise ChatError(f"{url}: {last}: {exc.read()[:300]!r}") from None
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                last = f"{type(exc).__name__}: {exc}"
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise ChatError(f"{url}: malformed response: {exc}") from None
            if attempt < self.retries:
                time.sleep(min(30.0, self.backoff * (2 ** attempt)))
        raise ChatError(f"{url}: gave up after {self.retries + 1} attempts ({last})")


@dataclass
class ReplayClient:
    """Drives an episode from a recorded list of steps (tests and debugging).

    Each step is ``{"tool": name, "arguments": {...}}`` (one tool call per turn) or
    ``{"say": "text"}`` (a message with no tool call, which ends the episode)."""

    steps: list[dict]
    position: int = 0
    calls: int = field(default=0)

    def complete(self, messages: list[dict], tools: list[dict]) -> dict:
        if self.position >= len(self.steps):
            return {"role": "assistant", "content": "(replay finished)"}
        step = self.steps[self.position]
        self.position += 1
        if "say" in step:
            return {"role": "assistant", "content": str(step["say"])}
        self.calls += 1
        return {"role": "assistant", "content": step.get("content"), "tool_calls": [{
            "id": f"call_{self.position:04d}", "type": "function",
            "function": {"name": step["tool"], "arguments": json.dumps(step.get("arguments", {}))}}]}


def load_replay(path: Path) -> list[dict]:
    """Read a replay file: a JSON list of steps (or JSONL, one step per line)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        steps = json.loads(text) if text.lstrip().startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
    except (OSError, ValueError) as exc:
        raise InvalidInputError("unreadable replay file", [Problem(str(path), str(exc), mend="write a JSON list of steps")]) from None
    problems = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not (("tool" in step) ^ ("say" in step)):
            problems.append(Problem(str(path), "each step needs exactly one of 'tool' or 'say'", field=f"[{i}]",
                                    mend='e.g. {"tool": "list_documents", "arguments": {}}'))
    if problems:
        raise InvalidInputError("invalid replay file", problems)
    return steps
