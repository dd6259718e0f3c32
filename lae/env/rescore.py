"""Re-grade folders of rollouts (``lae score --runs``): discovery and a per-process cache over
:func:`lae.parallel.fork_map`.

Each pocket is opened once through the freeze gate (read, hashed and verified once; the
bytes kept) and each task's context is built from those bytes, and its patterns compiled,
in the parent, before any worker starts, so forked workers inherit them.
Errored rollouts (``rollout.json`` status ``error``) are never scored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

from lae.catalog import find_task
from lae.errors import InvalidInputError, Problem
from lae.freeze import OpenedPocket, open_pocket
from lae.fsio import atomic_write
from lae.grader.score import TaskContext, load_task_context, score_files
from lae.match.engine import compile_spec
from lae.parallel import fork_map
from lae.project import Project
from lae.runs import RESULT_JSON, SUMMARY_JSON, TRANSCRIPT, deliverable_files, is_run_dir, read_hint, write_model

__all__ = ["RescoreJob", "plan_rescore", "rescore"]

RescoreJob = tuple[str, str, str | None, bool, str]
"""(project root, task, pocket, allow_unfrozen, rollout folder): plain data, so it pickles."""

_OPENED: dict[tuple[str, str, bool], OpenedPocket] = {}
_PREPARED: dict[tuple[str, str, str | None, bool], TaskContext] = {}


def _prepared(root: str, task: str, pocket: str | None, allow_unfrozen: bool) -> TaskContext:
    key = (root, task, pocket, allow_unfrozen)
    if key not in _PREPARED:
        project = Project.at(root)
        info = find_task(project, task, pocket)
        door = (root, info.pocket, allow_unfrozen)
        if door not in _OPENED:  # the gate warns once per pocket when it does not verify
            _OPENED[door] = open_pocket(project, info.pocket, allow_unfrozen=allow_unfrozen)
        _PREPARED[key] = load_task_context(_OPENED[door], info.task_id)
        compile_spec(_PREPARED[key].anchors.match_spec())  # once here, not once per forked worker
    return _PREPARED[key]


def _score_rollout(job: RescoreJob) -> tuple[str, dict]:
    root, task, pocket, allow_unfrozen, folder = job
    ctx = _prepared(root, task, pocket, allow_unfrozen)
    path = Path(folder)
    transcript = path / TRANSCRIPT
    result = score_files(ctx, deliverable_files(path), transcript=transcript if transcript.is_file() else None)
    write_model(path / RESULT_JSON, result)
    # only what the summary quotes goes back to the parent (the whole result is in result.json)
    return folder, {"task_id": result.task_id, "metrics": result.metrics.model_dump(mode="json"),
                    "reportable": result.reportable, "freeze_root": result.freeze_root}


def plan_rescore(project: Project, runs: Path, task: str | None, pocket: str | None,
                 allow_unfrozen: bool) -> tuple[list[RescoreJob], list[str]]:
    """Jobs for each rollout folder of ``runs`` (its subfolders, or ``<task>/r<N>/`` of a ``lae run``
    folder), and the errored rollouts left out."""
    if is_run_dir(runs):  # a `lae run` folder: <run>/<task>/r<N>/
        folders = sorted(p for p in runs.glob("*/r*") if p.is_dir() and p.name[1:].isdigit())
    else:
        folders = sorted(p for p in runs.iterdir() if p.is_dir())
    if not folders:
        raise InvalidInputError("no rollouts", [Problem(str(runs), "no subfolders", mend="one folder per rollout")])
    jobs, skipped = [], []
    for folder in folders:
        hint = read_hint(folder)
        if hint.status == "error":
            skipped.append(f"{folder.relative_to(runs).as_posix()}: errored rollout, not scored ({hint.error or 'no cause recorded'})")
            continue
        name = hint.task_id or task
        if not name:
            raise InvalidInputError("rollout has no task", [Problem(str(folder), "no rollout.json with task_id and no --task",
                                                                    mend="pass --task or write rollout.json")])
        jobs.append((str(project.root), name, pocket, allow_unfrozen, str(folder)))
    return jobs, skipped


def rescore(runs: Path, jobs: list[RescoreJob], workers: int,
            wrap: Callable[[Iterator, int], Iterator] = lambda it, n: it) -> dict[str, dict]:
    """Score every job (``workers`` processes), write ``summary.json``; ``wrap`` shows progress."""
    for args in dict.fromkeys(j[:4] for j in jobs):
        _prepared(*args)  # verify each pocket and index each task once, before any worker starts
    results: dict[str, dict] = {}
    for folder, data in wrap(fork_map(_score_rollout, jobs, workers), len(jobs)):
        results[Path(folder).relative_to(runs).as_posix()] = data
    summary = {"rollouts": len(results), "results": dict(sorted(results.items()))}
    atomic_write(runs / SUMMARY_JSON, (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode())
    return summary
