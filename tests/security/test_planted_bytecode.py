"""Attack: a planted `__pycache__/*.pyc` whose header matches the source's mtime and size.

Before: the grader identity skipped `__pycache__`, and Python ran the planted bytecode
instead of the frozen source. After: verify compiles each scoring module whose cached
bytecode Python would run and compares the code; a mismatch refuses (bytecode_mismatch).
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ATTACK_POCKET, ATTACK_TASK, run_installed, staged_memo


def _plant(source: Path, evil: str) -> Path:
    """Bytecode of ``evil`` under the source's cache name, stamped with the source's mtime and size."""
    st = source.stat()
    header = (importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
              + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little"))
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir(exist_ok=True)
    pyc.write_bytes(header + marshal.dumps(compile(evil, str(source), "exec", dont_inherit=True)))
    return pyc


def test_planted_bytecode_for_a_scoring_module_fails_verify(installed_release: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(installed_release, site)
    root = site / "lae"
    source = root / "grader" / "score.py"
    evil = source.read_text(encoding="utf-8") + "\ndef compute_reward(*a, **k):\n    return 1.0\n"
    _plant(source, evil)
    # The plant is live: Python runs it in place of the frozen source.
    env = dict(os.environ, PYTHONPATH=str(site))
    probe = subprocess.run([sys.executable, "-c", "import lae.grader.score as s; print(s.compute_reward(None, 0, 0, 0, 0))"],
                           env=env, capture_output=True, text=True, cwd=tmp_path)
    assert probe.stdout.strip() == "1.0", probe.stderr
    proc = run_installed(site, "verify", "--root", str(root), "--pocket", ATTACK_POCKET, cwd=tmp_path)
    assert proc.returncode == 3
    assert "lae.grader.score: bytecode_mismatch: cached bytecode" in proc.stderr
    assert "is not its frozen source compiled" in proc.stderr
    proc = run_installed(site, "score", "--root", str(root), "--task", ATTACK_TASK, str(staged_memo(tmp_path / "memo")),
                         cwd=tmp_path)
    assert proc.returncode == 3 and "bytecode_mismatch" in proc.stderr and "reward" not in proc.stdout


def test_genuine_bytecode_is_accepted(installed_release: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(installed_release, site)
    root = site / "lae"
    source = root / "grader" / "score.py"
    _plant(source, source.read_text(encoding="utf-8"))  # what Python itself would have cached
    proc = run_installed(site, "verify", "--root", str(root), "--pocket", ATTACK_POCKET, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_a_scoring_module_replaced_by_bare_bytecode_fails_verify(installed_release: Path, tmp_path: Path) -> None:
    """The legacy layout: `score.py` gone and `score.pyc` beside it runs without any source."""
    site = tmp_path / "site"
    shutil.copytree(installed_release, site)
    root = site / "lae"
    source = root / "grader" / "score.py"
    evil = source.read_text(encoding="utf-8") + "\ndef compute_reward(*a, **k):\n    return 1.0\n"
    (root / "grader" / "score.pyc").write_bytes(
        importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(compile(evil, str(source), "exec", dont_inherit=True)))
    source.unlink()
    proc = run_installed(site, "verify", "--root", str(root), "--pocket", ATTACK_POCKET, cwd=tmp_path)
    assert proc.returncode == 3
    assert "lae.grader.score: grader_changed: module lae.grader.score has no Python source file" in proc.stderr
