"""``lae fidelity``: score labelled memos with the real grader and compare with the labels."""

from __future__ import annotations

from pathlib import Path

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.fidelity import folder_set, measure, project_set
from lae.fidelity.markdown import render_markdown

__all__ = ["command"]


@click.command("fidelity")
@root_option
@pocket_option
@click.option("--task", "-t", default=None, help="Limit to one task id.")
@click.option("--memos", "memos_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Read DIR/<pocket>/<task-id>/{labels.json,why.json,X.md,X/<deliverable>} instead of the validation sets.")
@click.option("--memo", "memo_ids", multiple=True, metavar="GLOB",
              help="Only memos whose id matches GLOB (repeatable): '?6' is batch 6, 'D*' every adversarial memo.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, help="Parallel scoring workers.")
@click.option("--all", "show_all", is_flag=True, help="Print every disagreement (default: a dozen representative ones).")
@json_option
def command(root, pocket, task, memos_dir, memo_ids, jobs, show_all, as_json):
    """Measure the grader against a careful reader: over-credit, under-credit, distractor and
    prohibited-claim disagreements, mean reward per memo kind. Pockets need not be frozen:
    this measures the grader, it is not a reported score."""
    project = project_from(root)
    memo_set = folder_set(project, memos_dir, pocket=pocket, task=task) if memos_dir else \
        project_set(project, pocket=pocket, task=task)
    memo_set = memo_set.only(memo_ids)
    if not memo_set.memos:
        raise click.UsageError("no labelled memos found (keys_private/<pocket>/validation/ is empty, or no memo id "
                               "matches --memo); try --memos DIR or another --memo GLOB")

    def bar(stream):
        with click.progressbar(stream, length=len(memo_set.memos), label="scoring",
                               file=click.get_text_stream("stderr")) as shown:
            yield from shown

    report = measure(project, memo_set, jobs=jobs, progress=bar)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        click.echo(render_markdown(report, disagreements=None if show_all else 12, findings=False), nl=False)
