"""In CI a skipped test is a failure; outside CI it stays a skip with its reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_skipping_test(tmp_path: Path, ci: str | None, *args: str) -> subprocess.CompletedProcess:
    test = tmp_path / "test_needs_tool.py"
    test.write_text("import pytest\n\ndef test_needs_tool():\n    pytest.skip('needs a tool')\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
                           *args, str(test)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


# The README's command runs the suite in pytest-xdist workers: the skip must fail there too.
@pytest.mark.parametrize("args", [(), ("-n", "2", "--dist", "loadgroup")], ids=["serial", "xdist"])
def test_skip_fails_in_ci(tmp_path: Path, args: tuple[str, ...]) -> None:
    proc = run_skipping_test(tmp_path, "true", *args)
    assert proc.returncode == 1, proc.stdout
    assert "skipped in CI (CI=true)" in proc.stdout and "needs a tool" in proc.stdout


def test_skip_stays_a_skip_outside_ci(tmp_path: Path) -> None:
    proc = run_skipping_test(tmp_path, None)
    assert proc.returncode == 0, proc.stdout
    assert "1 skipped" in proc.stdout
