"""Tiny project trees for the freeze/verify tests, and helpers to compare them.

``make_tree`` writes a pocket the way the pipeline lays it out:
``anchors/<pocket>/<task>.anchors.json`` (with a ``scoring`` block),
``tasks/<pocket>/<task>/task.json`` and ``documents/*`` (text, email and binary), and
``environments/<module>.py`` with a docstring, the NOT FROZEN stamp and code below it.
With ``keys=True`` it also writes ``keys_private/<pocket>/pocket.yaml``, so the compile
check runs (tests stub it; the real compiler is exercised in test_freeze_compile.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from lae.freeze import BEGIN_MARKER, END_MARKER, render_unfrozen_stamp

POCKET = "demo"
MODULE = "demo_env"

MODULE_HEAD = '"""Demo pocket environment (tests only)."""\n\nfrom __future__ import annotations\n\n'
MODULE_TAIL = (
    "\n\n\ndef load_environment(**kwargs):  # code below the stamp: freeze never touches it\n"
    "    return {'pocket': 'demo', 'kwargs': kwargs}\n"
)

SCORING = {
    "false_flag_weight": 0.1,
    "must_not_say_weight": 0.1,
    "min_deliverable_chars": 200,
    "finding_weight": 0.6,
    "deliverable_weight": 0.4,
    "window_sentences": 1,
    "mask_min_tokens": 8,
}


def module_text(pocket: str = POCKET) -> str:
    return MODULE_HEAD + render_unfrozen_stamp(pocket) + MODULE_TAIL


def make_tree(root: Path, *, pocket: str = POCKET, module: str = MODULE, tasks: int = 2, keys: bool = False) -> Path:
    """Write a small frozen-to-be project under ``root`` and return ``root``."""
    for i in range(1, tasks + 1):
        tid = f"case-{i:03d}"
        anchors = {
            "anchors_schema_version": 1,
            "task_id": tid,
            "pocket": pocket,
            "title": f"Case {i}",
            "scoring": SCORING,
            "findings": [{"id": "F1", "names": [{"term": "late notice", "pattern": "late\\s+notice"}]}],
        }
        _write(root / "anchors" / pocket / f"{tid}.anchors.json",
               json.dumps(anchors, sort_keys=True, separators=(",", ":")).encode())
        task = {"title": f"Case {i}", "instructions": "Review and write a memo. Output: memo.docx.",
                "deliverables": {"memo.docx": "memo.docx"}, "task_id": tid}
        _write(root / "tasks" / pocket / tid / "task.json", (json.dumps(task, indent=2) + "\n").encode())
        docs = root / "tasks" / pocket / tid / "documents"
        _write(docs / "01-agreement.txt", f"Agreement {i}. Section 4.2: notice within 30 days.\n".encode() * 20)
        _write(docs / "02-email.eml", f"From: a@example.invalid\nSubject: case {i}\n\nPlease review.\n".encode())
        _write(docs / "03-schedule.bin", hashlib.sha256(f"bin{i}".encode()).digest() * 64)
    _write(root / "environments" / f"{module}.py", module_text(pocket).encode())
    if keys:
        _write(root / "keys_private" / pocket / "pocket.yaml",
               (f"schema_version: 1\npocket: {pocket}\ntitle: Demo pocket\nenvironment_module: {module}\n"
                "false_flag_weight: 0.1\nmust_not_say_weight: 0.1\nmin_deliverable_chars: 200\n").encode())
    return root


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` (relative POSIX path -> bytes)."""
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


def outside_stamp(data: bytes) -> tuple[bytes, bytes]:
    """The module bytes before the begin marker and after the end marker."""
    start = data.index(BEGIN_MARKER.encode())
    end = data.index(END_MARKER.encode()) + len(END_MARKER)
    return data[:start], data[end:]


HEX64 = re.compile(rb"[0-9a-fA-F]{32,}")


def frozen_files(root: Path, pocket: str = POCKET) -> list[str]:
    """Paths listed in the pocket's SHA256SUMS."""
    text = (root / "anchors" / pocket / "SHA256SUMS").read_text()
    return [line.split("  ", 1)[1] for line in text.splitlines()]


def test_make_tree_lays_out_the_pipeline_layout(tmp_path: Path) -> None:
    root = make_tree(tmp_path, keys=True)
    files = set(snapshot(root))
    assert "anchors/demo/case-001.anchors.json" in files
    assert "tasks/demo/case-002/documents/03-schedule.bin" in files
    assert "environments/demo_env.py" in files
    assert "keys_private/demo/pocket.yaml" in files
