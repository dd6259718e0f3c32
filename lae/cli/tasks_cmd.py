"""``lae tasks``: list the matters of each pocket."""

from __future__ import annotations

import json

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.catalog import list_tasks


@click.command("tasks")
@root_option
@pocket_option
@json_option
def command(root, pocket, as_json):
    """List the matters (task id, slug, deliverable, documents, criteria)."""
    project = project_from(root)
    rows = list_tasks(project, pocket)
    if as_json:
        click.echo(json.dumps([r.as_dict() for r in rows], indent=2))
        return
    if not rows:
        click.echo("no tasks")
        return
    click.echo("| Pocket | Task | Slug | Title | Deliverable | Documents | Criteria |")
    click.echo("| --- | --- | --- | --- | --- | ---: | ---: |")
    for r in rows:
        click.echo(f"| {r.pocket} | `{r.task_id}` | {r.scenario_slug or ''} | {r.title} | `{', '.join(r.deliverables)}` | {r.documents} | {r.criteria} |")
