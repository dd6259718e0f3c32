"""Every kind of file a bundled release freezes is named by `lae verify` when one byte changes.

A named case per kind, on a copy of the real bundled tree (not the fixture), run through the
real CLI in a subprocess: a verifier that ignored, say, `.eml` files would fail its own case
here rather than only when a random byte flip happened to pick an email.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO, run_lae

POCKET = "employment-law"
TASK = "tasks/employment-law/atlas-noncompete-001"

KINDS = {
    "docx document": f"{TASK}/documents/01-restrictive-covenant-agreement.docx",
    "pdf document": f"{TASK}/documents/02-compliance-reference-restrictive-covenants.pdf",
    "xlsx document": f"{TASK}/documents/03-rollout-population-roster.xlsx",
    "eml document": f"{TASK}/documents/05-rollout-timeline-email.eml",
    "txt document": f"{TASK}/documents/06-hr-rollout-channel-chat.txt",
    "task.json": f"{TASK}/task.json",
    "anchors": "anchors/employment-law/atlas-noncompete-001.anchors.json",
}


@pytest.fixture(scope="module")
def bundled(tmp_path_factory) -> Path:
    """A copy of the bundled release tree, frozen again by the code under test (so a freeze and a
    verify that both skipped a kind of file would agree, and only the tamper cases below catch it)."""
    root = tmp_path_factory.mktemp("bundled")
    for part in ("tasks", "anchors", "environments", "keys_private"):
        shutil.copytree(REPO / part, root / part)
    # the bundled pockets measure below their fidelity thresholds (the release is then not reportable)
    frozen = run_lae("freeze", "--root", str(root), "--pocket", POCKET, "--allow-low-fidelity")
    assert frozen.returncode == 0, frozen.stdout + frozen.stderr
    proc = run_lae("verify", "--root", str(root), "--pocket", POCKET)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


def test_every_frozen_file_kind_is_covered() -> None:
    suffixes = {p.suffix for p in (REPO / TASK / "documents").iterdir()}
    assert suffixes == {".docx", ".pdf", ".xlsx", ".eml", ".txt"}
    assert {Path(p).suffix for p in KINDS.values()} >= suffixes | {".json"}


@pytest.mark.parametrize("kind", sorted(KINDS), ids=lambda k: k.replace(" ", "-"))
def test_one_changed_byte_is_named(bundled: Path, kind: str, tmp_path: Path) -> None:
    root = tmp_path / "tree"
    shutil.copytree(bundled, root)
    target = root / KINDS[kind]
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    proc = run_lae("verify", "--root", str(root), "--pocket", POCKET, "--json")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert KINDS[kind] in json.dumps(report), f"verify did not name {KINDS[kind]}: {proc.stdout}"
