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


def test_parallel_compile_writes_the_same_bytes(tree: Path, tmp_path: Path, lae):
    import shutil as _shutil

    other = tmp_path / "parallel" / "tree"
    _shutil.copytree(tree, other)
    # a second key so there is something to parallelize
    key = (tree / "keys_private/fixture/harbor-lease-001.yaml").read_text()
    for root in (tree, other):
        (root / "keys_private/fixture/harbor-lease-002.yaml").write_text(key.replace("harbor-lease-001", "harbor-lease-002"))
        _shutil.copytree(root / "tasks/fixture/harbor-lease-001", root / "tasks/fixture/harbor-lease-002")
    assert lae("compile", "--root", str(tree)).returncode == 0
    proc = lae("compile", "--root", str(other), "-j", "2")
    assert proc.returncode == 0, proc.stderr
    for name in ("harbor-lease-001", "harbor-lease-002"):
        rel = f"anchors/fixture/{name}.anchors.json"
        assert (tree / rel).read_bytes() == (other / rel).read_bytes()


def test_parallel_compile_reports_problems_with_locations(tree: Path, lae):
    import shutil as _shutil

    key = (tree / "keys_private/fixture/harbor-lease-001.yaml").read_text()
    (tree / "keys_private/fixture/harbor-lease-002.yaml").write_text(
        key.replace("harbor-lease-001", "harbor-lease-002").replace("severity: critical", "severity: catastrophic"))
    _shutil.copytree(tree / "tasks/fixture/harbor-lease-001", tree / "tasks/fixture/harbor-lease-002")
    proc = lae("compile", "--root", str(tree), "-j", "2")
    assert proc.returncode == 1
    assert "harbor-lease-002.yaml:" in proc.stderr and "catastrophic" in proc.stderr
    assert not list((tree / "anchors").rglob("*.anchors.json"))
