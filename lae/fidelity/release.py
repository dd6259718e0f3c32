"""Fidelity travels with the release: measure a pocket's validation set and freeze with it.

The freeze stage hashes and records; measuring needs the grader, which sits above it,
so the measurement is made here and handed to :func:`lae.freeze.freeze_pocket`, which
checks it was taken on the validation set as it stands.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from lae.compiler.load import load_pocket_config
from lae.errors import FreezeError, LaeError, Problem
from lae.freeze import DEFAULT_LOCK_TIMEOUT, FidelityRecord, FreezeResult, StampFormatError, freeze_pocket, read_stamp
from lae.freeze import validation_digest
from lae.freeze.stamp import locate_module
from lae.project import Project

from .measure import MemoOutcome, measure
from .sets import project_set

__all__ = ["measure_release", "freeze_measured", "recorded_fidelity"]

Progress = Callable[[Iterator[MemoOutcome]], Iterable[MemoOutcome]]


def measure_release(project: Project, pocket: str, *, jobs: int = 1,
                    progress: Progress | None = None) -> FidelityRecord | None:
    """The pocket's fidelity record, or None when it has no validation set. Thresholds
    come from ``pocket.yaml``; a measurement below them is recorded as not met."""
    digest = validation_digest(project, pocket)
    if digest is None:
        return None
    memo_set = project_set(project, pocket=pocket)
    totals = measure(project, memo_set, jobs=jobs, progress=progress).totals
    limits = load_pocket_config(project, pocket).fidelity
    met = ((totals.over_credit or 0.0) <= limits.max_over_credit
           and (totals.under_credit or 0.0) <= limits.max_under_credit)
    return FidelityRecord(validation_sha256=digest, memos=totals.memos,
                          labelled_findings=totals.raised + totals.not_raised, over_credit=totals.over_credit,
                          under_credit=totals.under_credit, max_over_credit=limits.max_over_credit,
                          max_under_credit=limits.max_under_credit, met=met)


def freeze_measured(project: Project, pocket: str, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT, jobs: int = 1,
                    progress: Progress | None = None, allow_low_fidelity: bool = False) -> FreezeResult:
    """Measure the pocket's validation set (if any), then freeze it with the record.

    A measurement below the pocket's thresholds is refused (:class:`FreezeError`, exit 3,
    nothing written) unless ``allow_low_fidelity``: then the release is frozen, its stamp
    says it is not reportable, and the gate marks every result made with it so."""
    record = measure_release(project, pocket, jobs=jobs, progress=progress)
    if record is not None and not record.met and not allow_low_fidelity:
        raise FreezeError(f"pocket {pocket!r} is below its fidelity thresholds; nothing was written", [
            Problem(f"keys_private/{pocket}/validation", record.summary().replace(
                " (frozen with --allow-low-fidelity: not reportable)", ""), field="fidelity",
                mend="improve the keys or the grader until `lae fidelity --pocket "
                     f"{pocket}` meets the thresholds in pocket.yaml, or freeze with --allow-low-fidelity "
                     "(the release is then not reportable)")])
    return freeze_pocket(project, pocket, lock_timeout=lock_timeout, fidelity=record)


def recorded_fidelity(project: Project) -> dict[str, FidelityRecord]:
    """Freeze root -> the fidelity its stamp records, for every frozen pocket of the tree
    that has one (what ``lae report`` states beside the scores of that release)."""
    out: dict[str, FidelityRecord] = {}
    for pocket in project.pockets():
        try:
            _name, path, _how, problems = locate_module(project, pocket)
            stamp = None if problems or not path.is_file() else read_stamp(path.read_bytes())
        except (LaeError, StampFormatError, OSError):
            continue  # a pocket that cannot say: `lae verify` reports why
        if stamp is not None and stamp.root and stamp.manifest and stamp.manifest.fidelity:
            out[stamp.root] = stamp.manifest.fidelity
    return out
