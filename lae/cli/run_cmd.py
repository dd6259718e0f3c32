"""``lae run``: run a model (or a replay) on a task and grade every rollout."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from lae.cli.options import pocket_option, root_option


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "model"


@click.command("run")
@root_option
@pocket_option
@click.option("--task", "-t", required=True, help="Task id or scenario slug.")
@click.option("--model", "-m", default=None, help="Model name sent to the endpoint (not needed with --replay).")
@click.option("--base-url", default="https://api.openai.com/v1", show_default=True, help="OpenAI-compatible endpoint.")
@click.option("--api-key-var", default="OPENAI_API_KEY", show_default=True, help="Environment variable holding the API key.")
@click.option("--rollouts", type=click.IntRange(1, 1000), default=3, show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Rollouts in parallel.")
@click.option("--max-turns", type=click.IntRange(1, 500), default=30, show_default=True)
@click.option("--page-chars", type=click.IntRange(200, 200_000), default=6000, show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True,
              help="Run folders go to OUT/<model>/<task>/r<N>/.")
@click.option("--replay", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Drive the episode from a recorded list of tool calls instead of a model.")
@click.option("--allow-unfrozen", is_flag=True, help="Run on a pocket that does not verify; results are not reportable.")
def command(root, pocket, task, model, base_url, api_key_var, rollouts, jobs, max_turns, page_chars, out, replay, allow_unfrozen):
    """Run an agent on a matter and grade what it saves."""
    from lae.catalog import find_task
    from lae.env.client import OpenAICompatibleClient, ReplayClient, load_replay
    from lae.env.environment import load_environment
    from lae.project import Project

    if replay is None and not model:
        raise click.UsageError("give --model (with --base-url) or --replay FILE")
    project = Project.at(root)
    info = find_task(project, task, pocket)
    env = load_environment(info.pocket, task_id=info.task_id, max_turns=max_turns, page_chars=page_chars,
                           allow_unfrozen=allow_unfrozen, tasks_root=project.root)
    steps = load_replay(replay) if replay else None
    label = _safe(model or f"replay-{replay.stem}")
    base = out / label / info.task_id

    def one(i: int):
        client = ReplayClient(list(steps)) if steps is not None else OpenAICompatibleClient(model, base_url, api_key_var)
        run_dir = base / f"r{i}"
        outcome, result = env.run(client, env.tasks[0], run_dir, model=model or label, rollout=i)
        return i, run_dir, outcome, result

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = list(pool.map(one, range(1, rollouts + 1)))
    for i, run_dir, outcome, result in done:
        m = result.metrics
        click.echo(f"r{i}: {outcome.stop_reason} after {outcome.turns} turn(s); reward {m.reward:.3f} "
                   f"recall {m.finding_recall:.3f} complete {m.deliverable_complete:.0f} "
                   f"reportable={'yes' if result.reportable else 'no'}  -> {run_dir}")
    summary = {"task_id": info.task_id, "model": model or label, "rollouts": [
        {"rollout": i, "run_dir": str(d), "stop_reason": o.stop_reason, "metrics": r.metrics.model_dump()} for i, d, o, r in done]}
    (base / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
