"""`lae fidelity` end to end (real subprocess): exact counts on the hand-built fixture set,
one clear error per malformed labels file, the development set under ../shared/fidelity."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import REPO, run_lae
from tests.fidelity.conftest import VALIDATION

SHARED = REPO.parent / "shared" / "fidelity"
SCHEMA = json.loads((REPO / "schemas" / "fidelity.schema.json").read_text(encoding="utf-8"))


def _json(*args: str) -> dict:
    proc = run_lae("fidelity", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, SCHEMA)
    return data


# By construction (tests/fixtures/tree/.../validation/harbor-lease-001/labels.yaml):
#   A: the key's calibration positives for F1, F2, labelled RAISED -> both credited, reward 1.0
#   B: the same two findings in other words, labelled RAISED      -> both missed (under-credit 2), reward 0.4
#   C: F1 dismissed (calibration negative) after a positive it attributes to another matter -> F1 credited
#      (over-credit 1), F2 NOT_RAISED not credited; the declined parking addendum ("needs no action") is
#      not flagged (grader v2: a dismissal cue in the distractor's own sentence), reward 0.7
EXPECTED_TOTALS = {
    "memos": 3, "raised": 4, "raised_not_credited": 2, "not_raised": 2, "not_raised_credited": 1,
    "over_credit": 0.5, "under_credit": 0.5, "distractors": 6, "distractors_escalated_by_grader_only": 0,
    "distractors_escalated_by_label_only": 0, "claims": 3, "claims_made_by_grader_only": 0,
    "claims_made_by_label_only": 0, "mean_reward": round((1.0 + 0.4 + 0.7) / 3, 6),
}


def test_fixture_set_gives_the_hand_computed_counts(compiled_tree: Path) -> None:
    data = _json("--root", str(compiled_tree))
    assert data["totals"] == EXPECTED_TOTALS
    assert {k["kind"]: (k["tally"]["under_credit"], k["tally"]["over_credit"], k["tally"]["mean_reward"])
            for k in data["kinds"]} == {"A": (0.0, None, 1.0), "B": (1.0, None, 0.4), "C": (None, 0.5, 0.7)}
    found = {(d["memo_id"], d["item_id"], d["category"]) for d in data["disagreements"]}
    assert found == {("B", "F1", "under_credit"), ("B", "F2", "under_credit"), ("C", "F1", "over_credit")}
    over = next(d for d in data["disagreements"] if d["category"] == "over_credit")
    assert over["label"] == "DISMISSED" and over["grader"] == "credited"
    assert "Section 9.1" in over["memo_sentence"] and over["grader_reason"]
    assert over["label_sentence"].startswith("For Harbor Street the renewal notice deadline is not a concern")
    f1 = next(f for f in data["findings"] if f["finding_id"] == "F1")["tally"]
    assert (f1["raised"], f1["raised_not_credited"], f1["not_raised"], f1["not_raised_credited"]) == (2, 1, 1, 1)
    assert "no figure here is a reported score" in data["note"]


def test_parallel_scoring_gives_the_same_report(compiled_tree: Path) -> None:
    assert _json("--root", str(compiled_tree), "-j", "2") == _json("--root", str(compiled_tree))


def test_text_output_states_the_figures_and_that_it_is_no_score(compiled_tree: Path) -> None:
    proc = run_lae("fidelity", "--root", str(compiled_tree))
    assert proc.returncode == 0, proc.stderr
    assert "**50.0% over-credit** (1 of 2 findings not raised were credited)" in proc.stdout
    assert "no figure here is a reported score" in proc.stdout


def _edit(root: Path, old: str, new: str) -> Path:
    path = root / VALIDATION / "labels.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


MALFORMED = {
    "missing-id": ("      M1: {label: NOT_MADE}\n  B:", "  B:", "M1", "claim M1 is not labelled", "    labels:"),
    "bad-enum": ("F2: {label: NOT_RAISED}", "F2: {label: MISSED}", "MISSED", "does not match any of the expected tags",
                 "F2: {label: MISSED}"),
    "sentence-not-in-memo": ("The tenant must hold the landlord harmless", "The tenant must indemnify the landlord",
                             "indemnify", "is not in B.md", "The tenant must indemnify"),
    "sentence-on-not-raised": ("F2: {label: NOT_RAISED}", 'F2: {label: NOT_RAISED, sentence: "Section 9.1"}',
                               "sentence", "Extra inputs are not permitted", 'sentence: "Section 9.1"'),
    "distractor-label-on-finding": ("F2: {label: NOT_RAISED}", "F2: {label: NOT_ESCALATED}", "F2",
                                    "F2 is a finding; NOT_ESCALATED is a distractor label", "F2: {label: NOT_ESCALATED}"),
    "yaml-error": ("  C:\n    kind: C", "  C:\n    kind: [C", "kind", "invalid YAML", None),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_labels_exit_1_naming_path_and_line(ftree: Path, case: str) -> None:
    old, new, _field, message, line_of = MALFORMED[case]
    path = _edit(ftree, old, new)
    proc = run_lae("fidelity", "--root", str(ftree), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout == ""
    shown = f"{VALIDATION.as_posix()}/labels.yaml"
    hits = [line for line in proc.stderr.splitlines() if line.startswith(shown + ":") and message in line]
    assert hits, proc.stderr
    m = re.match(re.escape(shown) + r":(\d+)", hits[0])
    assert m, hits[0]
    if line_of is not None:
        assert int(m.group(1)) == _line_of(path, line_of)


def test_a_missing_docx_is_named(ftree: Path) -> None:
    (ftree / VALIDATION / "B" / "lease-risk-memo.docx").unlink()
    proc = run_lae("fidelity", "--root", str(ftree))
    assert proc.returncode == 1
    assert "B/lease-risk-memo.docx is missing (render it: lae render --validation)" in proc.stderr


def test_development_set_end_to_end() -> None:
    if not SHARED.is_dir():  # a skip with its reason; with CI=true tests/conftest.py makes it a failure
        pytest.skip(f"the development set {SHARED} is absent")
    data = _json("--memos", str(SHARED), "-j", "2")
    labels = {p: json.loads(p.read_text(encoding="utf-8")) for p in SHARED.glob("*/*/labels.json")}
    assert data["totals"]["memos"] == sum(len(v) for v in labels.values())
    raised = sum(1 for v in labels.values() for memo in v.values() for label in memo.values() if label == "RAISED")
    assert data["totals"]["raised"] == raised
    assert {k["kind"] for k in data["kinds"]} == {"A", "B", "C", "D", "E", "F", "G"}
    assert len(data["memos"]) == data["totals"]["memos"]
    assert all(d["label_sentence"] or d["label"] in ("NOT_RAISED", "NOT_ESCALATED", "NOT_MADE")
               for d in data["disagreements"])


def test_docs_script_builds_the_report_from_the_json(compiled_tree: Path, tmp_path: Path) -> None:
    saved = tmp_path / "fidelity.json"
    saved.write_text(json.dumps(_json("--root", str(compiled_tree))), encoding="utf-8")
    out = tmp_path / "fidelity.md"
    proc = subprocess.run([sys.executable, str(REPO / "docs" / "build_fidelity_report.py"), "--from", str(saved),
                           "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert "| B | issues table, terse cells | 1 | 0 of 2 | — | — | 100.0% | 0 / 0 | 0 / 0 | 0.400 |" in text
    assert "## Disagreements (3 of 3)" in text
    assert "python docs/build_fidelity_report.py" in text


def test_memo_glob_selects_memos_and_names_the_selection(compiled_tree: Path) -> None:
    data = _json("--root", str(compiled_tree), "--memo", "B", "--memo", "C")
    assert sorted({m["memo_id"] for m in data["memos"]}) == ["B", "C"]
    assert data["totals"]["memos"] == 2 and data["totals"]["raised_not_credited"] == 2
    assert data["source"].endswith("(memo B C)")
    proc = run_lae("fidelity", "--root", str(compiled_tree), "--memo", "Z?")
    assert proc.returncode == 2 and "--memo" in proc.stderr
