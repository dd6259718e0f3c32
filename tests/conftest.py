"""Shared test fixtures: a copy of the fixture project tree, the real CLI in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE_TREE = REPO / "tests" / "fixtures" / "tree"
CORPORA = REPO.parent / "shared" / "corpora"


IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI=true``) a skip is a failure: CI installs everything the suite needs.

    Outside CI a test that needs Chromium, LibreOffice, the verifiers extra or ``../shared``
    may skip with its printed reason; in CI a silent skip would let a claim pass untested.
    """
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CI=true), which must install what this test needs: {reason}"


def corpora_dir() -> Path:
    """The shared third-party corpora, or skip with the reason."""
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA}; these tests read third-party files from there")
    return CORPORA


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A private copy of the fixture project tree (compiled anchors removed)."""
    dest = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, dest)
    for p in (dest / "anchors").rglob("*.anchors.json"):
        p.unlink()
    return dest


def run_lae(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real CLI (``python -m lae``) in a subprocess."""
    full_env = dict(os.environ)
    full_env.pop("SOURCE_DATE_EPOCH", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "lae", *args], cwd=cwd or REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def lae():
    return run_lae
