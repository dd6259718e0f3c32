"""The private answer key, format v2: typed models.

One YAML file per matter at ``keys_private/<pocket>/<task-id>.yaml``. Fields marked
*private* are prose that must never reach anchors, the wheel or the agent; the
compiler enforces that. Terms (names, remediation terms, record terms, phrasings)
are compiled into public matchers.
"""

from __future__ import annotations

import datetime as _dt
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from lae.rubric import Criterion, Filename, Ident, Proxy, Severity, Term

__all__ = [
    "KEY_SCHEMA_VERSION",
    "KEY_SCHEMA_ID",
    "Severity",
    "Term",
    "Remediation",
    "RecordFact",
    "Calibration",
    "Phrase",
    "Finding",
    "Distractor",
    "ProhibitedClaim",
    "Proxy",
    "Criterion",
    "ScoringParameters",
    "FidelityThresholds",
    "PocketConfig",
    "AnswerKey",
    "key_json_schema",
]

KEY_SCHEMA_VERSION = 2
KEY_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/key.schema.json"

Prose = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20000)]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,98}[a-z0-9]$")]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Remediation(_Closed):
    """What the memo should recommend."""

    summary: Prose = Field(description="Private: the drafting attorney's remediation summary.")
    terms: list[Term] = Field(min_length=1, description="Phrasings a memo would use to recommend it.")


class RecordFact(_Closed):
    """A grounding fact from the record a memo would cite."""

    term: Term = Field(description="The fact as a memo would state it: amount, date, section, person, figure.")
    document: Filename | None = Field(default=None, description="The document (in documents/) that holds it.")
    note: Prose | None = Field(default=None, description="Private: where/why, for the key's readers.")


class Calibration(_Closed):
    """Sentences run through the real grader at compile time."""

    positive: list[Prose] = Field(min_length=1, description="Private: each must credit the finding on its own.")
    negative: list[Prose] = Field(min_length=1, description="Private: topic-only mentions, dismissals, quotes; none may credit.")


Phrase = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=300)]
"""A phrase: one or more plain terms joined by `` + `` (all must occur in one sentence or table row)."""


class Finding(_Closed):
    """A planted issue the memo should raise (format v2: subject + problem)."""

    id: Ident
    title: Term = Field(description="Short public label, shown in evidence and reports.")
    severity: Severity
    explanation: Prose = Field(description="Private: why this is an issue.")
    subject: list[Phrase] = Field(min_length=2, description=(
        "Who or what in this matter the problem is about, as the record and a memo would name it "
        "(people, sites, documents, clauses, amounts, dates). Phrases: `part + part`."))
    problem: list[Phrase] = Field(min_length=3, description=(
        "Ways a lawyer says what is wrong: the defect, the rule broken, or the consequence; "
        "specific to this finding (generic risk words alone are refused)."))
    citations: list[Term] = Field(default_factory=list, description=(
        "The rules this finding turns on, each in one canonical form; the compiler expands the common "
        "forms (`Cal. Bus. & Prof. Code § 16600.5` also matches `§ 16600.5`, `16600.5`). Each counts as a problem phrase."))
    dismissals: list[Phrase] = Field(default_factory=list, description=(
        "Finding-specific wrong reasons for dismissing it; asserted in the discussion they mark it dismissed."))
    severity_terms: list[Term] = Field(
        default_factory=list,
        description="Extra phrasings that state this finding's severity (added to the built-in lexicon).",
    )
    remediation: Remediation
    record: list[RecordFact] = Field(min_length=1)
    calibration: Calibration


class Distractor(_Closed):
    """A non-issue a disciplined reviewer declines to escalate."""

    id: Ident
    title: Term
    explanation: Prose = Field(description="Private: why it is noise.")
    subject: list[Phrase] = Field(min_length=1, description="What the non-issue is about.")
    problem: list[Phrase] = Field(default_factory=list, description="What a memo would wrongly assert about it.")


class ProhibitedClaim(_Closed):
    """A claim a careless memo would make (wrong law, wrong status, wrong threshold)."""

    id: Ident
    claim: Prose = Field(description="Private: what the wrong claim is and why it is wrong.")
    phrasings: list[Phrase] = Field(min_length=2, description="The wrong claim in substance, as phrases.")


class ScoringParameters(_Closed):
    """Scoring parameters; a pocket sets defaults in pocket.yaml, a key may override."""

    false_flag_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    must_not_say_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    min_deliverable_chars: int | None = Field(default=None, ge=0, le=1_000_000)


class FidelityThresholds(_Closed):
    """How closely the grader must agree with the pocket's validation labels (SPEC section 11)."""

    max_over_credit: float = Field(default=0.02, ge=0.0, le=1.0,
                                   description="Highest share of findings labelled NOT_RAISED/DISMISSED the grader may credit.")
    max_under_credit: float = Field(default=0.10, ge=0.0, le=1.0,
                                    description="Highest share of findings labelled RAISED the grader may miss.")


class PocketConfig(_Closed):
    """``keys_private/<pocket>/pocket.yaml``: pocket-wide defaults."""

    schema_version: Literal[1] = 1
    pocket: Slug
    title: Term
    environment_module: Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")] = Field(
        description="Module under environments/ whose header holds the freeze stamp."
    )
    false_flag_weight: float = Field(ge=0.0, le=1.0)
    must_not_say_weight: float = Field(ge=0.0, le=1.0)
    min_deliverable_chars: int = Field(default=200, ge=0, le=1_000_000)
    fidelity: FidelityThresholds = Field(default_factory=FidelityThresholds,
                                         description="Thresholds a freeze's fidelity measurement is held to.")


class AnswerKey(_Closed):
    """One matter's private answer key."""

    schema_version: Literal[2] = Field(description="Key format version; 2 (v1 keys are refused: see SPEC.md, migrating a v1 key).")
    task_id: Slug
    scenario_slug: Slug | None = Field(default=None, description="Alternate id that also selects the task.")
    pocket: Slug
    title: Term
    work_type: Term
    instructions: Annotated[str, StringConstraints(strip_whitespace=True, min_length=10, max_length=5000)]
    deliverable: Filename = Field(description="The declared deliverable filename (.docx, .md or .txt).")
    drafting_attorney: Term
    matter_date: _dt.date = Field(description="The date the law is assessed as of.")
    notes: Prose | None = Field(default=None, description="Private: anything for the key's readers.")
    findings: list[Finding] = Field(min_length=1)
    distractors: list[Distractor] = Field(min_length=2)
    must_not_say: list[ProhibitedClaim] = Field(min_length=1)
    rubric: list[Criterion] = Field(min_length=1)
    scoring: ScoringParameters = Field(default_factory=ScoringParameters)


def key_json_schema() -> dict:
    """The JSON Schema of a key, with ``$schema``/``$id`` for editors."""
    schema = AnswerKey.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": KEY_SCHEMA_ID,
        **schema,
    }
