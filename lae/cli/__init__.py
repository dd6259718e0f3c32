"""The ``lae`` command: a thin click shell over the library.

Each command lives in its own module under ``lae.cli`` and is registered below.
The shell catches :class:`lae.errors.LaeError` once and maps it to an exit code:
0 ok, 1 invalid input, 2 usage, 3 refusal. Any other exception is a bug in lae: one
line says so (exit 1), and ``--debug`` shows the traceback.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

import click

from lae import __version__
from lae.errors import LaeError

__all__ = ["main", "cli"]

# Command modules, each exposing a click command named ``command``.
_COMMAND_MODULES = [
    "lae.cli.compile_cmd",
    "lae.cli.score_cmd",
    "lae.cli.schemas_cmd",
    "lae.cli.tasks_cmd",
    "lae.cli.render_cmd",
    "lae.cli.demo_cmd",
    "lae.cli.run_cmd",
    "lae.cli.lab_cmd",
    "lae.cli.freeze_cmd",
    "lae.cli.verify_cmd",
    "lae.cli.report_cmd",
    "lae.cli.judge_cmd",
    "lae.cli.fidelity_cmd",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lae")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project tree for the command (the same as the command's own --root).")
@click.option("--debug", is_flag=True, help="On an unexpected error (a bug in lae), print the full traceback.")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, debug: bool) -> None:
    """legal-agent-eval: compile, freeze, verify and score legal-agent evaluations."""
    ctx.obj = {"root": root, "debug": debug}


for _name in _COMMAND_MODULES:
    cli.add_command(importlib.import_module(_name).command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI and map project errors to exit codes."""
    try:
        cli.main(args=argv, prog_name="lae", standalone_mode=False)
    except LaeError as exc:
        click.echo(f"error: {exc.report()}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2 if isinstance(exc, click.UsageError) else 1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - anything else is a bug: one line, the traceback behind --debug
        if "--debug" in (sys.argv[1:] if argv is None else argv):
            traceback.print_exc()
        first = (str(exc).strip().splitlines() or [""])[0][:300]
        click.echo(f"error: internal error (a bug in lae, please report it): {type(exc).__name__}: {first} "
                   "(re-run with `lae --debug ...` for the traceback)", err=True)
        sys.exit(1)
    sys.exit(0)
