"""The audit report in a real headless browser (Chromium): DOM, links, console, screenshot.

Skipped, with the reason printed, when no Chromium is installed
(``apt-get install -y chromium``)."""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from lae.report.aggregate import aggregate, load_runs
from lae.report.html import write_html_report
from tests.report import browser
from tests.report.conftest import ROOT_A, variant, write_run


@pytest.fixture(scope="module")
def report(graded, tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    weak = variant(graded, freeze_root=ROOT_A).model_copy(update={"findings": [
        f.model_copy(update={"credited": False, "evidence": None}) for f in graded.findings]})
    write_run(base / "runs", "model-a", {"harbor-lease-001": [variant(graded, freeze_root=ROOT_A)] * 3})
    write_run(base / "runs", "model-b", {"harbor-lease-001": [weak] * 3})
    loaded = load_runs([base / "runs"])
    write_html_report(aggregate(loaded, with_pages=True), loaded, base / "report")
    return base / "report"


def rollout_page(report: Path, model: str = "model-a") -> Path:
    return next(p for p in sorted((report / "rollouts").glob("*.html")) if f"--{model}--" in p.name)


@pytest.fixture(scope="module")
def rendered(report):
    """Each page rendered once by Chromium (launching it is the slow part)."""
    pages = [(report / "index.html").resolve(), rollout_page(report).resolve(), rollout_page(report, "model-b").resolve()]
    with ThreadPoolExecutor(max_workers=len(pages)) as pool:  # one Chromium per page, side by side
        cache: dict[Path, browser.Run] = dict(zip(pages, pool.map(browser.dump_dom, pages)))

    def get(page: Path) -> browser.Run:
        page = page.resolve()
        if page not in cache:
            cache[page] = browser.dump_dom(page)
        return cache[page]
    return get


def test_the_console_check_catches_a_script_error(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><script>throw new Error("boom")</script></body></html>')
    problems = browser.console_problems(browser.dump_dom(page).stderr)
    assert any("Uncaught Error: boom" in line for line in problems)


def test_rollout_page_highlights_credited_windows_in_the_browser(report, rendered, graded):
    run = rendered(rollout_page(report))
    dom = browser.Dom(run.stdout)
    credited = [f for f in graded.findings if f.credited]
    assert credited and dom.with_class("mark", "credit"), "no credited window highlighted"
    for f in credited:
        assert f"ev-{f.id}" in dom.ids and f"finding-{f.id}" in dom.ids
    assert dom.with_class("mark", "masked") and dom.with_class("mark", "near")
    assert dom.with_class("mark", "flag") and dom.with_class("mark", "claim")
    assert not [t for t, _ in dom.tags if t in ("script", "iframe", "object", "embed")]
    assert browser.console_problems(run.stderr) == []


def test_every_in_page_link_target_exists_in_the_rendered_dom(report, rendered):
    for page in [report / "index.html", rollout_page(report), rollout_page(report, "model-b")]:
        run = rendered(page)
        assert browser.console_problems(run.stderr) == []
        dom = browser.Dom(run.stdout)
        local = [unquote(urlsplit(h).fragment) for h in dom.links if h.startswith("#")]
        assert local, f"{page.name} has no in-page links"
        missing = [f for f in local if f not in dom.ids]
        assert missing == [], f"{page.name}: links to missing anchors {missing}"
        for href in dom.links:
            url = urlsplit(href)
            assert not url.scheme and not url.netloc, f"{page.name}: external link {href}"
            if url.path:
                target = (page.parent / unquote(url.path)).resolve()
                assert target.is_file(), f"{page.name}: {href} points to a missing page"


def test_cross_page_heat_map_links_land_on_an_existing_finding_row(report, rendered):
    index = browser.Dom(rendered(report / "index.html").stdout)
    heat = [h for h in index.links if "#finding-" in h]
    assert len(heat) == 2 * 3 * 2  # 2 models x 3 rollouts x 2 findings
    target = urlsplit(heat[0])
    page_dom = browser.Dom(rendered(report / unquote(target.path)).stdout)
    assert target.fragment in page_dom.ids


def test_screenshot_of_a_rollout_page(report, tmp_path):
    png = tmp_path / "page.png"
    run = browser.screenshot(rollout_page(report), png, size="1200,1600")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 1600) and len(data) > 20_000  # a rendered page, not a blank one
    assert browser.console_problems(run.stderr) == []
