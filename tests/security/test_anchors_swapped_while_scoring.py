"""Attack: swap the anchors file back and forth while scores are computed.

Before: `lae score` read the anchors before it verified, and the environment verified at
load but read anchors lazily at the first score; 7 of 20 runs gave a reportable score
computed on tampered anchors. After: the gate reads every frozen file once, hashes those
bytes and scores them; no reportable result names bytes other than the frozen ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from lae.env.environment import load_environment
from tests.conftest import ATTACK_POCKET, ATTACK_TASK, release_copy, run_lae, staged_memo

ANCHORS = f"anchors/{ATTACK_POCKET}/{ATTACK_TASK}.anchors.json"
RUNS = 12


def _frozen_digests(root: Path) -> dict[str, str]:
    lines = (root / f"anchors/{ATTACK_POCKET}/SHA256SUMS").read_text().splitlines()
    return {path: digest for digest, path in (line.split("  ", 1) for line in lines)}


class Swapper(threading.Thread):
    """Replaces the anchors file by a tampered one and back, atomically, every 50 ms.

    The spare file is written outside the frozen folder (same file system): a stray file
    inside it is refused for its own reason, which is not the race under test."""

    def __init__(self, path: Path, spare: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.spare = spare
        self.frozen = path.read_bytes()
        self.tampered = self.frozen.replace(b'"deliverable_weight":0.4', b'"deliverable_weight":1.0')
        assert self.tampered != self.frozen
        self.stop = threading.Event()

    def run(self) -> None:
        spare = self.spare
        flip = False
        while not self.stop.is_set():
            flip = not flip
            spare.write_bytes(self.tampered if flip else self.frozen)
            os.replace(spare, self.path)
            self.stop.wait(0.05)
        self.path.write_bytes(self.frozen)


def test_lae_score_never_reports_a_score_of_swapped_anchors(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    frozen = _frozen_digests(root)
    memo = staged_memo(tmp_path / "memo", "generic")
    swapper = Swapper(root / ANCHORS, tmp_path / "spare.json")
    swapper.start()
    results = []
    try:
        for _ in range(RUNS):
            proc = run_lae("score", "--root", str(root), "--task", ATTACK_TASK, "--json", "--allow-unfrozen", str(memo))
            assert proc.returncode == 0, proc.stderr
            results.append(json.loads(proc.stdout))
    finally:
        swapper.stop.set()
        swapper.join()
    reportable = [r for r in results if r["reportable"]]
    for r in reportable:
        assert r["anchors_sha256"] == frozen[ANCHORS] == hashlib.sha256(swapper.frozen).hexdigest()
        assert all(frozen[f["path"]] == f["sha256"] for f in r["scored_files"])
        assert r["metrics"]["reward"] == 0.4
    tampered = [r for r in results if not r["reportable"]]
    assert reportable and tampered, f"{len(reportable)} reportable, {len(tampered)} refused: the swap never raced"
    tampered_digest = hashlib.sha256(swapper.tampered).hexdigest()
    assert all(r["anchors_sha256"] == tampered_digest for r in tampered), [r["release"]["reason"] for r in tampered]


def test_the_environment_scores_the_anchors_it_verified_at_load(tmp_path: Path) -> None:
    root = release_copy(tmp_path / "release")
    frozen = _frozen_digests(root)
    env = load_environment(ATTACK_POCKET, tasks_root=str(root))
    assert env.release.reportable
    anchors = root / ANCHORS
    anchors.write_bytes(anchors.read_bytes().replace(b'"deliverable_weight":0.4', b'"deliverable_weight":1.0'))
    for doc in (root / f"tasks/{ATTACK_POCKET}/{ATTACK_TASK}/documents").iterdir():
        doc.write_bytes(b"")  # the documents quote masking runs against, emptied after load
    result = env.score(env.task(ATTACK_TASK), staged_memo(tmp_path / "ws", "generic").parent)
    assert result.reportable and result.metrics.reward == 0.4
    assert result.anchors_sha256 == frozen[ANCHORS]
    assert len(result.scored_files) == 11 and all(frozen[f.path] == f.sha256 for f in result.scored_files)
