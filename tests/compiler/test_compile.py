"""Compile: outputs, determinism, --check, calibration failures, leaks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from lae.canonical import canonical_bytes, parse_json_strict
from lae.compiler.compile import compile_pocket, private_prose
from lae.compiler.load import load_key
from lae.errors import CalibrationError, CompileError, KeyValidationError
from lae.grader.anchors import load_anchors
from lae.project import Project

KEY_REL = "keys_private/fixture/harbor-lease-001.yaml"
ANCHORS_REL = "anchors/fixture/harbor-lease-001.anchors.json"


def test_compile_writes_canonical_schema_valid_anchors(tree: Path):
    report = compile_pocket(Project.at(tree), "fixture")
    assert [t.status for t in report.tasks] == ["written"]
    data = (tree / ANCHORS_REL).read_bytes()
    value = parse_json_strict(data)
    assert canonical_bytes(value) == data, "anchors must be RFC 8785 canonical bytes"
    jsonschema.validate(value, json.loads((Path(__file__).resolve().parents[2] / "schemas" / "anchors.schema.json").read_text()))
    anchors = load_anchors(tree / ANCHORS_REL)
    assert anchors.provenance.key_path == KEY_REL
    assert len(anchors.provenance.key_sha256) == 64
    assert {c.finding for c in anchors.provenance.calibration} == {"F1", "F2"}
    assert anchors.provenance.source_date_epoch is None
    assert anchors.scoring.false_flag_weight == 0.1


def test_second_compile_writes_nothing(tree: Path):
    project = Project.at(tree)
    compile_pocket(project, "fixture")
    mtime = (tree / ANCHORS_REL).stat().st_mtime_ns
    report = compile_pocket(project, "fixture")
    assert [t.status for t in report.tasks] == ["unchanged"]
    assert (tree / ANCHORS_REL).stat().st_mtime_ns == mtime


def test_source_date_epoch_is_recorded_only_when_set(tree: Path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1735689600")
    compile_pocket(Project.at(tree), "fixture")
    assert load_anchors(tree / ANCHORS_REL).provenance.source_date_epoch == 1735689600


def test_check_passes_when_fresh(tree: Path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    proc = lae("compile", "--check", "--root", str(tree))
    assert proc.returncode == 0, proc.stderr


def test_check_catches_stale_anchors(tree: Path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    key = tree / KEY_REL
    key.write_text(key.read_text().replace("      - parking addendum", "      - parking addendum\n      - garage license"))
    before = (tree / ANCHORS_REL).read_bytes()
    proc = lae("compile", "--check", "--root", str(tree))
    assert proc.returncode == 1
    assert "anchors/fixture/harbor-lease-001.anchors.json: anchors are stale" in proc.stderr
    assert (tree / ANCHORS_REL).read_bytes() == before, "--check writes nothing"


def test_check_catches_missing_and_orphaned_anchors(tree: Path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    shutil.copy(tree / ANCHORS_REL, tree / "anchors/fixture/old-task-009.anchors.json")
    proc = lae("compile", "--check", "--root", str(tree))
    assert proc.returncode == 1
    assert "old-task-009.anchors.json: anchors file has no key (orphaned)" in proc.stderr
    (tree / ANCHORS_REL).unlink()
    proc = lae("compile", "--check", "--json", "--root", str(tree))
    assert proc.returncode == 1
    assert "anchors are missing" in proc.stderr
    # a real compile repairs both
    assert lae("compile", "--root", str(tree)).returncode == 0
    assert not (tree / "anchors/fixture/old-task-009.anchors.json").exists()
    assert lae("compile", "--check", "--root", str(tree)).returncode == 0


def test_calibration_failure_names_sentence_finding_and_reason(tree: Path, lae):
    key = tree / KEY_REL
    bad = "The lease contains an indemnity provision that the tenant signed in 2021 after some negotiation."
    key.write_text(key.read_text().replace(
        "        - Section 11.3 is a broad-form indemnity, and we recommend that the client narrow the indemnity at renewal.",
        "        - Section 11.3 is a broad-form indemnity, and we recommend that the client narrow the indemnity at renewal.\n        - " + bad))
    proc = lae("compile", "--root", str(tree))
    assert proc.returncode == 1
    assert "positive does not credit F2" in proc.stderr and bad in proc.stderr
    assert "findings.F2.calibration.positive[1]" in proc.stderr
    assert not (tree / ANCHORS_REL).exists()
    with pytest.raises(CalibrationError):
        compile_pocket(Project.at(tree), "fixture")


def test_calibration_negative_that_credits_is_refused(tree: Path):
    key = tree / KEY_REL
    key.write_text(key.read_text().replace(
        "        - The lease has an indemnity clause like most commercial leases do.",
        "        - The broad-form indemnity in Section 11.3 is a serious problem for the tenant."))
    with pytest.raises(CalibrationError, match="nothing was written") as info:
        compile_pocket(Project.at(tree), "fixture")
    assert any("negative credits F2" in p.message for p in info.value.problems)


def test_no_private_prose_reaches_the_anchors(tree: Path):
    compile_pocket(Project.at(tree), "fixture")
    text = (tree / ANCHORS_REL).read_text(encoding="utf-8")
    key = load_key(tree / KEY_REL)
    assert "CANARY" not in text
    for field, prose in private_prose(key):
        assert prose not in text, field
    assert "calibration" in text  # results only: counts, not sentences
    for sentence in key.findings[0].calibration.positive:
        assert sentence not in text


def test_private_prose_used_as_a_term_is_refused(tree: Path):
    key = tree / KEY_REL
    text = key.read_text()
    summary = "Negotiate the indemnity down to the tenant's own acts and check insurance"
    text = text.replace("        - confirm insurance coverage", f"        - {summary}")
    text = text.replace("summary: CANARY-SUMMARY-6a7b Negotiate the indemnity down to the tenant's own acts and check insurance.",
                        f"summary: {summary}")
    key.write_text(text)
    with pytest.raises(CompileError, match="leak"):
        compile_pocket(Project.at(tree), "fixture")
    assert not (tree / ANCHORS_REL).exists()


def test_task_selection_by_id(tree: Path):
    report = compile_pocket(Project.at(tree), "fixture", "harbor-lease-001")
    assert [t.task_id for t in report.tasks] == ["harbor-lease-001"]
    with pytest.raises(KeyValidationError, match="selection failed"):
        compile_pocket(Project.at(tree), "fixture", "nope-001")


def test_root_is_found_from_a_subfolder(tree: Path, lae):
    proc = lae("compile", cwd=tree / "tasks" / "fixture")
    assert proc.returncode == 0, proc.stderr
    assert (tree / ANCHORS_REL).is_file()


def test_usage_error_exits_2(lae):
    assert lae("compile", "--no-such-flag").returncode == 2


def test_version(lae):
    proc = lae("--version")
    assert proc.returncode == 0 and "0." in proc.stdout


def test_committed_fixture_anchors_are_current(lae):
    from tests.conftest import FIXTURE_TREE

    proc = lae("compile", "--check", "--root", str(FIXTURE_TREE))
    assert proc.returncode == 0, proc.stderr


def test_red_team_refuses_anchors_that_credit_a_must_not_variant(tree: Path, lae):
    """Long prose-like terms turn the comma list of every term into something that reads as an
    assertion: the compile is refused, each crediting variant listed, and nothing is written."""
    key = tree / KEY_REL
    text = key.read_text(encoding="utf-8").replace(
        "        - calendar the deadline\n",
        "        - calendar the deadline\n"
        "        - tell the operations team that the date for the notice is in June and not in the autumn of this year\n"
        "        - have the general counsel sign the letter to the landlord and send it by courier to the address in the lease\n")
    key.write_text(text, encoding="utf-8")
    before = (tree / ANCHORS_REL).read_bytes() if (tree / ANCHORS_REL).exists() else None
    proc = lae("compile", "--root", str(tree))
    assert proc.returncode == 1
    assert "findings.F1: red team: comma list of all terms variant credits although it must not F1" in proc.stderr
    assert "nothing was written" in proc.stderr
    after = (tree / ANCHORS_REL).read_bytes() if (tree / ANCHORS_REL).exists() else None
    assert before == after


def test_red_team_counts_are_recorded(tree: Path):
    compile_pocket(Project.at(tree), "fixture")
    red = load_anchors(tree / ANCHORS_REL).provenance.red_team
    assert {r.finding for r in red} == {"F1", "F2"}
    assert all(r.must_not_rejected == r.must_not > 10 and r.must >= 1 for r in red)
