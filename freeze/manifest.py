"""The freeze manifest: every input a score depends on, hashed, and its root digest.

A pocket's manifest lists, with their SHA-256 over the bytes on disk:

* every file under ``anchors/<pocket>/`` (the compiled anchors; each holds its task's
  ``scoring`` block), except the freeze's own ``SHA256SUMS``;
* every file under ``tasks/<pocket>/`` (each ``task.json`` and every document the agent
  reads);

plus the scoring parameters (read from each anchors file's ``scoring`` block, keyed by
task id), the pocket's environment module name and the digest of its code outside the
stamp block, and the grader's identity (:mod:`lae.freeze.identity`: every project module
scoring runs, the bound third-party versions, the Python version). The root digest is
``sha256(canonical_bytes(manifest))`` with :func:`lae.canonical.canonical_bytes`, the
one canonical serializer of the project.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints, model_serializer, model_validator

from lae.canonical import canonical_bytes, parse_json_strict, sha256_hex
from lae.errors import Problem
from lae.project import POCKET_NAME_RE, Project

from ._fs import TMP_PREFIX, sha256_file, sha256_file_and_bytes, walk_files
from .identity import GraderIdentity, Hex64

__all__ = [
    "MANIFEST_VERSION",
    "SUMS_NAME",
    "ANCHORS_SUFFIX",
    "Hex64",
    "FileEntry",
    "GraderIdentity",
    "FidelityRecord",
    "Manifest",
    "ScannedFile",
    "PocketScan",
    "HashedPocket",
    "scan_pocket",
    "hash_pocket",
    "build_manifest",
    "root_digest",
    "sums_text",
    "sums_path",
    "validation_digest",
]

MANIFEST_VERSION: Final = 2
SUMS_NAME = "SHA256SUMS"
ANCHORS_SUFFIX = ".anchors.json"

ModuleName = Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")]
PocketName = Annotated[str, StringConstraints(pattern=POCKET_NAME_RE)]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FileEntry(_Closed):
    """One frozen file."""

    path: str = Field(min_length=1, description="POSIX path relative to the project root.")
    sha256: Hex64 = Field(description="SHA-256 of the file's bytes on disk.")


class FidelityRecord(_Closed):
    """The release's measured agreement with a careful reader (SPEC section 11), over the
    pocket's validation set (private: only its digest and the figures are recorded)."""

    validation_sha256: Hex64 = Field(description="`validation_digest`: SHA-256 over the validation set's files.")
    memos: int = Field(ge=1, description="Labelled memos measured.")
    labelled_findings: int = Field(ge=0, description="Finding labels (RAISED, NOT_RAISED or DISMISSED).")
    over_credit: float | None = Field(ge=0, le=1, description="Credited / labelled NOT_RAISED or DISMISSED.")
    under_credit: float | None = Field(ge=0, le=1, description="Not credited / labelled RAISED.")
    max_over_credit: float = Field(ge=0, le=1, description="Threshold from pocket.yaml.")
    max_under_credit: float = Field(ge=0, le=1, description="Threshold from pocket.yaml.")
    met: bool = Field(description="Both figures within their thresholds (a figure without labels counts as met).")

    @model_validator(mode="after")
    def _met_agrees(self) -> "FidelityRecord":
        within = ((self.over_credit or 0.0) <= self.max_over_credit
                  and (self.under_credit or 0.0) <= self.max_under_credit)
        if self.met != within:
            raise ValueError(f"met is {self.met} but the figures say {within}")
        return self

    def sentence(self) -> str:
        """'measured at x% over-credit and y% under-credit on n labelled memos'."""
        def pct(x: float | None) -> str:
            return "n/a" if x is None else f"{100 * x:.1f}%"

        return (f"measured at {pct(self.over_credit)} over-credit and {pct(self.under_credit)} under-credit "
                f"on {self.memos} labelled memos")

    def summary(self) -> str:
        """One line for the stamp and `lae verify`."""
        state = "met" if self.met else "NOT MET (frozen with --allow-low-fidelity: not reportable)"
        return (f"{self.sentence()} ({self.labelled_findings} labelled findings); thresholds "
                f"{100 * self.max_over_credit:.1f}% / {100 * self.max_under_credit:.1f}%: {state}")


class Manifest(_Closed):
    """Everything a pocket's scores depend on. Its canonical bytes hash to the root."""

    manifest_version: Literal[2] = Field(default=MANIFEST_VERSION, description="Format version of this manifest; 2.")
    pocket: PocketName
    environment_module: ModuleName = Field(description="Module under environments/ that carries the stamp.")
    environment_module_sha256: Hex64 = Field(
        description="SHA-256 of that module with its stamp block emptied (all its code, bound).")
    grader: GraderIdentity
    scoring: dict[str, dict[str, JsonValue]] = Field(
        min_length=1, description="Task id -> the `scoring` block of its anchors file."
    )
    files: tuple[FileEntry, ...] = Field(min_length=1, description="Every frozen file, sorted by path.")
    fidelity: FidelityRecord | None = Field(default=None, description="Measured on the validation set, when the pocket has one.")

    @model_serializer(mode="wrap")
    def _omit_absent_fidelity(self, handler: Any) -> dict[str, Any]:
        # A pocket without a validation set keeps the manifest (and root) it always had.
        data = handler(self)
        if data.get("fidelity") is None:
            data.pop("fidelity", None)
        return data

    @model_validator(mode="after")
    def _sorted_unique(self) -> "Manifest":
        paths = [f.path for f in self.files]
        if paths != sorted(paths):
            raise ValueError("files must be sorted by path")
        if len(set(paths)) != len(paths):
            raise ValueError("files must not repeat a path")
        return self

    @cached_property
    def root(self) -> str:
        """Hex SHA-256 of this manifest's canonical bytes (computed once per instance)."""
        return root_digest(self)

    def file_map(self) -> dict[str, str]:
        """Path -> hex digest."""
        return {f.path: f.sha256 for f in self.files}


def root_digest(manifest: Manifest) -> str:
    """``sha256(canonical_bytes(manifest))`` as lower-case hex."""
    return sha256_hex(canonical_bytes(manifest.model_dump(mode="json")))


def sums_path(project: Project, pocket: str) -> Path:
    """``anchors/<pocket>/SHA256SUMS``."""
    return project.anchors_dir(pocket) / SUMS_NAME


def sums_text(manifest: Manifest) -> str:
    """The ``sha256sum -c`` file: ``<hex>  <path>`` per frozen file, paths relative to
    the project root, in manifest order. Check it from the root with
    ``sha256sum -c anchors/<pocket>/SHA256SUMS``."""
    return "".join(f"{f.sha256}  {f.path}\n" for f in manifest.files)


# -- scanning the tree --------------------------------------------------------------


@dataclass(frozen=True)
class ScannedFile:
    """A regular file found under a frozen folder."""

    path: str  # relative to the project root, POSIX
    abspath: str


@dataclass
class PocketScan:
    """What lies under a pocket's frozen folders, before hashing."""

    pocket: str
    files: list[ScannedFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # unsafe names, symlinks, specials


_CONTROL_OR_BACKSLASH = re.compile(r"[\x00-\x1f\x7f\\]")
_EDGE_SPACE = re.compile(r"(?:^|/)\s|\s(?:/|$)|//")


def _unsafe_name(rel: str) -> str | None:
    """Why a path cannot be frozen (or None). ``sha256sum`` escapes backslashes and
    newlines, and a stamp line cannot hold a newline, so such names are refused."""
    if _CONTROL_OR_BACKSLASH.search(rel):
        return "the name holds a backslash or a control character"
    if _EDGE_SPACE.search(rel):
        return "a path segment starts or ends with whitespace"
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return "the name is not valid UTF-8"
    return None


def scan_pocket(project: Project, pocket: str) -> PocketScan:
    """List every file under ``anchors/<pocket>/`` (but ``SHA256SUMS`` and leftover
    atomic-write temp files) and ``tasks/<pocket>/``, sorted by path."""
    scan = PocketScan(pocket)
    roots = [
        (project.anchors_dir(pocket), f"anchors/{pocket}/", True),
        (project.tasks_dir(pocket), f"tasks/{pocket}/", False),
    ]
    for top, prefix, is_anchors in roots:
        for rel_in, entry, kind in walk_files(top):
            rel = prefix + rel_in
            if is_anchors and "/" not in rel_in and (rel_in == SUMS_NAME or rel_in.startswith(TMP_PREFIX)):
                continue
            if kind == "symlink":
                scan.problems.append(Problem(rel, "is a symbolic link; frozen folders must hold regular files",
                                             field="symlink", mend="replace the link by the file it points to"))
                continue
            if kind != "file":
                scan.problems.append(Problem(rel, "is not a regular file", field="special",
                                             mend="remove it from the frozen folder"))
                continue
            why = _unsafe_name(rel)
            if why:
                scan.problems.append(Problem(rel.encode("utf-8", "backslashreplace").decode("ascii", "replace"),
                                             f"cannot be frozen: {why}", field="name", mend="rename the file"))
                continue
            assert entry is not None
            scan.files.append(ScannedFile(rel, entry.path))
    scan.files.sort(key=lambda f: f.path)
    return scan


@dataclass
class HashedPocket:
    """Digests of a scanned pocket plus what the anchors files say about scoring."""

    digests: dict[str, str]  # path -> hex
    scoring: dict[str, dict[str, Any]]  # task id -> scoring block
    task_ids: list[str]  # from anchors file names
    problems: list[Problem] = field(default_factory=list)  # the scan's, unreadable files, anchors without scoring
    contents: dict[str, bytes] = field(default_factory=dict)  # path -> the bytes hashed (keep_bytes only)


def _anchors_task_id(rel: str, pocket: str) -> str | None:
    prefix = f"anchors/{pocket}/"
    name = rel[len(prefix):]
    if rel.startswith(prefix) and "/" not in name and name.endswith(ANCHORS_SUFFIX):
        return name[: -len(ANCHORS_SUFFIX)]
    return None


def _workers() -> int:
    try:
        return max(1, min(8, len(os.sched_getaffinity(0))))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, min(8, os.cpu_count() or 1))


Digested = tuple[str, bytes | None] | OSError


def _digest_many(paths: list[str], keep: bool) -> list[Digested]:
    out: list[Digested] = []
    for p in paths:
        try:
            out.append(sha256_file_and_bytes(p) if keep else (sha256_file(p), None))
        except OSError as exc:
            out.append(exc)
    return out


def _digest_all(paths: list[str], workers: int, keep: bool) -> list[Digested]:
    """Digests (and, with ``keep``, bytes) in input order. hashlib releases the GIL while
    it hashes (and so does every read), so threads use every core; each worker takes one
    interleaved slice, which balances large files and keeps per-file overhead low."""
    n = min(workers, len(paths))
    if n <= 1:
        return _digest_many(paths, keep)
    with ThreadPoolExecutor(max_workers=n, thread_name_prefix="lae-hash") as pool:
        parts = list(pool.map(lambda part: _digest_many(part, keep), [paths[i::n] for i in range(n)]))
    out: list[Digested] = [OSError()] * len(paths)
    for i, part in enumerate(parts):
        out[i::n] = part
    return out


def hash_pocket(scan: PocketScan, *, workers: int | None = None, keep_bytes: bool = False) -> HashedPocket:
    """Hash every scanned file, each read once: anchors files are read whole (they are
    small and their ``scoring`` block is needed); everything else is streamed, on
    ``workers`` threads (default: the usable CPUs, at most 8). With ``keep_bytes`` every
    file is read whole and its bytes kept in ``contents``: the bytes a score then uses
    are exactly the bytes that were hashed."""
    out = HashedPocket({}, {}, [], problems=list(scan.problems))
    streamed = [f for f in scan.files if _anchors_task_id(f.path, scan.pocket) is None]
    results = _digest_all([f.abspath for f in streamed], workers or _workers(), keep_bytes)
    for f, res in zip(streamed, results):
        if isinstance(res, OSError):
            out.problems.append(_unreadable(f.path, res))
        else:
            out.digests[f.path] = res[0]
            if res[1] is not None:
                out.contents[f.path] = res[1]
    for f in scan.files:
        task_id = _anchors_task_id(f.path, scan.pocket)
        if task_id is None:
            continue
        try:
            digest, data = sha256_file_and_bytes(f.abspath)
        except OSError as exc:
            out.problems.append(_unreadable(f.path, exc))
            continue
        out.digests[f.path] = digest
        if keep_bytes:
            out.contents[f.path] = data
        out.task_ids.append(task_id)
        try:
            parsed = parse_json_strict(data)
        except (ValueError, UnicodeDecodeError) as exc:
            out.problems.append(Problem(f.path, f"is not valid JSON: {exc}", field="anchors",
                                        mend="recompile with `lae compile`"))
            continue
        scoring = parsed.get("scoring") if isinstance(parsed, dict) else None
        if not isinstance(scoring, dict) or not scoring:
            out.problems.append(Problem(f.path, "has no `scoring` block", field="scoring",
                                        mend="recompile with `lae compile`"))
            continue
        out.scoring[task_id] = scoring
    return out


def _unreadable(path: str, exc: OSError) -> Problem:
    return Problem(path, f"cannot be read: {exc.strerror or exc}", field="unreadable", mend="fix its permissions")


def build_manifest(
    pocket: str, environment_module: str, module_sha256: str, hashed: HashedPocket, grader: GraderIdentity,
    fidelity: FidelityRecord | None = None,
) -> Manifest:
    """The typed manifest of a hashed pocket (files sorted by path)."""
    return Manifest(
        pocket=pocket,
        environment_module=environment_module,
        environment_module_sha256=module_sha256,
        grader=grader,
        scoring={k: hashed.scoring[k] for k in sorted(hashed.scoring)},
        files=tuple(FileEntry(path=p, sha256=d) for p, d in sorted(hashed.digests.items())),
        fidelity=fidelity,
    )


def validation_digest(project: Project, pocket: str) -> str | None:
    """SHA-256 of the pocket's validation set: over the ``sha256sum`` lines
    (``<hex>  <path>``, path relative to the project root) of every regular file under
    ``keys_private/<pocket>/validation/``, sorted by path. None when there is none."""
    folder = project.validation_dir(pocket)
    prefix = project.relative(folder) + "/"
    lines = [f"{sha256_file(entry.path)}  {prefix}{rel}\n" for rel, entry, kind in walk_files(folder)
             if kind == "file" and entry is not None]
    return sha256_hex("".join(sorted(lines, key=lambda line: line[66:])).encode("utf-8")) if lines else None


def task_dirs(project: Project, pocket: str) -> list[str]:
    """Names of the folders under ``tasks/<pocket>/``."""
    folder = project.tasks_dir(pocket)
    if not folder.is_dir():
        return []
    return sorted(e.name for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))
