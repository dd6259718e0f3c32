"""Run one agent episode on one task and hand its work to the grader.

Per rollout a run folder holds: ``transcript.jsonl`` (every message), ``tools.json``
(tool-call statistics), ``workspace/`` (the saved deliverables), ``result.json`` (the
grader's result with evidence) and ``rollout.json`` (task, model, stop reason, turns,
freeze root). Content that only appears in chat does not count as a deliverable.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lae.chat import Usage
from lae.env.client import ChatClient, ChatError
from lae.env.tools import TOOL_SCHEMAS, DocumentStore, TaskTools, Workspace
from lae.fsio import atomic_write
from lae.jsonio import loads
from lae.runs import TOOLS_JSON, TRANSCRIPT, WORKSPACE, RunLimits

__all__ = ["SYSTEM_PROMPT", "EpisodeOutcome", "run_episode", "user_prompt"]

SYSTEM_PROMPT = (
    "You are a junior associate at a law firm. A partner has delegated a matter to you. "
    "The matter file is available through your tools: list_documents, read_document (paginated), "
    "grep_documents and save_deliverable. Review the record carefully, reach your own conclusions, and save "
    "your work product with save_deliverable under exactly the filename the partner asked for. "
    "Anything you only say in chat is not delivered."
)


def user_prompt(instructions: str, deliverables: tuple[str, ...] | list[str]) -> str:
    return f"{instructions}\n\nDeliverable(s) to save: {', '.join(deliverables)}"


@dataclass(frozen=True)
class EpisodeOutcome:
    turns: int
    stop_reason: str  # finished | max_turns | model_error
    tool_calls: dict[str, int]
    tool_errors: int
    saved: dict[str, int]
    error: str | None = None
    usage: Usage = field(default_factory=Usage)


def _transcript_bytes(messages: list[dict]) -> bytes:
    return "".join(json.dumps(m, ensure_ascii=False, sort_keys=True) + "\n" for m in messages).encode("utf-8")


def _cut(output: str, limit: int) -> str:
    if len(output) <= limit:
        return output
    return output[:limit] + f"\n[cut at {limit:,} of {len(output):,} characters (--max-tool-result-chars); read a page at a time]"


def _run_calls(tools: TaskTools, tool_calls: list[dict], limits: RunLimits, calls: Counter[str]) -> list[dict]:
    """Run one reply's tool calls (at most ``max_tool_calls_per_turn``); one tool message per call."""
    out = []
    for i, call in enumerate(tool_calls):
        fn = call["function"]
        name = str(fn["name"])
        if i >= limits.max_tool_calls_per_turn:
            output = (f"Error: more than {limits.max_tool_calls_per_turn} tool calls in one reply "
                      "(--max-tool-calls-per-turn); this one was not run.")
        else:
            try:
                arguments = loads(fn["arguments"], max_depth=limits.max_json_depth)
            except ValueError:
                arguments = None
            output = tools.call(name, arguments) if arguments is not None else "Error: tool arguments are not valid JSON."
            calls[name] += 1
        out.append({"role": "tool", "tool_call_id": call["id"], "name": name,
                    "content": _cut(output, limits.max_tool_result_chars)})
    return out


def run_episode(client: ChatClient, *, instructions: str, deliverables: tuple[str, ...], documents: Path,
                run_dir: Path, max_turns: int = 30, page_chars: int = 6000,
                limits: RunLimits | None = None) -> EpisodeOutcome:
    """Run the agent loop; write the transcript and tool statistics into ``run_dir``.

    A failed model call (after the client's retries) or a malformed reply ends the
    episode with ``stop_reason`` ``model_error`` and its cause in ``error``."""
    limits = limits or RunLimits()
    run_dir.mkdir(parents=True, exist_ok=True)
    workspace = Workspace(run_dir / WORKSPACE, tuple(deliverables), max_files=limits.max_saved_files,
                          max_bytes=limits.max_saved_bytes)
    tools = TaskTools(DocumentStore(documents, page_chars), workspace)
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT},
                            {"role": "user", "content": user_prompt(instructions, deliverables)}]
    calls: Counter[str] = Counter()
    usage = Usage()
    stop, error, turns = "max_turns", None, 0
    size = len(_transcript_bytes(messages))
    for turns in range(1, max_turns + 1):
        try:
            reply = client.complete(messages, TOOL_SCHEMAS)
        except ChatError as exc:
            stop, error = "model_error", str(exc)
            turns -= 1
            break
        usage = usage + reply.usage
        new = [reply.message]
        tool_calls = reply.message.get("tool_calls") or []
        if tool_calls:
            new.extend(_run_calls(tools, tool_calls, limits, calls))
        messages.extend(new)
        size += len(_transcript_bytes(new))
        if size > limits.max_conversation_bytes:
            # Security: the whole conversation is re-sent with every request and kept as the transcript.
            stop, error = "model_error", (f"the conversation reached {size:,} bytes, over the limit of "
                                          f"{limits.max_conversation_bytes:,} (--max-conversation-bytes)")
            break
        if not tool_calls:
            stop = "finished"
            break
    errors = sum(1 for m in messages if m["role"] == "tool" and str(m["content"]).startswith("Error:"))
    atomic_write(run_dir / TRANSCRIPT, _transcript_bytes(messages))
    stats = {"turns": turns, "stop_reason": stop, "tool_calls": dict(sorted(calls.items())), "tool_errors": errors,
             "saved": dict(sorted(workspace.saved.items()))}
    atomic_write(run_dir / TOOLS_JSON, (json.dumps(stats, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return EpisodeOutcome(turns, stop, dict(calls), errors, dict(workspace.saved), error, usage)
