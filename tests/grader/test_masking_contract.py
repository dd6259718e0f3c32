"""Quote masking is a contract: text that repeats a matter document verbatim earns nothing.

The control memo credits both fixture findings. The same memo, once its text also stands in one of
the task's documents, is pasted source text: it must earn nothing and its masked spans must be
reported. A grader whose masking did nothing would credit it again and fail here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lae.render import markdown_to_docx
from tests.conftest import FIXTURE_TREE, run_lae

TASK = "harbor-lease-001"
MEMO = (
    "Our first and most urgent point concerns timing. The tenant's deadline to exercise the renewal option "
    "is June 30, 2025 under Section 9.1, and operations staff wrongly believe it falls later in the year; "
    "we advise that the client serve written notice of renewal this month.\n\n"
    "Second, the tenant has given a broad-form indemnity. Because it reaches losses caused by the landlord itself, "
    "we recommend that the client narrow the indemnity when the lease is renewed and confirm insurance coverage "
    "in the meantime.\n"
)


def score(tree: Path, tmp_path: Path) -> dict:
    memo = tmp_path / "lease-risk-memo.docx"
    markdown_to_docx(MEMO, memo)
    compiled = run_lae("compile", "--root", str(tree))
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    proc = run_lae("score", "--root", str(tree), "--task", TASK, str(memo), "--allow-unfrozen", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def credited(result: dict) -> set[str]:
    return {f["id"] for f in result["findings"] if f["credited"]}


def test_control_memo_credits_both_findings(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    assert credited(score(tree, tmp_path)) == {"F1", "F2"}


def test_the_same_memo_pasted_from_a_document_earns_nothing(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    doc = tree / "tasks/fixture" / TASK / "documents/01-lease-extract.txt"
    doc.write_text(doc.read_text() + "\n" + MEMO)
    result = score(tree, tmp_path)
    assert credited(result) == set()
    assert result["masked"], "the pasted memo's spans must be reported as masked"
    assert result["metrics"]["finding_recall"] == 0.0
