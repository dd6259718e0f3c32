"""Every attack memo earns nothing on every bundled matter (not only on the fixture).

The attacks are built from each matter's own key, so they reuse exactly the vocabulary a
vocabulary-matching grader would reward: the key's subjects, problems, citations, remedies and
record facts as a bullet list, as one comma-separated paragraph, as a glossary, as questions,
as another person's view, plus the matter's documents pasted whole, a near-empty memo and a
strong memo saved as .md under a declared .docx. Scored through the freeze gate like any memo.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lae.compiler.load import load_key
from lae.compiler.redteam import comma_list
from lae.grader.documents import task_document_texts
from lae.freeze import open_for_measurement
from lae.grader.score import TaskContext, load_task_context, score_files
from lae.match.phrases import split_phrase
from lae.project import Project
from lae.render import markdown_to_docx
from tests.conftest import REPO

PROJECT = Project.at(REPO)
MATTERS = [(pocket, path.stem) for pocket in PROJECT.pockets() for path in PROJECT.key_files(pocket)]


def context(pocket: str, task: str) -> TaskContext:
    """The bundled task through the gate's measurement door (a grader property, not a reported score)."""
    return load_task_context(open_for_measurement(PROJECT, pocket, reason="attack test"), task)


def _words(phrase: str) -> str:
    return " ".join(split_phrase(phrase))


def attacks(pocket: str, task: str) -> dict[str, str]:
    key = load_key(PROJECT.keys_dir(pocket) / f"{task}.yaml", project=PROJECT)
    pairs = [(_words(f.subject[0]), _words(f.problem[0])) for f in key.findings]
    terms = [_words(p) for f in key.findings for p in (*f.subject, *f.problem)]
    return {
        "salad-list": "# Notes\n\n" + "\n".join(f"- {t}" for t in terms) + "\n",
        "salad-comma": "# Risk memo\n\n" + comma_list(key) + "\n",
        "glossary": "# Defined terms\n\n" + "\n".join(f"- **{s}**: {p}." for s, p in pairs) + "\n",
        "questions": "# Open questions\n\n" + "\n".join(f"- Is there an issue with {s} and {p}?" for s, p in pairs) + "\n",
        "opposing-view": "# Views reported\n\n" + "\n\n".join(
            f"Opposing counsel's view, which we pass on without comment, is that {s} raises {p}." for s, p in pairs) + "\n",
        "paste": "\n\n".join(task_document_texts(PROJECT, pocket, task)),
        "near-empty": "# Memo\n\nSee attached.\n",
    }




@pytest.mark.parametrize("pocket,task", MATTERS, ids=[t for _, t in MATTERS])
def test_no_attack_memo_credits_any_finding(pocket: str, task: str, tmp_path: Path) -> None:
    ctx = context(pocket, task)
    declared = ctx.anchors.deliverables[0]
    credited = {}
    for name, text in attacks(pocket, task).items():
        memo = tmp_path / name / declared
        memo.parent.mkdir()
        markdown_to_docx(text, memo)
        result = score_files(ctx, [memo])
        credited[name] = [f.id for f in result.findings if f.credited]
    assert credited == {name: [] for name in credited}, credited


@pytest.mark.parametrize("pocket,task", MATTERS[::5], ids=[t for _, t in MATTERS[::5]])
def test_markdown_saved_for_a_declared_docx_earns_nothing(pocket: str, task: str, tmp_path: Path) -> None:
    ctx = context(pocket, task)
    declared = ctx.anchors.deliverables[0]
    strong = (REPO / "tests/fixtures/memos" / pocket / task / "strong.md").read_text(encoding="utf-8")
    memo = tmp_path / Path(declared).with_suffix(".md").name
    memo.write_text(strong, encoding="utf-8")
    result = score_files(ctx, [memo])
    assert result.metrics.finding_recall == 0.0 and result.metrics.deliverable_complete == 0.0
