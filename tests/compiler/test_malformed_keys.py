"""Malformed keys: every one exits 1 with a ``path:line`` message and writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_TREE

KEY_REL = "keys_private/fixture/harbor-lease-001.yaml"
GOOD = (FIXTURE_TREE / KEY_REL).read_text(encoding="utf-8")


def _replace(old: str, new: str, count: int = 1):
    def mutate(text: str) -> str:
        assert old in text, f"fixture changed: {old!r} not found"
        return text.replace(old, new, count)
    return mutate


def _append(extra: str):
    return lambda text: text + extra


CASES = [
    # (id, mutation, expected message fragment)
    ("tab-indent", _replace("  - id: F1", "\t- id: F1"), "tab"),
    ("duplicate-key", _replace("work_type: Real estate", "work_type: Real estate\nwork_type: Leasing"), "duplicate key"),
    ("alias", _replace("  - id: D1\n", "  - &d1\n    id: D1\n"), "anchors"),
    ("alias-bomb", _append("lol: &a [x, x]\nlol2: [*a, *a]\n"), "not allowed"),
    ("syntax", _replace("subject:\n      - parking addendum", "subject: [parking addendum"), "invalid YAML"),
    ("empty-file", lambda t: "", "empty"),
    ("top-level-list", lambda t: "- a\n- b\n", "mapping"),
    ("unknown-field", _replace("work_type: Real estate", "work_type: Real estate\nworktype: typo"), "Extra inputs"),
    ("missing-findings", lambda t: re.sub(r"findings:\n(.*?)\ndistractors:", "distractors:", t, flags=re.S), "findings"),
    ("unknown-severity", _replace("severity: critical", "severity: catastrophic"), "catastrophic"),
    ("one-subject", _replace("      - renewal notice\n      - Section 9.1\n", ""), "subject"),
    ("generic-problem", _replace("      - broad-form\n", "      - significant legal risk\n"), "generic risk language"),
    ("phrase-syntax", _replace("      - broad-form\n", "      - broad-form | narrow\n"), "phrase syntax"),
    ("v1-key", _replace("schema_version: 2", "schema_version: 1"), "format v1 is no longer accepted"),
    ("no-calibration", lambda t: re.sub(r"    calibration:\n      positive:\n        - Section 11\.3.*?\n      negative:\n(        - .*\n)+", "", t), "calibration"),
    ("empty-positive", _replace("      positive:\n        - Section 11.3 is a broad-form indemnity, and we recommend that the client narrow the indemnity at renewal.\n", "      positive: []\n"), "positive"),
    ("duplicate-finding-id", _replace("  - id: F2", "  - id: F1"), "duplicate id"),
    ("unknown-finding-ref", _replace("proxy: {kind: finding, finding: F2}", "proxy: {kind: finding, finding: F9}"), "unknown finding"),
    ("unknown-proxy-kind", _replace("proxy: {kind: deliverable_saved}", "proxy: {kind: vibes}"), "kind"),
    ("deliverable-ext-differs", _replace("deliverable: lease-risk-memo.docx", "deliverable: lease-risk-memo.md"), "differs from the task's declared"),
    ("deliverable-ext-ungradable", _replace("deliverable: lease-risk-memo.docx", "deliverable: lease-risk-memo.pdf"), "not gradable"),
    ("task-id-vs-filename", _replace("task_id: harbor-lease-001", "task_id: harbor-lease-002"), "file name"),
    ("pocket-vs-folder", _replace("pocket: fixture", "pocket: other-pocket"), "folder"),
    ("empty-distractors", lambda t: re.sub(r"distractors:\n.*?\nmust_not_say:", "distractors: []\nmust_not_say:", t, flags=re.S), "distractors"),
    ("one-distractor", lambda t: re.sub(r"  - id: D2\n.*?\nmust_not_say:", "must_not_say:", t, flags=re.S), "distractors"),
    ("empty-must-not-say", lambda t: re.sub(r"must_not_say:\n.*?\nrubric:", "must_not_say: []\nrubric:", t, flags=re.S), "must_not_say"),
    ("empty-rubric", lambda t: t.split("rubric:")[0] + "rubric: []\n", "rubric"),
    ("bad-criterion-id", _replace("  - id: C-001", "  - id: X-1"), "pattern"),
    ("bad-date", _replace("matter_date: 2025-03-10", "matter_date: 2025-13-45"), "matter_date"),
    ("schema-version", _replace("schema_version: 2", "schema_version: 3"), "schema_version"),
    ("record-document-missing", _replace("        document: 01-lease-extract.txt\n      - term: Section 9.1", "        document: 07-missing.docx\n      - term: Section 9.1"), "07-missing.docx"),
    ("phrase-repeated", _replace("      - broad-form\n", "      - broad-form\n      - Broad-form\n"), "listed twice"),
    ("criterion-foreign-deliverable", _replace("    proxy: {kind: deliverable_saved}", "    deliverables: [other.docx]\n    proxy: {kind: deliverable_saved}"), "not the key's"),
    ("findings-any-min", _replace("proxy: {kind: findings_all, findings: [F1, F2]}", "proxy: {kind: findings_any, findings: [F1, F2], min: 3}"), "exceeds"),
    ("invalid-utf8", None, "UTF-8"),
]


@pytest.mark.parametrize("case_id,mutate,fragment", CASES, ids=[c[0] for c in CASES])
def test_malformed_key_exits_1_with_location_and_writes_nothing(tree: Path, lae, case_id, mutate, fragment):
    key_path = tree / KEY_REL
    if mutate is None:
        key_path.write_bytes(GOOD.encode("utf-8").replace(b"Morgan", b"M\xffrgan"))
    else:
        key_path.write_text(mutate(GOOD), encoding="utf-8")
    before = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*"))
    proc = lae("compile", "--root", str(tree))
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert re.search(r"keys_private/fixture/harbor-lease-001\.yaml:\d+", proc.stderr), proc.stderr
    assert fragment.lower() in proc.stderr.lower(), proc.stderr
    after = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*"))
    assert after == before, "a failed compile must write nothing"
    assert not list((tree / "anchors").rglob("*.anchors.json"))


def test_every_problem_is_reported_at_once(tree: Path, lae):
    text = GOOD.replace("severity: critical", "severity: catastrophic").replace("proxy: {kind: finding, finding: F2}", "proxy: {kind: finding, finding: F9}")
    text = text.replace("  - id: C-001", "  - id: X-1")
    (tree / KEY_REL).write_text(text, encoding="utf-8")
    proc = lae("compile", "--root", str(tree))
    assert proc.returncode == 1
    assert "catastrophic" in proc.stderr and "X-1" in proc.stderr
