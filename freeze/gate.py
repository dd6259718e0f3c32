"""The release gate: the one door to a reportable score.

:func:`open_pocket` reads every frozen file of a pocket **once**, hashes those bytes in
memory, verifies them (and the grader identity, and the module's code) against the
stamp, and returns an :class:`OpenedPocket` that holds exactly those bytes. Scoring
reads anchors, ``task.json`` and documents from it, never from disk again, so what is
scored is what was verified: a file swapped on disk after the check changes nothing.

Only this module constructs an :class:`OpenedPocket` (its constructor needs a key
private to this module, and every one it issues is registered); the grader refuses a
context whose pocket :func:`issued` does not vouch for. The :class:`Release` it carries
is the one release model: results quote it. An unverified pocket opened with
``allow_unfrozen=True`` gives ``reportable=False`` with the reason and warns once
(:class:`UnverifiedReleaseWarning`, one plain line).
"""

from __future__ import annotations

import warnings
import weakref
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from lae.errors import LayoutError, Problem
from lae.project import Project

from .freezer import check_known_pocket
from .identity import GraderIdentity, derive_identity
from .manifest import FileEntry, Hex64, hash_pocket, scan_pocket
from .verify import audit_with, raise_for, summary_line

__all__ = ["Release", "OpenedPocket", "UnverifiedReleaseWarning", "open_pocket", "open_for_measurement", "issued"]


class UnverifiedReleaseWarning(UserWarning):
    """Scoring goes on against a release that did not verify (``allow_unfrozen``)."""


class Release(BaseModel):
    """What a result says about the release it was scored against."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pocket: str
    reportable: bool = Field(description="True only when the pocket verified when its bytes were read and its "
                             "recorded fidelity met the pocket's thresholds.")
    freeze_root: Hex64 | None = Field(default=None, description="The verified root (also for a verified release "
                                      "whose fidelity is below its thresholds).")
    reason: str | None = Field(default=None, description="Why results are not reportable.")


_KEY: Final = object()  # only this module holds it
_ISSUED: "weakref.WeakSet[OpenedPocket]" = weakref.WeakSet()


class OpenedPocket:
    """A pocket's files as read and checked by :func:`open_pocket`. Not constructible
    elsewhere; check one with :func:`issued`."""

    __slots__ = ("project", "release", "grader", "_contents", "_digests", "__weakref__")
    # grader: the identity of the code running here (None when it cannot be derived,
    # which never verifies)

    def __init__(self, key: object, project: Project, release: Release, grader: GraderIdentity | None,
                 contents: dict[str, bytes], digests: dict[str, str]) -> None:
        if key is not _KEY:
            raise RuntimeError("an OpenedPocket is made only by lae.freeze.gate.open_pocket")
        self.project = project
        self.release = release
        self.grader = grader
        self._contents = contents
        self._digests = digests

    @property
    def pocket(self) -> str:
        return self.release.pocket

    def read(self, path: str) -> bytes:
        """The bytes of a file under ``anchors/<pocket>/`` or ``tasks/<pocket>/`` (a POSIX
        path from the project root), as they were hashed."""
        try:
            return self._contents[path]
        except KeyError:
            raise LayoutError("no such file in the opened pocket", [Problem(
                path, f"is not a file of pocket {self.pocket!r}", mend="check the task id, or re-render and re-freeze")]) from None

    def entry(self, path: str) -> FileEntry:
        """The path and the SHA-256 of the bytes :meth:`read` returns."""
        self.read(path)
        return FileEntry(path=path, sha256=self._digests[path])

    def paths(self, prefix: str) -> list[str]:
        """Every opened path that starts with ``prefix``, sorted."""
        return sorted(p for p in self._contents if p.startswith(prefix))


def issued(opened: object) -> bool:
    """True when ``opened`` came from :func:`open_pocket` in this process (or its forks)."""
    return isinstance(opened, OpenedPocket) and opened in _ISSUED


def open_pocket(project: Project, pocket: str, *, allow_unfrozen: bool) -> OpenedPocket:
    """Read, hash and verify every frozen file of ``pocket`` once, keeping the bytes.

    Verified: ``release.reportable`` is True with the root (False, with the root and the
    reason, when the recorded fidelity is below the pocket's thresholds). Otherwise it raises
    :class:`~lae.errors.NotFrozenError` / :class:`~lae.errors.HashMismatchError`, or
    with ``allow_unfrozen=True`` returns ``reportable=False`` with the reason and warns
    once (:class:`UnverifiedReleaseWarning`).
    """
    check_known_pocket(project, pocket)
    hashed = hash_pocket(scan_pocket(project, pocket), keep_bytes=True)
    derived = derive_identity()
    report, _stamp = audit_with(project, pocket, hashed, derived)
    if report.ok and report.fidelity is not None and not report.fidelity.met:
        # frozen with --allow-low-fidelity: the bytes verify, but no score made with them is reportable
        release = Release(pocket=pocket, reportable=False, freeze_root=report.root,
                          reason=f"fidelity below its thresholds: {report.fidelity.summary()}")
    elif report.ok:
        release = Release(pocket=pocket, reportable=True, freeze_root=report.root)
    else:
        if not allow_unfrozen:
            raise_for(report)
        reason = summary_line(report)
        warnings.warn(UnverifiedReleaseWarning(f"results are not reportable: {reason}"), stacklevel=2)
        release = Release(pocket=pocket, reportable=False, reason=reason)
    return _issue(OpenedPocket(_KEY, project, release, derived.identity, hashed.contents, hashed.digests))


def open_for_measurement(project: Project, pocket: str, *, reason: str) -> OpenedPocket:
    """The pocket's files read once and hashed but not verified, for measuring the grader
    (``lae fidelity`` runs before the freeze it records): every result says
    ``reportable: false`` with ``reason``, so nothing to warn about."""
    check_known_pocket(project, pocket)
    hashed = hash_pocket(scan_pocket(project, pocket), keep_bytes=True)
    release = Release(pocket=pocket, reportable=False, reason=reason)
    return _issue(OpenedPocket(_KEY, project, release, derive_identity().identity, hashed.contents, hashed.digests))


def _issue(opened: OpenedPocket) -> OpenedPocket:
    _ISSUED.add(opened)
    return opened
