"""The private answer key, format v1: typed models.

One YAML file per matter at ``keys_private/<pocket>/<task-id>.yaml``. Fields marked
*private* are prose that must never reach anchors, the wheel or the agent; the
compiler enforces that. Terms (names, remediation terms, record terms, phrasings)
are compiled into public matchers.
"""

from __future__ import annotations

import datetime as _dt
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

__all__ = [
    "KEY_SCHEMA_VERSION",
    "KEY_SCHEMA_ID",
    "Severity",
    "Term",
    "Remediation",
    "RecordFact",
    "Calibration",
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

KEY_SCHEMA_VERSION = 1
KEY_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/key.schema.json"

Severity = Literal["critical", "high", "medium", "low"]

Term = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=200)]
Prose = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20000)]
Ident = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,98}[a-z0-9]$")]
CriterionId = Annotated[str, StringConstraints(pattern=r"^C-[0-9]{3,4}$")]
Filename = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,200}\.[A-Za-z0-9]{1,8}$")]


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


class Finding(_Closed):
    """A planted issue the memo should raise."""

    id: Ident
    title: Term = Field(description="Short public label, shown in evidence and reports.")
    severity: Severity
    explanation: Prose = Field(description="Private: why this is an issue.")
    names: list[Term] = Field(min_length=2, description="Phrasings that name the issue in its own terms.")
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
    names: list[Term] = Field(min_length=1, description="Phrasings that name the distractor.")


class ProhibitedClaim(_Closed):
    """A claim a careless memo would make (wrong law, wrong status, wrong threshold)."""

    id: Ident
    claim: Prose = Field(description="Private: what the wrong claim is and why it is wrong.")
    phrasings: list[Term] = Field(min_length=1, description="Phrasings that make the claim.")


class _FindingProxy(_Closed):
    finding: Ident


class ProxyFinding(_FindingProxy):
    """Passes when the finding credits."""

    kind: Literal["finding"]


class ProxyFindingSeverity(_FindingProxy):
    """Passes when a non-dismissed window names the finding and states its severity."""

    kind: Literal["finding_severity"]


class ProxyFindingRemediation(_FindingProxy):
    """Passes when a non-dismissed window names the finding and recommends its remediation."""

    kind: Literal["finding_remediation"]


class ProxyFindingRecord(_FindingProxy):
    """Passes when a non-dismissed window names the finding and cites its record."""

    kind: Literal["finding_record"]


class ProxyFindingsAll(_Closed):
    """Passes when every listed finding credits (overall-conclusion criteria)."""

    kind: Literal["findings_all"]
    findings: list[Ident] = Field(min_length=2)


class ProxyFindingsAny(_Closed):
    """Passes when at least ``min`` listed findings credit (citation criteria)."""

    kind: Literal["findings_any"]
    findings: list[Ident] = Field(min_length=2)
    min: int = Field(default=1, ge=1)


class ProxyDistractorNotFlagged(_Closed):
    """Passes when the distractor is not escalated."""

    kind: Literal["distractor_not_flagged"]
    distractor: Ident


class ProxyClaimNotMade(_Closed):
    """Passes when the prohibited claim is not made."""

    kind: Literal["claim_not_made"]
    claim: Ident


class ProxyDeliverableSaved(_Closed):
    """Passes when every declared deliverable is complete."""

    kind: Literal["deliverable_saved"]


class ProxyMentions(_Closed):
    """Fact-recital criteria that reference no finding: passes when the agent's own
    (unmasked) text states at least ``min`` of the terms."""

    kind: Literal["mentions"]
    terms: list[Term] = Field(min_length=1)
    min: int = Field(default=1, ge=1)


Proxy = Annotated[
    Union[
        ProxyFinding,
        ProxyFindingSeverity,
        ProxyFindingRemediation,
        ProxyFindingRecord,
        ProxyFindingsAll,
        ProxyFindingsAny,
        ProxyDistractorNotFlagged,
        ProxyClaimNotMade,
        ProxyDeliverableSaved,
        ProxyMentions,
    ],
    Field(discriminator="kind"),
]


class Criterion(_Closed):
    """A public rubric criterion (Harvey LAB shape) and its deterministic proxy."""

    id: CriterionId
    title: Term
    match_criteria: Annotated[str, StringConstraints(strip_whitespace=True, min_length=10, max_length=2000)] = Field(
        description='LAB form: "PASS if ... FAIL if ..."'
    )
    deliverables: list[Filename] = Field(default_factory=list, description="Defaults to the key's deliverable.")
    proxy: Proxy


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

    schema_version: Literal[1] = Field(description="Key format version; 1.")
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
