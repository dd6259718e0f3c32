"""`lae render --validation`: memos to .docx under the declared name, with real Word structure."""

from __future__ import annotations

from pathlib import Path

import docx

from tests.conftest import run_lae
from tests.fidelity.conftest import VALIDATION

MEMO = """# Review memo

## Issues

1. **Renewal.** The deadline is close.
2. Second point.

- a bullet

| Issue | Risk |
| --- | --- |
| Renewal | **High** |
"""


def test_render_writes_word_structure_under_the_declared_name(ftree: Path) -> None:
    (ftree / VALIDATION / "Z.md").write_text(MEMO, encoding="utf-8")
    proc = run_lae("render", "--validation", "--root", str(ftree))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {VALIDATION.as_posix()}/Z/lease-risk-memo.docx" in proc.stdout
    d = docx.Document(str(ftree / VALIDATION / "Z" / "lease-risk-memo.docx"))
    styles = [(p.style.name, p.text) for p in d.paragraphs]
    assert ("Heading 1", "Review memo") in styles and ("Heading 2", "Issues") in styles
    assert ("List Paragraph", "1. Renewal. The deadline is close.") in styles
    assert ("List Bullet", "a bullet") in styles
    numbered = next(p for p in d.paragraphs if p.text.startswith("1."))
    assert [r.text for r in numbered.runs if r.bold] == ["Renewal."]
    (table,) = d.tables
    assert [[c.text for c in row.cells] for row in table.rows] == [["Issue", "Risk"], ["Renewal", "High"]]
    assert table.cell(1, 1).paragraphs[0].runs[0].bold


def test_render_is_reproducible_and_check_finds_stale_files(ftree: Path) -> None:
    target = ftree / VALIDATION / "A" / "lease-risk-memo.docx"
    committed = target.read_bytes()
    assert run_lae("render", "--validation", "--check", "--root", str(ftree)).returncode == 0
    source = ftree / VALIDATION / "A.md"
    source.write_text(source.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    proc = run_lae("render", "--validation", "--check", "--root", str(ftree))
    assert proc.returncode == 1
    assert f"{VALIDATION.as_posix()}/A/lease-risk-memo.docx: would change" in proc.stderr
    assert target.read_bytes() == committed  # --check writes nothing
    assert run_lae("render", "--validation", "--root", str(ftree)).returncode == 0
    first = target.read_bytes()
    assert first != committed
    target.unlink()
    assert run_lae("render", "--validation", "--root", str(ftree)).returncode == 0
    assert target.read_bytes() == first  # the same text gives the same bytes


def test_a_bad_memo_id_is_refused(ftree: Path) -> None:
    (ftree / VALIDATION / "lower.md").write_text(MEMO, encoding="utf-8")
    proc = run_lae("render", "--validation", "--root", str(ftree))
    assert proc.returncode == 1
    assert "lower.md: memo id must match [A-Z][A-Za-z0-9-]*" in proc.stderr


def test_task_limits_the_check_to_one_matter_and_an_unknown_task_is_an_error(ftree: Path) -> None:
    source = ftree / VALIDATION / "A.md"
    source.write_text(source.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    other = ftree / "keys_private/fixture/validation/other-matter-002"
    other.mkdir()
    (other / "A.md").write_text(MEMO, encoding="utf-8")  # stale too, but another task
    proc = run_lae("render", "--validation", "--check", "--task", "harbor-lease-001", "--root", str(ftree))
    assert proc.returncode == 1
    assert f"{VALIDATION.as_posix()}/A/lease-risk-memo.docx: would change" in proc.stderr
    assert "other-matter-002" not in proc.stdout + proc.stderr
    proc = run_lae("render", "--validation", "--check", "--task", "no-such-task", "--root", str(ftree))
    assert proc.returncode == 1
    assert "validation/no-such-task: --task: no validation memo of this task" in proc.stderr
