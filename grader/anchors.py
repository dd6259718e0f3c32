"""The public anchor spec: typed, frozen models (``anchors/<pocket>/<task-id>.anchors.json``).

Anchors hold compiled matchers and public labels only. Private prose from the key
(explanations, remediation summaries, calibration sentences, notes) never appears here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lae.canonical import parse_json_strict
from lae.errors import InvalidInputError, Problem
from lae.match.spec import ClaimSpec, CompiledPhrase, CompiledTerm, DistractorSpec, FindingSpec, MatchSpec
from lae.rubric import Criterion

__all__ = [
    "ANCHORS_SCHEMA_VERSION",
    "ANCHORS_SCHEMA_ID",
    "CompiledTerm",
    "CompiledPhrase",
    "RedTeamResult",
    "FindingAnchor",
    "DistractorAnchor",
    "ClaimAnchor",
    "ScoringBlock",
    "CalibrationResult",
    "Provenance",
    "Anchors",
    "load_anchors",
    "parse_anchors",
    "anchors_json_schema",
]

ANCHORS_SCHEMA_VERSION = 2
ANCHORS_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/anchors.schema.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# The compiled matchers are the kernel's models (lae.match.spec); anchors carry them as they are.
FindingAnchor = FindingSpec
DistractorAnchor = DistractorSpec
ClaimAnchor = ClaimSpec


class CriterionAnchor(Criterion):
    """A public rubric criterion with its proxy (deliverables always filled in)."""


class ScoringBlock(_Frozen):
    """Scoring parameters a score depends on (hashed with the anchors)."""

    false_flag_weight: float = Field(ge=0.0, le=1.0)
    must_not_say_weight: float = Field(ge=0.0, le=1.0)
    min_deliverable_chars: int = Field(ge=0)
    finding_weight: float = 0.6
    deliverable_weight: float = 0.4
    mask_min_tokens: int = Field(default=8, ge=3, le=64, description="Verbatim source runs this long are masked.")


class CalibrationResult(_Frozen):
    finding: str
    positives: int
    positives_credited: int
    negatives: int
    negatives_rejected: int


class RedTeamResult(_Frozen):
    """Compile-time red team of one finding: generated variants and how the anchors treated them."""

    finding: str
    must_not: int = Field(description="Generated variants that must not credit (recitals, negations, lists...).")
    must_not_rejected: int
    must: int = Field(description="Generated variants that must credit.")
    must_credited: int


class Provenance(_Frozen):
    key_path: str
    key_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    compiler: Literal["legal-agent-eval"] = "legal-agent-eval"
    compiler_version: str
    key_schema_version: int
    anchors_schema_version: int
    options: dict[str, str | int | float | bool]
    calibration: list[CalibrationResult]
    red_team: list[RedTeamResult] = Field(default_factory=list)
    documents_indexed: int = Field(description="Matter documents used to mask quotes during calibration.")
    source_date_epoch: int | None = None


class Anchors(_Frozen):
    anchors_schema_version: Literal[2]
    task_id: str
    scenario_slug: str | None = None
    pocket: str
    title: str
    deliverables: list[str] = Field(min_length=1)
    matter_date: str
    findings: list[FindingAnchor] = Field(min_length=1)
    distractors: list[DistractorAnchor]
    must_not_say: list[ClaimAnchor]
    rubric: list[CriterionAnchor] = Field(min_length=1)
    scoring: ScoringBlock
    provenance: Provenance

    def match_spec(self) -> MatchSpec:
        """What the matching kernel needs."""
        return MatchSpec(findings=self.findings, distractors=self.distractors, claims=self.must_not_say)


def load_anchors(path: Path) -> Anchors:
    """Read and validate an anchors file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InvalidInputError("cannot read anchors", [Problem(str(path), exc.strerror or str(exc),
                                                                 mend="run `lae compile`")]) from exc
    return parse_anchors(data, str(path))


def parse_anchors(data: bytes, where: str) -> Anchors:
    """Validate anchors from bytes already read (the freeze gate's verified bytes)."""
    try:
        return Anchors.model_validate(parse_json_strict(data))
    except (ValueError, ValidationError) as exc:
        raise InvalidInputError("invalid anchors file", [Problem(where, str(exc).splitlines()[0],
                                                                 mend="recompile with `lae compile`")]) from exc


def anchors_json_schema() -> dict:
    schema = Anchors.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": ANCHORS_SCHEMA_ID, **schema}
