"""``lae score``: grade deliverables (or folders of rollouts) with evidence."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.errors import InvalidInputError, Problem
from lae.grader.results import ScoreResult
from lae.parallel import fork_map


def _summary_lines(result: ScoreResult) -> list[str]:
    m = result.metrics
    lines = [
        f"task {result.task_id} ({result.pocket})  reportable={'yes' if result.reportable else 'NO'}"
        + (f"  freeze root {result.freeze_root}" if result.freeze_root else f"  ({result.release.reason})"),
        f"reward {m.reward:.3f} = {result.weights.finding_weight}*recall {m.finding_recall:.3f} + "
        f"{result.weights.deliverable_weight}*complete {m.deliverable_complete:.0f} - "
        f"{result.weights.false_flag_weight}*false flags {m.false_flag_rate:.3f} - "
        f"{result.weights.must_not_say_weight}*must-not-say {m.must_not_say:.3f}",
    ]
    for d in result.deliverables:
        state = "complete" if d.complete else f"INCOMPLETE: {d.reason}"
        lines.append(f"  deliverable {d.declared_name}: {state} ({d.own_chars} own chars)")
    for f in result.findings:
        mark = "CREDIT" if f.credited else "miss  "
        lines.append(f"  {mark} {f.id} [{f.severity}] {f.title}: {f.reason}")
    for d in result.distractors:
        if d.flagged:
            lines.append(f"  FALSE FLAG {d.id} {d.title}")
    for c in result.claims:
        if c.made:
            lines.append(f"  PROHIBITED CLAIM {c.id}: {c.evidence.text if c.evidence else ''}")
    if result.masked:
        lines.append(f"  masked {len(result.masked)} quoted span(s), {sum(len(s.text) for s in result.masked)} chars")
    if m.transcript_recall is not None:
        lines.append(f"  transcript recall {m.transcript_recall:.3f}")
    lines.append(f"  criterion pass rate (proxy, weight 0) {m.criterion_pass_rate_proxy:.3f}")
    return lines


def _score_rollout(args: tuple[str, str, str | None, bool, str]) -> tuple[str, dict]:
    root, task, pocket, allow_unfrozen, folder = args
    from lae.fsio import atomic_write
    from lae.grader.score import score_files

    ctx, release = _prepared(root, task, pocket, allow_unfrozen)
    path = Path(folder)
    # `lae run` keeps deliverables in workspace/; a hand-made rollout may keep them beside the transcript.
    source = path / "workspace" if (path / "workspace").is_dir() else path
    skip = {"result.json", "rollout.json", "transcript.jsonl", "tools.json", "judge.json"}
    files = sorted(p for p in source.iterdir() if p.is_file() and p.name not in skip)
    transcript = path / "transcript.jsonl"
    result = score_files(ctx, files, transcript=transcript if transcript.is_file() else None, release=release)
    data = result.model_dump(mode="json")
    atomic_write(path / "result.json", (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())
    return folder, data


# Per process: each task's context (anchors + document index) and its pocket's verified
# release, built once. The parent fills it before forking workers, so they inherit it.
_PREPARED: dict = {}


def _prepared(root: str, task: str, pocket: str | None, allow_unfrozen: bool):
    import warnings

    from lae.grader.gate import release_for
    from lae.grader.score import load_task_context
    from lae.project import Project

    key = (root, task, pocket, allow_unfrozen)
    if key not in _PREPARED:
        project = Project.at(root)
        ctx = load_task_context(project, task, pocket)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            release = release_for(project, ctx.anchors.pocket, allow_unfrozen=allow_unfrozen)
        _PREPARED[key] = (ctx, release)
    return _PREPARED[key]


def _rollout_task(folder: Path, default: str | None) -> str:
    meta = folder / "rollout.json"
    if meta.is_file():
        try:
            task = json.loads(meta.read_text(encoding="utf-8")).get("task_id")
        except ValueError as exc:
            raise InvalidInputError("bad rollout.json", [Problem(str(meta), str(exc), mend="write valid JSON")]) from exc
        if task:
            return str(task)
    if default:
        return default
    raise InvalidInputError("rollout has no task", [Problem(str(folder), "no rollout.json with task_id and no --task",
                                                            mend="pass --task or write rollout.json")])


@click.command("score")
@root_option
@pocket_option
@click.option("--task", "-t", default=None, help="Task id or scenario slug.")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--transcript", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="JSONL transcript; only the agent's own (assistant) messages count.")
@click.option("--runs", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Folder of rollouts: one subfolder per rollout (deliverables, optional transcript.jsonl, rollout.json).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, help="Parallel workers for --runs.")
@click.option("--allow-unfrozen", is_flag=True, help="Score an unfrozen or changed pocket; results say reportable: false.")
@json_option
def command(root, pocket, task, files, transcript, runs, jobs, allow_unfrozen, as_json):
    """Grade deliverables against a task's anchors, explaining every credit."""
    from lae.grader.gate import release_for
    from lae.grader.score import load_task_context, score_files

    project = project_from(root)
    if runs is not None:
        if files:
            raise click.UsageError("give FILE... or --runs, not both")
        folders = sorted(p for p in runs.iterdir() if p.is_dir())
        if not folders:
            raise InvalidInputError("no rollouts", [Problem(str(runs), "no subfolders", mend="one folder per rollout")])
        jobs_args = [(str(project.root), _rollout_task(f, task), pocket, allow_unfrozen, str(f)) for f in folders]
        results: dict[str, dict] = {}
        for args in dict.fromkeys(a[:4] for a in jobs_args):
            _prepared(*args)  # verify each pocket and index each task once, before any worker starts
        iterator = fork_map(_score_rollout, jobs_args, jobs)
        with click.progressbar(iterator, length=len(jobs_args), label="scoring", file=click.get_text_stream("stderr")) as bar:
            for folder, data in bar:
                results[Path(folder).name] = data
        summary = {
            "rollouts": len(results),
            "results": {name: {"task_id": d["task_id"], "metrics": d["metrics"], "reportable": d["reportable"],
                               "freeze_root": d["freeze_root"]} for name, d in sorted(results.items())},
        }
        from lae.fsio import atomic_write

        atomic_write(runs / "summary.json", (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode())
        if as_json:
            click.echo(json.dumps(summary, indent=2, sort_keys=True))
        else:
            for name, d in sorted(results.items()):
                m = d["metrics"]
                click.echo(f"{name}: {d['task_id']} reward {m['reward']:.3f} recall {m['finding_recall']:.3f} "
                           f"complete {m['deliverable_complete']:.0f} ffr {m['false_flag_rate']:.3f}")
            click.echo(f"{len(results)} rollout(s) scored; summary in {runs / 'summary.json'}")
        return
    if task is None:
        raise click.UsageError("--task is required with FILE...")
    ctx = load_task_context(project, task, pocket)
    release = release_for(project, ctx.anchors.pocket, allow_unfrozen=allow_unfrozen)
    result = score_files(ctx, list(files), transcript=transcript, release=release)
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json"), indent=2, sort_keys=True))
    else:
        click.echo("\n".join(_summary_lines(result)))
