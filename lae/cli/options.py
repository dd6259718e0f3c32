"""Options shared by several commands, defined once."""

from __future__ import annotations

from pathlib import Path

import click

from lae.project import Project

__all__ = ["root_option", "pocket_option", "json_option", "project_from"]

root_option = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Project tree to work on (default: nearest enclosing folder holding tasks/ and keys_private/ or anchors/).",
)
pocket_option = click.option("--pocket", "-p", default=None, help="Limit to one pocket (default: all).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print a machine-readable JSON summary.")


def project_from(root: Path | None) -> Project:
    return Project.at(root)
