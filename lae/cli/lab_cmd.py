"""``lae lab``: Harvey LAB trees."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.group("lab")
def command():
    """Work with Harvey LAB task trees."""


@command.command("check")
@click.option("--tasks-root", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A Harvey LAB tasks folder (<category>/<task>[/<scenario>]/task.json).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def check(tasks_root, as_json):
    """Validate a LAB tree and print counts (tasks, criteria, documents by format)."""
    from lae.env.lab import discover_lab_tasks

    tree = discover_lab_tasks(tasks_root)
    counts = tree.counts()
    if as_json:
        click.echo(json.dumps(counts, indent=2, sort_keys=True))
        return
    formats = ", ".join(f"{k} {v}" for k, v in counts["documents_by_format"].items())
    click.echo(f"{counts['tasks']} tasks, {counts['criteria']} criteria, {counts['documents']} documents ({formats})")
