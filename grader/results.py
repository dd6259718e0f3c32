"""The grader's result: a typed model with a JSON Schema (``schemas/result.schema.json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lae.freeze import FileEntry, GraderIdentity, Release

__all__ = [
    "RESULT_SCHEMA_VERSION",
    "RESULT_SCHEMA_ID",
    "MatcherHit",
    "Evidence",
    "DeliverableReport",
    "FindingReport",
    "DistractorReport",
    "ClaimReport",
    "CriterionReport",
    "MaskedSpan",
    "Metrics",
    "GraderIdentity",
    "Release",
    "ScoreResult",
    "result_json_schema",
]

RESULT_SCHEMA_VERSION = 2
RESULT_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/result.schema.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MatcherHit(_Frozen):
    category: Literal["subject", "problem", "citation", "dismissal", "severity", "remediation", "record",
                      "distractor", "claim", "cue"]
    term: str = Field(description="The key term whose matcher hit.")
    span: tuple[int, int] = Field(description="Offsets in the graded text.")
    text: str = Field(description="The agent's words that matched.")


class Evidence(_Frozen):
    source: Literal["deliverable", "transcript"]
    window: tuple[int, int] = Field(description="Offsets of the context window in the graded text.")
    text: str = Field(description="The window's text, as the agent wrote it.")
    hits: list[MatcherHit]
    reason: str = Field(description="One line: why this credits, flags, or falls short.")
    assertion: str | None = Field(default=None, description="When the unit does not assert: the kind and its cue "
                                  "(question, hedge, reported, recital, negated, ...).")


class DeliverableReport(_Frozen):
    declared_name: str
    found: bool
    ok: bool
    format: str | None = None
    chars: int = 0
    own_chars: int = Field(0, description="Non-space characters left after quote masking.")
    complete: bool = False
    reason: str | None = None


class FindingReport(_Frozen):
    id: str
    title: str
    severity: str
    credited: bool
    transcript_credited: bool | None = None
    evidence: Evidence | None = None
    near_miss: Evidence | None = None
    reason: str
    status: Literal["credited", "dismissed", "not-asserted", "no-subject", "no-problem", "lost-to-other",
                    "never-named"] | None = Field(default=None, description="Why credited or not, as a category.")
    example: str | None = Field(default=None, description="For a miss: wording that would count.")


class DistractorReport(_Frozen):
    id: str
    title: str
    flagged: bool
    evidence: Evidence | None = None
    declined: Evidence | None = None


class ClaimReport(_Frozen):
    id: str
    made: bool
    evidence: Evidence | None = None


class CriterionReport(_Frozen):
    id: str
    title: str
    proxy: str
    passed: bool


class MaskedSpan(_Frozen):
    span: tuple[int, int]
    text: str


class Metrics(_Frozen):
    deliverable_complete: float = Field(ge=0, le=1)
    finding_recall: float = Field(ge=0, le=1)
    false_flag_rate: float = Field(ge=0, le=1)
    must_not_say: float = Field(ge=0, le=1)
    transcript_recall: float | None = Field(default=None, ge=0, le=1)
    criterion_pass_rate_proxy: float = Field(ge=0, le=1, description="Weight 0: telemetry only.")
    reward: float


class Weights(_Frozen):
    finding_weight: float
    deliverable_weight: float
    false_flag_weight: float
    must_not_say_weight: float
    min_deliverable_chars: int


class ScoreResult(_Frozen):
    result_schema_version: Literal[2] = 2
    task_id: str
    scenario_slug: str | None = None
    pocket: str
    anchors_sha256: str = Field(description="SHA-256 of the anchors bytes scored (read once, verified by the gate).")
    key_sha256: str
    scored_files: list[FileEntry] = Field(
        description="Every release file this score read (anchors, documents), with the SHA-256 of the bytes used.")
    lae_version: str
    grader: GraderIdentity | None = Field(
        description="The grader that scored (project modules, bound packages, Python); null if it cannot be derived.")
    release: Release
    reportable: bool
    freeze_root: str | None = None
    metrics: Metrics
    weights: Weights
    deliverables: list[DeliverableReport]
    findings: list[FindingReport]
    distractors: list[DistractorReport]
    claims: list[ClaimReport]
    criteria: list[CriterionReport]
    masked: list[MaskedSpan]
    graded_text_chars: int
    graded_text: str = Field("", description="The deliverables' text as graded (declared order, blank-line joined); all offsets point into it.")
    notes: list[str] = Field(default_factory=list)


def result_json_schema() -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": RESULT_SCHEMA_ID,
            **ScoreResult.model_json_schema()}
