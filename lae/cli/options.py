"""Options shared by several commands, defined once, and how a command finds its tree."""

from __future__ import annotations

from pathlib import Path

import click

from lae.errors import LayoutError
from lae.project import Project, bundled_root

__all__ = ["root_option", "pocket_option", "json_option", "project_from"]

ROOT_HELP = ("Project tree to work on (default: the nearest enclosing folder holding tasks/ and keys_private/ or "
             "anchors/, else the release bundled with the installed package). Accepted before or after the command name.")


def _root_from_group(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """``lae --root DIR cmd`` and ``lae cmd --root DIR`` mean the same; the command's own wins."""
    if value is not None:
        return value
    obj = ctx.find_root().obj
    return obj.get("root") if isinstance(obj, dict) else None


root_option = click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
                           callback=_root_from_group, help=ROOT_HELP)
pocket_option = click.option("--pocket", "-p", default=None, help="Limit to one pocket (default: all).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print a machine-readable JSON summary.")

_announced: set[Path] = set()


def project_from(root: Path | None, *, bundled_ok: bool = True) -> Project:
    """The tree a command works on: ``--root``, else the enclosing tree, else (for commands
    that never write into it) the bundled release, announced once on stderr."""
    if root is not None:
        return Project.at(root)
    try:
        return Project.at(None)
    except LayoutError:
        if not bundled_ok:
            raise
        bundled = bundled_root()
    if bundled not in _announced:
        _announced.add(bundled)
        click.echo(f"note: no project tree here; using the release bundled with lae at {bundled}", err=True)
    return Project.at(bundled)
