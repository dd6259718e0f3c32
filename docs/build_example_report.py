#!/usr/bin/env python3
"""Rebuild docs/example-report/ from the bundled strong and generic fixture memos.

    python docs/build_example_report.py [--out docs/example-report] [--jobs 4]

Steps (each one an ordinary ``lae`` command, run from this checkout):

1. Stage every ``tests/fixtures/memos/<pocket>/<task-id>/{strong,generic}.docx`` as a
   rollout: ``<tmp>/runs/fixture-<kind>/<task-id>/<declared deliverable>`` with a
   ``rollout.json`` ``{"task_id", "model": "fixture-<kind>", "rollout": 1}``.
2. ``lae verify --pocket P`` for each pocket; if any pocket is not frozen, scoring uses
   ``--allow-unfrozen`` and every result (and the report) says *not reportable*.
3. ``lae score --runs <tmp>/runs/fixture-<kind>`` for both kinds.
4. ``lae report fixture-strong fixture-generic -o <out>`` (run inside ``<tmp>/runs`` so
   the sources the report cites are relative and the output is the same on any machine).
5. With Chromium installed, screenshots of the overview (``screenshot.png``) and of one
   strong rollout page (``screenshot-rollout.png``); without it, the old ones are kept.

The output holds no time, user or absolute path: rebuilding an unchanged tree rewrites
the same bytes (screenshots aside, which depend on the installed fonts).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MEMOS = REPO / "tests" / "fixtures" / "memos"
KINDS = ("strong", "generic")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def lae(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "lae", *args], cwd=cwd or REPO, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        sys.exit(f"lae {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def stage(runs: Path) -> list[str]:
    """Stage every fixture memo as a rollout folder; return the pockets seen."""
    pockets = []
    for pocket_dir in sorted(p for p in MEMOS.iterdir() if p.is_dir()):
        pockets.append(pocket_dir.name)
        for task_dir in sorted(p for p in pocket_dir.iterdir() if p.is_dir()):
            task = json.loads((REPO / "tasks" / pocket_dir.name / task_dir.name / "task.json").read_text(encoding="utf-8"))
            deliverable = next(iter(task["deliverables"]))
            for kind in KINDS:
                folder = runs / f"fixture-{kind}" / task_dir.name
                folder.mkdir(parents=True)
                shutil.copyfile(task_dir / f"{kind}.docx", folder / deliverable)
                meta = {"task_id": task_dir.name, "model": f"fixture-{kind}", "rollout": 1}
                (folder / "rollout.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return pockets


def screenshot(page: Path, png: Path, size: str) -> bool:
    binary = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if binary is None:
        print(f"chromium not installed: {png.name} not refreshed", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory(prefix="lae-chromium-") as profile:
        subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={size}",
                        f"--screenshot={png}", page.resolve().as_uri()], check=True, capture_output=True, timeout=120)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "example-report")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()
    out = args.out.resolve()
    with tempfile.TemporaryDirectory(prefix="lae-example-") as tmp:
        runs = Path(tmp) / "runs"
        pockets = stage(runs)
        unfrozen = [p for p in pockets if lae("verify", "--pocket", p, check=False).returncode != 0]
        extra = ["--allow-unfrozen"] if unfrozen else []
        if unfrozen:
            print(f"not frozen: {', '.join(unfrozen)}; scoring with --allow-unfrozen (results not reportable)",
                  file=sys.stderr)
        for kind in KINDS:
            lae("score", "--root", str(REPO), "--runs", str(runs / f"fixture-{kind}"), "-j", str(args.jobs), *extra)
        report = lae("report", "--root", str(REPO), *(f"fixture-{k}" for k in KINDS), "-o", str(out), cwd=runs)
        print(report.stdout)
    page = next(p for p in sorted((out / "rollouts").glob("*--fixture-strong--r1.html")))
    screenshot(out / "index.html", out / "screenshot.png", "1280,1500")
    screenshot(page, out / "screenshot-rollout.png", "1280,2200")
    print(f"example report in {out.relative_to(REPO) if out.is_relative_to(REPO) else out}")


if __name__ == "__main__":
    main()
