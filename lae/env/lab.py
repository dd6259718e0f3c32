"""Harvey LAB task trees: discovery, validation, and workflow-discipline metrics.

A LAB tree holds ``<category>/<task-id>/task.json`` or LAB's own
``<category>/<task>/<scenario>/task.json``, each beside a ``documents/`` folder.
LAB mode measures workflow discipline only (every declared deliverable saved under
its exact filename with substantive content); its metrics carry the ``lab_`` prefix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lae.jsonio import loads
from lae.errors import InvalidInputError, Problem

__all__ = ["LabTask", "LabTree", "discover_lab_tasks", "lab_metrics"]


@dataclass(frozen=True)
class LabTask:
    slug: str  # path relative to tasks_root, POSIX
    path: Path
    title: str
    instructions: str
    deliverables: tuple[str, ...]
    criteria: int
    documents: tuple[str, ...]


@dataclass
class LabTree:
    root: Path
    tasks: list[LabTask] = field(default_factory=list)

    def counts(self) -> dict:
        formats = Counter(Path(d).suffix.lstrip(".").lower() or "(none)" for t in self.tasks for d in t.documents)
        return {"tasks": len(self.tasks), "criteria": sum(t.criteria for t in self.tasks),
                "documents": sum(len(t.documents) for t in self.tasks), "documents_by_format": dict(sorted(formats.items()))}


def _load(root: Path, task_json: Path) -> tuple[LabTask | None, list[Problem]]:
    where = task_json.relative_to(root).as_posix()
    try:
        data = loads(task_json.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, [Problem(where, f"not readable JSON: {exc}", mend="fix the JSON")]
    problems = []
    if not isinstance(data, dict):
        return None, [Problem(where, "top level must be an object", mend="write a LAB task object")]
    if not isinstance(data.get("instructions"), str) or not data["instructions"].strip():
        problems.append(Problem(where, "instructions must be a non-empty string", field="instructions",
                                mend='add "instructions": "..."'))
    deliverables = data.get("deliverables")
    if not isinstance(deliverables, dict) or not deliverables:
        problems.append(Problem(where, "deliverables must be an object of declared filenames", field="deliverables",
                                mend='add "deliverables": {"memo.docx": "memo.docx"}'))
    criteria = data.get("criteria", [])
    if not isinstance(criteria, list):
        problems.append(Problem(where, "criteria must be a list", field="criteria", mend="use a JSON list"))
    if problems:
        return None, problems
    docs_dir = task_json.parent / "documents"
    docs = tuple(sorted(p.name for p in docs_dir.iterdir() if p.is_file() and not p.name.startswith("."))) if docs_dir.is_dir() else ()
    slug = task_json.parent.relative_to(root).as_posix()
    return LabTask(slug=slug, path=task_json.parent, title=str(data.get("title", slug)),
                   instructions=data["instructions"], deliverables=tuple(sorted(deliverables)),
                   criteria=len(criteria), documents=docs), []


def discover_lab_tasks(tasks_root: Path) -> LabTree:
    """Find every task.json two or three levels below ``tasks_root``; raise with every problem."""
    root = Path(tasks_root)
    if not root.is_dir():
        raise InvalidInputError("tasks_root is not a folder", [Problem(str(root), "not a directory",
                                                                       field="tasks_root", mend="point it at a LAB tasks folder")])
    tree = LabTree(root)
    problems: list[Problem] = []
    candidates = sorted(set(root.glob("*/*/task.json")) | set(root.glob("*/*/*/task.json")))
    for task_json in candidates:
        task, errs = _load(root, task_json)
        problems.extend(errs)
        if task:
            tree.tasks.append(task)
    if problems:
        raise InvalidInputError(f"invalid LAB tree {root}", problems)
    if not tree.tasks:
        raise InvalidInputError("no LAB tasks found", [Problem(str(root), "no <category>/<task>[/<scenario>]/task.json",
                                                               field="tasks_root", mend="point it at a LAB tasks folder")])
    return tree


def lab_metrics(task: LabTask, saved: dict[str, str], min_chars: int) -> dict[str, float]:
    """Workflow discipline: declared deliverables saved under exact names with substance.

    ``saved`` maps saved filename -> extracted text (empty when unreadable)."""
    declared = task.deliverables
    present = [d for d in declared if d in saved]
    substantive = [d for d in present if len(saved[d].strip()) >= min_chars]
    return {
        "lab_deliverables_saved": len(present) / len(declared),
        "lab_deliverables_substantive": len(substantive) / len(declared),
        "lab_deliverable_complete": 1.0 if len(substantive) == len(declared) else 0.0,
        "lab_undeclared_files": float(len(set(saved) - set(declared))),
    }
