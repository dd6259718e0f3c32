"""The run and rollout folder layout, and its typed files: the one module that knows them.

A run (one ``lae run``) is a folder of its own, never shared with another run::

    <out>/<run-id>/run.json                     RunManifest: model, endpoint, arguments, totals
    <out>/<run-id>/<task-id>/r<N>/rollout.json  RolloutMeta: status ok|error, usage, turns, wall time
                                  result.json   the grader's ScoreResult (only when status is ok)
                                  transcript.jsonl, tools.json, judge.json (optional)
                                  workspace/    what the agent saved (starts empty)

``rollout.json`` is written last, so a rollout folder without it was interrupted. A
rollout whose model calls failed has status ``error`` and its cause, and no
``result.json``: a failure is never scored. Every file is written through
:func:`lae.fsio.atomic_write`.

``lae score --runs`` also accepts hand-made rollout folders (deliverables beside an
optional ``transcript.jsonl`` and a ``rollout.json`` naming the task): those are read
with the lenient :class:`RolloutHint`.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lae.chat import ChatLimits, Usage
from lae.errors import InvalidInputError, Problem
from lae.fsio import atomic_write
from lae.jsonio import loads

__all__ = [
    "RUN_JSON", "ROLLOUT_JSON", "RESULT_JSON", "TRANSCRIPT", "TOOLS_JSON", "JUDGE_JSON", "SUMMARY_JSON", "WORKSPACE",
    "METADATA_FILES", "RunLimits", "RolloutMeta", "RolloutHint", "RunArguments", "RunTotals", "RunRollout",
    "RunManifest", "new_run_id", "rollout_dir", "deliverable_files", "find_rollout_folders", "write_model",
    "read_run", "read_rollout", "read_hint", "is_run_dir", "utc_now", "run_json_schema", "rollout_json_schema",
]

RUN_JSON = "run.json"
ROLLOUT_JSON = "rollout.json"
RESULT_JSON = "result.json"
TRANSCRIPT = "transcript.jsonl"
TOOLS_JSON = "tools.json"
JUDGE_JSON = "judge.json"
SUMMARY_JSON = "summary.json"
WORKSPACE = "workspace"
METADATA_FILES = frozenset({RUN_JSON, ROLLOUT_JSON, RESULT_JSON, TRANSCRIPT, TOOLS_JSON, JUDGE_JSON, SUMMARY_JSON})
"""Files of a rollout folder that are never deliverables."""


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RunLimits(_Closed):
    """The bounds of every rollout (``lae run`` options of the same names); each refusal names its option."""

    max_reply_bytes: int = Field(8 * 1024 * 1024, ge=1024, description="Largest model reply read, in bytes.")
    request_deadline: float = Field(300.0, gt=0, le=3600, description="Wall-clock seconds per model request.")
    max_json_depth: int = Field(64, ge=4, le=10_000, description="Deepest JSON nesting accepted in a reply.")
    max_tool_calls_per_turn: int = Field(16, ge=1, le=1000, description="Tool calls run per reply; the rest get an error reply.")
    max_saved_files: int = Field(8, ge=1, le=1000, description="Distinct files save_deliverable may create per rollout.")
    max_saved_bytes: int = Field(16 * 1024 * 1024, ge=1024, description="Total bytes save_deliverable may keep per rollout.")
    max_tool_result_chars: int = Field(60_000, ge=100, description="Characters of one tool result sent to the model.")
    max_conversation_bytes: int = Field(16 * 1024 * 1024, ge=64 * 1024,
                                        description="Size of the whole conversation (sent with every request, kept as the "
                                                    "transcript); past it the rollout ends as an error.")

    def chat(self) -> ChatLimits:
        return ChatLimits(max_reply_bytes=self.max_reply_bytes, request_deadline=self.request_deadline,
                          max_json_depth=self.max_json_depth)


class RolloutMeta(_Closed):
    """``rollout.json``: one rollout's outcome (written last; its presence marks the rollout finished)."""

    rollout_schema_version: Literal[1] = 1
    run_id: str | None = None
    task_id: str
    pocket: str
    model: str
    rollout: int = Field(ge=1)
    status: Literal["ok", "error"] = Field(description="error: the model calls failed; the rollout was not scored.")
    error: str | None = Field(None, description="The cause, when status is error (secrets redacted).")
    stop_reason: str = Field(description="finished | max_turns | model_error")
    turns: int = Field(ge=0)
    tool_calls: dict[str, int] = Field(default_factory=dict)
    tool_errors: int = Field(0, ge=0)
    usage: Usage = Field(default_factory=Usage)
    wall_seconds: float = Field(0.0, ge=0)
    freeze_root: str | None = None
    reportable: bool = False


class RolloutHint(BaseModel):
    """A lenient read of any ``rollout.json`` (ours or hand-made): only what readers need."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    run_id: str | None = None
    task_id: str | None = None
    pocket: str | None = None
    model: str | None = None
    rollout: int | None = None
    status: Literal["ok", "error"] = "ok"
    error: str | None = None
    usage: Usage | None = None
    turns: int | None = None
    tool_calls: dict[str, int] | None = None
    wall_seconds: float | None = None


class RunArguments(_Closed):
    """What ``lae run`` was asked to do (enough for ``--resume`` to continue it)."""

    tasks: list[str] = Field(description="Task ids, in order.")
    pockets: dict[str, str] = Field(description="Task id -> pocket.")
    rollouts: int = Field(ge=1)
    jobs: int = Field(ge=1)
    max_turns: int = Field(ge=1)
    page_chars: int = Field(ge=200)
    limits: RunLimits
    api_key_var: str
    allow_unfrozen: bool = False
    replay: str | None = None
    retries: int = Field(4, ge=0)


class RunTotals(_Closed):
    rollouts: int = Field(0, ge=0, description="Planned rollouts.")
    ok: int = Field(0, ge=0)
    errored: int = Field(0, ge=0)
    missing: int = Field(0, ge=0, description="Not run yet or interrupted.")
    usage: Usage = Field(default_factory=Usage)
    turns: int = Field(0, ge=0)
    tool_calls: int = Field(0, ge=0)
    wall_seconds: float = Field(0.0, ge=0)


class RunRollout(_Closed):
    task_id: str
    rollout: int = Field(ge=1)
    status: Literal["ok", "error", "missing"]
    error: str | None = None
    reward: float | None = None


class RunManifest(_Closed):
    """``run.json``: one run's identity, arguments and totals."""

    run_schema_version: Literal[1] = 1
    run_id: str
    model: str
    base_url: str | None = Field(description="The endpoint without user info or query (None for a replay).")
    arguments: RunArguments
    freeze_roots: dict[str, str | None] = Field(description="Pocket -> freeze root the run was scored under.")
    lae_version: str
    started: str
    finished: str | None = None
    interrupted: bool = False
    rollouts: list[RunRollout] = Field(default_factory=list)
    totals: RunTotals = Field(default_factory=RunTotals)


# ------------------------------------------------------------------ layout
def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_run_id() -> str:
    """UTC time plus a short random suffix: sortable, and two runs in one second still differ."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def rollout_dir(run_dir: Path, task_id: str, index: int) -> Path:
    return Path(run_dir) / task_id / f"r{index}"


def is_run_dir(path: Path) -> bool:
    return (Path(path) / RUN_JSON).is_file()


def deliverable_files(folder: Path) -> list[Path]:
    """The files a rollout delivered: its ``workspace/`` (``lae run``), else the folder itself
    without the metadata files (a hand-made rollout); hidden and temporary files never count."""
    folder = Path(folder)
    source = folder / WORKSPACE if (folder / WORKSPACE).is_dir() else folder
    if not source.is_dir():
        return []
    return sorted(p for p in source.iterdir() if p.is_file() and not p.name.startswith(".")
                  and (source != folder or p.name not in METADATA_FILES))


def find_rollout_folders(paths: list[Path], *, errored: bool = False) -> list[Path]:
    """Rollout folders at or under each path: holding ``result.json`` (and, with ``errored``,
    a ``rollout.json`` of status error), never inside a workspace or a hidden folder."""
    found: set[Path] = set()
    names = (RESULT_JSON, ROLLOUT_JSON) if errored else (RESULT_JSON,)
    for base in map(Path, paths):
        for name in names:
            candidates = [base / name] if (base / name).is_file() else sorted(base.rglob(name))
            for path in candidates:
                rel = path.parent.relative_to(base) if path.parent != base else Path()
                if any(part == WORKSPACE or part.startswith(".") for part in rel.parts):
                    continue
                if name == RESULT_JSON or read_hint(path.parent).status == "error":
                    found.add(path.parent)
    return sorted(found)


# ------------------------------------------------------------------ reading and writing
def write_model(path: Path, model: BaseModel) -> None:
    atomic_write(Path(path), (model.model_dump_json(indent=2) + "\n").encode("utf-8"))


def _read(path: Path, what: str) -> object:
    try:
        return loads(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"unreadable {what}", [Problem(str(path), str(exc), mend=f"restore or delete {path.name}")]) from None


def _validated(model: type[BaseModel], path: Path, data: object) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        raise InvalidInputError(f"invalid {path.name}", [Problem(str(path), err["msg"], field=field,
                                                                  mend=f"restore or delete {path.name}")]) from None


def read_run(run_dir: Path) -> RunManifest:
    path = Path(run_dir) / RUN_JSON
    if not path.is_file():
        raise InvalidInputError("not a run folder", [Problem(str(run_dir), f"no {RUN_JSON}",
                                                             mend="give the folder `lae run` printed (<out>/<run-id>)")])
    return _validated(RunManifest, path, _read(path, RUN_JSON))  # type: ignore[return-value]


def read_rollout(folder: Path) -> RolloutMeta | None:
    path = Path(folder) / ROLLOUT_JSON
    if not path.is_file():
        return None
    return _validated(RolloutMeta, path, _read(path, ROLLOUT_JSON))  # type: ignore[return-value]


def read_hint(folder: Path) -> RolloutHint:
    path = Path(folder) / ROLLOUT_JSON
    if not path.is_file():
        return RolloutHint()
    data = _read(path, ROLLOUT_JSON)
    return _validated(RolloutHint, path, data if isinstance(data, dict) else {})  # type: ignore[return-value]


def run_json_schema() -> dict:
    """``schemas/run.schema.json``."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://legal-agent-eval.invalid/schemas/run.schema.json", **RunManifest.model_json_schema()}


def rollout_json_schema() -> dict:
    """``schemas/rollout.schema.json``."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://legal-agent-eval.invalid/schemas/rollout.schema.json", **RolloutMeta.model_json_schema()}
