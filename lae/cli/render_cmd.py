"""``lae render``: sources in, matter documents and task.json out (``--check`` writes nothing)."""

from __future__ import annotations

import json

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.render import render_memos, render_project, render_validation

__all__ = ["command"]


@click.command("render")
@root_option
@pocket_option
@click.option("--task", "-t", default=None, help="Limit to one task id.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 listing every file that would change.")
@click.option("--memos", is_flag=True,
              help="Render tests/fixtures/memos/**/*.md to .docx beside each (instead of the matter documents).")
@click.option("--validation", is_flag=True,
              help="Render keys_private/<pocket>/validation/<task>/<id>.md to <id>/<declared deliverable>.docx "
                   "(--task: one matter's memos only).")
@json_option
def command(root, pocket, task, check, memos, validation, as_json):
    """Render sources/<pocket>/<task>/ into tasks/<pocket>/<task>/documents/ and task.json.

    Only files whose bytes change are written; nothing is deleted (a document
    without a source is an error). Re-rendering reproduces the files byte for byte.
    """
    project = project_from(root, bundled_ok=False)
    if memos and (pocket or task):
        raise click.UsageError("--memos renders every test memo; it takes no --pocket/--task")
    if memos and validation:
        raise click.UsageError("give --memos or --validation, not both")
    if memos:
        report = render_memos(project, check=check)
    elif validation:
        report = render_validation(project, pocket=pocket, task=task, check=check)
    else:
        report = render_project(project, pocket=pocket, task=task, check=check)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, sort_keys=True))
    else:
        verb = "would change" if check else "wrote"
        for path in sorted(report.changed):
            click.echo(f"{verb} {path}")
        what = "memo(s)" if memos or validation else "file(s)"
        tail = f"{len(report.changed)} {verb}, {len(report.unchanged)} unchanged"
        click.echo(f"{len(report.changed) + len(report.unchanged)} {what}: {tail}")
    report.raise_for_problems()
