"""``lae score``: grade deliverables (or folders of rollouts) with evidence."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.env.rescore import plan_rescore, rescore
from lae.grader.gate import release_for
from lae.grader.results import ScoreResult
from lae.grader.score import load_task_context, score_files
from lae.runs import SUMMARY_JSON


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
    lines.extend(f"  note: {n}" for n in result.notes)
    return lines


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
    """Grade deliverables against a task's anchors, explaining every credit.

    FILE...: the deliverables (each declared name must match exactly; other files are
    named and ignored). --runs DIR: re-grade every rollout folder under DIR."""
    project = project_from(root)
    if runs is not None:
        if files:
            raise click.UsageError("give FILE... or --runs, not both")
        _score_runs(project, runs, task, pocket, allow_unfrozen, jobs, as_json)
        return
    if task is None:
        raise click.UsageError("--task is required with FILE...")
    if not files:
        raise click.UsageError("give the deliverable FILE(s) to grade (or --runs DIR)")
    ctx = load_task_context(project, task, pocket)
    release = release_for(project, ctx.anchors.pocket, allow_unfrozen=allow_unfrozen)
    result = score_files(ctx, list(files), transcript=transcript, release=release)
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json"), indent=2, sort_keys=True))
    else:
        click.echo("\n".join(_summary_lines(result)))


def _score_runs(project, runs: Path, task, pocket, allow_unfrozen: bool, jobs: int, as_json: bool) -> None:
    plan, skipped = plan_rescore(project, runs, task, pocket, allow_unfrozen)

    def bar(iterator, n):
        with click.progressbar(iterator, length=n, label="scoring", file=click.get_text_stream("stderr")) as items:
            yield from items

    summary = rescore(runs, plan, jobs, bar)
    if as_json:
        click.echo(json.dumps(summary, indent=2, sort_keys=True))
        return
    for name, d in summary["results"].items():
        m = d["metrics"]
        click.echo(f"{name}: {d['task_id']} reward {m['reward']:.3f} recall {m['finding_recall']:.3f} "
                   f"complete {m['deliverable_complete']:.0f} ffr {m['false_flag_rate']:.3f}")
    for line in skipped:
        click.echo(f"skipped {line}", err=True)
    click.echo(f"{summary['rollouts']} rollout(s) scored; summary in {runs / SUMMARY_JSON}")
