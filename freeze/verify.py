"""``lae verify``: recompute a pocket's manifest and compare it with the stamp in its
environment module.

:func:`audit_pocket` never raises on tampered data: it lists every discrepancy
(changed, missing or added file, missing/malformed/edited stamp, the module's code,
the grader identity, cached bytecode, SHA256SUMS out of step). :func:`verify_pocket`
returns the ok report or raises :class:`~lae.errors.NotFrozenError` /
:class:`~lae.errors.HashMismatchError` with the problems in ``.problems``. Scoring goes
through :func:`lae.freeze.gate.open_pocket`, which runs the same audit on bytes it keeps.

Verify takes no lock: freeze writes SHA256SUMS and then the stamp, each atomically,
so a verify racing a freeze can fail spuriously only when the tree had changed
anyway, and can never pass on a mix.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lae.errors import HashMismatchError, NotFrozenError, Problem, VerificationError
from lae.project import Project

from .freezer import check_known_pocket
from .identity import DerivedIdentity, bytecode_problems, derive_identity, identity_differences
from .manifest import (
    FidelityRecord,
    HashedPocket,
    Hex64,
    Manifest,
    build_manifest,
    hash_pocket,
    scan_pocket,
    sums_path,
    sums_text,
    validation_digest,
)
from .stamp import Stamp, StampFormatError, locate_module, module_code_digest, read_stamp

__all__ = [
    "VERIFY_SCHEMA_VERSION",
    "VERIFY_SCHEMA_ID",
    "ProblemKind",
    "Discrepancy",
    "PocketReport",
    "VerifyReport",
    "audit_pocket",
    "audit_with",
    "verify_pocket",
    "verify_json_schema",
    "raise_for",
    "summary_line",
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
    "grader_changed",  # a scoring module, a bound package, the Python version or the contract differs
    "bytecode_mismatch",  # cached bytecode Python would run is not the frozen source compiled
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
    "bytecode_mismatch": "delete the __pycache__ folders of the installed package, or reinstall it",
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
    ok: bool = Field(description="True when every frozen file, the module's code, the grader identity and "
                                 "SHA256SUMS match the stamp.")
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


def _d(kind: str, path: str, message: str, expected: str | None = None, observed: str | None = None,
       line: int | None = None) -> Discrepancy:
    return Discrepancy(kind=kind, path=path, message=message, expected=expected, observed=observed,  # type: ignore[arg-type]
                       line=line)


def audit_pocket(project: Project, pocket: str) -> PocketReport:
    """Recompute ``pocket``'s manifest and compare it with its stamp; list every
    discrepancy. Raises only for misuse or an invalid ``pocket.yaml`` (exit 1)."""
    return audit_with(project, pocket, hash_pocket(scan_pocket(project, pocket)))[0]


def audit_with(project: Project, pocket: str, hashed: HashedPocket,
               derived: DerivedIdentity | None = None) -> tuple[PocketReport, Stamp | None]:
    """:func:`audit_pocket` against files already scanned and hashed (the gate hashes
    them keeping their bytes, so the bytes it scores are the bytes checked here) and,
    if given, an identity already derived."""
    return _audit(project, pocket, hashed, derived)


def _audit(project: Project, pocket: str, hashed: HashedPocket,
           derived: DerivedIdentity | None = None) -> tuple[PocketReport, Stamp | None]:
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

    # The module's own code, outside the stamp block.
    module_sha = module_code_digest(data)
    if module_sha != expected.environment_module_sha256:
        problems.append(_d("changed", module_rel, "the module's code outside the stamp block differs from the frozen one",
                           expected=expected.environment_module_sha256, observed=module_sha))

    # The files, each read once.
    reported: set[str] = set()  # present but not hashable: not also "missing"
    for p in hashed.problems:
        if p.field in ("symlink", "special", "name"):
            problems.append(_d("unsafe_file", p.path, p.message))
            reported.add(p.path)
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

    # The grader the scores will come from: every module scoring runs, the bound
    # packages, the Python version; and no cached bytecode in place of that source.
    derived = derived or derive_identity()
    problems.extend(_grader_problems(expected, derived))
    grader = derived.identity

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
        observed = build_manifest(pocket, module, module_sha, hashed, grader, expected.fidelity) if grader else None
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


def _grader_problems(expected: Manifest, derived: DerivedIdentity) -> list[Discrepancy]:
    out = [_d("grader_changed", name, f"module {name} {why}") for name, why in derived.problems]
    if derived.identity is not None:
        out += [_d("grader_changed", diff.subject, diff.message, expected=diff.expected, observed=diff.observed)
                for diff in identity_differences(expected.grader, derived.identity)]
    out += [_d("bytecode_mismatch", name, why) for name, why in bytecode_problems(derived.sources)]
    return out


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


def summary_line(report: PocketReport) -> str:
    """One line for a failed report: what kind of failure, and its first problems."""
    head = (f"pocket {report.pocket!r} is not frozen" if report.not_frozen
            else f"pocket {report.pocket!r} does not match its freeze")
    problems = _problems(report)
    shown = "; ".join(f"{p.path}: {p.message}" for p in problems[:3])
    more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
    return f"{head}: {shown}{more}"


def raise_for(report: PocketReport) -> None:
    """Raise the verification error a failed report stands for (nothing when ok)."""
    if report.ok:
        return
    if report.not_frozen:
        raise NotFrozenError(f"pocket {report.pocket!r} is not frozen: scores against it are not reportable",
                             _problems(report))
    raise HashMismatchError(
        f"pocket {report.pocket!r} does not match its freeze ({len(report.problems)} problem(s))", _problems(report))


def verify_pocket(project: Project, pocket: str) -> PocketReport:
    """Verify and return the (ok) report, or raise.

    Raises :class:`~lae.errors.NotFrozenError` when the pocket has no well-formed
    frozen stamp, :class:`~lae.errors.HashMismatchError` when anything differs from it
    (every problem in ``.problems``), :class:`~lae.errors.LayoutError` for an unknown
    pocket. Scoring does not call this: it opens the pocket through
    :func:`lae.freeze.gate.open_pocket`, which keeps the bytes it verified.
    """
    check_known_pocket(project, pocket)
    report, _stamp = audit_with(project, pocket, hash_pocket(scan_pocket(project, pocket)))
    raise_for(report)
    return report


def verify_json_schema() -> dict[str, Any]:
    """JSON Schema of ``lae verify --json`` (``schemas/verify.schema.json``)."""
    schema = VerifyReport.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": VERIFY_SCHEMA_ID, **schema}


def verify_schema_text() -> str:
    """The committed text of ``schemas/verify.schema.json``."""
    return json.dumps(verify_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

