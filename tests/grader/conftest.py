"""The fixture matter compiled once for the grader tests that only read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lae.compiler.compile import compile_pocket
from lae.grader.anchors import load_anchors
from lae.match.spec import MatchSpec
from lae.project import Project
from tests.conftest import FIXTURE_TREE, private_copy


@pytest.fixture(scope="session")
def spec(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchSpec, Project]:
    """The match spec of ``harbor-lease-001`` and the compiled project it came from (read only)."""
    project = Project.at(private_copy(FIXTURE_TREE, tmp_path_factory.mktemp("grader-matter")))
    compile_pocket(project, "fixture")
    return load_anchors(project.anchors_path("fixture", "harbor-lease-001")).match_spec(), project
