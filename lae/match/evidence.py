"""Typed evidence of the kernel: what matched where (normalized offsets) and why.

The grader maps these to the result model's evidence (offsets in the agent's own text).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["HitCategory", "KernelHit", "AssertionScore", "KernelEvidence", "FindingStatus", "FindingOutcome", "DistractorOutcome",
           "ClaimOutcome"]

HitCategory = Literal["subject", "problem", "citation", "dismissal", "severity", "remediation", "record",
                      "distractor", "claim", "cue"]
FindingStatus = Literal["credited", "dismissed", "not-asserted", "no-subject", "no-problem", "lost-to-other",
                        "never-named"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class KernelHit(_Model):
    category: HitCategory
    term: str = Field(description="The key phrase or term (or the cue) that matched.")
    start: int
    end: int


class AssertionScore(_Model):
    """The learned assertion layer's view of a credit (lae.match.assertion)."""

    probability: float = Field(description="Probability that the discussion asserts the finding.")
    threshold: float
    features: dict[str, float] = Field(description="The feature vector the probability came from.")
    vetoed: bool = Field(default=False, description="The rule credited; the model's probability fell below the threshold.")
    rescued: bool = Field(default=False, description="The rule rejected the finding for how it was said (hedged, "
                          "reported, negated, ...); the model's probability reached the rescue threshold.")


class KernelEvidence(_Model):
    start: int = Field(description="Start of the discussion unit (normalized offsets).")
    end: int
    hits: list[KernelHit]
    reason: str
    assertion: str | None = Field(default=None, description="Why the unit does not assert (cue kind: cue), if so.")
    model: AssertionScore | None = Field(default=None, description="The assertion model's score, for a rule credit "
                                         "or a soft near miss.")


class FindingOutcome(_Model):
    id: str
    credited: bool = False
    status: FindingStatus = "never-named"
    credit: KernelEvidence | None = None
    near_miss: KernelEvidence | None = None
    example: str | None = Field(default=None, description="Wording that would count, for a miss.")
    severity_window: bool = False
    remediation_window: bool = False
    record_window: bool = False


class DistractorOutcome(_Model):
    id: str
    flagged: bool = False
    evidence: KernelEvidence | None = None
    declined: KernelEvidence | None = None


class ClaimOutcome(_Model):
    id: str
    made: bool = False
    evidence: KernelEvidence | None = None
