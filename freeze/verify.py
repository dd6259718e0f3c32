"""``lae verify`` and the release gate: recompute a pocket's manifest and compare it
with the stamp in its environment module.

:func:`audit_pocket` never raises on tampered data: it lists every discrepancy
(changed, missing or added file, missing/malformed/edited stamp, changed grader,
SHA256SUMS out of step). :func:`verify_pocket` is the gate proper: it returns a
:class:`VerifiedRelease` or raises :class:`~lae.errors.NotFrozenError` /
:class:`~lae.errors.HashMismatchError` with the problems in ``.problems``.
:func:`gate` is what scoring calls first.

Verify takes no lock: freeze writes SHA256SUMS and then the stamp, each atomically,
so a verify racing a freeze can fail spuriously only when the tree had changed
anyway, and can never pass on a mix.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lae.errors import HashMismatchError, NotFrozenError, Problem, VerificationError
from lae.project import Project

from .freezer import check_known_pocket
from .manifest import (
    FidelityRecord,
    GraderIdentity,
    Hex64,
    Manifest,
    build_manifest,
    current_grader,
    hash_pocket,
    scan_pocket,
    sums_path,
    sums_text,
    validation_digest,
)
from .stamp import Stamp, StampFormatError, locate_module, read_stamp

__all__ = [
    "VERIFY_SCHEMA_VERSION",
    "VERIFY_SCHEMA_ID",
    "ProblemKind",
    "Discrepancy",
    "PocketReport",
    "VerifyReport",
    "VerifiedRelease",
    "ReleaseStatus",
    "UnverifiedReleaseWarning",
    "audit_pocket",
    "verify_pocket",
    "gate",
    "verify_json_schema",
    "raise_for",
    "verify_schema_text",
]

VERIFY_SCHEMA_VERSION: Final = 1
VERIFY_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/verify.schema.json"

ProblemKind = Literal[
    "not_frozen",  # the stamp says NOT FROZEN
    "stamp_missing",  # no module, no markers, or no module names the pocket
    "stamp_malformed",  # markers or block unreadable, or the block names another pocket
    "stamp_edited",  # the stamp's own root does not match its contents
    "module_changed",  # pocket.yaml names another module than the stamp records
    "changed",  # a frozen file's digest differs
    "missing",  # a frozen file is gone
    "added",  # a file under a frozen folder was not frozen
    "unreadable",  # a file under a frozen folder cannot be read
    "unsafe_file",  # a symlink, special file or unfreezable name under a frozen folder
    "grader_changed",  # scoring contract version or grader source digest differs
    "sums_missing",  # anchors/<pocket>/SHA256SUMS is gone
    "sums_mismatch",  # SHA256SUMS does not list what the stamp lists
    "root_mismatch",  # the recomputed root differs for a reason not listed above
    "validation_changed",  # the validation set differs from the one the fidelity record was measured on
]

_NOT_FROZEN_KINDS = {"not_frozen", "stamp_missing", "stamp_malformed"}

_MENDS: dict[str, str] = {
    "not_frozen": "freeze it: lae freeze --pocket {pocket}",
    "stamp_missing": "freeze it: lae freeze --pocket {pocket}",
    "stamp_malformed": "rewrite the stamp: lae freeze --pocket {pocket}",
    "stamp_edited": "restore the module from the release, or re-freeze: lae freeze --pocket {pocket}",
    "module_changed": "point pocket.yaml back at the stamped module, or re-freeze",
    "changed": "restore the file; if the change is intended, recompile and re-freeze",
    "missing": "restore the file; if its removal is intended, re-freeze",
    "added": "remove the file; if it belongs in the release, re-freeze",
    "unreadable": "fix its permissions",
    "unsafe_file": "replace it by a regular file with a plain name, or remove it",
    "grader_changed": "score with the grader the release was frozen against, or re-freeze with this one",
    "sums_missing": "restore it, or re-freeze: lae freeze --pocket {pocket}",
    "sums_mismatch": "restore it, or re-freeze: lae freeze --pocket {pocket}",
    "root_mismatch": "re-freeze: lae freeze --pocket {pocket}",
    "validation_changed": "restore the validation files; if the change is intended, re-freeze (it re-measures)",
}


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Discrepancy(_Closed):
    """One reason a pocket does not verify."""

    kind: ProblemKind = Field(description="What kind of problem.")
    path: str = Field(description="The file concerned, relative to the project root.")
    expected: str | None = Field(default=None, description="What the stamp records (a digest, a name, a version).")
    observed: str | None = Field(default=None, description="What is on disk or installed now.")
    message: str = Field(description="One line a person can act on.")
    line: int | None = Field(default=None, ge=1, description="1-based line in the module, for stamp problems.")


class PocketReport(_Closed):
    """The verification result of one pocket."""

    pocket: str
    ok: bool = Field(description="True when every frozen file, the grader and SHA256SUMS match the stamp.")
    root: Hex64 | None = Field(default=None, description="The verified root digest (only when ok).")
    stamped_root: Hex64 | None = Field(default=None, description="The root the stamp records, if it could be read.")
    observed_root: Hex64 | None = Field(default=None, description="The root of the manifest recomputed from disk.")
    file_count: int = Field(ge=0, description="Files the stamp records.")
    environment_module: str | None = Field(default=None, description="The module that carries the stamp.")
    module_path: str | None = Field(default=None, description="Its path relative to the project root.")
    problems: list[Discrepancy] = Field(description="Every discrepancy found; empty when ok.")
    fidelity: FidelityRecord | None = Field(default=None, description="The release's recorded fidelity measurement.")

    @property
    def not_frozen(self) -> bool:
        return any(p.kind in _NOT_FROZEN_KINDS for p in self.problems)


class VerifyReport(_Closed):
    """``lae verify --json``: one entry per pocket checked."""

    schema_version: Literal[1] = Field(default=VERIFY_SCHEMA_VERSION, description="Version of this report format; 1.")
    ok: bool = Field(description="True when every pocket verified.")
    pockets: list[PocketReport] = Field(min_length=1)


class VerifiedRelease(_Closed):
    """A pocket that verified: quote ``root`` with every reported score."""

    pocket: str
    root: Hex64 = Field(description="Root digest of the frozen manifest.")
    file_count: int = Field(ge=1, description="Frozen files.")
    task_count: int = Field(ge=1, description="Tasks (anchors files) frozen.")
    environment_module: str
    grader: GraderIdentity
    fidelity: FidelityRecord | None = Field(default=None, description="The recorded fidelity measurement, if any.")


class ReleaseStatus(_Closed):
    """What :func:`gate` tells the scorer about the release it is about to use."""

    pocket: str
    reportable: bool = Field(description="True only when the pocket verified and its recorded fidelity met the "
                             "thresholds; results must carry this.")
    freeze_root: Hex64 | None = Field(default=None, description="The verified root (also for a verified release "
                                      "whose fidelity is below its thresholds).")
    reason: str | None = Field(default=None, description="Why the release is not reportable.")


class UnverifiedReleaseWarning(UserWarning):
    """Scoring goes on against a release that did not verify (``allow_unfrozen``)."""


def _d(kind: str, path: str, message: str, expected: str | None = None, observed: str | None = None,
       line: int | None = None) -> Discrepancy:
    return Discrepancy(kind=kind, path=path, message=message, expected=expected, observed=observed,  # type: ignore[arg-type]
                       line=line)


def audit_pocket(project: Project, pocket: str) -> PocketReport:
    """Recompute ``pocket``'s manifest and compare it with its stamp; list every
    discrepancy. Raises only for misuse or an invalid ``pocket.yaml`` (exit 1)."""
    return _audit(project, pocket)[0]


def _audit(project: Project, pocket: str) -> tuple[PocketReport, Stamp | None]:
    module, module_path, how, located = locate_module(project, pocket)
    if located:
        return PocketReport(pocket=pocket, ok=False, file_count=0, problems=[
            _d("stamp_missing", p.path, p.message) for p in located]), None
    module_rel = project.relative(module_path)

    def early(kind: str, message: str, *, expected: str | None = None, observed: str | None = None,
              line: int | None = None) -> tuple[PocketReport, None]:
        problem = _d(kind, module_rel, message, expected=expected, observed=observed, line=line)
        return PocketReport(pocket=pocket, environment_module=module, module_path=module_rel, ok=False,
                            file_count=0, problems=[problem]), None

    try:
        data = module_path.read_bytes()
    except FileNotFoundError:
        return early("stamp_missing", "the environment module does not exist")
    try:
        stamp = read_stamp(data)
    except StampFormatError as exc:
        return early("stamp_malformed", f"stamp is malformed: {exc}", line=exc.line)
    if stamp is None:
        return early("stamp_missing", "the module has no stamp block")
    if stamp.pocket != pocket:
        return early("stamp_malformed", "the stamp is for another pocket", expected=pocket, observed=stamp.pocket)
    if not stamp.frozen or stamp.manifest is None or stamp.root is None:
        return early("not_frozen", f"pocket {pocket!r} is NOT FROZEN")

    expected: Manifest = stamp.manifest
    problems: list[Discrepancy] = []

    # The stamp must agree with itself: an edited digest or score line shows here.
    contents_root = expected.root
    if contents_root != stamp.root:
        problems.append(_d("stamp_edited", module_rel, "the stamp's recorded root does not match its contents",
                           expected=stamp.root, observed=contents_root))
    if expected.environment_module != module:
        problems.append(_d("module_changed", module_rel,
                           f"the stamp records module {expected.environment_module!r} but {how} gives {module!r}",
                           expected=expected.environment_module, observed=module))

    # The files, each read once.
    scan = scan_pocket(project, pocket)
    reported: set[str] = set()  # present but not hashable: not also "missing"
    for p in scan.problems:
        problems.append(_d("unsafe_file", p.path, p.message))
        reported.add(p.path)
    hashed = hash_pocket(scan)
    for p in hashed.problems:
        if p.field == "unreadable":
            problems.append(_d("unreadable", p.path, p.message))
            reported.add(p.path)
    want = expected.file_map()
    for path in sorted(set(want) | set(hashed.digests)):
        have = hashed.digests.get(path)
        if path not in hashed.digests:
            if path not in reported:
                problems.append(_d("missing", path, "frozen file is missing", expected=want[path]))
        elif path not in want:
            problems.append(_d("added", path, "file added under a frozen folder", observed=have))
        elif have != want[path]:
            problems.append(_d("changed", path, "digest differs from the frozen one", expected=want[path],
                               observed=have))

    problems.extend(_validation_problems(project, pocket, expected.fidelity))

    # The grader the scores will come from.
    grader = current_grader()
    if grader.scoring_contract_version != expected.grader.scoring_contract_version:
        problems.append(_d("grader_changed", module_rel, "scoring contract version differs",
                           expected=str(expected.grader.scoring_contract_version),
                           observed=str(grader.scoring_contract_version)))
    if grader.source_sha256 != expected.grader.source_sha256:
        problems.append(_d("grader_changed", module_rel, "grader source digest differs",
                           expected=expected.grader.source_sha256, observed=grader.source_sha256))

    # SHA256SUMS must list exactly what the stamp lists.
    sums = sums_path(project, pocket)
    sums_rel = project.relative(sums)
    want_sums = sums_text(expected).encode("utf-8")
    try:
        have_sums = sums.read_bytes()
    except FileNotFoundError:
        problems.append(_d("sums_missing", sums_rel, "SHA256SUMS is missing",
                           expected=hashlib.sha256(want_sums).hexdigest()))
    else:
        if have_sums != want_sums:
            problems.append(_d("sums_mismatch", sums_rel, "SHA256SUMS differs from the stamp's file list",
                               expected=hashlib.sha256(want_sums).hexdigest(),
                               observed=hashlib.sha256(have_sums).hexdigest()))

    # The recomputed root: equal whenever nothing above was found.
    observed_root: str | None = None
    try:
        observed = build_manifest(pocket, module, hashed, grader, expected.fidelity)
    except ValidationError:
        observed = None  # e.g. every anchors file gone; the files above say why
    if observed is not None:
        # Equal models have equal canonical bytes: skip the second serialization.
        observed_root = contents_root if observed == expected else observed.root
    if not problems and observed_root != stamp.root:
        problems.append(_d("root_mismatch", module_rel, "the recomputed root differs from the stamp's",
                           expected=stamp.root, observed=observed_root))

    ok = not problems
    report = PocketReport(pocket=pocket, environment_module=module, module_path=module_rel, ok=ok,
                          root=stamp.root if ok else None, stamped_root=stamp.root, observed_root=observed_root,
                          file_count=len(expected.files), problems=problems, fidelity=expected.fidelity)
    return report, stamp


def _validation_problems(project: Project, pocket: str, recorded: FidelityRecord | None) -> list[Discrepancy]:
    """The validation set is private: checked where ``keys_private/<pocket>/`` is present
    (the project tree), never expected in an installed release."""
    if not project.keys_dir(pocket).is_dir():
        return []
    where = project.relative(project.validation_dir(pocket))
    digest = validation_digest(project, pocket)
    want = recorded.validation_sha256 if recorded else None
    if digest == want:
        return []
    if want is None:
        message = "a validation set exists but the freeze recorded none"
    elif digest is None:
        message = "the frozen validation set is missing"
    else:
        message = "a validation file changed, vanished or was added since the freeze"
    return [_d("validation_changed", where, message, expected=want, observed=digest)]


def _problems(report: PocketReport) -> list[Problem]:
    out = []
    for d in report.problems:
        message = d.message
        detail = [f"{label} {value}" for label, value in (("expected", d.expected), ("observed", d.observed))
                  if value is not None]
        if detail:
            message += f" ({', '.join(detail)})"
        out.append(Problem(d.path, message, line=d.line, field=d.kind,
                           mend=_MENDS[d.kind].format(pocket=report.pocket)))
    return out


def raise_for(report: PocketReport) -> None:
    """Raise the verification error a failed report stands for (nothing when ok)."""
    if report.ok:
        return
    if report.not_frozen:
        raise NotFrozenError(f"pocket {report.pocket!r} is not frozen: scores against it are not reportable",
                             _problems(report))
    raise HashMismatchError(
        f"pocket {report.pocket!r} does not match its freeze ({len(report.problems)} problem(s))", _problems(report))


def verify_pocket(project: Project, pocket: str) -> VerifiedRelease:
    """The gate: return the verified release or raise.

    Raises :class:`~lae.errors.NotFrozenError` when the pocket has no well-formed
    frozen stamp, :class:`~lae.errors.HashMismatchError` when anything differs from it
    (every problem in ``.problems``), :class:`~lae.errors.LayoutError` for an unknown
    pocket.
    """
    check_known_pocket(project, pocket)
    report, stamp = _audit(project, pocket)
    raise_for(report)
    assert stamp is not None and stamp.manifest is not None and stamp.root is not None
    return VerifiedRelease(pocket=pocket, root=stamp.root, file_count=report.file_count,
                           task_count=len(stamp.manifest.scoring), environment_module=report.environment_module or "",
                           grader=stamp.manifest.grader, fidelity=stamp.manifest.fidelity)


def gate(project: Project, pocket: str, *, allow_unfrozen: bool) -> ReleaseStatus:
    """Call before scoring. A verified pocket gives ``reportable=True`` and its root.

    Otherwise, with ``allow_unfrozen=False`` the :class:`~lae.errors.VerificationError`
    propagates; with ``allow_unfrozen=True`` the result is ``reportable=False`` with the
    reason, and an :class:`UnverifiedReleaseWarning` is issued: every score made under
    it must carry ``reportable: false``.
    """
    try:
        release = verify_pocket(project, pocket)
    except VerificationError as exc:
        if not allow_unfrozen:
            raise
        reason = exc.report()
        warnings.warn(f"scoring pocket {pocket!r} without a verified freeze: {exc.args[0]}",
                      UnverifiedReleaseWarning, stacklevel=2)
        return ReleaseStatus(pocket=pocket, reportable=False, freeze_root=None, reason=reason)
    if release.fidelity is not None and not release.fidelity.met:
        # frozen with --allow-low-fidelity: it verifies, but no score made with it is reportable
        return ReleaseStatus(pocket=pocket, reportable=False, freeze_root=release.root,
                             reason=f"the release's fidelity is below its thresholds: {release.fidelity.summary()}")
    return ReleaseStatus(pocket=pocket, reportable=True, freeze_root=release.root, reason=None)


def verify_json_schema() -> dict[str, Any]:
    """JSON Schema of ``lae verify --json`` (``schemas/verify.schema.json``)."""
    schema = VerifyReport.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": VERIFY_SCHEMA_ID, **schema}


def verify_schema_text() -> str:
    """The committed text of ``schemas/verify.schema.json``."""
    return json.dumps(verify_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

