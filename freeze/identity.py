"""The grader identity: everything a score executes, derived from the code.

A score depends on more than the anchors: on every project module scoring runs (the
grader, the term compiler, normalisation, canonical bytes, the document and deliverable
readers, ...), on the third-party packages whose behaviour reaches the score (the
readers' text extraction, the regex engine), and on the Python implementation and
version (``re``, ``unicodedata``, ``email``). :func:`derive_identity` finds all of it:

* **project modules**: the closure of the ``lae`` modules imported, anywhere in their
  source (module level or inside a function), starting from the scoring entry point
  :data:`SCORING_ENTRY_POINT`, found by reading each module's source with :mod:`ast`.
  Each is recorded with the SHA-256 of its source file. Nothing is a hand-kept list: a
  new import in any scoring module brings the imported module in.
* **packages**: the installed distributions providing the non-standard-library modules
  those project modules import, with their versions, except the few listed in
  :data:`NOT_BOUND` (each with the reason its version cannot change a score).
* **python**: implementation and ``major.minor``.

:func:`identity_differences` names exactly what differs between two identities, and
:func:`bytecode_problems` checks that no cached bytecode Python would run instead of a
frozen source differs from that source.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import marshal
import os
import platform
import sys
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from lae.canonical import canonical_bytes, sha256_hex

__all__ = [
    "SCORING_ENTRY_POINT",
    "CONTRACT_MODULE",
    "NOT_BOUND",
    "ALSO_BOUND",
    "ModuleDigest",
    "PackageVersion",
    "GraderIdentity",
    "ModuleSource",
    "DerivedIdentity",
    "derive_identity",
    "Difference",
    "identity_differences",
    "python_tag",
    "bytecode_problems",
]

SCORING_ENTRY_POINT: Final = "lae.grader.score"
"""The module whose import closure is the code a score runs."""

CONTRACT_MODULE: Final = "lae.grader"
"""Holds ``SCORING_CONTRACT_VERSION = <int>``, read from its (hashed) source."""

PROJECT_PACKAGE: Final = "lae"

NOT_BOUND: Final[dict[str, str]] = {
    # distribution name (normalised) -> why its version cannot change a score
    "pydantic": "validates typed models; values pass through unchanged and no text is transformed",
    "jsonschema": "validates documents against schemas; it transforms nothing",
    "pyyaml": "parses private keys at compile time; scoring reads no YAML",
    "rfc8785": "canonical JSON for hashing; a change shows as a digest mismatch, never as a score",
    "jinja2": "renders the freeze stamp and reports; no score passes through it",
    "filelock": "the freeze lock; no score passes through it",
    "click": "the command-line shell",
}
"""Third-party distributions imported by scoring modules whose version is not bound.
Every other one is (python-docx, pypdf, openpyxl, lxml, defusedxml: text extraction of
documents and deliverables; regex: every matcher)."""

ALSO_BOUND: Final[dict[str, str]] = {
    # distribution name -> why it is bound although no project module imports it
    "defusedxml": "openpyxl parses workbook XML through it when it is installed",
}

ModuleName = Annotated[str, StringConstraints(pattern=r"^lae(\.[A-Za-z_][A-Za-z0-9_]*)*$")]
Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModuleDigest(_Closed):
    """One project module scoring runs."""

    name: ModuleName = Field(description="Dotted module name, e.g. `lae.compiler.terms`.")
    sha256: Hex64 = Field(description="SHA-256 of its source file's bytes.")


class PackageVersion(_Closed):
    """One third-party distribution whose behaviour reaches a score."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", description="Normalised distribution name.")
    version: str = Field(min_length=1, pattern=r"^\S+$", description="Installed version.")


class GraderIdentity(_Closed):
    """Which grader a score comes from: the one identity model of freeze and results."""

    scoring_contract_version: int = Field(ge=1, description="`SCORING_CONTRACT_VERSION` of `lae.grader`.")
    python: str = Field(pattern=r"^\S+ \d+\.\d+$", description="Implementation and major.minor, e.g. `CPython 3.12`.")
    modules: tuple[ModuleDigest, ...] = Field(min_length=1, description="Every project module scoring runs, by name.")
    packages: tuple[PackageVersion, ...] = Field(description="Bound third-party distributions, by name.")

    @model_validator(mode="after")
    def _sorted_unique(self) -> "GraderIdentity":
        for label, names in (("modules", [m.name for m in self.modules]), ("packages", [p.name for p in self.packages])):
            if names != sorted(set(names)):
                raise ValueError(f"{label} must be sorted by name without repeats")
        return self

    @cached_property
    def digest(self) -> str:
        """Hex SHA-256 of the identity's canonical bytes: one value to compare results by."""
        return sha256_hex(canonical_bytes(self.model_dump(mode="json")))


@dataclass(frozen=True)
class ModuleSource:
    """A scoring module's source file, as read once for its digest."""

    name: str
    path: Path
    data: bytes


@dataclass
class DerivedIdentity:
    """The identity of the code installed here, the sources it was read from, and what
    could not be resolved (each a one-line reason)."""

    identity: GraderIdentity | None
    sources: list[ModuleSource] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (module, reason)


# -- the module closure ------------------------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: anywhere but under ``if TYPE_CHECKING:``."""
    out: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


@dataclass
class _Resolver:
    """Finds module files as the import system would (the same meta-path finders, given
    the parent package's search locations), without importing or running anything."""

    specs: dict[str, importlib.machinery.ModuleSpec | None] = field(default_factory=dict)

    def spec(self, name: str) -> importlib.machinery.ModuleSpec | None:
        if name not in self.specs:
            self.specs[name] = self._find(name)
        return self.specs[name]

    def _find(self, name: str) -> importlib.machinery.ModuleSpec | None:
        loaded = sys.modules.get(name)
        if loaded is not None and getattr(loaded, "__spec__", None) is not None:
            return loaded.__spec__  # what is running is what gets hashed
        parent, _, _leaf = name.rpartition(".")
        path = None
        if parent:
            parent_spec = self.spec(parent)
            if parent_spec is None or parent_spec.submodule_search_locations is None:
                return None
            path = list(parent_spec.submodule_search_locations)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            try:
                found = find(name, path)
            except (ImportError, ValueError):
                continue
            if found is not None:
                return found
        return None

    def is_package(self, name: str) -> bool:
        spec = self.spec(name)
        return spec is not None and spec.submodule_search_locations is not None


def _imports_of(name: str, source: bytes, is_package: bool, resolver: _Resolver) -> tuple[set[str], set[str]]:
    """``(project modules, other top-level names)`` imported by one module's source."""
    tree = ast.parse(source, filename=name)
    package = name if is_package else name.rpartition(".")[0]
    project: set[str] = set()
    others: set[str] = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
            base = None
        else:
            if node.level:
                parts = package.split(".")
                base_pkg = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base_pkg}.{node.module}" if node.module else base_pkg
            else:
                base = node.module or ""
            targets = [base]
        for target in targets:
            top = target.split(".")[0]
            if top != PROJECT_PACKAGE:
                if top and top != "__future__":
                    others.add(top)
                continue
            project.update(_with_parents(target))
        if base is not None and base.split(".")[0] == PROJECT_PACKAGE and resolver.is_package(base):
            for alias in node.names:  # `from lae.grader import score` imports a submodule
                candidate = f"{base}.{alias.name}"
                if alias.name != "*" and resolver.spec(candidate) is not None:
                    project.add(candidate)
    return project, others


def _module_closure(entry: str) -> tuple[list[ModuleSource], set[str], list[tuple[str, str]]]:
    problems: list[tuple[str, str]] = []
    resolver = _Resolver()
    todo = _with_parents(entry)
    seen: set[str] = set(todo)
    sources: list[ModuleSource] = []
    others: set[str] = set()
    while todo:
        name = todo.pop()
        spec = resolver.spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None or not origin.endswith(".py"):
            problems.append((name, "has no Python source file (missing, or loaded from bytecode only)"))
            continue
        path = Path(origin)
        try:
            data = path.read_bytes()
        except OSError as exc:
            problems.append((name, f"cannot be read: {exc.strerror or exc}"))
            continue
        sources.append(ModuleSource(name, path, data))
        try:
            project, tops = _imports_of(name, data, resolver.is_package(name), resolver)
        except SyntaxError as exc:
            problems.append((name, f"does not parse: {exc.msg} (line {exc.lineno})"))
            continue
        others |= tops
        for dep in sorted(project - seen):
            seen.add(dep)
            todo.append(dep)
    sources.sort(key=lambda s: s.name)
    return sources, others, problems


# -- packages, python, contract --------------------------------------------------------


def _normalise(dist: str) -> str:
    return dist.lower().replace("_", "-").replace(".", "-")


@lru_cache(maxsize=1)
def _distributions_by_top_name() -> dict[str, tuple[str, ...]]:
    # Scanning installed metadata takes a while; the installed set does not change
    # under a running process.
    return {k: tuple(v) for k, v in importlib.metadata.packages_distributions().items()}


def _packages(top_names: set[str]) -> tuple[PackageVersion, ...]:
    stdlib = set(sys.stdlib_module_names)
    dists: set[str] = set()
    by_top = _distributions_by_top_name()
    for top in top_names - stdlib:
        dists.update(by_top.get(top, (top,)))
    dists.update(ALSO_BOUND)
    out = []
    for dist in sorted({_normalise(d) for d in dists} - set(NOT_BOUND)):
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            version = "not-installed"
        out.append(PackageVersion(name=dist, version=version))
    return tuple(out)


def python_tag() -> str:
    """``CPython 3.12``: what ``re``, ``unicodedata`` and ``email`` behave like."""
    return f"{platform.python_implementation()} {sys.version_info.major}.{sys.version_info.minor}"


def _contract_version(sources: list[ModuleSource]) -> int | None:
    """``SCORING_CONTRACT_VERSION`` as written in the contract module's source."""
    for s in sources:
        if s.name != CONTRACT_MODULE:
            continue
        for node in ast.parse(s.data).body:
            target = node.target if isinstance(node, ast.AnnAssign) else (
                node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
            if (isinstance(target, ast.Name) and target.id == "SCORING_CONTRACT_VERSION"
                    and isinstance(node.value, ast.Constant) and type(node.value.value) is int):
                return node.value.value
    return None


def derive_identity(entry: str = SCORING_ENTRY_POINT) -> DerivedIdentity:
    """The identity of the grader installed in this interpreter (see module docstring)."""
    sources, others, problems = _module_closure(entry)
    contract = _contract_version(sources)
    if contract is None or contract < 1:
        problems.append((CONTRACT_MODULE, "defines no `SCORING_CONTRACT_VERSION = <int >= 1>` in scoring's imports"))
    if problems:
        return DerivedIdentity(None, sources, problems)
    identity = GraderIdentity(
        scoring_contract_version=contract or 1,
        python=python_tag(),
        modules=tuple(ModuleDigest(name=s.name, sha256=hashlib.sha256(s.data).hexdigest()) for s in sources),
        packages=_packages(others),
    )
    return DerivedIdentity(identity, sources)


# -- comparing ------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One way the installed grader differs from a frozen one."""

    subject: str  # a module name, a distribution name, "python" or "scoring contract"
    message: str
    expected: str | None
    observed: str | None


def identity_differences(expected: GraderIdentity, observed: GraderIdentity) -> list[Difference]:
    """Every difference, each naming the module, package or version concerned."""
    out: list[Difference] = []
    if expected.scoring_contract_version != observed.scoring_contract_version:
        a, b = expected.scoring_contract_version, observed.scoring_contract_version
        out.append(Difference("scoring contract", f"scoring contract version {a} → {b}", str(a), str(b)))
    if expected.python != observed.python:
        out.append(Difference("python", f"python {expected.python} → {observed.python}", expected.python, observed.python))
    want = {m.name: m.sha256 for m in expected.modules}
    have = {m.name: m.sha256 for m in observed.modules}
    for name in sorted(set(want) | set(have)):
        if name not in have:
            out.append(Difference(name, f"module {name} is no longer run by scoring", want[name], None))
        elif name not in want:
            out.append(Difference(name, f"module {name} is new to scoring", None, have[name]))
        elif want[name] != have[name]:
            out.append(Difference(name, f"module {name} changed", want[name], have[name]))
    pw = {p.name: p.version for p in expected.packages}
    ph = {p.name: p.version for p in observed.packages}
    for name in sorted(set(pw) | set(ph)):
        if pw.get(name) != ph.get(name):
            a_v, b_v = pw.get(name, "absent"), ph.get(name, "absent")
            out.append(Difference(name, f"{name} {a_v} → {b_v}", pw.get(name), ph.get(name)))
    return out


# -- bytecode ---------------------------------------------------------------------------


def _pyc_applies(pyc: bytes, source: bytes, source_path: Path) -> bool:
    """Would the import system run this cached file for this source (PEP 552)?"""
    if len(pyc) < 16 or pyc[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(pyc[4:8], "little")
    if flags & 0b1:  # hash-based
        check_source = bool(flags & 0b10)
        if not check_source:
            return True  # unchecked: run whatever it holds
        return pyc[8:16] == importlib.util.source_hash(source)
    try:
        st = os.stat(source_path)
    except OSError:
        return False
    mtime = int.from_bytes(pyc[8:12], "little")
    size = int.from_bytes(pyc[12:16], "little")
    return mtime == (int(st.st_mtime) & 0xFFFFFFFF) and size == (st.st_size & 0xFFFFFFFF)


def bytecode_problems(sources: list[ModuleSource]) -> list[tuple[str, str]]:
    """``(module, reason)`` for each cached ``__pycache__`` file that Python would run in
    place of a scoring module's source but whose code is not that source compiled.

    It compiles each source whose cache applies and compares code objects, so a planted
    ``.pyc`` whose header matches the source's mtime and size is caught. It checks the
    cache files on disk, not code already in memory (see SECURITY.md)."""
    out: list[tuple[str, str]] = []
    for s in sources:
        try:
            cached = importlib.util.cache_from_source(str(s.path))
            pyc = Path(cached).read_bytes()
        except (OSError, NotImplementedError, ValueError):
            continue
        if not _pyc_applies(pyc, s.data, s.path):
            continue
        try:
            loaded = marshal.loads(pyc[16:])
            fresh = compile(s.data, str(s.path), "exec", dont_inherit=True, optimize=sys.flags.optimize)
        except (ValueError, EOFError, TypeError, SyntaxError):
            out.append((s.name, f"cached bytecode {cached} cannot be read"))
            continue
        if loaded != fresh:
            out.append((s.name, f"cached bytecode {cached} is not its frozen source compiled"))
    return out
