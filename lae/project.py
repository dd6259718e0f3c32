"""Where things live in a project tree, and how the tree is found.

Every command works on the tree it is pointed at (``--root``), defaulting to the
nearest enclosing folder that holds the layout, the way git finds its repository
from any subfolder. A copy of the tree can be compiled, frozen, verified and
scored on its own.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from lae.errors import LayoutError, Problem

__all__ = ["Project", "bundled_root", "find_root", "POCKET_NAME_RE"]

POCKET_NAME_RE = r"^[a-z0-9][a-z0-9-]*[a-z0-9]$"


def _holds_layout(path: Path) -> bool:
    return (path / "tasks").is_dir() and ((path / "keys_private").is_dir() or (path / "anchors").is_dir())


def find_root(start: Path | None = None) -> Path:
    """Nearest folder at or above ``start`` (default: cwd) holding ``tasks/`` and
    ``keys_private/`` or ``anchors/``."""
    here = Path(start or os.getcwd()).resolve()
    for candidate in (here, *here.parents):
        if _holds_layout(candidate):
            return candidate
    raise LayoutError(
        "no project tree found",
        [Problem(str(here), "no enclosing folder holds tasks/ and keys_private/ or anchors/",
                 mend="run inside a legal-agent-eval tree or pass --root DIR")],
    )


def bundled_root() -> Path:
    """The project tree that ships with the package: the repository in a checkout,
    ``site-packages/lae`` in an installed wheel (tasks/, anchors/, environments/ side by side)."""
    spec = importlib.util.find_spec("lae.environments")
    origin = spec.origin if spec is not None else None
    root = Path(origin).resolve().parent.parent if origin else Path(__file__).resolve().parent
    if not (root / "tasks").is_dir() or not (root / "anchors").is_dir():
        raise LayoutError("no bundled tasks", [Problem(root.as_posix(), "tasks/ and anchors/ are not beside environments/",
                                                       mend="pass --root (tasks_root), or reinstall legal-agent-eval")])
    return root


@dataclass(frozen=True)
class Project:
    """Paths of one project tree. All paths derive from ``root``."""

    root: Path

    @classmethod
    def at(cls, root: Path | str | None = None) -> "Project":
        if root is None:
            return cls(find_root())
        path = Path(root).resolve()
        if not path.is_dir():
            raise LayoutError("project root is not a folder",
                              [Problem(str(path), "not a directory", mend="pass an existing --root DIR")])
        if not _holds_layout(path):
            raise LayoutError("project root lacks the layout",
                              [Problem(str(path), "needs tasks/ and keys_private/ or anchors/",
                                       mend="point --root at the top of a legal-agent-eval tree")])
        return cls(path)

    # -- folders ---------------------------------------------------------
    @property
    def keys_root(self) -> Path:
        return self.root / "keys_private"

    @property
    def anchors_root(self) -> Path:
        return self.root / "anchors"

    @property
    def tasks_root(self) -> Path:
        return self.root / "tasks"

    @property
    def schemas_dir(self) -> Path:
        return self.root / "schemas"

    @property
    def environments_dir(self) -> Path:
        return self.root / "environments"

    def keys_dir(self, pocket: str) -> Path:
        return self.keys_root / pocket

    def anchors_dir(self, pocket: str) -> Path:
        return self.anchors_root / pocket

    def tasks_dir(self, pocket: str) -> Path:
        return self.tasks_root / pocket

    def task_dir(self, pocket: str, task_id: str) -> Path:
        return self.tasks_dir(pocket) / task_id

    def validation_dir(self, pocket: str) -> Path:
        """``keys_private/<pocket>/validation/``: labelled validation memos, private like keys."""
        return self.keys_dir(pocket) / "validation"

    def anchors_path(self, pocket: str, task_id: str) -> Path:
        return self.anchors_dir(pocket) / f"{task_id}.anchors.json"

    def key_path(self, pocket: str, task_id: str) -> Path:
        return self.keys_dir(pocket) / f"{task_id}.yaml"

    def relative(self, path: Path) -> str:
        """POSIX path relative to the root (stable across machines)."""
        try:
            return Path(os.path.relpath(path, self.root)).as_posix()
        except ValueError:  # different drive on Windows
            return path.as_posix()

    # -- discovery ---------------------------------------------------------
    def pockets(self) -> list[str]:
        """Pockets known to this tree: folders under keys_private/, anchors/ or tasks/."""
        names: set[str] = set()
        for base in (self.keys_root, self.anchors_root, self.tasks_root):
            if base.is_dir():
                names.update(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
        return sorted(names)

    def key_files(self, pocket: str) -> list[Path]:
        folder = self.keys_dir(pocket)
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.yaml") if p.name != "pocket.yaml")

    def anchor_files(self, pocket: str) -> list[Path]:
        folder = self.anchors_dir(pocket)
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.anchors.json"))
