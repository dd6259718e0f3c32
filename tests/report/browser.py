"""Headless Chromium for the report tests: dump the DOM, take a screenshot, keep stderr.

Chromium runs with no sandbox (tests may run as root in a container), no GPU, no
QUIC and no background networking, with a throwaway profile. The pages under test
are local files with no scripts, so nothing needs the network.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str:
    """The browser binary, or skip the test saying why."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("chromium not installed (apt-get install -y chromium); the real-browser checks of the report are skipped")


@dataclass
class Run:
    stdout: str
    stderr: str


def run(page: Path, *extra: str, timeout: float = 60) -> Run:
    binary = chromium()
    with tempfile.TemporaryDirectory(prefix="lae-chromium-") as profile:
        proc = subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                               *extra, page.resolve().as_uri()], capture_output=True, text=True, timeout=timeout,
                              check=False)
    if proc.returncode != 0:
        raise AssertionError(f"chromium exited {proc.returncode}: {proc.stderr[-2000:]}")
    return Run(proc.stdout, proc.stderr)


def dump_dom(page: Path) -> Run:
    return run(page, "--dump-dom")


def screenshot(page: Path, png: Path, size: str = "1280,2000") -> Run:
    return run(page, f"--screenshot={png}", f"--window-size={size}")


def console_problems(stderr: str) -> list[str]:
    """Lines of Chromium's log that report a page error, a console message or a failed load."""
    needles = ("Uncaught", "CONSOLE", ":CONSOLE(", "ERR_", "Failed to load", "Refused to")
    return [line for line in stderr.splitlines() if any(n in line for n in needles)]


class Dom(HTMLParser):
    """Ids, links, elements and their classes of a serialized DOM."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])

    def with_class(self, tag: str, cls: str) -> list[dict]:
        return [a for t, a in self.tags if t == tag and cls in a.get("class", "").split()]

    def sources(self) -> list[str]:
        """Every URL the page would load by itself (src, link href, CSS url())."""
        out = [a["src"] for _, a in self.tags if "src" in a]
        out += [a["href"] for t, a in self.tags if t == "link" and "href" in a]
        return out


def broken_links(pages: list[Path]) -> list[str]:
    """Every link among ``pages`` (static HTML) that leaves the folder or misses its target."""
    ids = {p.resolve(): set(Dom(p.read_text(encoding="utf-8")).ids) for p in pages}
    broken = []
    for page in pages:
        for href in Dom(page.read_text(encoding="utf-8")).links:
            url = urlsplit(href)
            if url.scheme or url.netloc:
                broken.append(f"{page.name}: external link {href}")
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page.resolve()
            if target not in ids:
                broken.append(f"{page.name}: {href}: no such page")
            elif url.fragment and unquote(url.fragment) not in ids[target]:
                broken.append(f"{page.name}: {href}: no such anchor")
    return broken
