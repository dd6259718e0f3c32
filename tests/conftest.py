"""Shared test fixtures: a copy of the fixture project tree, the real CLI in a subprocess."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from filelock import FileLock

REPO = Path(__file__).resolve().parents[1]
FIXTURE_TREE = REPO / "tests" / "fixtures" / "tree"
CORPORA = REPO.parent / "shared" / "corpora"


IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI=true``) a skip is a failure: CI installs everything the suite needs.

    Outside CI a test that needs Chromium, LibreOffice, the verifiers extra or ``../shared``
    may skip with its printed reason; in CI a silent skip would let a claim pass untested.
    """
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CI=true), which must install what this test needs: {reason}"


def corpora_dir() -> Path:
    """The shared third-party corpora, or skip with the reason."""
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA}; these tests read third-party files from there")
    return CORPORA


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A private copy of the fixture project tree (compiled anchors removed)."""
    dest = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, dest)
    for p in (dest / "anchors").rglob("*.anchors.json"):
        p.unlink()
    return dest


def private_copy(source: Path, tmp_path: Path, name: str = "tree") -> Path:
    """A test's own copy of a tree built once (a session or module fixture): tests may change it."""
    root = tmp_path / name
    shutil.copytree(source, root)
    return root


def run_lae(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real CLI (``python -m lae``) in a subprocess."""
    full_env = dict(os.environ)
    full_env.pop("SOURCE_DATE_EPOCH", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "lae", *args], cwd=cwd or REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def lae():
    return run_lae


# -- a frozen release to attack: a copy of one bundled pocket, and the installed wheel --------

ATTACK_POCKET = "employment-law"
ATTACK_TASK = "atlas-noncompete-001"
ATTACK_DELIVERABLE = "noncompete-risk-memo.docx"


_REPORTABLE: dict[str, Path] = {}


def _reportable_release(pocket: str) -> Path:
    """One bundled pocket frozen again without its validation set (built once per session,
    per test process).

    The bundled releases are frozen below their fidelity thresholds, so nothing scored
    against them is reportable; tests of what a *reportable* release defends need one. This
    copy's freeze records no fidelity (no validation set), so the gate calls it reportable.
    It has no keys, as in an installed release, so `lae freeze` skips the compile check (and
    says so): the bundled anchors' currency is tested by tests/pockets/test_pockets.py and
    tests/test_demo.py, and checking it again here cost a compile of the whole pocket."""
    if pocket not in _REPORTABLE:
        root = Path(tempfile.mkdtemp(prefix="lae-reportable-")) / "release"
        module = pocket.replace("-", "_")
        for sub in (f"anchors/{pocket}", f"tasks/{pocket}", f"tests/fixtures/memos/{pocket}"):
            shutil.copytree(REPO / sub, root / sub)
        (root / "environments").mkdir(parents=True)
        for name in ("__init__.py", f"{module}.py"):
            shutil.copy2(REPO / "environments" / name, root / "environments" / name)
        proc = run_lae("freeze", "--root", str(root), "--pocket", pocket)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "compile check  skipped" in proc.stdout, proc.stdout
        proc = run_lae("verify", "--root", str(root), "--pocket", pocket)  # so every copy verifies as it is
        assert proc.returncode == 0, proc.stdout + proc.stderr
        _REPORTABLE[pocket] = root
    return _REPORTABLE[pocket]


def release_copy(dest: Path, pocket: str = ATTACK_POCKET) -> Path:
    """A private copy of one frozen bundled pocket (anchors, tasks, its stamped module,
    its fixture memos; no keys, as in an installed release), frozen without its validation
    set so that it verifies and is reportable."""
    shutil.copytree(_reportable_release(pocket), dest)
    return dest


def staged_memo(folder: Path, which: str = "generic", pocket: str = ATTACK_POCKET, task: str = ATTACK_TASK,
                declared: str = ATTACK_DELIVERABLE) -> Path:
    """A bundled fixture memo saved under its declared deliverable name in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / declared
    shutil.copyfile(REPO / "tests" / "fixtures" / "memos" / pocket / task / f"{which}.docx", target)
    return target


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel, once per session and worker. pip builds in the checkout's
    build/ folder, so builds take a lock: two xdist workers never build at once (the wheel tests
    are also grouped on one worker: ``pytest_collection_modifyitems``)."""
    out = tmp_path_factory.mktemp("release-wheel")
    lock = Path(tempfile.gettempdir()) / f"lae-wheel-build-{hashlib.sha256(str(REPO).encode()).hexdigest()[:16]}.lock"
    with FileLock(str(lock)):
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                               "-w", str(out), str(REPO)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"building the wheel failed (the test extra installs setuptools and wheel):\n{proc.stderr}"
    (whl,) = out.glob("*.whl")
    return whl


@pytest.fixture(scope="session")
def installed_release(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed with ``pip --target`` into a private folder (once per session);
    tests copy it before they run or change anything."""
    site = tmp_path_factory.mktemp("release-site") / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                           str(built_wheel)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return site


WHEEL_FIXTURES = {"built_wheel", "installed_release"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``) the tests that use the built wheel are marked to
    run in one worker, so the wheel is built once. The mark is placement only: with some xdist
    versions the group is not honoured, and ``built_wheel``'s lock is what keeps two workers from
    building in the checkout's build/ folder at once. Without xdist the mark does nothing."""
    for item in items:
        if WHEEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("wheel"))


def run_installed(site: Path, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m lae ARGS`` importing lae from ``site`` (an installed copy), not the checkout."""
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("SOURCE_DATE_EPOCH", None)
    return subprocess.run([sys.executable, "-m", "lae", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def tamper_anchors(path: Path) -> bytes:
    """Raise an anchors file's deliverable weight from 0.4 to 1.0 (a generic memo then scores
    1.0 instead of 0.4); return the tampered bytes."""
    data = path.read_bytes()
    tampered = data.replace(b'"deliverable_weight":0.4', b'"deliverable_weight":1.0')
    assert tampered != data, f"{path} holds no deliverable weight of 0.4"
    path.write_bytes(tampered)
    return tampered
