"""Load a pocket (factory mode) or a LAB tree as an environment, and run rollouts.

Loading a factory pocket runs the freeze gate first: an unfrozen or changed pocket
is refused unless ``allow_unfrozen=True``, and then every result says
``reportable: false``. Overriding a scoring weight also makes results unreportable
(the frozen scoring parameters were not used).
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from lae.env.config import EnvArgs, parse_env_args
from lae.env.episode import EpisodeOutcome, run_episode
from lae.env.lab import LabTask, discover_lab_tasks, lab_metrics
from lae.env.tools import DocumentStore, TaskTools, Workspace
from lae.errors import InvalidInputError, Problem
from lae.project import Project, bundled_root
from lae.catalog import TaskInfo, list_tasks
from lae.runs import RESULT_JSON, ROLLOUT_JSON, TRANSCRIPT, WORKSPACE, RolloutMeta, RunLimits, write_model

__all__ = ["bundled_root", "PocketEnvironment", "LabEnvironment", "load_environment", "pocket_entry_point"]


def _project_for(args: EnvArgs) -> Project:
    if args.tasks_root is None:
        return Project.at(bundled_root())
    root = Path(args.tasks_root)
    if (root / "tasks").is_dir():
        return Project.at(root)
    return Project.at(root.parent)


@dataclass
class PocketEnvironment:
    """A factory pocket: anchored tasks, the four tools, and the grader."""

    pocket: str
    args: EnvArgs
    project: Project
    tasks: list[TaskInfo]
    release: object  # lae.grader.results.ReleaseInfo
    _contexts: dict = field(default_factory=dict)

    def task(self, task_id: str) -> TaskInfo:
        for t in self.tasks:
            if task_id in (t.task_id, t.scenario_slug):
                return t
        raise InvalidInputError("unknown task", [Problem(self.pocket, f"no task {task_id!r}", field="task_id",
                                                         mend="use one of " + ", ".join(t.task_id for t in self.tasks))])

    def instructions(self, task: TaskInfo) -> str:
        return json.loads((task.path / "task.json").read_text(encoding="utf-8"))["instructions"]

    def tools(self, task: TaskInfo, workspace: Path) -> TaskTools:
        return TaskTools(DocumentStore(task.path / "documents", self.args.page_chars), Workspace(workspace, task.deliverables))

    def context(self, task: TaskInfo):
        from lae.grader.score import load_task_context

        if task.task_id not in self._contexts:
            ctx = load_task_context(self.project, task.task_id, self.pocket)
            overrides = {k: getattr(self.args, k) for k in ("false_flag_weight", "must_not_say_weight", "min_deliverable_chars")
                         if getattr(self.args, k) is not None and getattr(self.args, k) != getattr(ctx.anchors.scoring, k)}
            if overrides:
                scoring = ctx.anchors.scoring.model_copy(update=overrides)
                ctx = type(ctx)(ctx.anchors.model_copy(update={"scoring": scoring}), ctx.anchors_sha256, ctx.index, ctx.task_dir)
            self._contexts[task.task_id] = (ctx, overrides)
        return self._contexts[task.task_id]

    def score(self, task: TaskInfo, workspace: Path, transcript: Path | None = None):
        """Grade a rollout's workspace (never raises on agent content)."""
        from lae.grader.results import ReleaseInfo
        from lae.grader.score import score_files

        ctx, overrides = self.context(task)
        release = self.release
        if overrides:
            release = ReleaseInfo(reportable=False, freeze_root=None,
                                  reason="scoring weights overridden: " + ", ".join(f"{k}={v}" for k, v in sorted(overrides.items())))
        files = sorted(p for p in Path(workspace).iterdir() if p.is_file() and not p.name.startswith(".")) if Path(workspace).is_dir() else []
        return score_files(ctx, files, transcript=transcript, release=release)

    def run(self, client, task: TaskInfo, run_dir: Path, *, model: str = "", rollout: int = 1,
            run_id: str | None = None, limits: RunLimits | None = None):
        """Run one episode in a clean ``run_dir`` and grade it; return ``(RolloutMeta, ScoreResult | None)``.

        The folder is emptied first, so nothing from an earlier attempt can be graded. A
        rollout whose model calls failed gets status ``error`` and no ``result.json``: a
        failure is never scored. ``rollout.json`` is written last."""
        started = time.monotonic()
        if run_dir.exists():
            shutil.rmtree(run_dir)
        outcome: EpisodeOutcome = run_episode(client, instructions=self.instructions(task), deliverables=task.deliverables,
                                              documents=task.path / "documents", run_dir=run_dir,
                                              max_turns=self.args.max_turns, page_chars=self.args.page_chars, limits=limits)
        result = None
        if outcome.error is None:
            result = self.score(task, run_dir / WORKSPACE, run_dir / TRANSCRIPT)
            write_model(run_dir / RESULT_JSON, result)
        meta = RolloutMeta(run_id=run_id, task_id=task.task_id, pocket=self.pocket, model=model, rollout=rollout,
                           status="ok" if result is not None else "error", error=outcome.error,
                           stop_reason=outcome.stop_reason, turns=outcome.turns, tool_calls=dict(sorted(outcome.tool_calls.items())),
                           tool_errors=outcome.tool_errors, usage=outcome.usage,
                           wall_seconds=round(time.monotonic() - started, 3),
                           freeze_root=result.freeze_root if result else None, reportable=bool(result and result.reportable))
        if result is not None and self.args.judge_model:  # weight-0 telemetry; no network call unless a judge is set
            from lae.report.judge import maybe_judge

            maybe_judge(run_dir, judge_model=self.args.judge_model, api_key_var=self.args.judge_api_key_var,
                        project=self.project)
        write_model(run_dir / ROLLOUT_JSON, meta)
        return meta, result


@dataclass
class LabEnvironment:
    """LAB mode: workflow discipline over someone else's LAB tree (``lab_`` metrics)."""

    args: EnvArgs
    tasks: list[LabTask]

    def task(self, slug: str) -> LabTask:
        for t in self.tasks:
            if slug in (t.slug, t.path.name):
                return t
        raise InvalidInputError("unknown LAB task", [Problem(str(self.args.tasks_root), f"no task {slug!r}", field="task_id",
                                                             mend="use a path relative to tasks_root")])

    def tools(self, task: LabTask, workspace: Path) -> TaskTools:
        return TaskTools(DocumentStore(task.path / "documents", self.args.page_chars), Workspace(workspace, task.deliverables))

    def score(self, task: LabTask, workspace: Path) -> dict[str, float]:
        from lae.grader.deliverables import read_deliverable

        saved = {}
        for p in sorted(Path(workspace).iterdir()) if Path(workspace).is_dir() else []:
            if p.is_file() and not p.name.startswith("."):
                read = read_deliverable(p, p.name)
                saved[p.name] = read.text if read.ok else ""
        min_chars = self.args.min_deliverable_chars if self.args.min_deliverable_chars is not None else 200
        return lab_metrics(task, saved, min_chars)


def load_environment(pocket: str | None = None, **kwargs):
    """Load a factory pocket (``pocket``) or, with ``source="lab"``, a LAB tree."""
    args = parse_env_args(**kwargs)
    if args.source == "lab":
        tree = discover_lab_tasks(Path(args.tasks_root))
        tasks = tree.tasks if args.task_id == "all" else [t for t in tree.tasks if args.task_id in (t.slug, t.path.name)]
        if not tasks:
            raise InvalidInputError("unknown LAB task", [Problem(str(args.tasks_root), f"no task {args.task_id!r}",
                                                                 field="task_id", mend="use 'all' or a task path")])
        return LabEnvironment(args, tasks)
    if pocket is None:
        raise ValueError("factory mode needs a pocket name")
    from lae.grader.gate import release_for

    project = _project_for(args)
    tasks = list_tasks(project, pocket)
    if args.task_id != "all":
        tasks = [t for t in tasks if args.task_id in (t.task_id, t.scenario_slug)]
        if not tasks:
            known = ", ".join(t.task_id for t in list_tasks(project, pocket))
            raise InvalidInputError("unknown task", [Problem(pocket, f"no task {args.task_id!r}", field="task_id",
                                                             mend=f"use 'all' or one of: {known}")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        release = release_for(project, pocket, allow_unfrozen=args.allow_unfrozen)
    return PocketEnvironment(pocket, args, project, tasks, release)


def pocket_entry_point(pocket: str):
    """The ``load_environment(**kwargs)`` of one pocket module under ``environments/``."""

    def load(**kwargs):
        return load_environment(pocket, **kwargs)

    load.__name__ = "load_environment"
    load.__qualname__ = "load_environment"
    load.__doc__ = (
        f"Load the ``{pocket}`` pocket (factory mode) or a LAB tree (``source=\"lab\"``).\n\n"
        "Arguments are the seeds' table: ``source``, ``task_id``, ``max_turns``, ``page_chars``,\n"
        "``false_flag_weight``, ``must_not_say_weight``, ``min_deliverable_chars``, ``judge_model``,\n"
        "``judge_api_key_var``, ``tasks_root``, ``allow_unfrozen``. The freeze gate runs first."
    )
    return load
