"""The grader identity a freeze binds to: every project module scoring runs (derived from
the code), the bound third-party versions and the Python version (``lae.freeze.identity``)."""

from __future__ import annotations

import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lae.freeze import freeze_pocket, read_stamp, render_stamp
from lae.freeze.identity import NOT_BOUND, _imports_of, _normalise, _Resolver, derive_identity, python_tag
from lae.freeze.stamp import locate_module, replace_block
from lae.project import Project
from tests.conftest import ATTACK_POCKET, ATTACK_TASK, REPO, run_installed, run_lae, staged_memo
from tests.test_freeze_support import MODULE, POCKET, make_tree

_SCORE_A_MEMO = textwrap.dedent("""\
    import json, shutil, sys, tempfile
    from pathlib import Path
    from lae.project import Project
    from lae.grader.score import prepare_task, score_files
    ctx = prepare_task(Project.at(sys.argv[1]), sys.argv[2], allow_unfrozen=False)
    folder = Path(tempfile.mkdtemp())
    shutil.copyfile(sys.argv[3], folder / ctx.anchors.deliverables[0])
    result = score_files(ctx, [folder / ctx.anchors.deliverables[0]])
    loaded = sorted(m for m in sys.modules if m == "lae" or m.startswith("lae."))
    from lae.freeze.identity import derive_identity
    print(json.dumps({"loaded": loaded, "identity": [m.name for m in derive_identity().identity.modules],
                      "verified": result.freeze_root is not None}))
""")


def test_identity_modules_equal_the_project_modules_loaded_while_scoring_a_memo(tmp_path: Path) -> None:
    memo = REPO / "tests/fixtures/memos" / ATTACK_POCKET / ATTACK_TASK / "strong.docx"
    proc = subprocess.run([sys.executable, "-c", _SCORE_A_MEMO, str(REPO), ATTACK_TASK, str(memo)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["verified"] is True  # scored through the gate on the verified bundled release
    assert data["identity"] == data["loaded"]
    assert {"lae.match.terms", "lae.match.normalize", "lae.match.engine", "lae.canonical", "lae.grader.documents"} <= set(data["loaded"])


def test_lae_score_loads_every_identity_module(tmp_path: Path) -> None:
    """`lae score` itself (the CLI, measured with -X importtime) runs every identity module."""
    memo = staged_memo(tmp_path / "memo", "strong")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "lae", "score", "--root", str(REPO),
                           "--task", ATTACK_TASK, str(memo)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = {m.group(1) for m in re.finditer(r"\|\s+(lae(?:\.\w+)*)\s*$", proc.stderr, re.MULTILINE)}
    identity = derive_identity().identity
    assert identity is not None
    assert {m.name for m in identity.modules} <= loaded


def test_the_closure_follows_every_kind_of_import() -> None:
    source = textwrap.dedent("""\
        from __future__ import annotations
        import regex
        from typing import TYPE_CHECKING
        from . import normalize
        from .masking import SourceIndex
        from lae.match import terms
        if TYPE_CHECKING:
            import lae.env.tools
        def late():
            import lae.report.aggregate
            from docx import Document
    """).encode()
    project, others = _imports_of("lae.match.fake", source, False, _Resolver())
    assert {"lae.match.normalize", "lae.match.masking", "lae.match.terms", "lae.report.aggregate",
            "lae", "lae.match", "lae.report"} <= project
    assert "lae.env.tools" not in project  # never runs
    assert others == {"regex", "typing", "docx"}


def test_bound_packages_are_the_text_and_matching_libraries() -> None:
    identity = derive_identity().identity
    assert identity is not None and identity.python == python_tag()
    names = {p.name: p.version for p in identity.packages}
    assert {"python-docx", "pypdf", "openpyxl", "lxml", "regex", "pyahocorasick", "defusedxml"} <= set(names)
    assert names["pypdf"] == importlib.metadata.version("pypdf")
    assert not set(names) & set(NOT_BOUND)


def test_a_different_reader_version_in_the_manifest_is_named(tmp_path: Path) -> None:
    """A release frozen against pypdf 7.0.0 does not verify here, and says so in those words."""
    root = make_tree(tmp_path / "tree")
    freeze_pocket(Project.at(root), POCKET)
    module = root / "environments" / f"{MODULE}.py"
    data = module.read_bytes()
    manifest = read_stamp(data).manifest  # type: ignore[union-attr]
    packages = tuple(p.model_copy(update={"version": "7.0.0"}) if p.name == "pypdf" else p
                     for p in manifest.grader.packages)
    older = manifest.model_copy(update={"grader": manifest.grader.model_copy(update={"packages": packages})})
    module.write_bytes(replace_block(data, render_stamp(older.model_validate(older.model_dump()))))
    proc = run_lae("verify", "--root", str(root))
    assert proc.returncode == 3
    installed = importlib.metadata.version("pypdf")
    assert f"grader_changed: pypdf 7.0.0 → {installed}" in proc.stderr
    assert proc.stderr.count("grader_changed") == 1


# Each edit is one line in a module scoring runs outside grader/ (and one inside, and a new
# import), made in a copy of the installed wheel; `lae verify` names it and `lae score` refuses.
EDITS = [
    ("match/terms.py", "lae.match.terms", []),
    ("match/normalize.py", "lae.match.normalize", ["module lae.env.tools is new to scoring"]),
    ("canonical.py", "lae.canonical", []),
    ("grader/documents.py", "lae.grader.documents", []),
    ("grader/_ooxml.py", "lae.grader._ooxml", []),
    ("match/engine.py", "lae.match.engine", []),
]


@pytest.mark.parametrize("rel,module,also", EDITS, ids=[e[1] for e in EDITS])
def test_editing_a_scoring_module_in_an_installed_wheel_fails_verify(installed_release: Path, tmp_path: Path,
                                                                     rel: str, module: str, also: list[str]) -> None:
    site = tmp_path / "site"
    shutil.copytree(installed_release, site)
    root = site / "lae"
    target = root / rel
    line = "import lae.env.tools  # a new dependency\n" if also else "_EDITED = True\n"
    target.write_text(target.read_text(encoding="utf-8") + line, encoding="utf-8")
    proc = run_installed(site, "verify", "--root", str(root), "--pocket", ATTACK_POCKET, cwd=tmp_path)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert f"module {module} changed" in proc.stderr
    for message in also:
        assert message in proc.stderr
    memo = staged_memo(tmp_path / "memo")
    proc = run_installed(site, "score", "--root", str(root), "--task", ATTACK_TASK, str(memo), cwd=tmp_path)
    assert proc.returncode == 3 and f"module {module} changed" in proc.stderr
    assert "reward" not in proc.stdout


def _pinned_dependencies() -> dict[str, str]:
    """``name -> version`` of every ``name==version`` requirement in pyproject's dependencies."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = {}
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", requirement.strip())
        if match:
            pins[_normalise(match.group(1))] = match.group(2)
    return pins


def test_every_package_the_bundled_pockets_are_frozen_against_is_pinned_to_that_version() -> None:
    # A fresh `pip install` must reproduce the grader the bundled release was frozen against: a bound
    # reader or matcher left as a range (lxml>=4.9) installs a newer release one day, and then every
    # bundled pocket refuses to verify and `lae demo` exits 3 on a clean machine.
    pins = _pinned_dependencies()
    project = Project.at(REPO)
    checked = 0
    for pocket in project.pockets():
        stamp = read_stamp(locate_module(project, pocket)[1].read_bytes())
        assert stamp is not None and stamp.manifest is not None, f"{pocket} is not frozen"
        for package in stamp.manifest.grader.packages:
            assert pins.get(package.name) == package.version, (
                f"pyproject.toml must pin {package.name}=={package.version} (the version {pocket} is frozen "
                f"against); it pins {pins.get(package.name)!r}")
            checked += 1
    assert checked >= 7  # the readers (python-docx, pypdf, openpyxl, lxml, defusedxml) and matchers (regex, pyahocorasick)


def test_every_package_the_installed_grader_binds_is_pinned_exactly() -> None:
    derived = derive_identity().identity
    assert derived is not None
    pins = _pinned_dependencies()
    unpinned = [p.name for p in derived.packages if p.name not in pins]
    assert unpinned == [], f"bound by the grader identity but not pinned with == in pyproject.toml: {unpinned}"
