"""``lae freeze`` / ``lae verify`` through the real CLI in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from lae.project import Project
from tests.test_freeze_support import MODULE, POCKET, make_tree, snapshot

REPO = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((REPO / "schemas" / "verify.schema.json").read_text())


def lae(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lae", *args], cwd=cwd or REPO, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "tree")


def test_freeze_then_verify_exit_zero_and_print_the_root(root: Path) -> None:
    frozen = lae("freeze", "--root", str(root), "--pocket", POCKET)
    assert frozen.returncode == 0, frozen.stderr
    assert "compile check  skipped: keys_private/demo/ is absent" in frozen.stdout
    assert "sha256sum -c anchors/demo/SHA256SUMS" in frozen.stdout
    root_hex = next(line.split()[1] for line in frozen.stdout.splitlines() if line.strip().startswith("root"))
    verified = lae("verify", "--root", str(root), "--pocket", POCKET)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.strip() == f"verified demo: root {root_hex} (10 files)"


def test_verify_finds_the_root_from_a_subfolder(root: Path) -> None:
    assert lae("freeze", "--pocket", POCKET, cwd=root / "tasks").returncode == 0
    assert lae("verify", cwd=root / "tasks" / POCKET).returncode == 0


def test_verify_exits_3_listing_every_problem(root: Path) -> None:
    assert lae("freeze", "--root", str(root)).returncode == 0
    (root / "tasks/demo/case-001/documents/01-agreement.txt").unlink()
    (root / "tasks/demo/case-002/documents/09-extra.txt").write_text("x")
    (root / "tasks/demo/case-002/task.json").write_text("{}\n")
    done = lae("verify", "--root", str(root), "--pocket", POCKET)
    assert done.returncode == 3
    assert done.stdout == ""
    err = done.stderr
    assert "tasks/demo/case-001/documents/01-agreement.txt: missing:" in err
    assert "tasks/demo/case-002/documents/09-extra.txt: added:" in err
    assert "tasks/demo/case-002/task.json: changed: digest differs from the frozen one (expected " in err


def test_verify_of_a_never_frozen_pocket_exits_3(root: Path) -> None:
    done = lae("verify", "--root", str(root))
    assert done.returncode == 3
    assert "NOT FROZEN" in done.stderr


def test_verify_json_validates_against_the_schema_when_ok(root: Path) -> None:
    lae("freeze", "--root", str(root))
    done = lae("verify", "--root", str(root), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["ok"] is True and report["pockets"][0]["root"] == report["pockets"][0]["stamped_root"]


def test_verify_json_validates_against_the_schema_when_refused(root: Path) -> None:
    lae("freeze", "--root", str(root))
    (root / "tasks/demo/case-002/task.json").write_text("{}\n")
    done = lae("verify", "--root", str(root), "--json")
    assert done.returncode == 3
    report = json.loads(done.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    (problem,) = report["pockets"][0]["problems"]
    assert problem["kind"] == "changed" and problem["path"] == "tasks/demo/case-002/task.json"
    assert problem["expected"] != problem["observed"]


def test_verify_json_of_a_never_frozen_pocket_validates(root: Path) -> None:
    done = lae("verify", "--root", str(root), "--json")
    assert done.returncode == 3
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(done.stdout))


def test_freeze_json_reports_what_was_written(root: Path) -> None:
    first = json.loads(lae("freeze", "--root", str(root), "--json").stdout)
    second = json.loads(lae("freeze", "--root", str(root), "--json").stdout)
    assert first["ok"] and first["pockets"][0]["written"] == ["anchors/demo/SHA256SUMS", f"environments/{MODULE}.py"]
    assert second["pockets"][0]["written"] == []
    assert first["pockets"][0]["root"] == second["pockets"][0]["root"]


def test_freeze_refusal_exits_3_and_writes_nothing(root: Path) -> None:
    (root / "anchors/demo/case-001.anchors.json").write_text("{}")
    before = snapshot(root)
    done = lae("freeze", "--root", str(root), "--pocket", POCKET)
    assert done.returncode == 3
    assert "anchors/demo/case-001.anchors.json: scoring: has no `scoring` block" in done.stderr
    assert snapshot(root) == before


def test_freeze_lock_timeout_exits_3(root: Path) -> None:
    from lae.freeze._fs import pocket_lock

    with pocket_lock(Project.at(root).anchors_dir(POCKET), timeout=5):
        done = lae("freeze", "--root", str(root), "--lock-timeout", "0.2")
    assert done.returncode == 3
    assert "another freeze of pocket 'demo' is running" in done.stderr


def test_unknown_pocket_exits_1(root: Path) -> None:
    done = lae("verify", "--root", str(root), "--pocket", "nope")
    assert done.returncode == 1 and "unknown pocket 'nope'" in done.stderr


def test_bad_usage_exits_2(root: Path) -> None:
    assert lae("verify", "--root", str(root), "--no-such-flag").returncode == 2


def test_all_pockets_verify_reports_each(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree")
    make_tree(root, pocket="other", module="other_env", tasks=1)
    assert lae("freeze", "--root", str(root)).returncode == 0
    done = lae("verify", "--root", str(root))
    assert done.returncode == 0
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["verified demo", "verified other"]
    (root / "tasks/other/case-001/task.json").write_text("{}\n")
    done = lae("verify", "--root", str(root))
    assert done.returncode == 3
    assert "verified demo" in done.stdout
    assert "pocket 'other' does not match its freeze" in done.stderr and "demo" not in done.stderr
