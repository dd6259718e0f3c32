"""The grader's use of the freeze gate: verify before scoring, or mark results."""

from __future__ import annotations

from lae.grader.results import ReleaseInfo
from lae.project import Project

__all__ = ["release_for"]


def release_for(project: Project, pocket: str, *, allow_unfrozen: bool) -> ReleaseInfo:
    """Verify ``pocket`` (``lae.freeze.gate``). Raises ``NotFrozenError`` /
    ``HashMismatchError`` unless ``allow_unfrozen``; then the release is marked not
    reportable, with the reason."""
    from lae.freeze import gate  # the freeze stage owns verification

    status = gate(project, pocket, allow_unfrozen=allow_unfrozen)
    return ReleaseInfo(reportable=status.reportable, freeze_root=status.freeze_root, reason=status.reason)
