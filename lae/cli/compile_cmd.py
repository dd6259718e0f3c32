"""``lae compile``: keys in, anchors out (``--check`` writes nothing)."""

from __future__ import annotations

import json
import sys

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.compiler.compile import compile_pocket


@click.command("compile")
@root_option
@pocket_option
@click.option("--task", "-t", default=None, help="Limit to one task (id or scenario slug).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if any anchors file is stale, missing, orphaned or failing calibration.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Compile keys in this many worker processes (output is identical).")
@json_option
def command(root, pocket, task, check, jobs, as_json):
    """Compile private keys into public anchor specs."""
    project = project_from(root, bundled_ok=False)
    show = sys.stderr.isatty() and not as_json

    def progress(name: str) -> None:
        if show:
            click.echo(f"  compiling {name}", err=True)

    report = compile_pocket(project, pocket, task, check=check, jobs=jobs, progress=progress)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, sort_keys=True))
        return
    for t in report.tasks:
        cal = sum(c.positives_credited for c in t.calibration), sum(c.positives for c in t.calibration)
        neg = sum(c.negatives_rejected for c in t.calibration), sum(c.negatives for c in t.calibration)
        click.echo(f"{t.status:9} {t.anchors_path}  calibration +{cal[0]}/{cal[1]} -{neg[0]}/{neg[1]}")
    verb = "up to date" if check else f"{len(report.changed)} changed"
    click.echo(f"{len(report.tasks)} anchors file(s) in {', '.join(report.pockets)}: {verb}")
