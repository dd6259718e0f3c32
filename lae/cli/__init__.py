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
import warnings
from pathlib import Path

import click

from lae import __version__
from lae.errors import LaeError
from lae.freeze import UnverifiedReleaseWarning

__all__ = ["main", "cli"]

# Command name -> module exposing a click command named ``command``. A command's module (and
# the library under it) is imported only when that command runs or help lists it: starting
# `lae score` does not load the compiler, the renderer or the report layer (click's lazy
# loading of subcommands, https://click.palletsprojects.com/en/stable/complex/).
_COMMAND_MODULES = {
    "compile": "lae.cli.compile_cmd",
    "score": "lae.cli.score_cmd",
    "schemas": "lae.cli.schemas_cmd",
    "tasks": "lae.cli.tasks_cmd",
    "render": "lae.cli.render_cmd",
    "demo": "lae.cli.demo_cmd",
    "run": "lae.cli.run_cmd",
    "lab": "lae.cli.lab_cmd",
    "freeze": "lae.cli.freeze_cmd",
    "verify": "lae.cli.verify_cmd",
    "report": "lae.cli.report_cmd",
    "judge": "lae.cli.judge_cmd",
    "fidelity": "lae.cli.fidelity_cmd",
}


class _LazyGroup(click.Group):
    """A group whose commands are imported from ``_COMMAND_MODULES`` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _COMMAND_MODULES:
            command = importlib.import_module(_COMMAND_MODULES[cmd_name]).command
            if command.name != cmd_name:
                raise RuntimeError(f"{_COMMAND_MODULES[cmd_name]} defines {command.name!r}, registered as {cmd_name!r}")
            self.add_command(command)
        return self.commands.get(cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lae")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project tree for the command (the same as the command's own --root).")
@click.option("--debug", is_flag=True, help="On an unexpected error (a bug in lae), print the full traceback.")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, debug: bool) -> None:
    """legal-agent-eval: compile, freeze, verify and score legal-agent evaluations."""
    ctx.obj = {"root": root, "debug": debug}


_default_showwarning = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
    """An unverified release is said once, in one plain line; other warnings as Python shows them."""
    if issubclass(category, UnverifiedReleaseWarning):
        click.echo(f"warning: {message}", err=True)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI and map project errors to exit codes."""
    warnings.showwarning = _show_warning
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
