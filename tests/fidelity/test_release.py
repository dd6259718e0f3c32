"""Fidelity travels with the release: freeze records it, the stamp and verify show it, a
changed validation file is detected, lae report states it, the wheel holds no validation text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lae.errors import FreezeError
from lae.fidelity.release import freeze_measured
from lae.freeze import audit_pocket, freeze_pocket, read_stamp
from lae.project import Project
from tests.conftest import private_copy, run_lae
from tests.fidelity.conftest import VALIDATION

MODULE = Path("environments/fixture_pocket.py")


@pytest.fixture(scope="module")
def frozen_once(compiled_tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled fixture tree frozen by `lae freeze --allow-low-fidelity`, once per module
    (never changed: tests get a copy)."""
    root = tmp_path_factory.mktemp("frozen") / "tree"
    shutil.copytree(compiled_tree, root)
    proc = run_lae("freeze", "--root", str(root), "--pocket", "fixture", "--allow-low-fidelity")
    assert proc.returncode == 0, proc.stderr
    assert ("fidelity       measured at 50.0% over-credit and 50.0% under-credit on 3 labelled memos "
            "(6 labelled findings); thresholds 2.0% / 10.0%: NOT MET (frozen with --allow-low-fidelity: "
            "not reportable)") in proc.stdout
    return root


@pytest.fixture
def frozen(frozen_once: Path, tmp_path: Path) -> Path:
    """A private copy of the frozen tree (a freeze does not depend on the tree's location)."""
    return private_copy(frozen_once, tmp_path)


def test_freeze_below_thresholds_is_refused_and_writes_nothing(ftree: Path) -> None:
    module = (ftree / MODULE).read_bytes()
    proc = run_lae("freeze", "--root", str(ftree), "--pocket", "fixture")
    assert proc.returncode == 3
    assert "pocket 'fixture' is below its fidelity thresholds; nothing was written" in proc.stderr
    assert "freeze with --allow-low-fidelity" in proc.stderr
    assert (ftree / MODULE).read_bytes() == module
    assert not (ftree / "anchors" / "fixture" / "SHA256SUMS").exists()


def test_a_low_fidelity_release_verifies_but_no_result_is_reportable(frozen: Path, tmp_path: Path) -> None:
    assert run_lae("verify", "--root", str(frozen)).returncode == 0
    assert "NOT MET (frozen with --allow-low-fidelity: not reportable)" in (frozen / MODULE).read_text(encoding="utf-8")
    memo = tmp_path / "lease-risk-memo.docx"
    shutil.copy(frozen / VALIDATION / "A" / "lease-risk-memo.docx", memo)
    proc = run_lae("score", "--root", str(frozen), "--task", "harbor-lease-001", str(memo), "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["reportable"] is False and result["freeze_root"]
    assert "fidelity below its thresholds" in result["release"]["reason"]


def test_freeze_records_fidelity_in_the_manifest_and_stamp(frozen: Path) -> None:
    stamp = read_stamp((frozen / MODULE).read_bytes())
    record = stamp.manifest.fidelity
    assert (record.memos, record.labelled_findings, record.over_credit, record.under_credit) == (3, 6, 0.5, 0.5)
    assert (record.max_over_credit, record.max_under_credit, record.met) == (0.02, 0.10, False)
    text = (frozen / MODULE).read_text(encoding="utf-8")
    assert f'# fidelity: {{"labelled_findings":6,"max_over_credit":0.02,' in text
    assert "# fidelity-summary: measured at 50.0% over-credit" in text
    assert "keys_private" not in (frozen / "anchors" / "fixture" / "SHA256SUMS").read_text(encoding="utf-8")


def test_thresholds_come_from_pocket_yaml(ftree: Path) -> None:
    config = ftree / "keys_private" / "fixture" / "pocket.yaml"
    config.write_text(config.read_text(encoding="utf-8")
                      + "fidelity:\n  max_over_credit: 0.5\n  max_under_credit: 0.5\n", encoding="utf-8")
    result = freeze_measured(Project.at(ftree), "fixture")
    assert result.fidelity is not None and result.fidelity.met


def test_verify_prints_fidelity(frozen: Path) -> None:
    proc = run_lae("verify", "--root", str(frozen))
    assert proc.returncode == 0, proc.stderr
    assert "fidelity: measured at 50.0% over-credit and 50.0% under-credit on 3 labelled memos" in proc.stdout
    data = json.loads(run_lae("verify", "--root", str(frozen), "--json").stdout)
    assert data["pockets"][0]["fidelity"]["memos"] == 3


@pytest.mark.parametrize("change", ["edit-memo", "edit-labels", "add-file", "remove-docx"])
def test_verify_detects_a_changed_validation_file(frozen: Path, change: str) -> None:
    folder = frozen / VALIDATION
    if change == "edit-memo":
        (folder / "A.md").write_text((folder / "A.md").read_text(encoding="utf-8") + "\nAdded.\n", encoding="utf-8")
    elif change == "edit-labels":
        (folder / "labels.yaml").write_bytes((folder / "labels.yaml").read_bytes().replace(b"blind", b"blind ", 1))
    elif change == "add-file":
        (folder / "notes.txt").write_text("x", encoding="utf-8")
    else:
        (folder / "C" / "lease-risk-memo.docx").unlink()
    proc = run_lae("verify", "--root", str(frozen))
    assert proc.returncode == 3
    assert "keys_private/fixture/validation: validation_changed: a validation file changed" in proc.stderr


def test_installed_release_without_keys_still_verifies(frozen: Path) -> None:
    shutil.rmtree(frozen / "keys_private")
    report = audit_pocket(Project.at(frozen), "fixture")
    assert report.ok and report.fidelity is not None


def test_freeze_refuses_an_unmeasured_validation_set(ftree: Path) -> None:
    with pytest.raises(FreezeError, match="cannot be frozen") as info:
        freeze_pocket(Project.at(ftree), "fixture")
    assert any(p.field == "fidelity" and "no fidelity measurement" in p.message for p in info.value.problems)


def test_freeze_refuses_a_measurement_of_another_set(ftree: Path) -> None:
    record = freeze_measured(Project.at(ftree), "fixture", allow_low_fidelity=True).fidelity
    (ftree / VALIDATION / "A.md").write_text("changed", encoding="utf-8")
    with pytest.raises(FreezeError) as info:
        freeze_pocket(Project.at(ftree), "fixture", fidelity=record)
    assert any("changed after it was measured" in p.message for p in info.value.problems)


def test_report_states_the_release_fidelity(frozen: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs" / "fixture-model" / "harbor-lease-001"
    rollout = runs / "r1"
    rollout.mkdir(parents=True)
    shutil.copy(frozen / VALIDATION / "A" / "lease-risk-memo.docx", rollout / "lease-risk-memo.docx")
    (rollout / "rollout.json").write_text(json.dumps({"task_id": "harbor-lease-001", "model": "fixture-model"}))
    proc = run_lae("score", "--root", str(frozen), "--runs", str(runs))
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "report"
    proc = run_lae("report", "--root", str(frozen), str(runs), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    sentence = "Graded by a release measured at 50.0% over-credit and 50.0% under-credit on 3 labelled memos"
    assert sentence in proc.stdout
    assert sentence in (out / "index.html").read_text(encoding="utf-8")
    assert json.loads((out / "report.json").read_text())["pockets"][0]["fidelity"]["memos"] == 3



def test_a_hand_edited_fidelity_record_is_caught(frozen: Path) -> None:
    module = frozen / MODULE
    text = module.read_text(encoding="utf-8")
    assert '"over_credit":0.5,' in text and "measured at 50.0% over-credit" in text
    module.write_text(text.replace('"over_credit":0.5,', '"over_credit":0.01,').replace(
        "measured at 50.0% over-credit", "measured at 1.0% over-credit"), encoding="utf-8")
    proc = run_lae("verify", "--root", str(frozen))
    assert proc.returncode == 3
    assert "stamp_edited: the stamp's recorded root does not match its contents" in proc.stderr
