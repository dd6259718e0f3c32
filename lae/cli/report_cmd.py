"""``lae report``: aggregate rollouts into the results table, a JSON summary and an audit report."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lae.cli.judge_cmd import api_key_var_option, base_url_option, judge_project
from lae.cli.options import json_option, root_option
from lae.errors import LayoutError


@click.command("report")
@root_option
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write index.html, rollouts/*.html, report.json and report.md here.")
@click.option("--allow-mixed", is_flag=True,
              help="Combine results from different freeze roots of a pocket, marked mixed and not reportable.")
@click.option("--combine-runs", is_flag=True,
              help="Pool rollouts of the same model and task from different runs (refused by default; listed as a warning).")
@click.option("--judge-model", default=None, help="First run the weight-0 rubric judge on rollouts that lack its judge.json.")
@base_url_option
@api_key_var_option
@json_option
def command(root, runs, out_dir, allow_mixed, combine_runs, judge_model, base_url, api_key_var, as_json):
    """Aggregate rollout results (RUNS: lae run / lae score --runs folders, verifiers results.jsonl or traces.jsonl).

    Prints the Markdown results table per pocket (Model | Setup | Reward | Finding recall |
    Deliverables saved | False flags) with the spread across rollouts; refuses (exit 3) to
    mix freeze roots unless --allow-mixed; LAB (lab_) metrics get a table of their own."""
    from lae.fsio import atomic_write
    from lae.report.aggregate import aggregate, load_runs, render_markdown

    if judge_model:
        _run_judge(root, runs, judge_model, base_url, api_key_var)
    loaded = load_runs(list(runs))
    summary = aggregate(loaded, allow_mixed=allow_mixed, with_pages=out_dir is not None, combine_runs=combine_runs,
                        fidelity=_fidelity(root))
    markdown = render_markdown(summary)
    data = json.loads(summary.model_dump_json())
    if out_dir is not None:
        from lae.report.html import write_html_report

        written = write_html_report(summary, loaded, out_dir)
        atomic_write(out_dir / "report.json", (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode())
        atomic_write(out_dir / "report.md", markdown.encode("utf-8"))
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(markdown, nl=False)
        if out_dir is not None:
            click.echo(f"\nwrote {out_dir / 'index.html'} ({len(written) - 1} rollout page(s)), report.json, report.md")
    if not summary.reportable:
        click.echo("note: these results are not reportable (see the status lines above)", err=True)


def _fidelity(root):
    """Each frozen release's recorded fidelity, from the project tree when there is one."""
    from lae.fidelity.release import recorded_fidelity
    from lae.project import Project

    try:
        return recorded_fidelity(Project.at(root))
    except LayoutError:
        return {}  # no tree at hand: the report states no fidelity


def _run_judge(root, runs, judge_model, base_url, api_key_var) -> None:
    from lae.report.judge import client_from_env, judge_rollout
    from lae.report.models import JudgeRecord
    from lae.chat import public_url
    from lae.runs import JUDGE_JSON, find_rollout_folders

    client = client_from_env(judge_model, base_url=base_url, api_key_var=api_key_var)
    project = judge_project(root)
    for folder in find_rollout_folders([Path(r) for r in runs if Path(r).is_dir()]):
        existing = folder / JUDGE_JSON
        if existing.is_file():
            try:
                old = JudgeRecord.model_validate_json(existing.read_bytes())
                if old.judge_model == judge_model and old.base_url == public_url(base_url):
                    continue
            except ValueError:
                pass
        record = judge_rollout(folder, client, project)
        click.echo(f"judged {folder}: pass rate {record.pass_rate if record.pass_rate is not None else 'n/a'}, "
                   f"{record.errors} error(s)", err=True)
