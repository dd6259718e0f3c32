"""Attack: ``save_deliverable("x\\n")``. Before: a file with a newline in its name (``$`` matches before a
final newline). After: refused; the pattern is a full match."""

from __future__ import annotations

import pytest

from lae.env.tools import DocumentStore, TaskTools, Workspace
from tests.conftest import FIXTURE_TREE


@pytest.mark.parametrize("name", ["x\n", "memo.docx\n"])
def test_newline_in_a_deliverable_name_is_refused(tmp_path, name):
    documents = FIXTURE_TREE / "tasks" / "fixture" / "harbor-lease-001" / "documents"
    tools = TaskTools(DocumentStore(documents), Workspace(tmp_path / "ws", ("lease-risk-memo.docx",)))
    reply = tools.call("save_deliverable", {"filename": name, "content": "text"})
    assert reply.startswith("Error: filename must be a plain file name")
    assert list((tmp_path / "ws").iterdir()) == []
