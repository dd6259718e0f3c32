"""``lae judge``: weight-0 rubric-judge telemetry for graded rollouts (writes judge.json)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lae.cli.options import json_option, project_from, root_option

judge_model_option = click.option("--judge-model", required=True, help="Judge model name sent to the endpoint.")
base_url_option = click.option("--base-url", envvar="JUDGE_BASE_URL", default="https://api.openai.com/v1", show_default=True,
                               help="OpenAI-compatible endpoint of the judge (or $JUDGE_BASE_URL).")
api_key_var_option = click.option("--judge-api-key-var", "api_key_var", default="JUDGE_API_KEY", show_default=True,
                                  help="Environment variable holding the judge's API key.")


def judge_project(root: Path | None):
    """The tree whose task.json criteria are judged: --root, the enclosing tree, or the bundled one."""
    return project_from(root)


@click.command("judge")
@root_option
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@judge_model_option
@base_url_option
@api_key_var_option
@click.option("--timeout", type=click.FloatRange(1, 600), default=60.0, show_default=True, help="Seconds per call.")
@click.option("--retries", type=click.IntRange(0, 10), default=3, show_default=True, help="Retries on 429/5xx/timeouts.")
@click.option("-j", "--jobs", type=click.IntRange(1, 32), default=4, show_default=True, help="Criteria judged in parallel.")
@json_option
def command(root, run_dirs, judge_model, base_url, api_key_var, timeout, retries, jobs, as_json):
    """Judge every rubric criterion of each graded rollout under RUN_DIR... (weight 0).

    Writes judge.json beside each result.json: verdict and reasoning per criterion,
    the deterministic proxy's result for comparison, and any call or parse error."""
    from lae.errors import InvalidInputError, Problem
    from lae.report.judge import client_from_env, find_rollout_folders, judge_rollout

    folders = find_rollout_folders(list(run_dirs))
    if not folders:
        raise InvalidInputError("no graded rollouts", [Problem(", ".join(str(d) for d in run_dirs), "no result.json found",
                                                               mend="score the rollouts first: lae score --runs DIR")])
    client = client_from_env(judge_model, base_url=base_url, api_key_var=api_key_var, timeout=timeout, retries=retries)
    project = judge_project(root)
    out = {}
    for folder in folders:
        record = judge_rollout(folder, client, project, jobs=jobs)
        out[str(folder)] = json.loads(record.model_dump_json())
        if not as_json:
            passes = sum(c.verdict == "PASS" for c in record.criteria)
            fails = sum(c.verdict == "FAIL" for c in record.criteria)
            agree = sum(1 for c in record.criteria if c.verdict and c.proxy_passed is not None
                        and (c.verdict == "PASS") == c.proxy_passed)
            decided = passes + fails
            click.echo(f"{folder}: {passes} PASS, {fails} FAIL, {record.errors} error(s); "
                       f"agrees with the proxy on {agree}/{decided} -> {folder / 'judge.json'}")
            for c in record.criteria:
                if c.error:
                    click.echo(f"  {c.id}: {c.error}", err=True)
    if as_json:
        click.echo(json.dumps(out, indent=2, sort_keys=True))
