"""Check results against the release they claim: the digests of what was scored.

A result says which freeze root it was scored under and carries the SHA-256 of every
release file it read (``scored_files``: anchors and documents) and the identity of the
grader that scored it. :func:`check_release` compares those with the stamp of the
pocket in the project tree the report is made in; a result whose digests differ, whose
root is not that tree's release, or which carries no digests stays in the report but
is marked not reportable, with the reason.
"""

from __future__ import annotations

from typing import Sequence

from lae.errors import LaeError
from lae.freeze import Manifest
from lae.freeze.stamp import StampFormatError, locate_module, read_stamp
from lae.project import Project
from lae.report.aggregate import RolloutRecord

__all__ = ["check_release", "release_manifest"]


def release_manifest(project: Project, pocket: str) -> tuple[Manifest | None, str]:
    """The frozen manifest of ``pocket`` in ``project`` (from its stamp), or None and why."""
    try:
        _name, path, _how, problems = locate_module(project, pocket)
        if problems:
            return None, problems[0].message
        stamp = read_stamp(path.read_bytes())
    except (OSError, StampFormatError, LaeError) as exc:
        return None, f"the stamp of pocket {pocket!r} cannot be read ({exc})"
    if stamp is None or stamp.manifest is None:
        return None, f"pocket {pocket!r} is not frozen in {project.root.as_posix()}"
    return stamp.manifest, ""


def _mismatch(record: RolloutRecord, manifest: Manifest) -> str | None:
    result = record.result
    if result is None:
        return "the record carries no scored-file digests to check against the release"
    if result.freeze_root != manifest.root:
        return f"scored under freeze root {result.freeze_root}, not this tree's release {manifest.root}"
    frozen = manifest.file_map()
    anchors = f"anchors/{result.pocket}/{result.task_id}.anchors.json"
    scored = {f.path: f.sha256 for f in result.scored_files}
    if scored.get(anchors) != result.anchors_sha256 or frozen.get(anchors) != result.anchors_sha256:
        return f"the anchors scored ({result.anchors_sha256[:12]}…) are not the frozen {anchors}"
    for path, digest in sorted(scored.items()):
        if frozen.get(path) != digest:
            return f"{path} as scored ({digest[:12]}…) is not the frozen file"
    if result.grader is None or result.grader != manifest.grader:
        return "scored by a grader other than the one frozen in the release"
    return None


def check_release(records: Sequence[RolloutRecord], project: Project) -> None:
    """Mark reportable factory records not reportable when what they scored is not the
    release in ``project`` (in place; the reason goes in ``release_reason``)."""
    manifests: dict[str, tuple[Manifest | None, str]] = {}
    for record in records:
        if record.kind != "factory" or not record.reportable:
            continue
        if record.pocket not in manifests:
            manifests[record.pocket] = release_manifest(project, record.pocket)
        manifest, why = manifests[record.pocket]
        reason = why if manifest is None else _mismatch(record, manifest)
        if reason:
            record.reportable = False
            record.release_reason = f"digest check failed: {reason}"
