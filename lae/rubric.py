"""Public rubric criteria and their deterministic proxies (shared by keys and anchors).

A criterion is public (Harvey LAB shape: ``id``/``title``/``match_criteria``/``deliverables``);
its ``proxy`` says which deterministic check stands in for it. Both the key format
(``lae.compiler.keys``) and the anchor spec (``lae.grader.anchors``) carry these models,
so they live below both.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

__all__ = ["Severity", "Term", "Ident", "Filename", "CriterionId", "Proxy", "Criterion"]

Severity = Literal["critical", "high", "medium", "low"]

Term = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=200)]
Ident = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")]
CriterionId = Annotated[str, StringConstraints(pattern=r"^C-[0-9]{3,4}$")]
Filename = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,200}\.[A-Za-z0-9]{1,8}$")]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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


