"""The optional ``verifiers`` adapter (verifiers >=0.4,<0.5, the ``verifiers.v1`` API).

The only module of legal-agent-eval that imports verifiers (with its tool server,
:mod:`lae.env.verifiers_toolserver`); ``import lae`` never imports either. Install the
extra with ``pip install 'legal-agent-eval[verifiers]'``.

What it exposes, in verifiers' terms:

* :class:`LaeTaskset` (``vf.Taskset``) yields one :class:`LaeTask` (``vf.Task``) per
  anchored task of a pocket (``source="factory"``) or per LAB task (``source="lab"``);
  its config :class:`LaeTasksetConfig` carries the seeds' environment arguments.
* Each task runs :class:`~lae.env.verifiers_toolserver.LaeToolset` (``vf.Toolset``) as a
  per-rollout tool server: list_documents, read_document, grep_documents,
  save_deliverable, delegating to :class:`lae.env.tools.TaskTools`. Saved files travel
  back in the rollout state (:class:`~lae.env.verifiers_toolserver.LaeState`).
* Scoring (``@vf.metric`` / ``@vf.reward``) rebuilds the workspace from that state in a
  temporary folder and calls the core grader (``PocketEnvironment.score``), so the reward
  is exactly the core ``ScoreResult.metrics.reward``. It never raises: a failure scores
  0 and sets the ``scoring_error`` metric (``lab_scoring_error`` in LAB mode).
* :class:`LaeEnv` (``vf.Env``) plays one agent seat with the ``null`` harness (a plain
  chat loop with our tools, no shell) in the local ``subprocess`` runtime, ``max_turns=30``.
* :func:`load_environment` takes the seeds' arguments and returns
  ``vf.load_environment(config)``.

Taskset ids. verifiers resolves a taskset id by importing a *top-level* module of that
name. Importing this module registers the ids ``legal-agent-eval`` (module
``legal_agent_eval``, pick the pocket with ``--env.taskset.pocket``) and
``<pocket>-legal-agent-eval`` for each bundled pocket (``employment-law-legal-agent-eval``
and so on, the seeds' names) as aliases of this module, unless a real module of that
name is installed. ``python -m lae.env.verifiers_adapter eval <taskset-id> ...`` runs
``vf-eval`` in-process with those aliases registered.
"""

from __future__ import annotations

import asyncio
import base64
import importlib
import importlib.util
import json
import pkgutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Literal

try:
    import verifiers.v1 as vf
    from verifiers.v1.harnesses.null import NullHarnessConfig
    from verifiers.v1.types import content_text
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("lae.env.verifiers_adapter needs the optional extra: "
                      "pip install 'legal-agent-eval[verifiers]' (verifiers>=0.4,<0.5)") from exc

from lae.env.config import EnvArgs, parse_env_args
from lae.env.episode import SYSTEM_PROMPT, user_prompt
from lae.env.tools import is_safe_filename
from lae.env.verifiers_toolserver import LaeState, LaeTaskData, LaeToolset
from lae.errors import LaeError
from lae.runs import TRANSCRIPT, WORKSPACE

__all__ = ["TASKSET_ID", "LaeTaskConfig", "LaeTask", "LaeTasksetConfig", "LaeTaskset", "LaeEnvConfig", "LaeEnv",
           "LaeTaskData", "LaeState", "LaeToolset", "load_environment", "plugin_ids", "score_trace"]

TASKSET_ID = "legal-agent-eval"
"""The generic taskset id (module ``legal_agent_eval``); the pocket comes from
``--env.taskset.pocket`` or from a ``<pocket>-legal-agent-eval`` id."""

_ID_SUFFIX = "-legal-agent-eval"
# The seeds' environment arguments that belong to the taskset (max_turns is the agent's).
_TASKSET_ARGS = ("source", "task_id", "page_chars", "false_flag_weight", "must_not_say_weight",
                 "min_deliverable_chars", "judge_model", "judge_api_key_var", "tasks_root", "allow_unfrozen")
# The core ScoreResult metrics reported as verifiers metrics (reward is the reward).
_FACTORY_METRICS = ("finding_recall", "deliverable_complete", "false_flag_rate", "must_not_say",
                    "transcript_recall", "criterion_pass_rate_proxy")


# --------------------------------------------------------------------------- config
class LaeTaskConfig(vf.TaskConfig):
    """Run-time task knobs (``--env.taskset.task.*``): where the tool server runs."""

    tools: vf.ToolsetConfig = vf.ToolsetConfig()
    """Placement of the per-rollout tool server (default: a host subprocess)."""


class LaeTasksetConfig(vf.TasksetConfig):
    """The seeds' environment arguments (``--env.taskset.<name>``), plus the pocket.

    ``max_turns`` is the agent's (``--env.agent.max-turns``). Values are checked by
    ``lae.env.config.parse_env_args`` when the taskset loads."""

    pocket: str | None = None
    """Factory pocket, e.g. ``employment-law``; default: from a ``<pocket>-legal-agent-eval`` id."""
    source: Literal["factory", "lab"] = "factory"
    """factory: bundled anchored tasks; lab: LAB tasks from tasks_root."""
    task_id: str = "all"
    """"all", a task id or a scenario slug (LAB: a task path relative to tasks_root)."""
    page_chars: int = 6000
    """Page size returned by read_document."""
    false_flag_weight: float | None = None
    """Default: the pocket's (overriding it makes results not reportable)."""
    must_not_say_weight: float | None = None
    """Default: the pocket's (overriding it makes results not reportable)."""
    min_deliverable_chars: int | None = None
    """Default: the pocket's (200)."""
    judge_model: str | None = None
    """Optional weight-0 judge telemetry (results layer)."""
    judge_api_key_var: str = "JUDGE_API_KEY"
    """Environment variable holding the judge's key."""
    tasks_root: Path | None = None
    """factory: override the bundled tasks; lab: required."""
    allow_unfrozen: bool = False
    """Load a pocket that does not verify (results not reportable)."""
    task: LaeTaskConfig = LaeTaskConfig()


def _pocket_from_id(taskset_id: str) -> str | None:
    name = taskset_id.rsplit("/", 1)[-1].split("@", 1)[0].replace("_", "-").lower()
    if name.endswith(_ID_SUFFIX) and len(name) > len(_ID_SUFFIX):
        return name[: -len(_ID_SUFFIX)]
    return None


def _env_args(config: LaeTasksetConfig) -> tuple[str | None, EnvArgs]:
    """The pocket and the validated core arguments of a taskset config."""
    args = parse_env_args(**{k: getattr(config, k) for k in _TASKSET_ARGS})
    pocket = config.pocket or _pocket_from_id(config.id)
    if args.source == "factory" and not pocket:
        raise ValueError(f"taskset {config.id!r}: factory mode needs a pocket: set --env.taskset.pocket "
                         f"(e.g. employment-law) or use a <pocket>{_ID_SUFFIX} taskset id")
    return (pocket if args.source == "factory" else None), args


# ------------------------------------------------------------ core environments
_CORE: dict[str, Any] = {}
_CORE_LOCK = threading.Lock()


def _core_environment(pocket: str | None, env_args: dict[str, Any]):
    """The core ``PocketEnvironment``/``LabEnvironment`` for these arguments (cached per process)."""
    from lae.env.environment import load_environment as load_core

    key = json.dumps({"pocket": pocket, "args": env_args}, sort_keys=True, default=str)
    with _CORE_LOCK:
        env = _CORE.get(key)
        if env is None:
            env = load_core(pocket, **env_args)
            _CORE[key] = env
        return env


# --------------------------------------------------------------------- scoring
def _transcript_messages(trace: Any) -> list[dict]:
    """The trace's final branch as the JSONL messages ``lae run`` writes."""
    lines: list[dict] = []
    for m in trace.messages:
        content = m.content
        entry: dict[str, Any] = {"role": m.role,
                                 "content": content if content is None or isinstance(content, str)
                                 else content_text(content)}
        if isinstance(m, vf.AssistantMessage) and m.tool_calls:
            entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                                   for c in m.tool_calls]
        if isinstance(m, vf.ToolMessage):
            entry["tool_call_id"] = m.tool_call_id
            entry["name"] = m.name
        lines.append(entry)
    return lines


def _score_sync(data: LaeTaskData, deliverables: dict[str, str], messages: list[dict]) -> dict[str, Any]:
    """Rebuild the workspace from the carried files and grade it with the core grader."""
    env = _core_environment(data.pocket, dict(data.env_args))
    with tempfile.TemporaryDirectory(prefix="lae-score-") as tmp:
        workspace = Path(tmp) / WORKSPACE
        workspace.mkdir()
        for name, encoded in sorted(deliverables.items()):
            if not is_safe_filename(name):
                raise ValueError(f"refusing carried file name {name!r}")
            (workspace / name).write_bytes(base64.b64decode(encoded, validate=True))
        task = env.task(data.task_id)
        if data.source == "lab":
            lab = {k: float(v) for k, v in env.score(task, workspace).items()}
            return {"metrics": {**lab, "lab_scoring_error": 0.0},
                    "rewards": {"lab_reward": lab["lab_deliverable_complete"]}, "lab_metrics": lab}
        transcript = Path(tmp) / TRANSCRIPT
        with transcript.open("w", encoding="utf-8") as fh:
            for m in messages:
                fh.write(json.dumps(m, ensure_ascii=False, sort_keys=True) + "\n")
        result = env.score(task, workspace, transcript)
    metrics = {k: float(v) for k in _FACTORY_METRICS if (v := getattr(result.metrics, k)) is not None}
    metrics["reportable"] = 1.0 if result.reportable else 0.0
    metrics["scoring_error"] = 0.0
    return {"metrics": metrics, "rewards": {"reward": float(result.metrics.reward)},
            "result": result.model_dump(mode="json")}


async def score_trace(data: LaeTaskData, trace: Any) -> dict[str, Any]:
    """Grade one trace: ``{"metrics", "rewards", "deliverables", "result" | "lab_metrics" | "error"}``.

    Never raises (cancellation aside): any failure scores 0 and sets the scoring-error
    metric. Everything but metrics and rewards lands in ``trace.info["lae"]``: the core
    result with its evidence, and the graded files (base64), so the trace on disk is
    self-contained and ``vf-replay`` re-scores it identically."""
    lab = data.source == "lab"
    deliverables: dict[str, str] = {}
    try:
        deliverables = dict(getattr(trace.state, "deliverables", None) or {})
        if not deliverables:
            # The state is not serialized with the trace: a re-score from disk (vf-replay)
            # reads the copy that the first scoring kept in ``trace.info["lae"]``.
            saved = trace.info.get("lae") if isinstance(trace.info, dict) else None
            deliverables = dict((saved or {}).get("deliverables") or {})
        messages = [] if lab else _transcript_messages(trace)
        outcome = await asyncio.to_thread(_score_sync, data, deliverables, messages)
        return {**outcome, "deliverables": deliverables}
    except Exception as exc:  # noqa: BLE001 - a scoring exception would fail the rollout
        detail = exc.report() if isinstance(exc, LaeError) else str(exc)
        error = f"{type(exc).__name__}: {detail}"
        if lab:
            return {"metrics": {"lab_scoring_error": 1.0}, "rewards": {"lab_reward": 0.0}, "error": error,
                    "deliverables": deliverables}
        return {"metrics": {"scoring_error": 1.0}, "rewards": {"reward": 0.0}, "error": error,
                "deliverables": deliverables}


# ------------------------------------------------------------------------- task
class LaeTask(vf.Task[LaeTaskData, LaeState, LaeTaskConfig]):
    """One anchored (or LAB) task: the tool server, and the core grader as reward."""

    def __init__(self, data: LaeTaskData, config: LaeTaskConfig | None = None) -> None:
        super().__init__(data, config)
        self._scored: dict[str, dict[str, Any]] = {}

    @property
    def key(self) -> str:
        """Stable identity: ``<pocket>:<task id>`` (``lab:<slug>`` in LAB mode)."""
        return f"{self.data.pocket or 'lab'}:{self.data.task_id}"

    @classmethod
    def toolsets(cls, config: LaeTaskConfig) -> list[vf.Toolset]:
        return [LaeToolset(config.tools)]

    async def _outcome(self, trace: vf.Trace, *, keep: bool) -> dict[str, Any]:
        outcome = self._scored.pop(trace.id, None)
        if outcome is None:
            outcome = await score_trace(self.data, trace)
            info = {k: v for k, v in outcome.items() if k not in ("metrics", "rewards")}
            trace.info["lae"] = info
        if keep:
            self._scored[trace.id] = outcome
        return outcome

    @vf.metric
    async def lae_metrics(self, trace: vf.Trace) -> dict[str, float]:
        """The core grader's metrics (factory) or the ``lab_`` workflow metrics (LAB)."""
        self._scored.pop(trace.id, None)  # a fresh scoring pass recomputes
        return dict((await self._outcome(trace, keep=True))["metrics"])

    @vf.reward(weight=1.0)
    async def lae_reward(self, trace: vf.Trace) -> dict[str, float]:
        """``reward`` = the core ``ScoreResult.metrics.reward``, i.e. 0.6*finding_recall +
        0.4*deliverable_complete - ffw*false_flag_rate - mnsw*must_not_say (LAB:
        ``lab_reward`` = lab_deliverable_complete)."""
        return dict((await self._outcome(trace, keep=False))["rewards"])


class LaeTaskset(vf.Taskset[LaeTask, LaeTasksetConfig]):
    """A pocket's anchored tasks (factory) or a LAB tree's tasks (LAB)."""

    def load(self) -> list[LaeTask]:
        pocket, args = _env_args(self.config)
        env_args = args.model_dump(mode="json", exclude={"max_turns"})
        env = _core_environment(pocket, env_args)
        tasks = []
        for t in env.tasks:
            if args.source == "lab":
                task_id, title, instructions, folder = t.slug, t.title, t.instructions, t.path
            else:
                task_id, title, instructions, folder = t.task_id, t.title, env.instructions(t), t.path
            data = LaeTaskData(id=task_id, name=task_id, description=title,
                               prompt=user_prompt(instructions, t.deliverables), system_prompt=SYSTEM_PROMPT,
                               pocket=pocket, source=args.source, task_id=task_id,
                               documents=str((folder / "documents").resolve()), deliverables=tuple(t.deliverables),
                               page_chars=args.page_chars, env_args=env_args)
            tasks.append(LaeTask(data, self.config.task))
        return tasks


# -------------------------------------------------------------------------- env
class LaeEnvConfig(vf.SingleAgentEnvConfig):
    """One agent seat: the ``null`` harness (a chat loop over our MCP tools, no shell)."""

    agent: vf.AgentConfig = vf.AgentConfig(harness=NullHarnessConfig(id="null"), runtime=vf.SubprocessConfig(),
                                           max_turns=30)
    """The seat (``--env.agent.*``): null harness, local subprocess runtime, 30 turns."""


class LaeEnv(vf.SingleAgentEnv, vf.Env[LaeEnvConfig]):
    """The single-agent episode (the agent works the matter once), typed to
    :class:`LaeEnvConfig`. A ``SingleAgentEnv``, so ``vf-replay`` re-scores its runs."""


def load_environment(pocket: str | None = None, **kwargs: Any) -> vf.Env:
    """A verifiers ``Env`` for a pocket (factory) or a LAB tree (``source="lab"``).

    ``kwargs`` are the seeds' environment arguments (``source``, ``task_id``,
    ``max_turns``, ``page_chars``, ``false_flag_weight``, ``must_not_say_weight``,
    ``min_deliverable_chars``, ``judge_model``, ``judge_api_key_var``, ``tasks_root``,
    ``allow_unfrozen``), validated as ``lae.env.environment.load_environment`` does;
    ``max_turns`` becomes the agent's turn limit."""
    args = parse_env_args(**kwargs)
    if args.source == "factory" and not pocket:
        raise ValueError("factory mode needs a pocket, e.g. load_environment('employment-law')")
    register_plugin_ids()
    taskset = LaeTasksetConfig(id=TASKSET_ID, pocket=pocket if args.source == "factory" else None,
                               **{k: getattr(args, k) for k in _TASKSET_ARGS})
    config = LaeEnvConfig(taskset=taskset, agent={"max_turns": args.max_turns})
    return vf.load_environment(config)


# ------------------------------------------------------------- plugin ids
def _bundled_pockets() -> list[str]:
    try:
        import lae.environments as pkg
    except ImportError:  # pragma: no cover
        return []
    pockets = []
    for info in pkgutil.iter_modules(pkg.__path__):
        try:
            pocket = getattr(importlib.import_module(f"{pkg.__name__}.{info.name}"), "POCKET", None)
        except Exception:  # noqa: BLE001 - a broken pocket module must not break the adapter
            continue
        if isinstance(pocket, str):
            pockets.append(pocket)
    return sorted(pockets)


def plugin_ids() -> list[str]:
    """The taskset ids this module answers to: ``legal-agent-eval`` and ``<pocket>-legal-agent-eval``."""
    return [TASKSET_ID] + [f"{p}{_ID_SUFFIX}" for p in _bundled_pockets()]


def register_plugin_ids() -> list[str]:
    """Make each taskset id importable (``sys.modules`` alias of this module) unless a real
    module of that name exists; returns the module names now pointing here."""
    me = sys.modules.get("lae.env.verifiers_adapter")
    if me is None:  # pragma: no cover - only when executed under another name
        me = importlib.import_module("lae.env.verifiers_adapter")
    names = []
    for taskset_id in plugin_ids():
        module = taskset_id.replace("-", "_").lower()
        if sys.modules.get(module) is me:
            names.append(module)
            continue
        if module in sys.modules:
            continue
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            sys.modules[module] = me
            names.append(module)
    return names


_COMMANDS = {"eval": "verifiers.v1.cli.eval.main", "validate": "verifiers.v1.cli.validate",
             "debug": "verifiers.v1.cli.debug", "replay": "verifiers.v1.cli.replay"}


def _main(argv: list[str]) -> None:
    if not argv or argv[0] not in _COMMANDS:
        print("usage: python -m lae.env.verifiers_adapter {eval|validate|debug|replay} <taskset-id> [vf options]\n"
              f"taskset ids: {', '.join(plugin_ids())}")
        raise SystemExit(2)
    register_plugin_ids()
    command = importlib.import_module(_COMMANDS[argv[0]])
    sys.argv = [f"vf-{argv[0]}", *argv[1:]]
    command.main()


if __name__ == "__main__":
    from lae.env import verifiers_adapter as _adapter  # the real module, not this __main__ copy

    _adapter._main(sys.argv[1:])
else:
    register_plugin_ids()
