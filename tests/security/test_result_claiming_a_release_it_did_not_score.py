"""Attack: a result that quotes the frozen root but was scored on other anchors.

Before: no result's `anchors_sha256` was ever compared with the manifest, so such a result
was reported as reportable. After: results carry the digests of every file they scored,
and `lae report` checks them against the release it reports under.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.conftest import ATTACK_POCKET, ATTACK_TASK, release_copy, run_lae, staged_memo

ANCHORS = f"anchors/{ATTACK_POCKET}/{ATTACK_TASK}.anchors.json"


def _scored_run(root: Path, runs: Path) -> Path:
    folder = runs / "model-x" / ATTACK_TASK / "r1"
    staged_memo(folder, "generic")
    (folder / "rollout.json").write_text(json.dumps({"task_id": ATTACK_TASK, "model": "model-x", "rollout": 1}))
    proc = run_lae("score", "--root", str(root), "--runs", str(folder.parent))
    assert proc.returncode == 0, proc.stderr
    return folder / "result.json"


def test_report_marks_a_result_with_foreign_anchors_not_reportable(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    result_path = _scored_run(root, tmp_path / "runs")
    proc = run_lae("report", "--root", str(root), str(tmp_path / "runs"))
    assert proc.returncode == 0 and "**Freeze root**" in proc.stdout and "every rollout verified" in proc.stdout

    data = json.loads(result_path.read_text())
    foreign = hashlib.sha256(b"tampered anchors").hexdigest()
    data["anchors_sha256"] = foreign
    data["scored_files"] = [dict(f, sha256=foreign) if f["path"] == ANCHORS else f for f in data["scored_files"]]
    data["metrics"]["reward"] = 1.0
    result_path.write_text(json.dumps(data))
    proc = run_lae("report", "--root", str(root), str(tmp_path / "runs"))
    assert proc.returncode == 0
    assert "**Not reportable**" in proc.stdout and "digest check failed: the anchors scored" in proc.stdout


def test_report_marks_a_result_without_a_release_to_check_not_reportable(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    _scored_run(root, tmp_path / "runs")
    other = release_copy(tmp_path / "other")
    module = other / "environments/employment_law.py"
    module.write_text(module.read_text().replace("# status: FROZEN", "# status: FROZEN "))  # unreadable stamp
    proc = run_lae("report", "--root", str(other), str(tmp_path / "runs"))
    assert proc.returncode == 0 and "**Not reportable**" in proc.stdout and "digest check failed" in proc.stdout
