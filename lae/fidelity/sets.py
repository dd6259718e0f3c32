"""Labelled memo sets: the project's validation sets, or a folder in the development layout.

Two layouts hold the same thing, memos with a careful reader's labels:

* the project's own, ``keys_private/<pocket>/validation/<task-id>/labels.yaml`` beside
  ``<memo-id>.md`` and ``<memo-id>/<deliverable>`` (SPEC section 11);
* a development folder (``--memos DIR``): ``DIR/<pocket>/<task-id>/labels.json``
  (memo -> id -> label), ``why.json`` (memo -> id -> sentence), ``X.md`` and
  ``X/<deliverable>``. It is read as the same model, so it meets the same checks;
  a sentence not found in its memo is a warning there (the folder is not ours to mend).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from lae.compiler.keys import AnswerKey
from lae.compiler.labels import (LABEL_TAGS, LABELS_NAME, LabelsFile, MatterIds, MemoKind, label_problems,
                                 load_labels)
from lae.compiler.load import Located, dotted, load_key, parse_yaml_located, pydantic_problems
from lae.errors import KeyValidationError, LaeError, Problem
from lae.grader.anchors import Anchors, load_anchors
from lae.project import Project

__all__ = ["LabelledMemo", "MemoSet", "project_set", "folder_set", "matter_ids"]

_CARRYING = ("RAISED", "DISMISSED", "ESCALATED", "MADE")


@dataclass(frozen=True)
class LabelledMemo:
    """One memo to score and the labels it is held to."""

    pocket: str
    task_id: str
    memo_id: str
    kind: str
    written: str | None
    deliverable: Path  # the file the grader reads
    shown: str  # the same, relative to the set's root
    labels: dict[str, str]  # id -> label, in the key's order
    sentences: dict[str, str]  # id -> the memo's sentence(s) the label rests on


@dataclass
class MemoSet:
    """Labelled memos from one source, in pocket, task, memo order."""

    source: str
    memos: list[LabelledMemo] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def only(self, patterns: tuple[str, ...]) -> MemoSet:
        """The memos whose id matches one of ``patterns`` (shell globs, case-sensitive:
        ``?6`` is batch 6, ``D*`` every adversarial memo); the source names the selection,
        so a report of a held-out batch says which memos it measured."""
        if not patterns:
            return self
        kept = [m for m in self.memos if any(fnmatchcase(m.memo_id, p) for p in patterns)]
        return replace(self, source=f"{self.source} (memo {' '.join(patterns)})", memos=kept)


def matter_ids(anchors: Anchors) -> MatterIds:
    """The ids labels are checked against, from a task's public anchors."""
    kinds = {f.id: "finding" for f in anchors.findings}
    kinds.update({d.id: "distractor" for d in anchors.distractors})
    kinds.update({c.id: "claim" for c in anchors.must_not_say})
    return MatterIds(kinds, anchors.deliverables[0])


def _memos_of(labels: LabelsFile, ids: MatterIds, folder: Path, shown: str, *, written: bool) -> list[LabelledMemo]:
    out = []
    for memo_id in sorted(labels.memos):
        memo = labels.memos[memo_id]
        out.append(LabelledMemo(
            pocket=labels.pocket, task_id=labels.task_id, memo_id=memo_id, kind=memo.kind,
            written=memo.written if written else None, deliverable=folder / memo_id / ids.deliverable,
            shown=f"{shown}/{memo_id}/{ids.deliverable}",
            labels={i: memo.labels[i].label for i in ids.kinds if i in memo.labels},
            sentences={i: e.sentence for i, e in memo.labels.items() if hasattr(e, "sentence")}))
    return out


def _selected(base: Path, name: str | None) -> list[Path]:
    if not base.is_dir():
        return []
    return [p for p in sorted(base.iterdir()) if p.is_dir() and not p.name.startswith((".", "_"))
            and (name is None or p.name == name)]


def project_set(project: Project, *, pocket: str | None = None, task: str | None = None) -> MemoSet:
    """Every labelled memo of the project's validation sets (optionally one pocket or
    task). Raises :class:`KeyValidationError` (exit 1) listing every problem of every
    labels file at once."""
    out = MemoSet(source="keys_private/*/validation")
    problems: list[Problem] = []
    for name in [pocket] if pocket else project.pockets():
        for folder in _selected(project.validation_dir(name), task):
            try:
                out.memos.extend(_project_matter(project, name, folder))
            except LaeError as exc:
                problems.extend(exc.problems or [Problem(project.relative(folder), str(exc))])
    if problems:
        raise KeyValidationError(f"invalid validation labels ({len(problems)} problem(s))", problems)
    return out


def _project_matter(project: Project, pocket: str, folder: Path) -> list[LabelledMemo]:
    path = folder / LABELS_NAME
    if not path.is_file():
        raise KeyValidationError("no labels", [Problem(project.relative(path), "missing",
                                                       mend="label the memos of this folder, or remove it")])
    key_path = project.key_path(pocket, folder.name)
    if not key_path.is_file():
        raise KeyValidationError("no key", [Problem(project.relative(folder), f"no key {project.relative(key_path)}",
                                                    mend="name the folder after a task id of the pocket")])
    key: AnswerKey = load_key(key_path, project=project)
    labels = load_labels(project, path, key)
    return _memos_of(labels, MatterIds.of_key(key), folder, project.relative(folder), written=True)


# -- the development layout (--memos DIR) -----------------------------------------------------


def folder_set(project: Project, root: Path, *, pocket: str | None = None, task: str | None = None) -> MemoSet:
    """Every labelled memo of a development folder (``labels.json`` + ``why.json`` per
    matter), checked against the project's anchors for the same task."""
    out = MemoSet(source=root.as_posix())
    problems: list[Problem] = []
    for pocket_dir in _selected(root, pocket):
        for folder in _selected(pocket_dir, task):
            if not (folder / "labels.json").is_file():
                continue
            try:
                out.memos.extend(_folder_matter(project, root, folder, out.warnings))
            except LaeError as exc:
                problems.extend(exc.problems)
    if problems:
        raise KeyValidationError(f"invalid labels under {root.as_posix()} ({len(problems)} problem(s))", problems)
    if not out.memos:
        raise KeyValidationError("no labelled memos", [Problem(root.as_posix(), "no <pocket>/<task-id>/labels.json",
                                                               mend="point --memos at a folder in the layout of SPEC section 11")])
    return out


def _folder_matter(project: Project, root: Path, folder: Path, warnings: list[str]) -> list[LabelledMemo]:
    pocket, task_id = folder.parent.name, folder.name
    shown = folder.relative_to(root).as_posix()
    path = folder / "labels.json"
    display = path.as_posix()
    anchors_path = project.anchors_path(pocket, task_id)
    if not anchors_path.is_file():
        raise KeyValidationError("unknown task", [Problem(display, f"no anchors for {pocket}/{task_id} in this project",
                                                          mend="compile the task, or name the folder after a task")])
    ids = matter_ids(load_anchors(anchors_path))
    labels_loc, problems = parse_yaml_located(path, display)  # JSON is YAML: the same loader gives line:col
    why_loc: Located | None = None
    if (folder / "why.json").is_file():
        why_loc, why_problems = parse_yaml_located(folder / "why.json", (folder / "why.json").as_posix())
        problems += why_problems
    if problems or labels_loc is None:
        raise KeyValidationError("unreadable labels", problems)
    located = _as_labels_file(labels_loc, why_loc, pocket, task_id)
    try:
        labels = LabelsFile.model_validate(located.data)
    except ValidationError as exc:
        raise KeyValidationError("invalid labels", pydantic_problems(
            exc, located, display, schema="SPEC section 11", tags=LABEL_TAGS)) from exc
    for field_path, message, mend in label_problems(labels, ids, folder, pocket):
        line, col = located.where(field_path)
        problem = Problem(display, message, line, col, dotted(field_path), mend)
        if field_path[-1] == "sentence":
            warnings.append(f"{shown}: {problem}")  # a development set's sentence slip: noted, not fatal
        else:
            problems.append(problem)
    if problems:
        raise KeyValidationError("invalid labels", problems)
    return _memos_of(labels, ids, folder, shown, written=False)


def _as_labels_file(labels: Located, why: Located | None, pocket: str, task_id: str) -> Located:
    """``labels.json`` (+ ``why.json``) as ``labels.yaml`` data, each value keeping its
    line and column in ``labels.json``."""
    kinds = set(get_args(MemoKind))
    memos: dict[str, Any] = {}
    marks: dict[tuple, tuple[int, int]] = {(): labels.marks.get((), (1, 1))}
    sentences = why.data if why is not None and isinstance(why.data, dict) else {}
    for memo_id, items in labels.data.items():
        where = labels.marks.get((memo_id,), (1, 1))
        marks[("memos", memo_id)] = marks[("memos", memo_id, "kind")] = where
        entries: dict[str, Any] = {}
        for item_id, label in (items.items() if isinstance(items, dict) else []):
            entry: dict[str, Any] = {"label": label}
            said = sentences.get(memo_id, {}).get(item_id) if isinstance(sentences.get(memo_id), dict) else None
            if said and label in _CARRYING:
                entry["sentence"] = said
            entries[item_id] = entry
            at = labels.marks.get((memo_id, item_id), where)
            for suffix in ((), ("label",), ("sentence",)):
                marks[("memos", memo_id, "labels", item_id) + suffix] = at
        marks[("memos", memo_id, "labels")] = where
        memos[memo_id] = {"kind": memo_id if memo_id in kinds else "?", "written": "blind", "labels": entries}
    data = {"schema_version": 1, "pocket": pocket, "task_id": task_id, "memos": memos}
    return Located(data, marks)
