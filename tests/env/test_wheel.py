"""The installed wheel is a self-contained release: tasks and anchors inside, keys never."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import private_copy

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def wheel(built_wheel: Path) -> Path:
    """The project's wheel (built once per session: tests/conftest.py)."""
    return built_wheel


@pytest.fixture
def site(installed_release: Path, tmp_path: Path) -> Path:
    """A private copy of the wheel installed with ``pip --target`` (installed once per session)."""
    return private_copy(installed_release, tmp_path, "site")


def test_wheel_bundles_tasks_and_anchors_but_no_private_keys(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if "keys_private" in n], "private keys must never ship"
    assert not [n for n in names if n.endswith(".yaml") and "/tasks/" not in n], "no key YAML in the wheel"
    assert any(n.startswith("lae/tasks/employment-law/") and n.endswith("/task.json") for n in names)
    assert any(n.startswith("lae/anchors/employment-law/") and n.endswith(".anchors.json") for n in names)
    assert any(n.startswith("lae/environments/") and n.endswith("employment_law.py") for n in names)
    canaries = [n for n in names if n.endswith((".json", ".py"))]
    z = zipfile.ZipFile(wheel)
    for n in canaries:
        assert b"CANARY-" not in z.read(n), n


def _validation_lines() -> set[str]:
    """Every substantial line of every validation memo and labels file (the project's and the fixture's)."""
    files = [*REPO.glob("keys_private/*/validation/**/*"), *REPO.glob("tests/fixtures/tree/keys_private/*/validation/**/*")]
    lines = set()
    for f in files:
        if f.suffix in (".md", ".yaml"):
            stripped = (s.strip(" #-|*") for s in f.read_text(encoding="utf-8").splitlines())
            lines.update(s for s in stripped if len(s) >= 40)  # 40 characters of the memo's own text, markup aside
    return lines


class LineFinder:
    """Which of many lines occur in a text, without searching the text once per line.

    The text's K-character pieces are looked up at positions 0, S, 2S, ... with
    S = (shortest line) - K + 1. A line occurring at text position p has a looked-up position
    p + d with 0 <= d < S, and there the text's piece is the line's piece at offset d
    (d + K <= S - 1 + K = shortest line <= the line's length). So indexing each line's pieces at
    offsets 0 .. S-1 finds every line that occurs (candidates are then checked with ``in``)."""

    K = 16

    def __init__(self, lines: set[str]) -> None:
        self.step = min(len(line) for line in lines) - self.K + 1
        assert self.step >= 1, "a line shorter than the indexed piece"
        self.pieces: dict[str, set[str]] = {}
        for line in lines:
            for i in range(self.step):
                self.pieces.setdefault(line[i:i + self.K], set()).add(line)

    def found_in(self, text: str) -> set[str]:
        candidates = set()
        for i in range(0, len(text), self.step):
            candidates |= self.pieces.get(text[i:i + self.K], set())
        return {line for line in candidates if line in text}


def test_line_finder_finds_what_in_finds() -> None:
    lines = {"the renewal deadline is June 30, 2025 under Section 9.1", "a second line, forty characters or more long"}
    finder = LineFinder(lines)
    for text in ("x" * 7 + "the renewal deadline is June 30, 2025 under Section 9.1" + "tail",
                 "prefix a second line, forty characters or more long",
                 "the renewal deadline is June 30, 2025 under Section 9.2", ""):
        for shift in range(finder.step + 1):
            shifted = "." * shift + text
            assert finder.found_in(shifted) == {line for line in lines if line in shifted}


def _record_lines(lines: set[str]) -> set[str]:
    """The lines that are the matters' own record text (a memo may name a tracker row or a clause
    heading exactly as the documents do): public, so finding them in the wheel leaks nothing."""
    finder = LineFinder(lines)
    found: set[str] = set()
    for f in REPO.glob("sources/**/*"):
        if f.is_file():
            found |= finder.found_in(f.read_text(encoding="utf-8", errors="replace"))
    return found


def test_wheel_holds_no_validation_text(wheel):
    lines = _validation_lines()
    assert lines, "no validation text found to look for"
    record = _record_lines(lines)
    assert len(record) < len(lines) / 100, "most validation lines are record text: the check would look for nothing"
    finder = LineFinder(lines - record)
    z = zipfile.ZipFile(wheel)
    assert not [n for n in z.namelist() if "/validation/" in n]
    for n in z.namelist():
        text = z.read(n).decode("utf-8", errors="replace")
        assert not finder.found_in(text), n


def test_load_environment_from_the_installed_wheel(site, tmp_path):
    target = site
    code = (
        "import lae, lae.environments.employment_law as m\n"
        f"assert lae.__file__.startswith({str(target)!r}), lae.__file__\n"
        "env = m.load_environment(allow_unfrozen=True)\n"
        "assert not (env.project.root / 'keys_private').exists()\n"
        "print(env.project.root)\n"
        "print(len(env.tasks), env.release.reportable)\n"
        "t = env.tasks[0]\n"
        "import tempfile, pathlib\n"
        "tools = env.tools(t, pathlib.Path(tempfile.mkdtemp()))\n"
        "print(tools.list_documents().splitlines()[0])\n"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    root, counts, first = proc.stdout.splitlines()[:3]
    assert root.startswith(str(target))
    assert int(counts.split()[0]) >= 1
    assert first.endswith("documents:")


def test_the_installed_package_verifies_as_frozen(site, tmp_path):
    """site-packages/lae is itself a frozen project tree: `lae verify` passes on it."""
    target = site
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-m", "lae", "verify", "--root", str(target / "lae")],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("verified ") == 3


def test_installed_commands_use_the_bundled_release_in_an_empty_folder(site, tmp_path):
    """From an installed wheel, outside any checkout: verify, tasks and demo work and say which tree they use."""
    target = site
    empty = tmp_path / "empty"
    empty.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))
    note = f"using the release bundled with lae at {target / 'lae'}"
    for args, expect in ((["verify"], "verified employment-law"), (["tasks"], "atlas-noncompete-001"),
                         (["demo"], "[employment-law] verify: ok")):
        proc = subprocess.run([sys.executable, "-m", "lae", *args], capture_output=True, text=True, timeout=300, env=env,
                              cwd=empty)
        assert proc.returncode == 0, (args, proc.stdout + proc.stderr)
        assert expect in proc.stdout, (args, proc.stdout)
        assert proc.stderr.count(note) == 1, (args, proc.stderr)
    assert list(empty.iterdir()) == [], "nothing written into the working folder"
