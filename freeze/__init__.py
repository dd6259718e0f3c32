"""Freeze and verify (``lae.freeze``): bind a pocket's scores to exact bytes.

``freeze_pocket`` hashes every file a score depends on (anchors, task.json, documents),
records the scoring parameters and the grader's identity in a manifest, and stamps
the manifest with its root digest into the pocket's environment module header, plus
an ``anchors/<pocket>/SHA256SUMS`` that ``sha256sum -c`` accepts. ``verify_pocket``
recomputes and refuses on any difference; ``gate`` is what scoring calls first.
"""

from __future__ import annotations

from .freezer import DEFAULT_LOCK_TIMEOUT, FreezeResult, freeze_pocket
from .manifest import (
    MANIFEST_VERSION,
    SUMS_NAME,
    FidelityRecord,
    FileEntry,
    GraderIdentity,
    Manifest,
    current_grader,
    root_digest,
    sums_text,
    validation_digest,
)
from .stamp import (
    BEGIN_MARKER,
    END_MARKER,
    Stamp,
    StampFormatError,
    read_stamp,
    render_stamp,
    render_unfrozen_stamp,
)
from .verify import (
    Discrepancy,
    PocketReport,
    ReleaseStatus,
    UnverifiedReleaseWarning,
    VerifiedRelease,
    VerifyReport,
    audit_pocket,
    gate,
    verify_json_schema,
    verify_pocket,
)

__all__ = [
    "BEGIN_MARKER",
    "DEFAULT_LOCK_TIMEOUT",
    "Discrepancy",
    "END_MARKER",
    "FidelityRecord",
    "FileEntry",
    "FreezeResult",
    "GraderIdentity",
    "MANIFEST_VERSION",
    "Manifest",
    "PocketReport",
    "ReleaseStatus",
    "SUMS_NAME",
    "Stamp",
    "StampFormatError",
    "UnverifiedReleaseWarning",
    "VerifiedRelease",
    "VerifyReport",
    "audit_pocket",
    "current_grader",
    "freeze_pocket",
    "gate",
    "read_stamp",
    "render_stamp",
    "render_unfrozen_stamp",
    "root_digest",
    "sums_text",
    "verify_json_schema",
    "verify_pocket",
    "validation_digest",
]
