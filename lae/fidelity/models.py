"""Typed models of a fidelity measurement (``lae fidelity --json``, ``schemas/fidelity.schema.json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "FIDELITY_SCHEMA_VERSION",
    "FIDELITY_SCHEMA_ID",
    "MEASUREMENT_NOTE",
    "Tally",
    "PocketRow",
    "KindRow",
    "PocketKindRow",
    "FindingRow",
    "Disagreement",
    "MemoRow",
    "GraderSeen",
    "FidelityReport",
    "fidelity_json_schema",
]

FIDELITY_SCHEMA_VERSION = 1
FIDELITY_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/fidelity.schema.json"
MEASUREMENT_NOTE = ("fidelity measures the grader against a careful reader's labels; pockets need not be frozen "
                    "and no figure here is a reported score")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Tally(_Frozen):
    """Counts of agreement between the grader and the labels over a set of memos."""

    memos: int = Field(ge=0, description="Labelled memos counted.")
    raised: int = Field(ge=0, description="Finding labels RAISED.")
    raised_not_credited: int = Field(ge=0, description="...of which the grader did not credit.")
    not_raised: int = Field(ge=0, description="Finding labels NOT_RAISED or DISMISSED.")
    not_raised_credited: int = Field(ge=0, description="...of which the grader credited.")
    over_credit: float | None = Field(description="not_raised_credited / not_raised; None when not_raised is 0.")
    under_credit: float | None = Field(description="raised_not_credited / raised; None when raised is 0.")
    distractors: int = Field(ge=0, description="Distractor labels.")
    distractors_escalated_by_grader_only: int = Field(ge=0, description="Grader flagged, label NOT_ESCALATED.")
    distractors_escalated_by_label_only: int = Field(ge=0, description="Label ESCALATED, grader did not flag.")
    claims: int = Field(ge=0, description="Prohibited-claim labels.")
    claims_made_by_grader_only: int = Field(ge=0, description="Grader found the claim, label NOT_MADE.")
    claims_made_by_label_only: int = Field(ge=0, description="Label MADE, grader did not find it.")
    mean_reward: float | None = Field(description="Mean reward of the memos; None for per-finding rows.")


class PocketRow(_Frozen):
    pocket: str
    tally: Tally


class KindRow(_Frozen):
    kind: str = Field(description="Memo kind A..G.")
    tally: Tally


class PocketKindRow(_Frozen):
    pocket: str
    kind: str
    tally: Tally


class FindingRow(_Frozen):
    """One finding of one matter, over every memo that labels it."""

    pocket: str
    task_id: str
    finding_id: str
    title: str
    tally: Tally


class Disagreement(_Frozen):
    """One item where the grader and the label differ, with both sides' words."""

    pocket: str
    task_id: str
    memo_id: str
    kind: str
    item_id: str
    item_title: str
    category: Literal["over_credit", "under_credit", "distractor_escalated_by_grader", "distractor_escalated_by_label",
                      "claim_made_by_grader", "claim_made_by_label"]
    label: str = Field(description="The label (RAISED, NOT_RAISED, DISMISSED, ESCALATED, ...).")
    grader: str = Field(description="What the grader did: credited, not credited, flagged, not flagged, made, not made.")
    memo_sentence: str | None = Field(description="The grader's evidence window (or near miss) in the memo, if any.")
    grader_reason: str | None = Field(description="The grader's one-line reason, if it gave one.")
    label_sentence: str | None = Field(description="The memo's sentence(s) the label rests on, if recorded.")


class MemoRow(_Frozen):
    pocket: str
    task_id: str
    memo_id: str
    kind: str
    written: str | None = Field(description="blind or keyed; None when the set does not say.")
    deliverable: str = Field(description="The scored file, relative to the set's root.")
    reward: float
    credited: list[str] = Field(description="Finding ids the grader credited.")
    disagreements: int = Field(ge=0)


class GraderSeen(_Frozen):
    """The grader that was measured, as its results name it."""

    version: str
    scoring_contract_version: int
    source_digest: str


class FidelityReport(_Frozen):
    """``lae fidelity --json``."""

    schema_version: Literal[1] = FIDELITY_SCHEMA_VERSION
    note: str = Field(MEASUREMENT_NOTE, description="What this measurement is and is not.")
    source: str = Field(description="Where the labelled memos came from: the project's validation sets or --memos DIR.")
    grader: GraderSeen
    totals: Tally
    pockets: list[PocketRow]
    kinds: list[KindRow]
    pocket_kinds: list[PocketKindRow]
    findings: list[FindingRow]
    memos: list[MemoRow]
    disagreements: list[Disagreement]
    warnings: list[str] = Field(default_factory=list, description="Slips in a development set's labels (not fatal).")


def fidelity_json_schema() -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": FIDELITY_SCHEMA_ID,
            **FidelityReport.model_json_schema()}
