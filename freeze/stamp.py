"""The freeze stamp: a comment block in the pocket's environment module header.

The block sits between two fixed marker lines, :data:`BEGIN_MARKER` and
:data:`END_MARKER`, and is rendered from ``templates/stamp.j2``. Freeze rewrites the
bytes from the start of the begin line to the end of the end marker and nothing else;
every byte outside stays as it was. A pocket never frozen carries a ``NOT FROZEN`` block
that names the pocket and holds nothing that looks like a digest.

Parsing is strict: a block is read into a :class:`Stamp`, rendered again and compared
with the text on disk; any difference (an extra space, a reordered line, a hand edit)
makes the stamp malformed.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Callable, Literal

import jinja2
from pydantic import BaseModel, ConfigDict, ValidationError

from lae import __version__
from lae.canonical import canonical_bytes, parse_json_strict
from lae.errors import Problem
from lae.project import Project

from .manifest import SUMS_NAME, FileEntry, Hex64, Manifest

__all__ = [
    "BEGIN_MARKER",
    "END_MARKER",
    "GENERATOR",
    "StampFormatError",
    "Stamp",
    "freeze_command",
    "render_stamp",
    "render_unfrozen_stamp",
    "find_block",
    "parse_stamp",
    "read_stamp",
    "replace_block",
    "stamp_pocket_name",
    "locate_module",
    "stamp_error_problem",
]

BEGIN_MARKER = "# >>> lae freeze stamp >>>"
END_MARKER = "# <<< lae freeze stamp <<<"
GENERATOR = "lae.freeze"

_BEGIN = BEGIN_MARKER.encode("ascii")
_END = END_MARKER.encode("ascii")


class StampFormatError(ValueError):
    """A stamp block cannot be found or read; ``line`` is 1-based in the module."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class Stamp(BaseModel):
    """A parsed stamp block."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["FROZEN", "NOT FROZEN"]
    pocket: str
    generator_version: str
    root: Hex64 | None = None
    manifest: Manifest | None = None

    @property
    def frozen(self) -> bool:
        return self.status == "FROZEN"


def freeze_command(pocket: str) -> str:
    """The command that reproduces a stamp, run from the project root. The stamp holds
    this canonical form, not the raw argv, so it never records a machine's paths."""
    return f"lae freeze --pocket {pocket}"


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).resolve().parent / "templates")),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # a Python comment block, not HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    return env.get_template("stamp.j2")


def _render(pocket: str, manifest: Manifest | None, root: str | None, generator_version: str) -> str:
    scoring = []
    fidelity = None
    if manifest is not None:
        scoring = [(tid, canonical_bytes(block).decode("utf-8")) for tid, block in manifest.scoring.items()]
        if manifest.fidelity is not None:
            fidelity = (canonical_bytes(manifest.fidelity.model_dump(mode="json")).decode("utf-8"),
                        manifest.fidelity.summary())
    text = _template().render(
        begin_marker=BEGIN_MARKER,
        end_marker=END_MARKER,
        generator=GENERATOR,
        generator_version=generator_version,
        status="NOT FROZEN" if manifest is None else "FROZEN",
        pocket=pocket,
        manifest=manifest,
        root=root,
        command=freeze_command(pocket),
        sums=f"anchors/{pocket}/{SUMS_NAME}",
        scoring=scoring,
        fidelity=fidelity,
    )
    return text.rstrip("\n")


def render_stamp(manifest: Manifest, *, generator_version: str = __version__) -> str:
    """The stamp block of a frozen manifest, from the begin marker to the end marker
    (no trailing newline: the module's own line ending after the end marker is kept)."""
    return _render(manifest.pocket, manifest, manifest.root, generator_version)


def render_unfrozen_stamp(pocket: str, *, generator_version: str = __version__) -> str:
    """The ``NOT FROZEN`` block for a pocket that has never been frozen."""
    return _render(pocket, None, None, generator_version)


# -- finding and replacing the block in module bytes --------------------------------


def _line_no(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def find_block(data: bytes) -> tuple[int, int] | None:
    """Byte span ``(start, end)`` of the stamp block in module bytes: from the start of
    the begin marker line to the end of the end marker (its line ending excluded).
    None when the module has no markers; :class:`StampFormatError` when they are
    unpaired, repeated or out of order."""
    begins: list[int] = []
    ends: list[int] = []
    pos = 0
    for line in data.splitlines(keepends=True):
        bare = line.rstrip(b"\r\n")
        if bare == _BEGIN:
            begins.append(pos)
        elif bare == _END:
            ends.append(pos)
        elif bare.strip() in (_BEGIN, _END):
            raise StampFormatError("a stamp marker is indented or has trailing text", _line_no(data, pos))
        pos += len(line)
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1:
        where = (begins + ends)[1] if len(begins + ends) > 1 else (begins + ends)[0]
        raise StampFormatError(
            f"expected one begin and one end marker, found {len(begins)} and {len(ends)}", _line_no(data, where)
        )
    if ends[0] < begins[0]:
        raise StampFormatError("the end marker comes before the begin marker", _line_no(data, ends[0]))
    return begins[0], ends[0] + len(_END)


def replace_block(data: bytes, block: str) -> bytes:
    """Module bytes with the stamp block replaced by ``block``; every other byte kept."""
    span = find_block(data)
    if span is None:
        raise StampFormatError("the module has no stamp markers")
    start, end = span
    return data[:start] + block.encode("utf-8") + data[end:]


# -- parsing ----------------------------------------------------------------------

_FIELD = re.compile(r"^# ([a-z0-9-]+): (.*)$")
_FILE = re.compile(r"^# ([0-9a-f]{64})  (\S(?:.*\S)?)$")
_SCORING = re.compile(r"^(\S+) (\{.*\})$")


def parse_stamp(block: str, *, first_line: int = 1) -> Stamp:
    """Read a block (begin marker to end marker) rendered by :func:`render_stamp` or
    :func:`render_unfrozen_stamp`. Raises :class:`StampFormatError` unless rendering
    the parsed stamp gives back exactly ``block`` (line endings aside)."""
    text = block.replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0] != BEGIN_MARKER or lines[-1] != END_MARKER:
        raise StampFormatError("the block does not run from the begin to the end marker", first_line)
    fields: dict[str, list[tuple[int, str]]] = {}
    files: list[FileEntry] = []
    for i, line in enumerate(lines[1:-1], start=first_line + 1):
        if m := _FILE.match(line):
            files.append(FileEntry(sha256=m.group(1), path=m.group(2)))
        elif m := _FIELD.match(line):
            fields.setdefault(m.group(1), []).append((i, m.group(2)))

    def one(name: str, required: bool = True) -> str | None:
        got = fields.get(name, [])
        if len(got) > 1:
            raise StampFormatError(f"`{name}:` appears {len(got)} times", got[1][0])
        if not got:
            if required:
                raise StampFormatError(f"`{name}:` is missing", first_line)
            return None
        return got[0][1]

    status = one("status")
    pocket = one("pocket")
    generator = one("generator") or ""
    gen_name, _, gen_version = generator.partition(" ")
    if gen_name != GENERATOR or not gen_version:
        raise StampFormatError(f"`generator:` must read `{GENERATOR} <version>`", first_line + 2)
    assert status is not None and pocket is not None
    try:
        if status == "NOT FROZEN":
            stamp = Stamp(status="NOT FROZEN", pocket=pocket, generator_version=gen_version)
        elif status == "FROZEN":
            stamp = _parse_frozen(fields, files, one, pocket, gen_version, first_line)
        else:
            raise StampFormatError(f"`status:` must be FROZEN or NOT FROZEN, not {status!r}", first_line + 3)
    except ValidationError as exc:
        raise StampFormatError(f"a stamp value is invalid: {exc.errors()[0]['msg']}", first_line) from exc
    again = _render(stamp.pocket, stamp.manifest, stamp.root, stamp.generator_version).split("\n")
    for i, (want, got) in enumerate(zip(again, lines), start=first_line):
        if want != got:
            raise StampFormatError(f"line differs from the canonical stamp (expected {want!r})", i)
    if len(again) != len(lines):
        raise StampFormatError("the block has a different number of lines than its canonical form",
                               first_line + min(len(again), len(lines)))
    return stamp


def _parse_frozen(fields: dict[str, list[tuple[int, str]]], files: list[FileEntry],
                  one: Callable[..., str | None], pocket: str, gen_version: str, first_line: int) -> Stamp:
    scoring: dict[str, object] = {}
    for line_no, value in fields.get("scoring", []):
        m = _SCORING.match(value)
        if not m:
            raise StampFormatError("`scoring:` must read `<task-id> <json object>`", line_no)
        try:
            parsed = parse_json_strict(m.group(2))
        except ValueError as exc:
            raise StampFormatError(f"`scoring:` JSON does not parse: {exc}", line_no) from exc
        if m.group(1) in scoring:
            raise StampFormatError(f"`scoring:` repeats task {m.group(1)!r}", line_no)
        if scoring and m.group(1) < list(scoring)[-1]:
            raise StampFormatError("`scoring:` lines must be sorted by task id", line_no)
        scoring[m.group(1)] = parsed
    count = one("files")
    if count is None or not count.isdigit() or int(count) != len(files):
        raise StampFormatError(f"`files:` says {count} but the block lists {len(files)}", first_line)
    version = one("manifest-version")
    contract = one("grader-contract")
    if not (version or "").isdigit() or not (contract or "").isdigit():
        raise StampFormatError("`manifest-version:` and `grader-contract:` must be integers", first_line)
    manifest = Manifest.model_validate({
        "manifest_version": int(version or 0),
        "pocket": pocket,
        "environment_module": one("environment-module"),
        "grader": {"scoring_contract_version": int(contract or 0), "source_sha256": one("grader-source-sha256")},
        "scoring": scoring,
        "files": files,
        "fidelity": _parse_fidelity(one("fidelity", required=False), fields),
    })
    one("command")
    one("check")
    one("fidelity-summary", required=False)  # derived from `fidelity:`; the re-render checks it
    return Stamp(status="FROZEN", pocket=pocket, generator_version=gen_version,
                 root=one("root-sha256"), manifest=manifest)


def _parse_fidelity(value: str | None, fields: dict[str, list[tuple[int, str]]]) -> object:
    if value is None:
        return None
    try:
        return parse_json_strict(value)
    except ValueError as exc:
        raise StampFormatError(f"`fidelity:` JSON does not parse: {exc}", fields["fidelity"][0][0]) from exc


def read_stamp(data: bytes) -> Stamp | None:
    """The stamp of module bytes, or None when the module has no markers."""
    span = find_block(data)
    if span is None:
        return None
    start, end = span
    try:
        block = data[start:end].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StampFormatError("the stamp block is not UTF-8", _line_no(data, start)) from exc
    return parse_stamp(block, first_line=_line_no(data, start))


_POCKET_LINE = re.compile(rb"^# pocket: (\S+)\r?$", re.MULTILINE)


def stamp_pocket_name(data: bytes) -> str | None:
    """The pocket a module's stamp names, read leniently (a malformed or hand-edited
    block still says which pocket it is for). None without markers or pocket line."""
    try:
        span = find_block(data)
    except StampFormatError:
        return None
    if span is None:
        return None
    m = _POCKET_LINE.search(data, span[0], span[1])
    return m.group(1).decode("utf-8", "replace") if m else None


# -- which module carries a pocket's stamp --------------------------------------------


def _load_pocket_config(project: Project, pocket: str):  # type: ignore[no-untyped-def]
    from lae.compiler.load import load_pocket_config  # the compiler owns pocket.yaml

    return load_pocket_config(project, pocket)


def locate_module(project: Project, pocket: str) -> tuple[str, Path, str, list[Problem]]:
    """Find the environment module of ``pocket``.

    With ``keys_private/<pocket>/`` present, ``pocket.yaml``'s ``environment_module``
    names it. Without keys (an installed release), it is the one module under
    ``environments/`` whose stamp names the pocket. Returns ``(module name, path,
    how it was found, problems)``; the name is empty when none was found.
    """
    if project.keys_dir(pocket).is_dir():
        config = _load_pocket_config(project, pocket)  # raises KeyValidationError (exit 1)
        name = config.environment_module
        return name, project.environments_dir / f"{name}.py", "pocket.yaml", []
    hits: list[Path] = []
    folder = project.environments_dir
    if folder.is_dir():
        for path in sorted(folder.glob("*.py")):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if stamp_pocket_name(data) == pocket:
                hits.append(path)
    if len(hits) == 1:
        return hits[0].stem, hits[0], "stamp", []
    where = project.relative(folder)
    if not hits:
        return "", folder, "stamp", [Problem(where, f"no module's stamp names pocket {pocket!r}", field="stamp",
                                             mend=f"add the NOT FROZEN stamp block naming `pocket: {pocket}` "
                                                  "to the pocket's module, or restore keys_private/")]
    names = ", ".join(project.relative(p) for p in hits)
    return "", folder, "stamp", [Problem(where, f"several modules' stamps name pocket {pocket!r}: {names}",
                                         field="stamp", mend="keep the stamp in one module")]


def stamp_error_problem(project: Project, path: Path, exc: StampFormatError) -> Problem:
    """A located :class:`~lae.errors.Problem` for a malformed stamp."""
    return Problem(project.relative(path), str(exc), line=exc.line, field="stamp",
                   mend="re-run `lae freeze` from the project root to rewrite the stamp")
