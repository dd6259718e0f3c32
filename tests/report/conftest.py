"""Fixtures for the results layer: one real graded rollout, cloned into run folders.

Scoring is the slow part (documents are indexed), so one memo over the fixture tree
is graded once per session; every other rollout is that result with its metrics,
release or model replaced, written where ``lae run`` / ``lae score --runs`` would.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import docx
import pytest
from lae.freeze import Release
from lae.grader.results import ScoreResult

REPO = Path(__file__).resolve().parents[2]
FIXTURE_TREE = REPO / "tests" / "fixtures" / "tree"
ROOT_A = "a" * 64
ROOT_B = "b" * 64

# One memo that exercises every mark of the audit page.
MEMO = [
    ("Our first and most urgent point concerns timing. The tenant's deadline to exercise the renewal option is "
    "June 30, 2025 under Section 9.1, and operations staff wrongly believe it falls later in the year; we advise "
    "that the client serve written notice of renewal this month."),                      # credits F1
    "We have not yet considered whether the broad-form indemnity in the lease is a problem.",  # near miss F2 (an open question)
    ("The clause reads: Tenant indemnifies Landlord for all claims arising from the premises, including claims "
    "caused by Landlord's own negligence."),                                               # masked quotation
    "The assignment consent clause is a serious risk and the client must renegotiate it before renewal.",  # false flag D2
    "Operations told us that the renewal deadline is in the autumn, and we have relied on that.",  # prohibited claim M1
    "Markup must be escaped: <script>alert('x')</script> & <b>not bold</b> \"quoted\".",
]


def _write_memo(path: Path) -> Path:
    d = docx.Document()
    d.add_heading("Harbor Street lease: risk memo", 1)
    for p in MEMO:
        d.add_paragraph(p)
    d.save(path)
    return path


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> ScoreResult:
    """The fixture memo graded against the fixture tree (unfrozen release)."""
    from lae.compiler.compile import compile_pocket
    from lae.grader.score import prepare_task, score_files

    from lae.project import Project

    tree = tmp_path_factory.mktemp("tree") / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    project = Project.at(tree)
    compile_pocket(project, "fixture")
    ctx = prepare_task(project, "harbor-lease-001", allow_unfrozen=True)
    memo = _write_memo(tmp_path_factory.mktemp("memo") / "lease-risk-memo.docx")
    return score_files(ctx, [memo])


@pytest.fixture(scope="session")
def frozen_graded(tmp_path_factory) -> tuple[Path, ScoreResult]:
    """The fixture memo graded through the gate against a frozen copy of the fixture
    tree: a genuinely reportable result, and the tree ``lae report --root`` checks it against."""
    from lae.compiler.compile import compile_pocket
    from lae.fidelity.release import freeze_measured
    from lae.freeze import render_unfrozen_stamp
    from lae.grader.score import prepare_task, score_files
    from lae.project import Project

    tree = tmp_path_factory.mktemp("frozen") / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    project = Project.at(tree)
    compile_pocket(project, "fixture")
    (tree / "environments").mkdir()
    (tree / "environments" / "fixture_pocket.py").write_text(f'"""Fixture pocket."""\n\n{render_unfrozen_stamp("fixture")}\n')
    config = tree / "keys_private" / "fixture" / "pocket.yaml"  # thresholds the fixture's set meets: reportable
    config.write_text(config.read_text(encoding="utf-8") + "fidelity: {max_over_credit: 1.0, max_under_credit: 1.0}\n",
                      encoding="utf-8")
    freeze_measured(project, "fixture")  # the fixture pocket has a validation set: freeze records its fidelity
    ctx = prepare_task(project, "harbor-lease-001", allow_unfrozen=False)
    memo = _write_memo(tmp_path_factory.mktemp("memo") / "lease-risk-memo.docx")
    result = score_files(ctx, [memo])
    assert result.reportable
    return tree, result


def variant(base: ScoreResult, *, task_id: str | None = None, pocket: str | None = None, freeze_root: str | None = None,
            reportable: bool | None = None, anchors_sha256: str | None = None, **metrics: float | None) -> ScoreResult:
    """``base`` with metrics, task, pocket or release replaced (a frozen root makes it reportable)."""
    if reportable is None:
        reportable = freeze_root is not None
    release = Release(pocket=pocket or base.pocket, reportable=reportable, freeze_root=freeze_root,
                          reason=None if reportable else (base.release.reason or "not frozen"))
    update: dict = {"release": release, "reportable": reportable, "freeze_root": freeze_root}
    if metrics:
        update["metrics"] = base.metrics.model_copy(update=metrics)
    if task_id:
        update["task_id"] = task_id
    if pocket:
        update["pocket"] = pocket
    if anchors_sha256:
        update["anchors_sha256"] = anchors_sha256
    return base.model_copy(update=update)


def write_rollout(folder: Path, result: ScoreResult, *, model: str | None, rollout: int | None = None) -> Path:
    """A rollout folder as ``lae run`` writes it (result.json, rollout.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(json.dumps(result.model_dump(mode="json"), indent=2, sort_keys=True) + "\n")
    meta = {"task_id": result.task_id}
    if model is not None:
        meta["model"] = model
    if rollout is not None:
        meta["rollout"] = rollout
    (folder / "rollout.json").write_text(json.dumps(meta) + "\n")
    return folder


def write_run(out: Path, model: str, results: dict[str, list[ScoreResult]]) -> Path:
    """``OUT/<model>/<task>/r<N>/`` for every task's list of rollouts."""
    for task, rollouts in results.items():
        for i, r in enumerate(rollouts, 1):
            write_rollout(out / model / task / f"r{i}", r, model=model, rollout=i)
    return out
