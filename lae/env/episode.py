"""Run one agent episode on one task and hand its work to the grader.

Per rollout a run folder holds: ``transcript.jsonl`` (every message), ``tools.json``
(tool-call statistics), ``workspace/`` (the saved deliverables), ``result.json`` (the
grader's result with evidence) and ``rollout.json`` (task, model, stop reason, turns,
freeze root). Content that only appears in chat does not count as a deliverable.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lae.env.client import ChatClient, ChatError
from lae.env.tools import TOOL_SCHEMAS, DocumentStore, TaskTools, Workspace

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


def _write_jsonl(path: Path, messages: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for m in messages:
            fh.write(json.dumps(m, ensure_ascii=False, sort_keys=True) + "\n")


def run_episode(client: ChatClient, *, instructions: str, deliverables: tuple[str, ...], documents: Path,
                run_dir: Path, max_turns: int = 30, page_chars: int = 6000) -> EpisodeOutcome:
    """Run the agent loop; write the transcript and tool statistics into ``run_dir``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    tools = TaskTools(DocumentStore(documents, page_chars), Workspace(run_dir / "workspace", tuple(deliverables)))
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT},
                            {"role": "user", "content": user_prompt(instructions, deliverables)}]
    calls: Counter[str] = Counter()
    errors = 0
    stop = "max_turns"
    error = None
    turns = 0
    for turns in range(1, max_turns + 1):
        try:
            reply = client.complete(messages, TOOL_SCHEMAS)
        except ChatError as exc:
            stop, error = "model_error", str(exc)
            turns -= 1
            break
        message = {"role": "assistant", "content": reply.get("content")}
        tool_calls = reply.get("tool_calls") or []
        if tool_calls:
            message["tool_calls"] = tool_calls
        messages.append(message)
        if not tool_calls:
            stop = "finished"
            break
        for call in tool_calls:
            fn = (call or {}).get("function") or {}
            name = str(fn.get("name", ""))
            try:
                arguments = json.loads(fn.get("arguments") or "{}")
            except (ValueError, TypeError):
                arguments = None
            output = tools.call(name, arguments) if arguments is not None else "Error: tool arguments are not valid JSON."
            calls[name] += 1
            errors += output.startswith("Error:")
            messages.append({"role": "tool", "tool_call_id": call.get("id"), "name": name, "content": output})
    _write_jsonl(run_dir / "transcript.jsonl", messages)
    stats = {"turns": turns, "stop_reason": stop, "tool_calls": dict(sorted(calls.items())), "tool_errors": errors,
             "saved": dict(sorted(tools.workspace.saved.items()))}
    (run_dir / "tools.json").write_text(json.dumps(stats, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return EpisodeOutcome(turns, stop, dict(calls), errors, dict(tools.workspace.saved), error)
