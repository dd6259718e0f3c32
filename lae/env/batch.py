"""The batch engine of ``lae run``: tasks × rollouts in parallel into one run folder, and resume.

The CLI is a shell over these functions. A run is planned (:func:`plan_tasks`), started
(:func:`start_run` writes ``run.json``), executed (:func:`run_jobs`, threads over
tasks × rollouts, each rollout in its own clean folder), and summarised into
``run.json`` (:func:`summarize`: status and usage per rollout, totals). A run that was
interrupted or had errored rollouts is continued with :func:`pending_jobs`: only the
rollouts with no ``rollout.json`` or status ``error`` run again; finished rollouts are
never touched.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from lae import __version__
from lae.catalog import find_task, list_tasks
from lae.chat import ChatError, Completion, Usage, public_url
from lae.env.client import ChatClient, OpenAICompatibleClient, ReplayClient, load_replay
from lae.env.environment import PocketEnvironment, load_environment
from lae.errors import InvalidInputError, Problem
from lae.grader.results import ScoreResult
from lae.project import Project
from lae.runs import (
    RESULT_JSON,
    RUN_JSON,
    RolloutMeta,
    RunArguments,
    RunManifest,
    RunRollout,
    RunTotals,
    new_run_id,
    read_rollout,
    rollout_dir,
    utc_now,
    write_model,
)

__all__ = ["Job", "RunInterrupted", "RunPlan", "client_factory", "plan_tasks", "load_envs", "start_run", "resume_plan",
           "pending_jobs", "run_jobs", "summarize", "preflight"]


class RunInterrupted(Exception):
    """Raised inside a rollout when the batch is being stopped (SIGINT); the rollout is left unfinished."""


@dataclass(frozen=True)
class RunPlan:
    """What a run needs before it has a folder: the model, the endpoint (with any secret it
    carries; only its public form is written) and the arguments."""

    model: str
    base_url: str | None
    arguments: RunArguments


@dataclass(frozen=True)
class Job:
    pocket: str
    task_id: str
    index: int


def plan_tasks(project: Project, pocket: str | None, tasks: tuple[str, ...]) -> dict[str, str]:
    """Task id -> pocket, in order: every task of ``pocket`` when no task is named (or ``all``),
    else each named task (id or slug)."""
    if not tasks or "all" in tasks:
        if not pocket and not tasks:
            raise InvalidInputError("nothing to run", [Problem("lae run", "no --task and no --pocket", field="--task",
                                                               mend="give --pocket P, --task T (repeatable) or --task all")])
        found = list_tasks(project, pocket)
        if not found:
            raise InvalidInputError("no tasks", [Problem(project.relative(project.tasks_root), "no tasks found",
                                                         mend="check --root and --pocket")])
        return {t.task_id: t.pocket for t in found}
    out: dict[str, str] = {}
    for name in tasks:
        info = find_task(project, name, pocket)
        out[info.task_id] = info.pocket
    return out


def load_envs(project: Project, arguments: RunArguments) -> dict[str, PocketEnvironment]:
    """One verified environment per pocket of the run (the freeze gate runs here)."""
    envs = {}
    for pocket in sorted(set(arguments.pockets.values())):
        envs[pocket] = load_environment(pocket, max_turns=arguments.max_turns, page_chars=arguments.page_chars,
                                        allow_unfrozen=arguments.allow_unfrozen, tasks_root=project.root)
    return envs


def preflight(client: ChatClient) -> None:
    """One cheap request before the run; a failure is an invalid-input error with the server's message."""
    ping = getattr(client, "ping", None)
    if ping is None:
        return
    try:
        ping()
    except ChatError as exc:
        raise InvalidInputError("the endpoint check failed; nothing was run", [Problem(
            "pre-flight request", str(exc), mend="check --base-url, --model and the API key variable (--api-key-var)")]) from None


def client_factory(plan: RunPlan) -> Callable[[], ChatClient]:
    """A new client per rollout: a replay of the recorded steps, or the model's endpoint."""
    args = plan.arguments
    if args.replay is not None:
        steps = load_replay(Path(args.replay))
        return lambda: ReplayClient(list(steps))
    return lambda: OpenAICompatibleClient(plan.model, plan.base_url or "", args.api_key_var, limits=args.limits.chat(),
                                          retries=args.retries)


def resume_plan(manifest: RunManifest) -> RunPlan:
    return RunPlan(manifest.model, manifest.base_url, manifest.arguments)


def start_run(out: Path, plan: RunPlan, envs: dict[str, PocketEnvironment]) -> Path:
    """Create ``<out>/<run-id>/`` and its ``run.json``; return the folder."""
    run_id = new_run_id()
    run_dir = Path(out) / run_id
    while run_dir.exists():  # pragma: no cover - a clash needs the same second and suffix
        run_id = new_run_id()
        run_dir = Path(out) / run_id
    run_dir.mkdir(parents=True)
    manifest = RunManifest(run_id=run_id, model=plan.model, base_url=public_url(plan.base_url) if plan.base_url else None,
                           arguments=plan.arguments,
                           freeze_roots={p: e.release.freeze_root for p, e in sorted(envs.items())},
                           lae_version=__version__, started=utc_now())
    write_model(run_dir / RUN_JSON, summarize(run_dir, manifest))
    return run_dir


def _all_jobs(arguments: RunArguments) -> list[Job]:
    return [Job(arguments.pockets[t], t, i) for t in arguments.tasks for i in range(1, arguments.rollouts + 1)]


def pending_jobs(run_dir: Path, manifest: RunManifest) -> list[Job]:
    """Rollouts with no ``rollout.json`` (never run, or interrupted) or status ``error``."""
    pending = []
    for job in _all_jobs(manifest.arguments):
        meta = read_rollout(rollout_dir(run_dir, job.task_id, job.index))
        if meta is None or meta.status == "error":
            pending.append(job)
    return pending


class _Stoppable:
    """Wraps a client so a stopping batch ends each rollout at its next model call."""

    def __init__(self, client: ChatClient, stop: threading.Event) -> None:
        self.client, self.stop = client, stop

    def complete(self, messages: list[dict], tools: list[dict]) -> Completion:
        if self.stop.is_set():
            raise RunInterrupted("the run is being stopped")
        return self.client.complete(messages, tools)


def run_jobs(run_dir: Path, manifest: RunManifest, envs: dict[str, PocketEnvironment], jobs: list[Job],
             client_factory: Callable[[], ChatClient], *, on_done: Callable[[RolloutMeta], None] = lambda m: None,
             stop: threading.Event | None = None) -> RunManifest:
    """Run ``jobs`` with ``manifest.arguments.jobs`` threads; write and return the final ``run.json``.

    On ``KeyboardInterrupt`` the running rollouts stop at their next model call, the
    manifest is written with ``interrupted: true`` and the interrupt is re-raised."""
    stop = stop or threading.Event()
    args = manifest.arguments

    def one(job: Job) -> RolloutMeta:
        if stop.is_set():
            raise RunInterrupted("not started")
        env = envs[job.pocket]
        meta, _ = env.run(_Stoppable(client_factory(), stop), env.task(job.task_id),
                          rollout_dir(run_dir, job.task_id, job.index), model=manifest.model, rollout=job.index,
                          run_id=manifest.run_id, limits=args.limits)
        return meta

    interrupted = False
    pool = ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures: set[Future] = {pool.submit(one, job) for job in jobs}
        while futures:
            done, futures = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                if not isinstance(future.exception(), RunInterrupted):
                    on_done(future.result())
    except KeyboardInterrupt:
        interrupted = True
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        final = summarize(run_dir, manifest, finished=not interrupted, interrupted=interrupted)
        write_model(run_dir / RUN_JSON, final)
    return final


def summarize(run_dir: Path, manifest: RunManifest, *, finished: bool = False, interrupted: bool = False) -> RunManifest:
    """``manifest`` with each rollout's status and the totals, read from the rollout folders."""
    rows: list[RunRollout] = []
    usage, turns, calls, wall = Usage(), 0, 0, 0.0
    for job in _all_jobs(manifest.arguments):
        folder = rollout_dir(run_dir, job.task_id, job.index)
        meta = read_rollout(folder)
        if meta is None:
            rows.append(RunRollout(task_id=job.task_id, rollout=job.index, status="missing"))
            continue
        reward = _reward(folder) if meta.status == "ok" else None
        rows.append(RunRollout(task_id=job.task_id, rollout=job.index, status=meta.status, error=meta.error, reward=reward))
        usage, turns = usage + meta.usage, turns + meta.turns
        calls, wall = calls + sum(meta.tool_calls.values()), wall + meta.wall_seconds
    totals = RunTotals(rollouts=len(rows), ok=sum(r.status == "ok" for r in rows),
                       errored=sum(r.status == "error" for r in rows), missing=sum(r.status == "missing" for r in rows),
                       usage=usage, turns=turns, tool_calls=calls, wall_seconds=round(wall, 3))
    return manifest.model_copy(update={"rollouts": rows, "totals": totals, "interrupted": interrupted,
                                       "finished": utc_now() if finished else None})


def _reward(folder: Path) -> float | None:
    try:
        return ScoreResult.model_validate_json((folder / RESULT_JSON).read_bytes()).metrics.reward
    except (OSError, ValueError):
        return None

