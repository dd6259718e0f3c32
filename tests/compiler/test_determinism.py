"""Same inputs, same bytes: any PYTHONHASHSEED, time zone, locale or working directory."""

from __future__ import annotations

import shutil
from pathlib import Path

ANCHORS_REL = "anchors/fixture/harbor-lease-001.anchors.json"


def test_two_runs_in_different_environments_are_byte_identical(tree: Path, tmp_path: Path, lae):
    other = tmp_path / "elsewhere" / "tree"
    shutil.copytree(tree, other)
    a = lae("compile", "--root", str(tree), env={"PYTHONHASHSEED": "1", "TZ": "UTC", "LC_ALL": "C"}, cwd=tmp_path)
    b = lae("compile", env={"PYTHONHASHSEED": "4242", "TZ": "Asia/Kolkata", "LC_ALL": "C.UTF-8"},
            cwd=other / "keys_private")
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert (tree / ANCHORS_REL).read_bytes() == (other / ANCHORS_REL).read_bytes()
