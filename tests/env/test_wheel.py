"""The installed wheel is a self-contained release: tasks and anchors inside, keys never."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(REPO)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"building the wheel failed (the test extra installs setuptools and wheel):\n{proc.stderr}"
    (whl,) = out.glob("*.whl")
    return whl


def test_wheel_bundles_tasks_and_anchors_but_no_private_keys(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if "keys_private" in n], "private keys must never ship"
    assert not [n for n in names if n.endswith(".yaml") and "/tasks/" not in n], "no key YAML in the wheel"
    assert any(n.startswith("lae/tasks/employment-law/") and n.endswith("/task.json") for n in names)
    assert any(n.startswith("lae/anchors/employment-law/") and n.endswith(".anchors.json") for n in names)
    assert any(n.startswith("lae/environments/") and n.endswith("employment_law.py") for n in names)
    canaries = [n for n in names if n.endswith((".json", ".py"))]
    z = zipfile.ZipFile(wheel)
    for n in canaries:
        assert b"CANARY-" not in z.read(n), n


def _validation_lines() -> set[str]:
    """Every substantial line of every validation memo and labels file (the project's and the fixture's)."""
    files = [*REPO.glob("keys_private/*/validation/**/*"), *REPO.glob("tests/fixtures/tree/keys_private/*/validation/**/*")]
    lines = set()
    for f in files:
        if f.suffix in (".md", ".yaml"):
            lines.update(s.strip(" #-|*") for s in f.read_text(encoding="utf-8").splitlines() if len(s.strip()) >= 40)
    return lines


def test_wheel_holds_no_validation_text(wheel):
    lines = _validation_lines()
    assert lines, "no validation text found to look for"
    z = zipfile.ZipFile(wheel)
    assert not [n for n in z.namelist() if "/validation/" in n]
    for n in z.namelist():
        text = z.read(n).decode("utf-8", errors="replace")
        assert not [line for line in lines if line in text], n


def test_load_environment_from_the_installed_wheel(wheel, tmp_path):
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    code = (
        "import lae, lae.environments.employment_law as m\n"
        f"assert lae.__file__.startswith({str(target)!r}), lae.__file__\n"
        "env = m.load_environment(allow_unfrozen=True)\n"
        "assert not (env.project.root / 'keys_private').exists()\n"
        "print(env.project.root)\n"
        "print(len(env.tasks), env.release.reportable)\n"
        "t = env.tasks[0]\n"
        "import tempfile, pathlib\n"
        "tools = env.tools(t, pathlib.Path(tempfile.mkdtemp()))\n"
        "print(tools.list_documents().splitlines()[0])\n"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    root, counts, first = proc.stdout.splitlines()[:3]
    assert root.startswith(str(target))
    assert int(counts.split()[0]) >= 1
    assert first.endswith("documents:")


def test_the_installed_package_verifies_as_frozen(wheel, tmp_path):
    """site-packages/lae is itself a frozen project tree: `lae verify` passes on it."""
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-m", "lae", "verify", "--root", str(target / "lae")],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("verified ") == 3


def test_installed_commands_use_the_bundled_release_in_an_empty_folder(wheel, tmp_path):
    """From an installed wheel, outside any checkout: verify, tasks and demo work and say which tree they use."""
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))
    note = f"using the release bundled with lae at {target / 'lae'}"
    for args, expect in ((["verify"], "verified employment-law"), (["tasks"], "atlas-noncompete-001"),
                         (["demo"], "[employment-law] verify: ok")):
        proc = subprocess.run([sys.executable, "-m", "lae", *args], capture_output=True, text=True, timeout=300, env=env,
                              cwd=empty)
        assert proc.returncode == 0, (args, proc.stdout + proc.stderr)
        assert expect in proc.stdout, (args, proc.stdout)
        assert proc.stderr.count(note) == 1, (args, proc.stderr)
    assert list(empty.iterdir()) == [], "nothing written into the working folder"
