"""The four agent tools: edge cases, path escapes, hostile patterns."""

from __future__ import annotations

import os
import time
from pathlib import Path

import docx
import pytest

from lae.env.tools import DocumentStore, TaskTools, Workspace, paginate


@pytest.fixture
def tools(tmp_path: Path) -> TaskTools:
    docs = tmp_path / "documents"
    docs.mkdir()
    (docs / "a-notes.txt").write_text("Line one about the renewal deadline.\nSecond line: Section 9.1.\n" + ("filler text line\n" * 800))
    d = docx.Document()
    d.add_paragraph("The board approved the plan on March 3, 2025.")
    d.save(docs / "b-minutes.docx")
    (docs / "c-long.txt").write_text("a" * 5000 + "!\n")
    (tmp_path / "secret.txt").write_text("answer key: do not read")
    os.symlink(tmp_path / "secret.txt", docs / "d-link.txt")
    (docs / ".hidden.txt").write_text("hidden")
    return TaskTools(DocumentStore(docs, page_chars=1000), Workspace(tmp_path / "ws", ("memo.docx",)))


def test_list_documents_shows_name_format_size_pages(tools):
    out = tools.list_documents()
    assert "3 documents" in out
    assert "a-notes.txt (txt," in out and "pages)" in out
    assert "b-minutes.docx (docx," in out and "1 page)" in out
    assert "d-link" not in out and ".hidden" not in out


def test_read_document_paginates_and_says_page_i_of_n(tools):
    first = tools.read_document("a-notes.txt")
    n = int(first.split(" of ")[1].split()[0])
    assert first.startswith("a-notes.txt, page 1 of ") and n > 1
    last = tools.read_document("a-notes.txt", page=n)
    assert "(last page)" in last
    assert "does not exist" in tools.read_document("a-notes.txt", page=n + 1)
    assert "does not exist" in tools.read_document("a-notes.txt", page=0)
    assert "whole number" in tools.read_document("a-notes.txt", page="two")
    assert "March 3, 2025" in tools.read_document("b-minutes.docx")


@pytest.mark.parametrize("name", ["../secret.txt", "/etc/passwd", "d-link.txt", "", "documents/a-notes.txt",
                                  ".hidden.txt", "a-notes.txt\x00", "..", "A-NOTES.TXT"])
def test_no_reads_outside_the_documents(tools, name):
    out = tools.read_document(name)
    assert out.startswith("Error:")
    assert "answer key" not in out


def test_bad_name_suggests_the_right_one(tools):
    assert "Did you mean 'b-minutes.docx'" in tools.read_document("b-minutes.pdf")


def test_grep_finds_lines_with_document_and_page(tools):
    out = tools.grep_documents("renewal DEADLINE")
    assert "1 match" in out and "a-notes.txt p.1:" in out
    assert tools.grep_documents("renewal DEADLINE", case_sensitive=True).startswith("No matches")


def test_grep_caps_results(tools):
    out = tools.grep_documents("filler", max_results=5)
    assert out.count("a-notes.txt p.") == 5 and "more matches not shown" in out


def test_grep_empty_and_invalid_patterns(tools):
    assert tools.grep_documents("zzqqxx").startswith("No matches")
    assert tools.grep_documents("(unclosed").startswith("Error: invalid regular expression")
    assert tools.grep_documents("").startswith("Error")
    assert tools.grep_documents("x" * 600).startswith("Error")


def test_hostile_regex_times_out_instead_of_hanging(tmp_path: Path):
    """A pattern that backtracks catastrophically answers with the timeout error within the
    spec's 1-second budget per call (plus slack for a loaded machine), never after a budget per line."""
    docs = tmp_path / "documents"
    docs.mkdir()
    (docs / "hostile.txt").write_text(("a" * 40 + "\n") * 40)
    tools = TaskTools(DocumentStore(docs, page_chars=1000), Workspace(tmp_path / "ws", ("memo.docx",)))
    start = time.monotonic()
    out = tools.grep_documents(r"(a|aa)+(b|c)$")
    elapsed = time.monotonic() - start
    assert out.startswith("Error: the pattern took longer than 1.0s"), out
    assert elapsed < 5, f"{elapsed:.1f}s for a 1-second budget"


def test_save_declared_docx_renders_a_real_word_document(tools):
    reply = tools.save_deliverable("memo.docx", "# Findings\n\n- First point\n- Second point\n\nA paragraph of analysis.")
    assert "declared deliverable" in reply
    doc = docx.Document(str(tools.workspace.folder / "memo.docx"))
    texts = [p.text for p in doc.paragraphs]
    assert "Findings" in texts and "A paragraph of analysis." in texts


def test_save_other_names_says_they_do_not_count(tools):
    assert "never counts for a declared .docx" in tools.save_deliverable("memo.md", "text")
    assert "not a declared deliverable" in tools.save_deliverable("notes.txt", "text")
    assert tools.save_deliverable("../escape.docx", "x").startswith("Error")
    assert tools.save_deliverable("sub/memo.docx", "x").startswith("Error")
    assert tools.save_deliverable("memo.docx", "   ").startswith("Error")
    assert not (tools.workspace.folder.parent / "escape.docx").exists()


def test_dispatch_never_raises(tools):
    assert tools.call("nope", {}).startswith("Error: unknown tool")
    assert tools.call("read_document", {"bogus": 1}).startswith("Error: bad arguments")
    assert tools.call("read_document", [1, 2]).startswith("Error")


def test_paginate_respects_page_size():
    text = "\n".join(f"line {i}" for i in range(1000))
    pages = paginate(text, 500)
    assert "".join(pages) == text
    assert all(len(p) <= 500 for p in pages)
