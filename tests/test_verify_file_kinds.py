"""Every kind of file a bundled release freezes is named by `lae verify` when one byte changes.

A named case per kind, on a copy of the real bundled tree (not the fixture), run through the
real CLI in a subprocess: a verifier that ignored, say, `.eml` files would fail its own case
here rather than only when a random byte flip happened to pick an email. One byte is changed in
a file of every kind and `lae verify` runs once; each kind's case checks that report names its
file as changed, with the digest of the changed bytes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import REPO, release_copy, run_lae

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
def flipped(tmp_path_factory) -> tuple[Path, dict]:
    """A copy of the bundled release frozen again by the code under test (so a freeze and a
    verify that both skipped a kind of file would agree, and only the cases below catch it;
    ``release_copy``: frozen by `lae freeze` without its validation set), with one byte changed
    in one file of every kind, then `lae verify --json` run once: verify lists every problem
    at once, so each kind's case below reads the same report."""
    root = release_copy(tmp_path_factory.mktemp("bundled") / "tree", POCKET)  # verifies as copied
    for rel in KINDS.values():
        target = root / rel
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 0x01
        target.write_bytes(bytes(data))
    proc = run_lae("verify", "--root", str(root), "--pocket", POCKET, "--json")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    return root, json.loads(proc.stdout)


def test_every_frozen_file_kind_is_covered() -> None:
    suffixes = {p.suffix for p in (REPO / TASK / "documents").iterdir()}
    assert suffixes == {".docx", ".pdf", ".xlsx", ".eml", ".txt"}
    assert {Path(p).suffix for p in KINDS.values()} >= suffixes | {".json"}


@pytest.mark.parametrize("kind", sorted(KINDS), ids=lambda k: k.replace(" ", "-"))
def test_one_changed_byte_is_named(flipped: tuple[Path, dict], kind: str) -> None:
    root, report = flipped
    (pocket,) = report["pockets"]
    assert pocket["ok"] is False and pocket["root"] is None
    named = [p for p in pocket["problems"] if p["path"] == KINDS[kind]]
    assert named, f"verify did not name {KINDS[kind]}: {json.dumps(report)}"
    observed = hashlib.sha256((root / KINDS[kind]).read_bytes()).hexdigest()
    assert [(p["kind"], p["observed"]) for p in named] == [("changed", observed)]
