"""``lae demo``: the whole pipeline on the bundled pockets, as a user would run it.

For each pocket with keys: check the anchors are current (``compile --check``), verify
the freeze, then score the bundled fixture memos (a strong and a generic memo per
matter, under ``tests/fixtures/memos/<pocket>/<task-id>/``) and print a results table.
"""

from __future__ import annotations

import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from lae.errors import LaeError, RefusalError

__all__ = ["DemoRow", "DemoPocket", "run_demo"]


@dataclass(frozen=True)
class DemoRow:
    pocket: str
    task_id: str
    memo: str
    reward: float
    finding_recall: float
    deliverable_complete: float
    false_flag_rate: float
    must_not_say: float
    reportable: bool


@dataclass(frozen=True)
class DemoPocket:
    pocket: str
    compile_ok: bool
    compile_message: str
    verified: bool
    verify_message: str
    rows: tuple[DemoRow, ...]


def run_demo(project, *, allow_unfrozen: bool = False, echo: Callable[[str], None] = print) -> list[DemoPocket]:
    """Run the demo; raise :class:`RefusalError` when a pocket does not verify and
    ``allow_unfrozen`` is false (after reporting every pocket)."""
    memos_root = project.root / "tests" / "fixtures" / "memos"
    with tempfile.TemporaryDirectory(prefix="lae-demo-") as tmp:
        return _run(project, memos_root, Path(tmp), allow_unfrozen=allow_unfrozen, echo=echo)


def _run(project, memos_root: Path, stage: Path, *, allow_unfrozen: bool, echo: Callable[[str], None]) -> list[DemoPocket]:
    from lae.compiler.compile import check_pocket
    from lae.freeze import verify_pocket
    from lae.grader.results import ReleaseInfo
    from lae.grader.score import load_task_context, score_files

    out: list[DemoPocket] = []
    refused: list[str] = []
    pockets = [p for p in project.pockets() if project.anchor_files(p) and (project.root / "environments").is_dir()]
    for pocket in pockets:
        if project.keys_dir(pocket).is_dir():
            try:
                check_pocket(project, pocket)
                compile_ok, compile_msg = True, "anchors current, calibration passing"
            except LaeError as exc:
                compile_ok, compile_msg = False, str(exc.args[0])
        else:
            compile_ok, compile_msg = True, "no private keys here (installed release): compile check skipped"
        try:
            release = verify_pocket(project, pocket)
            verified, verify_msg = True, f"verified, freeze root {release.root}"
            info = ReleaseInfo(reportable=True, freeze_root=release.root)
            if release.fidelity is not None and not release.fidelity.met:  # frozen with --allow-low-fidelity
                verify_msg += "; not reportable: fidelity below its thresholds"
                info = ReleaseInfo(reportable=False, freeze_root=release.root,
                                   reason=f"the release's fidelity is below its thresholds: {release.fidelity.summary()}")
        except LaeError as exc:
            verified, verify_msg = False, str(exc.args[0])
            info = ReleaseInfo(reportable=False, reason=verify_msg)
            refused.append(pocket)
        echo(f"[{pocket}] compile --check: {'ok' if compile_ok else 'FAILED'} ({compile_msg})")
        echo(f"[{pocket}] verify: {'ok' if verified else 'FAILED'} ({verify_msg})")
        rows: list[DemoRow] = []
        if verified or allow_unfrozen:
            for anchors_path in project.anchor_files(pocket):
                task_id = anchors_path.name.split(".anchors.json")[0]
                folder = memos_root / pocket / task_id
                memos = sorted(folder.glob("*.docx")) if folder.is_dir() else []
                if not memos:
                    continue
                ctx = load_task_context(project, task_id, pocket)
                declared = ctx.anchors.deliverables[0]
                for memo in memos:
                    # The memo is graded under the declared name, as an agent would have saved it.
                    staged = _staged(memo, declared, stage)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        result = score_files(ctx, [staged], release=info)
                    m = result.metrics
                    rows.append(DemoRow(pocket, task_id, memo.stem, m.reward, m.finding_recall,
                                        m.deliverable_complete, m.false_flag_rate, m.must_not_say, result.reportable))
        out.append(DemoPocket(pocket, compile_ok, compile_msg, verified, verify_msg, tuple(rows)))
    echo("")
    echo("| Pocket | Task | Memo | Reward | Finding recall | Complete | False flags | Must-not-say | Reportable |")
    echo("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for p in out:
        for r in p.rows:
            echo(f"| {r.pocket} | `{r.task_id}` | {r.memo} | {r.reward:.3f} | {r.finding_recall:.3f} | "
                 f"{r.deliverable_complete:.0f} | {r.false_flag_rate:.3f} | {r.must_not_say:.3f} | {'yes' if r.reportable else 'no'} |")
    if not any(p.rows for p in out):
        echo("(no bundled memos were scored)")
    if refused and not allow_unfrozen:
        raise RefusalError("demo refused to score unverified pockets: " + ", ".join(refused)
                           + " (freeze them with `lae freeze`, or pass --allow-unfrozen to see unreportable scores)")
    return out


def _staged(memo: Path, declared: str, stage: Path) -> Path:
    """A copy of ``memo`` under the declared deliverable name, in the demo's temp folder."""
    import shutil

    folder = stage / memo.parent.parent.name / memo.parent.name / memo.stem
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / declared
    shutil.copyfile(memo, target)
    return target
