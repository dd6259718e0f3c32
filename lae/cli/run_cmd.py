"""``lae run``: run a model (or a replay) on tasks × rollouts into a new run folder, and grade each rollout."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import click
from pydantic import ValidationError

from lae.chat import public_url
from lae.cli.options import pocket_option, project_from, root_option
from lae.env.batch import (RunPlan, client_factory, load_envs, pending_jobs, plan_tasks, preflight, resume_plan,
                           run_jobs, start_run)
from lae.runs import RUN_JSON, RolloutMeta, RunArguments, RunLimits, RunManifest, read_run

DEFAULT_OUT = Path("runs")


def _limit_options(func):
    """One ``--max-...`` option per field of :class:`RunLimits`, default and help from the model."""
    for name, info in reversed(list(RunLimits.model_fields.items())):
        kind = click.FloatRange(min=0.001) if info.annotation is float else click.IntRange(min=1)
        func = click.option(f"--{name.replace('_', '-')}", name, type=kind, default=info.default, show_default=True,
                            help=info.description)(func)
    return func


class _Progress:
    """One line per finished rollout with the done/errored counts; a bar on a terminal."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.errored = total, 0, 0
        self.tty = sys.stderr.isatty()

    def __call__(self, meta: RolloutMeta) -> None:
        self.done += 1
        self.errored += meta.status == "error"
        what = (f"error: {meta.error}" if meta.status == "error" else
                f"ok, {meta.stop_reason} after {meta.turns} turn(s), {meta.usage.total_tokens:,} tokens, "
                f"{sum(meta.tool_calls.values())} tool call(s), {meta.wall_seconds:.1f}s")
        if self.tty:
            click.echo("\r\x1b[K", nl=False, err=True)
        click.echo(f"[{self.done}/{self.total} done, {self.errored} errored] {meta.task_id} r{meta.rollout}: {what}")
        self.bar()

    def bar(self) -> None:
        if self.tty:
            filled = int(30 * self.done / max(1, self.total))
            click.echo(f"[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}, {self.errored} errored",
                       nl=False, err=True)

    def close(self) -> None:
        if self.tty:
            click.echo("", err=True)


@click.command("run")
@root_option
@pocket_option
@click.option("--task", "-t", "tasks", multiple=True,
              help="Task id or scenario slug; repeat for several, or 'all' (default with --pocket: all its tasks).")
@click.option("--model", "-m", default=None, help="Model name sent to the endpoint (not needed with --replay).")
@click.option("--base-url", default="https://api.openai.com/v1", show_default=True, help="OpenAI-compatible endpoint.")
@click.option("--api-key-var", default="OPENAI_API_KEY", show_default=True, help="Environment variable holding the API key.")
@click.option("--rollouts", type=click.IntRange(1, 1000), default=3, show_default=True, help="Rollouts per task.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Rollouts in parallel, across tasks × rollouts.")
@click.option("--max-turns", type=click.IntRange(1, 500), default=30, show_default=True,
              help="Model replies per rollout before it stops (stop reason max_turns).")
@click.option("--page-chars", type=click.IntRange(200, 200_000), default=6000, show_default=True,
              help="Characters per page returned by read_document.")
@click.option("--retries", type=click.IntRange(0, 10), default=4, show_default=True,
              help="Retries of a model request on 429, 5xx, timeouts and connection errors.")
@_limit_options
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Each run gets a new folder OUT/<run-id>/ (run.json, then <task>/r<N>/ per rollout).")
@click.option("--resume", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Continue the run in RUN_DIR: re-run only its missing and errored rollouts (arguments from its run.json).")
@click.option("--replay", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Drive the episodes from a recorded list of tool calls instead of a model.")
@click.option("--allow-unfrozen", is_flag=True, help="Run on a pocket that does not verify; results are not reportable.")
def command(root, pocket, tasks, model, base_url, api_key_var, rollouts, jobs, max_turns, page_chars, retries, out,
            resume, replay, allow_unfrozen, **limits):
    """Run an agent on matters and grade what it saves.

    Every run writes a new folder OUT/<run-id>/; a rollout whose model calls fail is
    recorded as an error (never scored) and the command exits 1. The endpoint, model
    and key are checked with one cheap request before anything runs."""
    project = project_from(root)
    run_dir = resume
    if resume is not None:
        plan = resume_plan(read_run(resume))
    else:
        if replay is None and not model:
            raise click.UsageError("give --model (with --base-url) or --replay FILE")
        pockets = plan_tasks(project, pocket, tasks)
        arguments = RunArguments(tasks=list(pockets), pockets=pockets, rollouts=rollouts, jobs=jobs, max_turns=max_turns,
                                 page_chars=page_chars, limits=_limits(limits), api_key_var=api_key_var,
                                 allow_unfrozen=allow_unfrozen, replay=str(replay.resolve()) if replay else None,
                                 retries=retries)
        plan = RunPlan(model or f"replay-{replay.stem}", None if replay else base_url, arguments)
    factory = client_factory(plan)
    envs = load_envs(project, plan.arguments)
    if plan.arguments.replay is None:
        click.echo(f"checking {public_url(plan.base_url or '')} (model {plan.model}) with one request ...", err=True)
        preflight(factory())
    if run_dir is None:
        if out == DEFAULT_OUT:
            click.echo(f"output folder: {out.resolve()} (change with --out)", err=True)
        run_dir = start_run(out, plan, envs)
    manifest = read_run(run_dir)
    jobs_to_run = pending_jobs(run_dir, manifest)
    click.echo(f"run {manifest.run_id}: {len(jobs_to_run)} rollout(s) to run -> {run_dir}", err=True)
    progress = _Progress(len(jobs_to_run))
    progress.bar()
    try:
        final = run_jobs(run_dir, manifest, envs, jobs_to_run, factory, on_done=progress, stop=threading.Event())
        progress.close()
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted; finished rollouts are kept. Continue with: lae run --resume {run_dir}", err=True)
        raise SystemExit(130) from None
    _summary(final, run_dir)


def _limits(values: dict) -> RunLimits:
    try:
        return RunLimits(**values)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise click.BadParameter(err["msg"], param_hint="--" + str(err["loc"][0]).replace("_", "-")) from None


def _summary(final: RunManifest, run_dir: Path) -> None:
    t = final.totals
    click.echo(f"{t.ok} of {t.rollouts} rollout(s) graded, {t.errored} errored, {t.missing} missing; "
               f"{t.usage.total_tokens:,} tokens ({t.usage.prompt_tokens:,} prompt, {t.usage.completion_tokens:,} "
               f"completion), {t.tool_calls} tool calls, {t.wall_seconds:.1f}s -> {run_dir / RUN_JSON}")
    for r in final.rollouts:
        if r.status != "ok":
            click.echo(f"  {r.task_id} r{r.rollout}: {r.status}{': ' + r.error if r.error else ''}", err=True)
    if t.errored or t.missing:
        click.echo(f"error: {t.errored + t.missing} rollout(s) not graded; re-run them with: lae run --resume {run_dir}",
                   err=True)
        raise SystemExit(1)
