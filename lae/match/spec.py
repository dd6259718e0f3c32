"""Compiled matchers: what the anchors carry for each finding, distractor and claim.

Public by design (terms and generated patterns only; no private prose). The anchor spec
(:mod:`lae.grader.anchors`) is built from these models, and the engine
(:mod:`lae.match.engine`) reads them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from lae.rubric import Severity

__all__ = ["CompiledTerm", "CompiledPhrase", "FindingSpec", "DistractorSpec", "ClaimSpec", "MatchSpec"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CompiledTerm(_Frozen):
    """A key term and the pattern it compiled to (over normalized text)."""

    term: str
    pattern: str


class CompiledPhrase(_Frozen):
    """A phrase (`part + part`) and one pattern per part; all parts must occur in one sentence or row."""

    phrase: str
    parts: list[str] = Field(min_length=1, max_length=6)


class FindingSpec(_Frozen):
    id: str
    title: str
    severity: Severity
    subject: list[CompiledPhrase] = Field(min_length=1)
    problem: list[CompiledPhrase] = Field(min_length=1, description="Problem phrases.")
    citations: list[CompiledPhrase] = Field(default_factory=list, description=(
        "Every form of every citation. A citation alone credits only beside the subject and "
        "violation language in the same unit."))
    dismissals: list[CompiledPhrase] = Field(default_factory=list)
    severity_terms: list[CompiledTerm] = Field(min_length=1)
    remediation: list[CompiledTerm] = Field(min_length=1)
    record: list[CompiledTerm] = Field(min_length=1)


class DistractorSpec(_Frozen):
    id: str
    title: str
    subject: list[CompiledPhrase] = Field(min_length=1)
    problem: list[CompiledPhrase] = Field(default_factory=list)


class ClaimSpec(_Frozen):
    id: str
    phrasings: list[CompiledPhrase] = Field(min_length=1)


class MatchSpec(_Frozen):
    """Everything the engine needs for one task."""

    findings: list[FindingSpec]
    distractors: list[DistractorSpec]
    claims: list[ClaimSpec]
