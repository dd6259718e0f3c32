"""``lae freeze``: hash, stamp and write SHA256SUMS for one pocket or all."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.errors import FreezeError, LaeError, RefusalError, InvalidInputError
from lae.fidelity.release import freeze_measured
from lae.freeze import DEFAULT_LOCK_TIMEOUT, FreezeResult


def _text(result: FreezeResult) -> str:
    def status(rel: str) -> str:
        return "rewritten" if rel in result.written else "unchanged"

    check = result.compile_check
    if result.compile_check_note:
        check += f": {result.compile_check_note}"
    fidelity = result.fidelity.summary() if result.fidelity else "no validation set"
    return "\n".join([
        f"froze {result.pocket}: {result.task_count} task(s), {result.file_count} file(s)",
        f"  root           {result.root}",
        f"  stamp          {result.module_path} ({status(result.module_path)})",
        f"  SHA256SUMS     {result.sums_path} ({status(result.sums_path)})",
        f"  compile check  {check}",
        f"  fidelity       {fidelity}",
        f"  check by hand  sha256sum -c {result.sums_path}   (run from the project root)",
    ])


@click.command("freeze")
@root_option
@pocket_option
@json_option
@click.option("--lock-timeout", type=click.FloatRange(min=0), default=DEFAULT_LOCK_TIMEOUT, show_default=True,
              help="Seconds to wait for another freeze of the same pocket before refusing.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, help="Parallel workers measuring the validation set.")
@click.option("--allow-low-fidelity", is_flag=True,
              help="Freeze a pocket whose measured fidelity is below its thresholds; the release is not reportable.")
def command(root: Path | None, pocket: str | None, as_json: bool, lock_timeout: float, jobs: int,
            allow_low_fidelity: bool) -> None:
    """Freeze pockets: hash every file a score depends on, stamp the environment module
    header and write anchors/<pocket>/SHA256SUMS. Refuses (exit 3) unless
    `lae compile --check` passes. A pocket with a validation set is measured first
    (`lae fidelity`) and refused (exit 3) below its thresholds unless --allow-low-fidelity,
    which records the figures and marks the release and every result made with it not
    reportable."""
    project = project_from(root, bundled_ok=False)
    pockets = [pocket] if pocket else project.pockets()
    if not pockets:
        raise InvalidInputError("no pockets to freeze")
    results: list[FreezeResult] = []
    errors: list[tuple[str, LaeError]] = []
    for name in pockets:
        try:
            results.append(freeze_measured(project, name, lock_timeout=lock_timeout, jobs=jobs,
                                           allow_low_fidelity=allow_low_fidelity))
        except LaeError as exc:
            errors.append((name, exc))
            if not as_json and len(pockets) > 1:
                click.echo(f"refused {name}: {exc.report()}", err=True)
        else:
            if not as_json:
                click.echo(_text(results[-1]))
    if as_json:
        click.echo(json.dumps({
            "ok": not errors,
            "pockets": [r.model_dump(mode="json") for r in results],
            "refused": [{"pocket": n, "error": str(e.args[0]), "problems": [str(p) for p in e.problems]}
                        for n, e in errors],
        }, indent=2, sort_keys=True))
    if len(errors) == 1 and len(pockets) == 1:
        raise errors[0][1]
    if errors:
        names = ", ".join(n for n, _ in errors)
        if any(isinstance(e, RefusalError) for _, e in errors):
            raise FreezeError(f"{len(errors)} of {len(pockets)} pocket(s) not frozen: {names}")
        raise InvalidInputError(f"{len(errors)} of {len(pockets)} pocket(s) not frozen: {names}")
