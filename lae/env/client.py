"""Chat clients for the episode runner: an OpenAI-compatible endpoint, and replay.

The endpoint client is :class:`lae.chat.Endpoint` (the one HTTP client of the project:
deadline, size and depth limits, retries, redaction, no cross-origin redirects); this
module binds it to a model and an API-key variable. :class:`ReplayClient` drives an
episode from recorded steps.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lae.chat import ChatError, ChatLimits, Completion, Endpoint, Usage
from lae.errors import InvalidInputError, Problem
from lae.jsonio import loads

__all__ = ["ChatClient", "ChatError", "OpenAICompatibleClient", "ReplayClient", "load_replay"]


class ChatClient(Protocol):
    def complete(self, messages: list[dict], tools: list[dict]) -> Completion:
        """The validated assistant message and its token usage; raises ``ChatError``."""


@dataclass
class OpenAICompatibleClient:
    """A model behind an OpenAI-compatible endpoint; the key is read from ``api_key_var``."""

    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key_var: str = "OPENAI_API_KEY"
    limits: ChatLimits = field(default_factory=ChatLimits)
    retries: int = 4
    temperature: float | None = None
    backoff: float = 1.0

    def __post_init__(self) -> None:
        self.endpoint = Endpoint(self.model, self.base_url, os.environ.get(self.api_key_var) or None,
                                 limits=self.limits, retries=self.retries, backoff=self.backoff)

    def complete(self, messages: list[dict], tools: list[dict]) -> Completion:
        extra = {} if self.temperature is None else {"temperature": self.temperature}
        return self.endpoint.complete(messages, tools, **extra)

    def ping(self) -> None:
        """The pre-flight request (raises ``ChatError`` with the server's message)."""
        self.endpoint.ping()


@dataclass
class ReplayClient:
    """Drives an episode from a recorded list of steps (tests and debugging).

    Each step is ``{"tool": name, "arguments": {...}}`` (one tool call per turn) or
    ``{"say": "text"}`` (a message with no tool call, which ends the episode)."""

    steps: list[dict]
    position: int = 0
    calls: int = field(default=0)

    def complete(self, messages: list[dict], tools: list[dict]) -> Completion:
        return Completion(self._message(), Usage(), 1)

    def _message(self) -> dict:
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
        steps = loads(text) if text.lstrip().startswith("[") else [loads(l) for l in text.splitlines() if l.strip()]
    except (OSError, ValueError) as exc:
        raise InvalidInputError("unreadable replay file", [Problem(str(path), str(exc), mend="write a JSON list of steps")]) from None
    if not isinstance(steps, list):
        raise InvalidInputError("invalid replay file", [Problem(str(path), "the top level must be a list of steps",
                                                                mend="write a JSON list of steps")])
    problems = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not (("tool" in step) ^ ("say" in step)):
            problems.append(Problem(str(path), "each step needs exactly one of 'tool' or 'say'", field=f"[{i}]",
                                    mend='e.g. {"tool": "list_documents", "arguments": {}}'))
        elif "tool" in step and (not isinstance(step["tool"], str) or not isinstance(step.get("arguments", {}), dict)):
            problems.append(Problem(str(path), "'tool' must be a tool name and 'arguments' an object", field=f"[{i}]",
                                    mend='e.g. {"tool": "read_document", "arguments": {"name": "a.pdf"}}'))
    if problems:
        raise InvalidInputError("invalid replay file", problems)
    return steps
