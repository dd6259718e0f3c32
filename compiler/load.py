"""Load private keys and pocket configs from YAML, reporting every problem at once.

YAML is composed into nodes first so every value keeps its line and column; then the
plain data is validated by the pydantic models and by semantic checks. Each problem
comes out as ``path:line:col: field: what is wrong (how to mend)``. Anchors and
aliases are refused (no alias bombs), as are duplicate mapping keys and tabs.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from lae.compiler.keys import AnswerKey, PocketConfig
from lae.compiler.semantics import semantic_problems
from lae.errors import KeyValidationError, Problem
from lae.project import Project

__all__ = ["load_key", "load_pocket_config", "parse_yaml_located", "pydantic_problems", "dotted", "Located"]

MAX_KEY_BYTES = 2 * 1024 * 1024  # a key is prose and terms; 2 MiB is generous


class Located:
    """Plain data plus a map from field path (tuple) to (line, col), 1-based."""

    def __init__(self, data: Any, marks: dict[tuple, tuple[int, int]]) -> None:
        self.data = data
        self.marks = marks

    def where(self, loc: tuple) -> tuple[int | None, int | None]:
        """Line/col of the deepest known prefix of ``loc``."""
        loc = tuple(loc)
        while True:
            if loc in self.marks:
                return self.marks[loc]
            if not loc:
                return (None, None)
            loc = loc[:-1]


class _Builder:
    """Turns a composed node tree into plain data, recording each value's location."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = problems
        self.marks: dict[tuple, tuple[int, int]] = {}
        self.constructor = yaml.constructor.SafeConstructor()
        self.seen: set[int] = set()

    def build(self, node: yaml.Node, path: tuple = ()) -> Any:
        if id(node) in self.seen:  # a node reached twice is an alias: refuse before it can expand
            self.problems.append(Problem(self.file, "aliases (*name) are not allowed in keys", node.start_mark.line + 1,
                                         node.start_mark.column + 1, dotted(path), "write the value out"))
            return None
        self.seen.add(id(node))
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    self.problems.append(Problem(self.file, "mapping keys must be plain strings", line, col,
                                                 dotted(path), "write the key as text"))
                    continue
                key = key_node.value
                if key == "<<":
                    self.problems.append(Problem(self.file, "merge keys (<<) are not allowed", line, col,
                                                 dotted(path), "write the fields out"))
                    continue
                if key in out:
                    self.problems.append(Problem(self.file, f"duplicate key {key!r}", line, col,
                                                 dotted(path + (key,)), "keep one occurrence"))
                    continue
                out[key] = self.build(value_node, path + (key,))
                self.marks[path + (key,)] = (line, col)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        # Scalars: the safe constructor's rules (ints, floats, bools, dates, null).
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            self.problems.append(Problem(self.file, f"bad value: {exc}", node.start_mark.line + 1,
                                         node.start_mark.column + 1, dotted(path), "quote the value"))
            return None
        if isinstance(value, _dt.datetime):
            value = value.isoformat()
        return value


# libyaml when available (much faster); the pure-Python loader otherwise.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def yaml_data(text: str) -> object:
    """A trusted YAML text's plain data (safe loader, libyaml when available): for the project's own
    files read in bulk, such as the labels the trainer reads. Keys and labels to check go through
    :func:`parse_yaml_located`, which locates every problem."""
    return yaml.load(text, Loader=_LOADER)


def _anchor_problems(text: str, display: str) -> list[Problem]:
    """Anchors and aliases are refused outright (no alias bombs, no shared state)."""
    if "&" not in text and "*" not in text:
        return []
    problems = []
    for event in yaml.parse(text, Loader=_LOADER):
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.AliasEvent) or anchor is not None:
            kind = f"aliases (*{anchor})" if isinstance(event, yaml.AliasEvent) else f"anchors (&{anchor})"
            problems.append(Problem(display, f"{kind} are not allowed in keys", event.start_mark.line + 1,
                                    event.start_mark.column + 1, mend="write the value out in full"))
            if len(problems) >= 20:
                break
    return problems


def dotted(path: tuple) -> str:
    """A field path as text: ``memos.A.labels.F1``, ``findings[0].names``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_yaml_located(path: Path, display: str) -> tuple[Located | None, list[Problem]]:
    """Parse one YAML document, keeping locations. Returns (located, problems)."""
    problems: list[Problem] = []
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(display, f"cannot read file: {exc.strerror}", mend="check the path and permissions")]
    if len(raw) > MAX_KEY_BYTES:
        return None, [Problem(display, f"file is {len(raw)} bytes, over the {MAX_KEY_BYTES}-byte limit",
                              mend="split prose out of the key")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [Problem(display, "not valid UTF-8", line, mend="save the file as UTF-8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if stripped.startswith("\t"):
            problems.append(Problem(display, "tab used for indentation", lineno, len(line) - len(stripped) + 1,
                                    mend="indent with spaces"))
    if problems:
        return None, problems
    try:
        problems = _anchor_problems(text, display)
        if problems:
            return None, problems
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        return None, [Problem(display, f"invalid YAML: {exc.problem or exc.context}", line, col,
                              mend="fix the YAML syntax")]
    except yaml.YAMLError as exc:
        return None, [Problem(display, f"invalid YAML: {exc}", mend="fix the YAML syntax")]
    if node is None:
        return None, [Problem(display, "file is empty", 1, mend="write the key's fields")]
    builder = _Builder(display, problems)
    data = builder.build(node)
    marks = builder.marks
    if not isinstance(data, dict):
        problems.append(Problem(display, "top level must be a mapping", 1, 1, mend="start with `schema_version: 1`"))
        return None, problems
    return Located(data, marks), problems


_MENDS = {
    "missing": "add the field",
    "extra_forbidden": "remove it or check its spelling",
    "literal_error": "use one of the allowed values",
    "too_short": "add more entries",
    "string_too_short": "write a longer value",
    "string_pattern_mismatch": "follow the pattern",
    "union_tag_invalid": "use a known proxy kind",
    "union_tag_not_found": "add `kind:`",
}


def pydantic_problems(exc: ValidationError, located: Located, display: str, *,
                      mends: dict[str, str] | None = None, schema: str = "schemas/key.schema.json",
                      tags: frozenset[str] = frozenset()) -> list[Problem]:
    """One located :class:`Problem` per pydantic error; ``mends`` overrides the mend per error type,
    ``tags`` are discriminator values pydantic puts in an error's location (not data fields)."""
    table = {**_MENDS, **(mends or {})}
    problems = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        # Discriminated unions insert the tag name into loc; drop non-data parts.
        data_loc = tuple(p for p in loc if not (isinstance(p, str) and (p.startswith(("Proxy", "function-"))
                                                                         or p in tags)))
        line, col = located.where(data_loc)
        msg = err["msg"]
        given = err.get("input")
        if isinstance(given, (str, int, float, bool)) and len(repr(given)) <= 80:
            msg = f"{msg}, got {given!r}"
        problems.append(Problem(display, msg, line, col, dotted(data_loc) or "(top)",
                                table.get(err["type"], f"see {schema}")))
    return problems


V1_MIGRATION = ("migrate it to format v2 (SPEC.md, 'Migrating a v1 key'): set `schema_version: 2`; per finding "
                "replace `names` by `subject` (who or what in this matter: people, sites, documents, clauses, amounts) "
                "and `problem` (what is wrong: the defect, the rule broken, the consequence; `part + part` phrases), "
                "optionally `citations` and `dismissals`; per distractor `names` -> `subject` (+ optional `problem`); "
                "give each prohibited claim at least two `phrasings`")


def _v1_problems(located: Located, display: str) -> list[Problem]:
    """A v1 key is refused as a whole, with how to migrate it (no field-by-field noise)."""
    if located.data.get("schema_version") != 1:
        return []
    line, col = located.where(("schema_version",))
    return [Problem(display, "key format v1 is no longer accepted: v1 `names` credited vocabulary, not findings",
                    line, col, "schema_version", V1_MIGRATION)]


def load_key(path: Path, *, project: Project | None = None) -> AnswerKey:
    """Load and validate one answer key; raise :class:`KeyValidationError` listing every problem."""
    path = Path(path)
    display = project.relative(path) if project else path.as_posix()
    located, problems = parse_yaml_located(path, display)
    key: AnswerKey | None = None
    if located is not None and not problems:
        problems.extend(_v1_problems(located, display))
    if located is not None and not problems:
        try:
            key = AnswerKey.model_validate(located.data)
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, located, display))
    if key is not None and located is not None:
        for field_path, message, mend in semantic_problems(key, path, project):
            line, col = located.where(field_path)
            problems.append(Problem(display, message, line, col, dotted(field_path), mend))
    if problems:
        raise KeyValidationError(f"invalid key {display} ({len(problems)} problem(s))", problems)
    assert key is not None
    return key


def load_pocket_config(project: Project, pocket: str) -> PocketConfig:
    """Load ``keys_private/<pocket>/pocket.yaml``."""
    path = project.keys_dir(pocket) / "pocket.yaml"
    display = project.relative(path)
    if not path.is_file():
        raise KeyValidationError(f"pocket {pocket!r} has no pocket.yaml",
                                 [Problem(display, "missing", mend="write a PocketConfig: pocket, title, environment_module, weights")])
    located, problems = parse_yaml_located(path, display)
    if located is not None and not problems:
        try:
            config = PocketConfig.model_validate(located.data)
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, located, display))
        else:
            if config.pocket != pocket:
                line, col = located.where(("pocket",))
                problems.append(Problem(display, f"pocket is {config.pocket!r} but the folder is {pocket!r}",
                                        line, col, "pocket", "make them agree"))
            else:
                return config
    raise KeyValidationError(f"invalid pocket config {display}", problems)
