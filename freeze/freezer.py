"""``lae freeze``: hash everything a pocket's scores depend on and stamp it.

Order of work, all under one per-pocket lock:

1. refuse unless ``lae compile --check`` passes (:func:`lae.compiler.check_pocket`);
   skipped, and said so, when ``keys_private/<pocket>/`` is absent;
2. find the environment module and its stamp markers;
3. scan and hash ``anchors/<pocket>/`` and ``tasks/<pocket>/``; refuse on anything that
   cannot be frozen (no anchors, an anchors file without a task or the reverse, a
   symlink, an unreadable file, an anchors file without a ``scoring`` block);
4. write ``anchors/<pocket>/SHA256SUMS``, then the module (each atomically, each only
   if its bytes change). The stamp goes last: a stamp on disk always means its
   SHA256SUMS was written first.

Nothing written depends on the clock, the machine or the working directory, so
freezing twice with no change writes nothing and leaves identical bytes.
"""

from __future__ import annotations

from typing import Literal

import filelock
from pydantic import BaseModel, ConfigDict, Field

from lae import __version__
from lae.errors import FreezeError, LaeError, LayoutError, Problem
from lae.project import Project

from ._fs import atomic_write, lock_path_for, pocket_lock
from .manifest import (
    ANCHORS_SUFFIX,
    FidelityRecord,
    Hex64,
    Manifest,
    build_manifest,
    current_grader,
    hash_pocket,
    scan_pocket,
    sums_path,
    sums_text,
    task_dirs,
    validation_digest,
)
from .stamp import StampFormatError, find_block, locate_module, render_stamp, replace_block, stamp_pocket_name

__all__ = ["FreezeResult", "freeze_pocket", "check_known_pocket", "DEFAULT_LOCK_TIMEOUT"]

DEFAULT_LOCK_TIMEOUT = 120.0
"""Seconds a second freeze of the same pocket waits for the first before refusing."""


class FreezeResult(BaseModel):
    """What one freeze did."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pocket: str
    root: Hex64 = Field(description="Root digest: sha256 of the manifest's canonical bytes.")
    file_count: int = Field(ge=1)
    task_count: int = Field(ge=1)
    environment_module: str
    module_path: str = Field(description="The stamped module, relative to the project root.")
    sums_path: str = Field(description="The SHA256SUMS file, relative to the project root.")
    compile_check: Literal["passed", "skipped"]
    compile_check_note: str | None = Field(default=None, description="Why the check was skipped.")
    written: list[str] = Field(description="Files whose bytes changed (empty when re-freezing an unchanged tree).")
    fidelity: FidelityRecord | None = Field(default=None, description="The validation set's measurement, as recorded.")


def check_known_pocket(project: Project, pocket: str) -> None:
    """Refuse a pocket name the tree does not know (exit 1, listing the known ones)."""
    known = project.pockets()
    if pocket not in known:
        raise LayoutError(
            f"unknown pocket {pocket!r}",
            [Problem(project.relative(project.anchors_root),
                     f"no pocket {pocket!r} under keys_private/, anchors/ or tasks/",
                     field="pocket", mend=f"use one of: {', '.join(known) or '(none)'}")],
        )


def _check_pocket(project: Project, pocket: str) -> None:
    # Resolved at call time so the compiler stays the one owner of `compile --check`.
    from lae.compiler import check_pocket

    check_pocket(project, pocket)


def _structure_problems(project: Project, pocket: str, task_ids: list[str]) -> list[Problem]:
    problems: list[Problem] = []
    anchors_rel = f"anchors/{pocket}/"
    if not task_ids:
        problems.append(Problem(anchors_rel, f"no *{ANCHORS_SUFFIX} files: nothing to freeze", field="anchors",
                                mend=f"compile the pocket first: lae compile --pocket {pocket}"))
    dirs = set(task_dirs(project, pocket))
    for tid in task_ids:
        if tid not in dirs or not (project.task_dir(pocket, tid) / "task.json").is_file():
            problems.append(Problem(f"tasks/{pocket}/{tid}/task.json", "missing for an anchors file", field="task",
                                    mend=f"render the task (lae render --pocket {pocket}) or remove its anchors"))
    for tid in sorted(dirs - set(task_ids)):
        problems.append(Problem(f"tasks/{pocket}/{tid}/", "task folder has no anchors file", field="anchors",
                                mend=f"compile it (lae compile --pocket {pocket}) or remove the folder"))
    return problems


def freeze_pocket(project: Project, pocket: str, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
                  fidelity: FidelityRecord | None = None) -> FreezeResult:
    """Freeze one pocket: compile check, hash, write SHA256SUMS, stamp the module.

    A pocket with a validation set (``keys_private/<pocket>/validation/``) needs its
    ``fidelity`` measured on exactly that set (``lae.fidelity.release`` measures it);
    the record goes into the manifest whether or not it meets its thresholds.

    Raises :class:`~lae.errors.FreezeError` (exit 3) when the compile check fails, the
    pocket cannot be frozen as it stands, or another freeze of the same pocket holds
    the lock longer than ``lock_timeout`` seconds; :class:`~lae.errors.LayoutError` for
    an unknown pocket.
    """
    check_known_pocket(project, pocket)
    lock = pocket_lock(project.anchors_dir(pocket), lock_timeout)
    try:
        lock.acquire()
    except filelock.Timeout as exc:
        raise FreezeError(
            f"another freeze of pocket {pocket!r} is running",
            [Problem(str(lock_path_for(project.anchors_dir(pocket))), f"lock still held after {lock_timeout:g}s",
                     field="lock", mend="wait for it to finish, then run lae freeze again")],
        ) from exc
    try:
        return _freeze_locked(project, pocket, fidelity)
    finally:
        lock.release()


def _fidelity_problems(project: Project, pocket: str, fidelity: FidelityRecord | None) -> list[Problem]:
    digest = validation_digest(project, pocket)
    where = project.relative(project.validation_dir(pocket))
    if digest is None and fidelity is not None:
        return [Problem(where, "a fidelity record was given but the pocket has no validation set", field="fidelity",
                        mend="freeze without one")]
    if digest is not None and fidelity is None:
        return [Problem(where, "the pocket has a validation set but no fidelity measurement was given", field="fidelity",
                        mend=f"freeze with `lae freeze --pocket {pocket}`, which measures it")]
    if fidelity is not None and fidelity.validation_sha256 != digest:
        return [Problem(where, "the validation set changed after it was measured", field="fidelity",
                        mend=f"run `lae freeze --pocket {pocket}` again")]
    return []


def _freeze_locked(project: Project, pocket: str, fidelity: FidelityRecord | None) -> FreezeResult:
    # 1. The compile check, or say why it is skipped.
    note: str | None = None
    if project.keys_dir(pocket).is_dir():
        try:
            _check_pocket(project, pocket)
        except LaeError as exc:
            raise FreezeError(
                f"refusing to freeze {pocket!r}: `lae compile --check --pocket {pocket}` fails: {exc.args[0]}",
                exc.problems,
            ) from exc
        check: Literal["passed", "skipped"] = "passed"
    else:
        check = "skipped"
        note = f"keys_private/{pocket}/ is absent (an installed release ships no keys)"

    # 2. The module and its markers.
    module, module_path, _how, problems = locate_module(project, pocket)
    if problems:
        raise FreezeError(f"cannot find the environment module of {pocket!r}", problems)
    module_rel = project.relative(module_path)
    try:
        module_bytes = module_path.read_bytes()
    except FileNotFoundError as exc:
        raise FreezeError(f"environment module of {pocket!r} is missing",
                          [Problem(module_rel, "does not exist", field="module",
                                   mend="create it with a docstring and the NOT FROZEN stamp block")]) from exc
    try:
        span = find_block(module_bytes)
    except StampFormatError as exc:
        raise FreezeError(f"the stamp markers of {module_rel} are broken",
                          [Problem(module_rel, str(exc), line=exc.line, field="stamp",
                                   mend="leave exactly one begin and one end marker line")]) from exc
    if span is None:
        raise FreezeError(f"{module_rel} has no stamp markers",
                          [Problem(module_rel, "no stamp block", field="stamp",
                                   mend="add the NOT FROZEN stamp block (see SPEC section 6) to its header")])
    named = stamp_pocket_name(module_bytes)
    if named is not None and named != pocket:
        raise FreezeError(f"{module_rel} carries the stamp of pocket {named!r}, not {pocket!r}",
                          [Problem(module_rel, f"stamp names pocket {named!r}", field="stamp",
                                   mend="give each pocket its own environment module")])

    # 3. Hash.
    scan = scan_pocket(project, pocket)
    hashed = hash_pocket(scan)
    problems = scan.problems + hashed.problems + _structure_problems(project, pocket, sorted(hashed.task_ids))
    problems += _fidelity_problems(project, pocket, fidelity)
    if problems:
        raise FreezeError(f"pocket {pocket!r} cannot be frozen as it stands", problems)
    manifest: Manifest = build_manifest(pocket, module, hashed, current_grader(), fidelity)

    # 4. Write: SHA256SUMS first, the stamp last.
    written: list[str] = []
    sums = sums_path(project, pocket)
    if atomic_write(sums, sums_text(manifest).encode("utf-8")):
        written.append(project.relative(sums))
    new_module = replace_block(module_bytes, render_stamp(manifest, generator_version=__version__))
    if atomic_write(module_path, new_module):
        written.append(module_rel)

    return FreezeResult(
        pocket=pocket,
        root=manifest.root,
        file_count=len(manifest.files),
        task_count=len(manifest.scoring),
        environment_module=module,
        module_path=module_rel,
        sums_path=project.relative(sums),
        compile_check=check,
        compile_check_note=note,
        written=written,
        fidelity=fidelity,
    )

