#!/usr/bin/env python3
"""Regenerate docs/fidelity.md from `lae fidelity --json`.

    python docs/build_fidelity_report.py                          # the project's validation sets
    python docs/build_fidelity_report.py --memos ../shared/fidelity   # a development set instead
    python docs/build_fidelity_report.py --from fidelity.json     # an earlier `lae fidelity --json`

Runs the real `lae fidelity --json -j N` from this checkout, validates the output against
schemas/fidelity.schema.json, and writes the tables per memo kind, per pocket and per
pocket and kind, per finding, and a dozen representative disagreements. The output holds
no time, user or absolute path: the same grader and labels give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import jsonschema

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lae.fidelity.markdown import render_markdown  # noqa: E402
from lae.fidelity.models import FidelityReport  # noqa: E402
from lae.fsio import atomic_write  # noqa: E402


def _run(memos: str | None, jobs: int) -> str:
    args = [sys.executable, "-m", "lae", "fidelity", "--json", "-j", str(jobs)]
    if memos:
        args += ["--memos", memos]
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"lae fidelity failed (exit {proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memos", default=None, help="Score a development folder instead of the validation sets.")
    parser.add_argument("--from", dest="source", type=Path, default=None, help="Read a saved `lae fidelity --json`.")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "fidelity.md")
    opts = parser.parse_args()
    text = opts.source.read_text(encoding="utf-8") if opts.source else _run(opts.memos, opts.jobs)
    data = json.loads(text)
    jsonschema.validate(data, json.loads((REPO / "schemas" / "fidelity.schema.json").read_text(encoding="utf-8")))
    report = FidelityReport.model_validate(data)
    command = "python docs/build_fidelity_report.py" + (f" --memos {opts.memos}" if opts.memos else "")
    body = render_markdown(report, title="Grader fidelity (grader v2: rule engine and learned assertion layer)", command=command)
    atomic_write(opts.out, body.encode("utf-8"))
    print(f"wrote {opts.out.relative_to(REPO) if opts.out.is_relative_to(REPO) else opts.out}: "
          f"{report.totals.memos} memos, {len(report.disagreements)} disagreements")


if __name__ == "__main__":
    main()
