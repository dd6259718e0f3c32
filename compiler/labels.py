"""Validation labels, format v1: a careful reader's verdict on each validation memo.

One file per matter at ``keys_private/<pocket>/validation/<task-id>/labels.yaml``,
beside the memos it labels (``<memo-id>.md`` and ``<memo-id>/<deliverable>``). Private
like the key: never in anchors, never in the wheel. The models are closed; the
semantic checks hold the labels against the matter's key and the memo files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, ClassVar, Iterator, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from lae.compiler.keys import AnswerKey
from lae.compiler.load import Located, dotted, parse_yaml_located, pydantic_problems
from lae.errors import KeyValidationError, Problem
from lae.project import Project
from lae.render import plain_text

__all__ = [
    "LABELS_SCHEMA_VERSION",
    "LABELS_SCHEMA_ID",
    "LABELS_NAME",
    "MemoKind",
    "ItemKind",
    "Label",
    "FindingRaised",
    "FindingNotRaised",
    "DistractorEscalated",
    "DistractorNotEscalated",
    "ClaimMade",
    "ClaimNotMade",
    "MemoLabels",
    "LabelsFile",
    "SENTENCE_SEPARATOR",
    "markup_free",
    "sentence_parts",
    "MatterIds",
    "LABEL_VALUES",
    "LABEL_TAGS",
    "label_problems",
    "load_labels",
    "labels_json_schema",
]

LABELS_SCHEMA_VERSION = 1
LABELS_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/labels.schema.json"
LABELS_NAME = "labels.yaml"
SENTENCE_SEPARATOR = " ... "

MemoKind = Literal["A", "B", "C", "D", "E", "F", "G"]
ItemKind = Literal["finding", "distractor", "claim"]
MemoId = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Za-z0-9-]*$")]
ItemId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,98}[a-z0-9]$")]
Sentence = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=5000)]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FindingRaised(_Closed):
    """A finding the memo raises (or wrongly dismisses), with the memo's sentence(s) that do it."""

    label: Literal["RAISED", "DISMISSED"]
    sentence: Sentence = Field(description="The memo's own words; several parts joined by ' ... '.")
    item_kind: ClassVar[str] = "finding"


class FindingNotRaised(_Closed):
    """A finding the memo does not identify (no sentence)."""

    label: Literal["NOT_RAISED"]
    item_kind: ClassVar[str] = "finding"


class DistractorEscalated(_Closed):
    """A distractor the memo presents as a real problem."""

    label: Literal["ESCALATED"]
    sentence: Sentence = Field(description="The memo's own words; several parts joined by ' ... '.")
    item_kind: ClassVar[str] = "distractor"


class DistractorNotEscalated(_Closed):
    """A distractor declined, mentioned neutrally, or absent (no sentence)."""

    label: Literal["NOT_ESCALATED"]
    item_kind: ClassVar[str] = "distractor"


class ClaimMade(_Closed):
    """A prohibited claim the memo asserts in substance."""

    label: Literal["MADE"]
    sentence: Sentence = Field(description="The memo's own words; several parts joined by ' ... '.")
    item_kind: ClassVar[str] = "claim"


class ClaimNotMade(_Closed):
    """A prohibited claim absent, denied, or reported as someone else's mistaken view (no sentence)."""

    label: Literal["NOT_MADE"]
    item_kind: ClassVar[str] = "claim"


Label = Annotated[
    Union[FindingRaised, FindingNotRaised, DistractorEscalated, DistractorNotEscalated, ClaimMade, ClaimNotMade],
    Field(discriminator="label"),
]
#: The labels each kind of id takes.
LABEL_VALUES: dict[str, tuple[str, ...]] = {"finding": ("RAISED", "NOT_RAISED", "DISMISSED"),
                                            "distractor": ("ESCALATED", "NOT_ESCALATED"), "claim": ("MADE", "NOT_MADE")}
#: Every label value (pydantic puts the matching one in an error's location).
LABEL_TAGS = frozenset(value for values in LABEL_VALUES.values() for value in values)
_LABELS_OF: dict[str, str] = {kind: " | ".join(values) for kind, values in LABEL_VALUES.items()}


class MemoLabels(_Closed):
    """One memo: its kind, how it was written, and a label for every id of the key."""

    kind: MemoKind = Field(description="A..G: the memo kinds of SPEC section 'Validation memos'.")
    written: Literal["blind", "keyed"] = Field(
        description="blind: from the task's instructions and documents only; keyed: the writer had read the key.")
    labels: dict[ItemId, Label] = Field(min_length=1, description="Finding, distractor and claim id -> label.")

    @model_validator(mode="after")
    def _keyed_only_adversarial(self) -> "MemoLabels":
        if self.written == "keyed" and self.kind not in ("D", "E"):
            raise ValueError(f"only kinds D and E may be written keyed, not kind {self.kind}")
        return self


class LabelsFile(_Closed):
    """``keys_private/<pocket>/validation/<task-id>/labels.yaml``."""

    schema_version: Literal[1] = Field(description="Labels format version; 1.")
    pocket: Slug
    task_id: Slug
    memos: dict[MemoId, MemoLabels] = Field(min_length=1, description="Memo id -> its labels.")


# -- the memo text a sentence is looked up in -----------------------------------------------

_LINE_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,3}[.)]\s+)")
_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-{2,}[\s:|-]*$")
_SPACE = re.compile(r"\s+")


def markup_free(text: str) -> str:
    """Memo text as sentences are matched against it: emphasis markers (``**``, ``*``)
    removed the way the renderer removes them, heading and list markers at line starts
    removed, table pipes and rule lines removed, whitespace collapsed to single spaces."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if _TABLE_RULE.match(line) and "-" in line and "|" in line:
            continue
        lines.append(plain_text(_LINE_MARKUP.sub("", line)))
    flat = "\n".join(lines).replace("**", "").replace("|", " ")
    return _SPACE.sub(" ", flat).strip()


def sentence_parts(sentence: str) -> list[str]:
    """The parts of a label sentence (split on ``' ... '``), each markup-free."""
    return [p for p in (markup_free(part) for part in sentence.split(SENTENCE_SEPARATOR)) if p]


# -- semantic checks ------------------------------------------------------------------------

Issue = tuple[tuple, str, str]  # (field path, message, mend)


@dataclass(frozen=True)
class MatterIds:
    """What labels are checked against: each id's kind, and the declared deliverable."""

    kinds: dict[str, str]  # id -> finding | distractor | claim, in the key's order
    deliverable: str

    @classmethod
    def of_key(cls, key: AnswerKey) -> "MatterIds":
        kinds = {f.id: "finding" for f in key.findings}
        kinds.update({d.id: "distractor" for d in key.distractors})
        kinds.update({c.id: "claim" for c in key.must_not_say})
        return cls(kinds, key.deliverable)


def label_problems(labels: LabelsFile, ids: MatterIds, folder: Path, pocket: str) -> list[Issue]:
    """Every way ``labels`` disagrees with its place (``pocket``, ``folder`` named after
    the task), the matter's ids, or the memo files in ``folder``."""
    return list(_checks(labels, ids, folder, pocket))


def _checks(labels: LabelsFile, ids: MatterIds, folder: Path, pocket: str) -> Iterator[Issue]:
    if labels.task_id != folder.name:
        yield ("task_id",), f"task_id {labels.task_id!r} differs from the folder {folder.name!r}", "fix task_id"
    if labels.pocket != pocket:
        yield ("pocket",), f"pocket {labels.pocket!r} differs from the pocket folder {pocket!r}", "fix pocket"
    for memo_id, memo in labels.memos.items():
        yield from _memo_checks(memo_id, memo, ids, folder)
    for md in sorted(folder.glob("*.md")):
        if md.stem not in labels.memos:
            yield ("memos",), f"memo {md.name} has no labels", f"label memo {md.stem} or remove {md.name}"


def _memo_checks(memo_id: str, memo: MemoLabels, ids: MatterIds, folder: Path) -> Iterator[Issue]:
    at = ("memos", memo_id)
    for item_id, kind in ids.kinds.items():
        if item_id not in memo.labels:
            yield at + ("labels",), f"{kind} {item_id} is not labelled", f"add {item_id}: {{label: {_LABELS_OF[kind]}}}"
    for item_id, entry in memo.labels.items():
        kind = ids.kinds.get(item_id)
        if kind is None:
            yield at + ("labels", item_id), f"{item_id} is not an id of the key", "remove it or check its spelling"
        elif entry.item_kind != kind:
            yield (at + ("labels", item_id, "label"), f"{item_id} is a {kind}; {entry.label} is a {entry.item_kind} label",
                   f"use {_LABELS_OF[kind]}")
    md = folder / f"{memo_id}.md"
    docx = folder / memo_id / ids.deliverable
    if not docx.is_file():
        yield at, f"{memo_id}/{ids.deliverable} is missing", "render it: lae render --validation"
    try:
        text = markup_free(md.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        yield at, f"{md.name} is missing or not UTF-8", f"write the memo text to {md.name}"
        return
    for item_id, entry in memo.labels.items():
        for part in sentence_parts(getattr(entry, "sentence", "")):
            if part not in text:
                shown = part if len(part) <= 60 else part[:57] + "..."
                yield (at + ("labels", item_id, "sentence"), f"{shown!r} is not in {md.name}",
                       "copy the sentence from the memo verbatim")


def load_labels(project: Project, path: Path, key: AnswerKey) -> LabelsFile:
    """Load and check one ``labels.yaml``; raise :class:`KeyValidationError` (exit 1)
    listing every problem as ``path:line:col: field: what (mend)``."""
    display = project.relative(path)
    located, problems = parse_yaml_located(path, display)
    labels: LabelsFile | None = None
    if located is not None and not problems:
        try:
            labels = LabelsFile.model_validate(located.data)
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, located, display, schema="schemas/labels.schema.json", tags=LABEL_TAGS,
                                              mends={"union_tag_invalid": "use a label of the format (SPEC section 11)",
                                                     "union_tag_not_found": "add `label:`"}))
    if labels is not None and located is not None:
        problems.extend(_located(label_problems(labels, MatterIds.of_key(key), path.parent, key.pocket), located, display))
    if problems:
        raise KeyValidationError(f"invalid labels {display} ({len(problems)} problem(s))", problems)
    assert labels is not None
    return labels


def _located(issues: list[Issue], located: Located, display: str) -> list[Problem]:
    out = []
    for field_path, message, mend in issues:
        line, col = located.where(field_path)
        out.append(Problem(display, message, line, col, dotted(field_path), mend))
    return out


def labels_json_schema() -> dict:
    """The JSON Schema of ``labels.yaml``, with ``$schema``/``$id`` for editors."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": LABELS_SCHEMA_ID,
            **LabelsFile.model_json_schema()}
