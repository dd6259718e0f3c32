"""The committed example report (docs/example-report/) is whole and agrees with itself.

Rebuild it with ``python docs/build_example_report.py`` when the report format changes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from lae.report.aggregate import render_markdown
from lae.report.models import ReportSummary
from tests.conftest import REPO
from tests.report.browser import Dom, broken_links

EXAMPLE = REPO / "docs" / "example-report"
REBUILD = "stale example report: run `python docs/build_example_report.py`"


def test_example_summary_is_valid_and_its_markdown_is_current():
    data = json.loads((EXAMPLE / "report.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads((REPO / "schemas" / "report.schema.json").read_text()))
    summary = ReportSummary.model_validate(data)
    assert (EXAMPLE / "report.md").read_text(encoding="utf-8") == render_markdown(summary), REBUILD
    assert {r.model for r in summary.rollouts} == {"fixture-strong", "fixture-generic"}
    assert len(summary.rollouts) == 2 * sum(1 for _ in (REPO / "tests/fixtures/memos").glob("*/*/strong.docx"))


def test_example_pages_exist_link_up_and_load_nothing_from_outside():
    summary = ReportSummary.model_validate_json((EXAMPLE / "report.json").read_bytes())
    pages = [EXAMPLE / "index.html", *(EXAMPLE / e.page for e in summary.rollouts if e.page)]
    assert all(p.is_file() for p in pages), REBUILD
    assert sorted((EXAMPLE / "rollouts").glob("*.html")) == sorted(pages[1:]), REBUILD
    assert broken_links(pages) == []
    for page in pages:
        dom = Dom(page.read_text(encoding="utf-8"))
        assert dom.sources() == [] and not [t for t, _ in dom.tags if t == "script"]


def test_example_screenshot_is_a_png():
    assert (EXAMPLE / "screenshot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_example_report_matches_the_current_freeze():
    """The committed example must be rebuilt (python docs/build_example_report.py) after a re-freeze."""
    import json as _json

    from lae.freeze import verify_pocket
    from lae.project import Project

    project = Project.at(Path(__file__).resolve().parents[2])
    data = _json.loads((Path(__file__).resolve().parents[2] / "docs" / "example-report" / "report.json").read_text())
    for pocket in data["pockets"]:
        current = verify_pocket(project, pocket["pocket"]).root
        assert pocket["freeze_roots"] == [current], f"{pocket['pocket']}: example report is stale; rebuild it"
