"""LAB mode: discovery at both depths, validation, lab_ metrics, bundled tasks as LAB trees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lae.env.environment import load_environment
from lae.env.lab import discover_lab_tasks
from lae.errors import InvalidInputError

REPO = Path(__file__).resolve().parents[2]


def make_task(folder: Path, deliverable: str = "memo.docx", criteria: int = 2, docs=("a.txt", "b.pdf")) -> None:
    (folder / "documents").mkdir(parents=True)
    for d in docs:
        (folder / "documents" / d).write_text("text")
    (folder / "task.json").write_text(json.dumps({
        "title": folder.name, "instructions": "Do the work.", "deliverables": {deliverable: deliverable},
        "criteria": [{"id": f"C-{i:03d}", "title": "t", "match_criteria": "PASS if x"} for i in range(criteria)]}))


@pytest.fixture
def lab_tree(tmp_path: Path) -> Path:
    root = tmp_path / "lab"
    make_task(root / "contracts" / "nda-review")                      # <category>/<task-id>
    make_task(root / "litigation" / "motion" / "scenario-a", "brief.docx", 3, ("x.eml",))  # LAB's own depth
    make_task(root / "litigation" / "motion" / "scenario-b", "brief.docx", 1, ())
    return root


def test_discovery_at_both_depths(lab_tree):
    tree = discover_lab_tasks(lab_tree)
    assert [t.slug for t in tree.tasks] == ["contracts/nda-review", "litigation/motion/scenario-a", "litigation/motion/scenario-b"]
    assert tree.counts() == {"tasks": 3, "criteria": 6, "documents": 3, "documents_by_format": {"eml": 1, "pdf": 1, "txt": 1}}


@pytest.mark.parametrize("bad,field", [({"instructions": 3, "deliverables": {"a.docx": "a.docx"}}, "instructions"),
                                       ({"instructions": "x", "deliverables": ["a.docx"]}, "deliverables")])
def test_invalid_task_json_names_the_file_and_field(lab_tree, bad, field):
    (lab_tree / "contracts" / "nda-review" / "task.json").write_text(json.dumps(bad))
    with pytest.raises(InvalidInputError) as info:
        discover_lab_tasks(lab_tree)
    assert any(p.path == "contracts/nda-review/task.json" and p.field == field for p in info.value.problems)


def test_lab_mode_metrics_are_prefixed_and_measure_discipline(lab_tree, tmp_path):
    env = load_environment(None, source="lab", tasks_root=lab_tree, task_id="contracts/nda-review")
    task = env.tasks[0]
    ws = tmp_path / "ws"
    tools = env.tools(task, ws)
    assert "2 documents" in tools.list_documents()
    tools.save_deliverable("memo.docx", "A substantive memo paragraph. " * 20)
    metrics = env.score(task, ws)
    assert metrics["lab_deliverable_complete"] == 1.0
    assert all(k.startswith("lab_") for k in metrics)
    ws2 = tmp_path / "ws2"
    env.tools(task, ws2).save_deliverable("memo.md", "A substantive memo paragraph. " * 20)
    assert env.score(task, ws2)["lab_deliverables_saved"] == 0.0


def test_lab_mode_requires_tasks_root():
    with pytest.raises(InvalidInputError, match="invalid environment arguments") as info:
        load_environment(None, source="lab")
    assert info.value.problems[0].field == "tasks_root"


def test_bundled_pocket_tasks_are_valid_lab_trees():
    tree = discover_lab_tasks(REPO / "tasks")
    assert tree.tasks, "the bundled tasks/ folder must be a LAB tree"
    assert all(t.deliverables and t.documents for t in tree.tasks)


def test_lae_lab_check_prints_counts(lab_tree, lae):
    proc = lae("lab", "check", "--tasks-root", str(lab_tree))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("3 tasks, 6 criteria, 3 documents")
    (lab_tree / "contracts" / "nda-review" / "task.json").write_text("{")
    proc = lae("lab", "check", "--tasks-root", str(lab_tree))
    assert proc.returncode == 1 and "contracts/nda-review/task.json" in proc.stderr
