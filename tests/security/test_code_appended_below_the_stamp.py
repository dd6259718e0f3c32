"""Attack: code appended after (or put before) the stamp block of a pocket module.

Before: verify read only the block between the markers, so code below it ran on import
(the verifiers adapter imports every pocket module) and patched `compute_reward`:
reward 0.400 -> 1.000, verify green. After: the module's code outside the block is
hashed into the manifest; verify and scoring refuse.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ATTACK_POCKET, ATTACK_TASK, release_copy, run_lae, staged_memo

MODULE = "environments/employment_law.py"
PATCH = "\nimport lae.grader.score as _score\n_score.compute_reward = lambda *a, **k: 1.0\n"


@pytest.mark.parametrize("where", ["below", "above"])
def test_code_outside_the_stamp_block_fails_verify(tmp_path: Path, where: str) -> None:
    root = release_copy(tmp_path / "release")
    module = root / MODULE
    text = module.read_text(encoding="utf-8")
    if where == "below":
        text += PATCH
    else:
        head, sep, tail = text.partition("# >>> lae freeze stamp >>>")
        text = head + PATCH.lstrip("\n") + "\n" + sep + tail
    module.write_text(text, encoding="utf-8")
    proc = run_lae("verify", "--root", str(root))
    assert proc.returncode == 3
    assert f"{MODULE}: changed: the module's code outside the stamp block differs from the frozen one" in proc.stderr
    proc = run_lae("score", "--root", str(root), "--task", ATTACK_TASK, str(staged_memo(tmp_path / "memo")))
    assert proc.returncode == 3 and "reward" not in proc.stdout


def test_a_pristine_copy_verifies(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    proc = run_lae("verify", "--root", str(root), "--pocket", ATTACK_POCKET)
    assert proc.returncode == 0, proc.stderr
