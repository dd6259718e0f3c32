"""One door to a reportable result: only the freeze gate makes one, and every path goes
through it (``lae score``, ``lae score --runs``, ``lae demo``, the environment)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from lae.env.config import parse_env_args
from lae.env.environment import PocketEnvironment, load_environment
from lae.freeze import OpenedPocket, Release, UnverifiedReleaseWarning
from lae.grader.score import load_task_context
from lae.project import Project
from tests.conftest import ATTACK_POCKET, ATTACK_TASK, release_copy, run_lae, staged_memo, tamper_anchors

ANCHORS = f"anchors/{ATTACK_POCKET}/{ATTACK_TASK}.anchors.json"


def _tamper(root: Path) -> None:
    """Raise the deliverable weight: a generic memo would score 1.0 instead of 0.4."""
    tamper_anchors(root / ANCHORS)


@pytest.fixture
def tampered(tmp_path: Path) -> Path:
    root = release_copy(tmp_path / "release")  # verifies untampered (tests/conftest.py checks the release once)
    _tamper(root)
    return root


def test_score_allow_unfrozen_on_a_tampered_tree_says_so_in_one_line(tampered: Path, tmp_path: Path) -> None:
    memo = staged_memo(tmp_path / "memo")
    proc = run_lae("score", "--root", str(tampered), "--task", ATTACK_TASK, "--allow-unfrozen", str(memo))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"warning: results are not reportable: pocket '{ATTACK_POCKET}' does not match its freeze")
    assert ANCHORS in lines[0] and "Warning" not in lines[0] and "error:" not in proc.stderr
    assert "reportable=NO" in proc.stdout


def test_score_refuses_a_tampered_tree_without_the_opt_in(tampered: Path, tmp_path: Path) -> None:
    proc = run_lae("score", "--root", str(tampered), "--task", ATTACK_TASK, str(staged_memo(tmp_path / "memo")))
    assert proc.returncode == 3 and ANCHORS in proc.stderr and "reward" not in proc.stdout


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_runs_goes_through_the_gate(tampered: Path, tmp_path: Path, jobs: str) -> None:
    runs = tmp_path / "runs"
    for i in (1, 2, 3):
        staged_memo(runs / f"r{i}")
        (runs / f"r{i}" / "rollout.json").write_text(json.dumps({"task_id": ATTACK_TASK}))
    proc = run_lae("score", "--root", str(tampered), "--runs", str(runs), "-j", jobs)
    assert proc.returncode == 3 and ANCHORS in proc.stderr
    proc = run_lae("score", "--root", str(tampered), "--runs", str(runs), "-j", jobs, "--allow-unfrozen")
    assert proc.returncode == 0, proc.stderr
    assert sum(line.startswith("warning: results are not reportable") for line in proc.stderr.splitlines()) == 1
    summary = json.loads((runs / "summary.json").read_text())
    assert [r["reportable"] for r in summary["results"].values()] == [False] * 3
    assert all(r["freeze_root"] is None for r in summary["results"].values())


def test_demo_goes_through_the_gate(tampered: Path) -> None:
    proc = run_lae("demo", "--root", str(tampered), timeout=600)
    assert proc.returncode == 3 and f"[{ATTACK_POCKET}] verify: FAILED" in proc.stdout
    assert not [line for line in proc.stdout.splitlines() if line.endswith("| yes |")]
    proc = run_lae("demo", "--root", str(tampered), "--allow-unfrozen", timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith(f"| {ATTACK_POCKET} |")]
    assert len(rows) == 10 and all(r.endswith("| no |") for r in rows)
    assert sum(line.startswith("warning: results are not reportable") for line in proc.stderr.splitlines()) == 1


def test_environment_goes_through_the_gate(tampered: Path, tmp_path: Path) -> None:
    with pytest.warns(UnverifiedReleaseWarning, match="results are not reportable"):
        env = load_environment(ATTACK_POCKET, tasks_root=str(tampered), allow_unfrozen=True)
    result = env.score(env.task(ATTACK_TASK), staged_memo(tmp_path / "ws").parent)
    assert result.reportable is False and result.freeze_root is None and ANCHORS in (result.release.reason or "")


def test_environment_with_overridden_weights_is_not_reportable(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    env = load_environment(ATTACK_POCKET, tasks_root=str(root), false_flag_weight=0.5)
    result = env.score(env.task(ATTACK_TASK), staged_memo(tmp_path / "ws").parent)
    assert env.release.reportable and not result.reportable
    assert result.release.reason == "scoring weights overridden: false_flag_weight=0.5"


def test_an_environment_cannot_be_handed_a_forged_release(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    project = Project.at(root)
    forged = OpenedPocket.__new__(OpenedPocket)  # skips the constructor's key check; never registered
    env = PocketEnvironment(ATTACK_POCKET, parse_env_args(tasks_root=str(root)), project, [], forged)
    with pytest.raises(RuntimeError, match="opened by lae.freeze.open_pocket"):
        env.context(type("T", (), {"task_id": ATTACK_TASK})())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError):
        OpenedPocket(object(), project, Release(pocket=ATTACK_POCKET, reportable=True, freeze_root="0" * 64), None, {}, {})


def test_scoring_refuses_a_context_not_built_from_the_gate(tmp_path: Path) -> None:
    from dataclasses import replace

    from lae.grader.score import score_files

    root = release_copy(tmp_path / "release")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a verified release warns nothing
        env = load_environment(ATTACK_POCKET, tasks_root=str(root))
    ctx = load_task_context(env.opened, ATTACK_TASK)
    copied = replace(ctx, overrides={})  # same fields, but not made by load_task_context
    with pytest.raises(RuntimeError, match="freeze gate"):
        score_files(copied, [staged_memo(tmp_path / "ws")])


def test_measuring_the_grader_goes_through_the_gate_and_is_never_reportable(tmp_path: Path) -> None:
    from lae.fidelity.measure import MEASUREMENT_RELEASE
    from lae.freeze import open_for_measurement
    from lae.grader.score import score_files

    root = release_copy(tmp_path / "release")  # frozen and verifying, yet a measurement is not a report
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opened = open_for_measurement(Project.at(root), ATTACK_POCKET, reason=MEASUREMENT_RELEASE)
        result = score_files(load_task_context(opened, ATTACK_TASK), [staged_memo(tmp_path / "ws")])
    assert not result.reportable and result.freeze_root is None and result.release.reason == MEASUREMENT_RELEASE
