"""Fixtures for fidelity: the fixture tree (with its labelled validation set), compiled once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lae.compiler import compile_pocket
from lae.freeze import render_unfrozen_stamp
from lae.project import Project
from tests.conftest import FIXTURE_TREE, private_copy

VALIDATION = Path("keys_private/fixture/validation/harbor-lease-001")


@pytest.fixture(scope="session")
def compiled_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture tree compiled, with its pocket module NOT FROZEN (never modified by tests)."""
    root = tmp_path_factory.mktemp("fidelity") / "tree"
    shutil.copytree(FIXTURE_TREE, root)
    compile_pocket(Project.at(root), "fixture")
    (root / "environments").mkdir(exist_ok=True)
    (root / "environments" / "fixture_pocket.py").write_text(
        '"""Fixture pocket."""\n\n' + render_unfrozen_stamp("fixture") + "\n", encoding="utf-8")
    return root


@pytest.fixture
def ftree(compiled_tree: Path, tmp_path: Path) -> Path:
    """A private copy of the compiled fixture tree."""
    return private_copy(compiled_tree, tmp_path)
