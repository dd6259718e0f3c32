"""A .docx deliverable carries its structure into the graded text (headings, lists, tables)."""

from __future__ import annotations

from lae.grader.deliverables import read_deliverable
from lae.render import markdown_to_docx


def test_docx_headings_lists_and_tables_read_as_markup(tmp_path):
    md = ("# Memo\n\n## 2. Renewal option\n\nThe deadline could lapse.\n\n- send the notice\n\n"
          "| Issue | Risk |\n|---|---|\n| Renewal | High |\n")
    path = tmp_path / "memo.docx"
    markdown_to_docx(md, path)
    read = read_deliverable(path, "memo.docx")
    assert read.ok
    lines = [line for line in read.text.splitlines() if line.strip()]
    assert lines[0] == "# Memo"
    assert "## 2. Renewal option" in lines
    assert "- send the notice" in lines
    assert "| Issue | Risk |" in lines and "| Renewal | High |" in lines
