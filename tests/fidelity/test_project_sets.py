"""The project's own validation sets: every labels file validates against its key and memos,
every kind is present per matter, the .docx are current, and no validation text leaks."""

from __future__ import annotations

from collections import defaultdict

import pytest

from lae.compiler.labels import markup_free
from lae.fidelity import project_set
from lae.project import Project
from tests.conftest import REPO, run_lae

PROJECT = Project.at(REPO)
MATTERS = sorted(REPO.glob("keys_private/*/validation/*/labels.yaml"))

pytestmark = pytest.mark.skipif(not MATTERS, reason="no validation sets committed under keys_private/*/validation/")


def test_every_labels_file_validates_and_labels_every_id_for_every_memo() -> None:
    memo_set = project_set(PROJECT)  # raises, listing every problem, on any invalid file
    kinds: dict[tuple[str, str], set[str]] = defaultdict(set)
    for memo in memo_set.memos:
        kinds[(memo.pocket, memo.task_id)].add(memo.kind)
    keys = [k for k in REPO.glob("keys_private/*/*.yaml") if k.name != "pocket.yaml"]
    assert len(kinds) == len(MATTERS) == len(keys)  # every matter has a validation set
    assert all(k == set("ABCDEFG") for k in kinds.values())
    assert len(memo_set.memos) >= 7 * len(MATTERS)


# one matter of each pocket here; .ci/run checks every validation memo (1,800+) as its own step
SAMPLED_MATTERS = ("ember-contractor-005", "ai-gpu-reseller-003", "solstice-committee-005")


@pytest.mark.parametrize("task", SAMPLED_MATTERS)
def test_validation_docx_are_current(task: str) -> None:
    proc = run_lae("render", "--validation", "--check", "--task", task, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " memo(s): 0 would change, " in proc.stdout


def test_no_validation_text_in_anchors_or_tasks() -> None:
    passages = set()
    for md in REPO.glob("keys_private/*/validation/*/*.md"):
        flat = markup_free(md.read_text(encoding="utf-8"))
        passages.update(flat[i:i + 80] for i in range(0, max(1, len(flat) - 80), 400))
    assert passages
    for path in [*REPO.glob("anchors/**/*.json"), *REPO.glob("tasks/**/task.json")]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert not [p for p in passages if p in text], path
