"""The bundled pockets: counts, readable documents, compiling keys, and the fixture memos.

One parametrized suite for every pocket (issues 5, 6 and 7's "must show")."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from lae.compiler.compile import private_prose
from lae.compiler.load import load_key
from lae.grader.documents import read_document
from lae.grader.score import prepare_task, score_files
from lae.project import Project

REPO = Path(__file__).resolve().parents[2]
PROJECT = Project.at(REPO)
MEMOS = REPO / "tests" / "fixtures" / "memos"

POCKETS = {
    "employment-law": {"atlas-noncompete-001": 42, "brightline-overtime-002": 42, "cobalt-pwfa-003": 42,
                       "delta-warn-004": 42, "ember-contractor-005": 42},
    "ai-law": {"ai-orion-compute-001": 48, "ai-frontier-weights-002": 42, "ai-gpu-reseller-003": 42,
               "ai-cloud-training-004": 42, "ai-model-export-005": 42},
    "corporate-governance": {"northstar-stockholder-001": 42, "evergreen-controller-002": 42,
                             "pioneer-resignation-003": 42, "ridgeway-books-004": 42, "solstice-committee-005": 42},
}
SLUGS = {"ai-orion-compute-001": "orion-compute-001", "ai-frontier-weights-002": "frontier-weights-002",
         "ai-gpu-reseller-003": "gpu-reseller-003", "ai-cloud-training-004": "cloud-training-004",
         "ai-model-export-005": "model-export-005"}
WEIGHTS = {"employment-law": (0.1, 0.1), "ai-law": (0.0, 0.0), "corporate-governance": (0.0, 0.0)}
MATTERS = [(p, t) for p, tasks in POCKETS.items() for t in tasks]
FORMATS = {"docx", "pdf", "xlsx", "eml", "txt"}


@pytest.mark.parametrize("pocket", sorted(POCKETS))
def test_pocket_has_exactly_its_matters(pocket):
    keys = {p.name[:-5] for p in PROJECT.key_files(pocket)}
    tasks = {p.name for p in PROJECT.tasks_dir(pocket).iterdir() if p.is_dir()}
    anchors = {p.name.split(".anchors.json")[0] for p in PROJECT.anchor_files(pocket)}
    assert keys == tasks == anchors == set(POCKETS[pocket])


# That every pocket's anchors are current and calibrated (`check_pocket`, i.e. `lae compile
# --check`) is asserted by tests/test_demo.py, whose `lae demo` runs that check on every bundled
# pocket ("[pocket] compile --check: ok"); running it here too compiled each pocket twice.


@lru_cache(maxsize=None)
def _key(pocket, task):
    return load_key(PROJECT.key_path(pocket, task), project=PROJECT)


@pytest.mark.parametrize("pocket,task", MATTERS)
def test_matter_shape(pocket, task):
    key = _key(pocket, task)
    assert len(key.findings) == 7
    assert len(key.distractors) >= 2 and len(key.must_not_say) >= 1
    assert len(key.rubric) == POCKETS[pocket][task]
    assert {f.severity for f in key.findings} >= {"critical", "high"}, "a realistic severity spread"
    assert key.scenario_slug == SLUGS.get(task)
    docs = sorted((PROJECT.task_dir(pocket, task) / "documents").iterdir())
    assert len(docs) == 9
    assert {d.suffix.lstrip(".") for d in docs} == FORMATS
    for d in docs:
        text = read_document(d).text
        assert len(text.split()) >= 150, f"{d.name} is not substantive ({len(text.split())} words)"


@pytest.mark.parametrize("pocket,task", MATTERS)
def test_task_json_is_public_lab_layout(pocket, task):
    key = _key(pocket, task)
    data = json.loads((PROJECT.task_dir(pocket, task) / "task.json").read_text(encoding="utf-8"))
    assert isinstance(data["instructions"], str) and data["instructions"] == key.instructions
    assert data["deliverables"] == {key.deliverable: key.deliverable}
    assert [c["id"] for c in data["criteria"]] == [c.id for c in key.rubric]
    assert all(set(c) == {"id", "title", "match_criteria", "deliverables"} for c in data["criteria"])
    raw = json.dumps(data)
    for field, prose in private_prose(key):
        assert prose not in raw, f"private {field} leaked into task.json"


@pytest.mark.parametrize("pocket,task", MATTERS)
def test_anchors_carry_the_pocket_weights(pocket, task):
    ctx = _context(pocket, task)
    assert (ctx.anchors.scoring.false_flag_weight, ctx.anchors.scoring.must_not_say_weight) == WEIGHTS[pocket]


@lru_cache(maxsize=None)
def _context(pocket, task):
    return prepare_task(PROJECT, task, pocket, allow_unfrozen=False)  # the bundled pockets are frozen


def _score(pocket, task, which, tmp_path):
    ctx = _context(pocket, task)
    source = MEMOS / pocket / task / f"{which}.docx"
    assert source.is_file(), f"missing fixture memo {source}"
    staged = tmp_path / ctx.anchors.deliverables[0]
    staged.write_bytes(source.read_bytes())
    return score_files(ctx, [staged])


@pytest.mark.parametrize("pocket,task", MATTERS)
def test_strong_memo_credits_every_finding_and_flags_nothing(pocket, task, tmp_path):
    result = _score(pocket, task, "strong", tmp_path)
    missed = [f"{f.id}: {f.reason}" for f in result.findings if not f.credited]
    assert result.metrics.finding_recall == 1.0, missed
    assert result.metrics.false_flag_rate == 0.0, [d.id for d in result.distractors if d.flagged]
    assert result.metrics.must_not_say == 0.0
    assert result.metrics.deliverable_complete == 1.0


@pytest.mark.parametrize("pocket,task", MATTERS)
def test_generic_memo_credits_at_most_one_finding(pocket, task, tmp_path):
    result = _score(pocket, task, "generic", tmp_path)
    assert result.metrics.finding_recall <= 1 / 7 + 1e-9, [f.id for f in result.findings if f.credited]
    assert result.metrics.deliverable_complete == 1.0, "the generic memo is fluent and substantive"
