"""The grader identity a freeze binds to (``lae.grader.contract``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import lae.match
from lae.grader import contract

GRADER = Path(contract.__file__).resolve().parent


KERNEL = Path(lae.match.__file__).resolve().parent


def test_source_digest_matches_the_documented_shell_recipe() -> None:
    """SPEC section 6: the grader's listing, then the matching kernel's as ``match/<path>``."""
    listing = ("find . -name '*.py' -not -path '*/__pycache__/*' | sed 's|^\\./||' | LC_ALL=C sort"
               " | xargs sha256sum")
    recipe = (f"{{ (cd '{GRADER}' && {listing}); (cd '{KERNEL}' && {listing} | sed 's|  |  match/|'); }}"
              " | sha256sum")
    done = subprocess.run(["bash", "-c", recipe], capture_output=True, text=True, check=True)
    assert done.stdout.split()[0] == contract.grader_source_digest()


def test_a_kernel_edit_changes_the_grader_identity() -> None:
    assert any(line.endswith("  match/engine.py") for line in contract.grader_source_listing().splitlines())


def test_source_digest_covers_every_py_file_and_its_path(tmp_path: Path) -> None:
    pkg = tmp_path / "grader"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("A = 1\n")
    (pkg / "sub" / "b.py").write_text("B = 2\n")
    base = contract.grader_source_digest(pkg)
    (pkg / "sub" / "b.py").write_text("B = 3\n")
    assert contract.grader_source_digest(pkg) != base
    (pkg / "sub" / "b.py").write_text("B = 2\n")
    assert contract.grader_source_digest(pkg) == base
    (pkg / "sub" / "b.py").rename(pkg / "b.py")  # same bytes, other path
    assert contract.grader_source_digest(pkg) != base


def test_source_digest_ignores_caches_and_non_python_files(tmp_path: Path) -> None:
    pkg = tmp_path / "grader"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "a.py").write_text("A = 1\n")
    base = contract.grader_source_digest(pkg)
    (pkg / "__pycache__" / "a.cpython-311.py").write_text("junk")
    (pkg / "notes.txt").write_text("junk")
    assert contract.grader_source_digest(pkg) == base


def test_contract_version_is_a_positive_int() -> None:
    assert isinstance(contract.SCORING_CONTRACT_VERSION, int) and contract.SCORING_CONTRACT_VERSION >= 1
