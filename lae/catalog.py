"""The task catalog: public task folders (``tasks/<pocket>/<task-id>/``): discovery and selection."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from lae.jsonio import loads
from lae.errors import InvalidInputError, Problem
from lae.project import Project

__all__ = ["TaskInfo", "list_tasks", "find_task"]


@dataclass(frozen=True)
class TaskInfo:
    pocket: str
    task_id: str
    scenario_slug: str | None
    title: str
    deliverables: tuple[str, ...]
    documents: int
    criteria: int
    path: Path

    def as_dict(self) -> dict:
        d = asdict(self)
        d["path"] = self.path.as_posix()
        d["deliverables"] = list(self.deliverables)
        return d


def _read_task(project: Project, pocket: str, folder: Path) -> TaskInfo:
    path = folder / "task.json"
    try:
        data = loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError("unreadable task.json", [Problem(project.relative(path), str(exc),
                                                                 mend="regenerate it with `lae render`")]) from exc
    if not isinstance(data, dict) or not isinstance(data.get("deliverables"), dict):
        raise InvalidInputError("invalid task.json", [Problem(project.relative(path), "deliverables must be an object",
                                                              field="deliverables", mend="regenerate it with `lae render`")])
    docs = folder / "documents"
    return TaskInfo(
        pocket=pocket,
        task_id=str(data.get("task_id") or folder.name),
        scenario_slug=data.get("scenario_slug"),
        title=str(data.get("title", "")),
        deliverables=tuple(sorted(data["deliverables"])),
        documents=sum(1 for p in docs.iterdir() if p.is_file()) if docs.is_dir() else 0,
        criteria=len(data.get("criteria") or []),
        path=folder,
    )


def list_tasks(project: Project, pocket: str | None = None) -> list[TaskInfo]:
    """Every task of one or all pockets, sorted by pocket then id."""
    pockets = [pocket] if pocket else project.pockets()
    out = []
    for name in pockets:
        base = project.tasks_dir(name)
        if not base.is_dir():
            if pocket:
                raise InvalidInputError("unknown pocket", [Problem(project.relative(base), "no such folder",
                                                                   mend=f"use one of {', '.join(project.pockets())}")])
            continue
        for folder in sorted(p for p in base.iterdir() if (p / "task.json").is_file()):
            out.append(_read_task(project, name, folder))
    return out


def find_task(project: Project, task: str, pocket: str | None = None) -> TaskInfo:
    """The task whose id or scenario slug is ``task``."""
    matches = [t for t in list_tasks(project, pocket) if task in (t.task_id, t.scenario_slug)]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(t.task_id for t in list_tasks(project, pocket)) or "none"
    what = "no task" if not matches else "more than one task"
    raise InvalidInputError(f"{what} named {task!r}", [Problem(project.relative(project.tasks_root), f"{what} {task!r}",
                                                               field="--task", mend=f"use one of: {known}")])
