"""Freeze against the real compile check, on the lead's fixture pocket."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from tests.conftest import private_copy

from lae.errors import FreezeError
from lae.fidelity.release import freeze_measured
from lae.freeze import freeze_pocket, render_unfrozen_stamp, verify_pocket
from lae.project import Project
from tests.test_freeze_support import snapshot

FIXTURE_TREE = Path(__file__).resolve().parent / "fixtures" / "tree"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("lae.grader.documents") is None,
    reason="the compiler's calibration reads documents with lae.grader.documents, not yet in this tree",
)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture tree, compiled once, with its pocket module (NOT FROZEN)."""
    from lae.compiler import compile_pocket

    root = tmp_path_factory.mktemp("compiled") / "tree"
    shutil.copytree(FIXTURE_TREE, root)
    compile_pocket(Project.at(root), "fixture")
    (root / "environments").mkdir(exist_ok=True)
    (root / "environments" / "fixture_pocket.py").write_text(
        '"""Fixture pocket."""\n\n' + render_unfrozen_stamp("fixture") + "\n\nX = 1\n")
    return root


@pytest.fixture
def tree(compiled: Path, tmp_path: Path) -> Path:
    return private_copy(compiled, tmp_path)


def test_freeze_runs_the_real_compile_check_and_verifies(tree: Path) -> None:
    # the fixture pocket has a validation set, measured below its thresholds
    result = freeze_measured(Project.at(tree), "fixture", allow_low_fidelity=True)
    assert result.compile_check == "passed"
    assert result.module_path == "environments/fixture_pocket.py"  # named by pocket.yaml
    assert verify_pocket(Project.at(tree), "fixture").root == result.root


def test_freeze_refuses_stale_anchors(tree: Path) -> None:
    key = tree / "keys_private" / "fixture" / "harbor-lease-001.yaml"
    key.write_text(key.read_text(encoding="utf-8").replace("title: Review Harbor Street Lease",
                                                          "title: Review Harbour Street Lease", 1), encoding="utf-8")
    before = snapshot(tree)
    with pytest.raises(FreezeError, match="lae compile --check --pocket fixture` fails") as info:
        freeze_pocket(Project.at(tree), "fixture")
    assert info.value.exit_code == 3
    assert any("harbor-lease-001.anchors.json" in p.path for p in info.value.problems)
    assert snapshot(tree) == before


def test_freeze_refuses_an_invalid_key(tree: Path) -> None:
    key = tree / "keys_private" / "fixture" / "harbor-lease-001.yaml"
    key.write_text(key.read_text(encoding="utf-8").replace("severity: critical", "severity: catastrophic", 1),
                   encoding="utf-8")
    with pytest.raises(FreezeError, match="fails") as info:
        freeze_pocket(Project.at(tree), "fixture")
    assert any("harbor-lease-001.yaml" in p.path for p in info.value.problems)
