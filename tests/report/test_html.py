"""The static audit report: marks, anchors, escaping, and links that resolve (no browser)."""

from __future__ import annotations

from pathlib import Path

from lae.report.aggregate import aggregate, load_runs
from lae.report.html import memo_segments, write_html_report
from tests.report.browser import Dom, broken_links
from tests.report.conftest import ROOT_A, variant, write_run


def build(graded, tmp_path: Path, models=("m-strong", "m-weak")) -> Path:
    for model in models:
        write_run(tmp_path / "runs", model, {"harbor-lease-001": [variant(graded, freeze_root=ROOT_A)] * 3})
    loaded = load_runs([tmp_path / "runs"])
    summary = aggregate(loaded, with_pages=True)
    out = tmp_path / "report"
    write_html_report(summary, loaded, out)
    return out


def test_segments_reassemble_the_graded_text_exactly(graded):
    segments = memo_segments(graded)
    assert "".join(s.text for s in segments) == graded.graded_text


def test_credited_window_masked_span_flag_and_claim_are_marked(graded):
    segments = memo_segments(graded)
    credit = "".join(s.text for s in segments if "credit" in s.classes)
    assert credit == graded.findings[0].evidence.text
    masked = [s.text for s in segments if "masked" in s.classes]
    assert "".join(masked) == graded.masked[0].text
    assert any("flag" in s.classes for s in segments) and any("claim" in s.classes for s in segments)
    anchors = [a[0] for s in segments for a in s.anchors]
    assert anchors == sorted(set(anchors), key=anchors.index)  # each anchor opens once
    assert {"ev-F1", "nm-F2", "ff-D2", "claim-M1"} <= set(anchors)


def test_every_in_page_and_cross_page_link_resolves(graded, tmp_path):
    out = build(graded, tmp_path)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == 1 + 6
    assert broken_links(pages) == []


def test_memo_markup_is_escaped_not_rendered(graded, tmp_path):
    out = build(graded, tmp_path, models=("<img src=x onerror=alert(1)>",))
    index = (out / "index.html").read_text()
    page = next((out / "rollouts").glob("*.html")).read_text()
    assert "<script" not in page.lower() and "<script" not in index.lower()
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert "<img" not in index and "&lt;img src=x onerror=alert(1)&gt;" in index
    assert Dom(page).sources() == [] and Dom(index).sources() == []


def test_pages_show_release_status_and_findings(graded, tmp_path):
    out = build(graded, tmp_path)
    page = next((out / "rollouts").glob("*.html")).read_text()
    assert f"Freeze root <code>{ROOT_A}</code>" in page and "reportable" in page
    assert 'id="finding-F1"' in page and 'href="#ev-F1"' in page and 'href="#nm-F2"' in page
    assert "the problem is stated but not asserted (hedge" in page  # the near miss's reason
    index = (out / "index.html").read_text()
    assert "Per-finding recall across models" in index and "3/3" in index


def test_stale_pages_of_an_earlier_report_are_removed(graded, tmp_path):
    out = build(graded, tmp_path)
    (out / "rollouts" / "old.html").write_text("stale")
    loaded = load_runs([tmp_path / "runs"])
    write_html_report(aggregate(loaded, with_pages=True), loaded, out)
    assert not (out / "rollouts" / "old.html").exists()


def test_lab_results_get_their_own_table_in_the_overview(graded, tmp_path):
    import json

    write_run(tmp_path / "runs", "m", {"harbor-lease-001": [variant(graded, freeze_root=ROOT_A)]})
    lab = tmp_path / "runs" / "m" / "lab-task" / "r1"
    lab.mkdir(parents=True)
    (lab / "result.json").write_text(json.dumps({"task_id": "lab/task", "metrics": {"lab_deliverables_saved": 1.0}}))
    (lab / "rollout.json").write_text(json.dumps({"model": "m"}))
    loaded = load_runs([tmp_path / "runs"])
    write_html_report(aggregate(loaded, with_pages=True), loaded, tmp_path / "report")
    index = (tmp_path / "report" / "index.html").read_text()
    assert 'id="lab"' in index and "<code>lab_deliverables_saved</code>" in index and "never averaged" in index
    assert broken_links(sorted((tmp_path / "report").rglob("*.html"))) == []
