"""``lae verify``: recompute every frozen digest and compare with the stamp."""

from __future__ import annotations

from pathlib import Path

import click

from lae.cli.options import json_option, pocket_option, project_from, root_option
from lae.errors import InvalidInputError, VerificationError
from lae.freeze import PocketReport, VerifyReport, audit_pocket
from lae.freeze.freezer import check_known_pocket
from lae.freeze.verify import raise_for


def _text_ok(report: PocketReport) -> str:
    text = f"verified {report.pocket}: root {report.root} ({report.file_count} files)"
    if report.fidelity is not None:
        text += f"\n  fidelity: {report.fidelity.summary()}"
    return text


@click.command("verify")
@root_option
@pocket_option
@json_option
def command(root: Path | None, pocket: str | None, as_json: bool) -> None:
    """Verify frozen pockets: exit 0 and print each root when every file, the grader and
    SHA256SUMS match the stamp; otherwise exit 3 listing every problem."""
    project = project_from(root)
    if pocket:
        check_known_pocket(project, pocket)
    pockets = [pocket] if pocket else project.pockets()
    if not pockets:
        raise InvalidInputError("no pockets to verify")
    reports = [audit_pocket(project, name) for name in pockets]
    failed = [r for r in reports if not r.ok]
    if as_json:
        click.echo(VerifyReport(ok=not failed, pockets=reports).model_dump_json(indent=2))
    else:
        for r in reports:
            if r.ok:
                click.echo(_text_ok(r))
    if len(failed) == 1:
        raise_for(failed[0])
    if failed:
        for r in failed:
            try:
                raise_for(r)
            except VerificationError as exc:
                click.echo(f"error: {exc.report()}", err=True)
        raise VerificationError(f"{len(failed)} of {len(reports)} pocket(s) do not verify: "
                                + ", ".join(r.pocket for r in failed))
