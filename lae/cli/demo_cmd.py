"""``lae demo``: compile check, verify, and score the bundled memos on every pocket."""

from __future__ import annotations

import click

from lae.cli.options import project_from, root_option


@click.command("demo")
@root_option
@click.option("--allow-unfrozen", is_flag=True, help="Score pockets that do not verify (marked not reportable).")
def command(root, allow_unfrozen):
    """Run the whole pipeline on the bundled pockets and print a results table."""
    from lae.demo import run_demo

    run_demo(project_from(root), allow_unfrozen=allow_unfrozen, echo=click.echo)
