"""Typed models of the results layer: the report summary (``schemas/report.schema.json``)
and the judge telemetry written beside each rollout (``judge.json``).

Closed formats: ``extra="forbid"`` and ``frozen=True`` everywhere, so a report that
does not fit the schema cannot be built.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lae.freeze.manifest import FidelityRecord

__all__ = [
    "JUDGE_SCHEMA_VERSION",
    "REPORT_SCHEMA_ID",
    "REPORT_SCHEMA_VERSION",
    "Comparison",
    "ErroredRollout",
    "UsageTotals",
    "CriterionAgreement",
    "CriterionVerdict",
    "FindingHeat",
    "HeatCell",
    "JudgeRecord",
    "JudgeSummary",
    "LabModelRow",
    "ModelRow",
    "PocketReport",
    "ReportSummary",
    "RolloutEntry",
    "Spread",
    "TaskRow",
    "report_json_schema",
]

REPORT_SCHEMA_VERSION = 1
REPORT_SCHEMA_ID = "https://legal-agent-eval.invalid/schemas/report.schema.json"
JUDGE_SCHEMA_VERSION = 1


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Spread(_Frozen):
    """A mean over rollouts with its spread across rollout passes."""

    mean: float | None = Field(description="Mean over every rollout that has the metric (None: no rollout has it).")
    n: int = Field(ge=0, description="Rollouts in the mean.")
    replicates: list[float] = Field(
        description="Per rollout index k: the mean over the tasks' k-th rollouts (one pass over the tasks per index).")
    min: float | None = Field(description="Smallest replicate mean; None with fewer than 2 replicates.")
    max: float | None = Field(description="Largest replicate mean; None with fewer than 2 replicates.")


class JudgeSummary(_Frozen):
    """Weight-0 rubric-judge telemetry beside the deterministic criterion proxy."""

    judged_rollouts: int = Field(ge=0)
    verdicts: int = Field(ge=0, description="Criteria with a PASS/FAIL verdict.")
    errors: int = Field(ge=0, description="Criteria whose judge call failed or returned a malformed verdict.")
    judge_pass_rate: float | None = Field(description="PASS verdicts / verdicts.")
    proxy_pass_rate: float | None = Field(description="Proxy passes over the same criteria (those with a verdict).")
    agreement: float | None = Field(description="Share of criteria where judge and proxy agree.")
    kappa: float | None = Field(description="Cohen's kappa of judge vs proxy; None when undefined.")
    kappa_note: str | None = Field(None, description="Why kappa is undefined, when it is.")


class UsageTotals(_Frozen):
    """Token usage and effort summed over rollouts (from each ``rollout.json``)."""

    rollouts: int = Field(0, ge=0, description="Rollouts that recorded usage.")
    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    total_tokens: int = Field(0, ge=0)
    turns: int = Field(0, ge=0)
    tool_calls: int = Field(0, ge=0)
    wall_seconds: float = Field(0.0, ge=0)


class ErroredRollout(_Frozen):
    """A rollout whose model calls failed: listed, counted, and excluded from every mean."""

    model: str
    pocket: str
    task_id: str
    rollout: int | None
    run_id: str | None
    source: str = Field(description="The rollout.json read.")
    error: str


class ModelRow(_Frozen):
    """One model on one pocket: the seed READMEs' "Baseline results" row and more."""

    model: str
    pocket: str
    tasks: int = Field(ge=1)
    rollouts: int = Field(ge=1)
    rollouts_per_task: tuple[int, int] = Field(description="Fewest and most rollouts of any task.")
    setup: str = Field(description='E.g. "5 tasks × 3 rollouts".')
    reward: Spread
    finding_recall: Spread
    false_flag_rate: Spread
    must_not_say: Spread
    transcript_recall: Spread
    criterion_pass_rate_proxy: Spread
    deliverables_saved: int = Field(ge=0, description="Rollouts with every declared deliverable complete.")
    deliverables_total: int = Field(ge=0)
    reportable_rollouts: int = Field(ge=0)
    errored: int = Field(0, ge=0, description="Errored rollouts of this model and pocket (not in any mean).")
    usage: UsageTotals = Field(default_factory=UsageTotals, description="Usage over the scored and errored rollouts.")
    judge: JudgeSummary | None = None


class TaskRow(_Frozen):
    """One model on one task: spread across that task's rollouts (min–max of single rollouts)."""

    model: str
    pocket: str
    task_id: str
    rollouts: int = Field(ge=1)
    reward: Spread
    finding_recall: Spread
    false_flag_rate: Spread
    deliverables_saved: int = Field(ge=0)
    rollout_pages: list[str | None] = Field(description="Audit page of each rollout (relative to the report folder).")


class HeatCell(_Frozen):
    model: str
    credited: int = Field(ge=0)
    rollouts: int = Field(ge=0)
    rate: float | None
    pages: list[str] = Field(description="Audit page of each rollout, anchored at the finding.")
    marks: list[bool] = Field(description="Per rollout: credited or not (same order as pages).")


class FindingHeat(_Frozen):
    """Per-finding recall across models (the heat-map row)."""

    pocket: str
    task_id: str
    finding_id: str
    title: str
    severity: str
    cells: list[HeatCell]


class Comparison(_Frozen):
    """Whether the gap between two models exceeds their spread across rollouts."""

    pocket: str
    metric: Literal["reward", "finding_recall"]
    model_a: str
    model_b: str
    mean_a: float
    mean_b: float
    range_a: tuple[float, float] | None
    range_b: tuple[float, float] | None
    verdict: Literal["within_noise", "separated", "no_spread"]
    same_tasks: bool
    text: str


class CriterionAgreement(_Frozen):
    pocket: str
    task_id: str
    criterion_id: str
    title: str
    pairs: int = Field(ge=0, description="Rollouts with both a judge verdict and a proxy result.")
    judge_pass: int = Field(ge=0)
    proxy_pass: int = Field(ge=0)
    agree: int = Field(ge=0)
    errors: int = Field(ge=0)


class PocketReport(_Frozen):
    """Factory results of one pocket (one freeze root unless ``mixed``)."""

    pocket: str
    freeze_roots: list[str | None] = Field(description="Distinct freeze roots (None: not frozen/unreportable).")
    mixed: bool = Field(description="Results from more than one release were combined (only with --allow-mixed).")
    mix_problems: list[str]
    reportable: bool = Field(description="Every rollout reportable, one freeze root, nothing mixed.")
    unreportable_reasons: list[str]
    models: list[ModelRow]
    tasks: list[TaskRow]
    findings: list[FindingHeat]
    comparisons: list[Comparison]
    criteria_agreement: list[CriterionAgreement]
    fidelity: FidelityRecord | None = Field(
        default=None, description="The release's fidelity as its freeze recorded it (one freeze root, found in the tree).")


class LabModelRow(_Frozen):
    """LAB-mode workflow-discipline metrics (``lab_``): never averaged with factory metrics."""

    model: str
    tasks: int = Field(ge=1)
    rollouts: int = Field(ge=1)
    setup: str
    metrics: dict[str, Spread]


class RolloutEntry(_Frozen):
    id: str = Field(description="model/pocket/task/rN, unique in the report.")
    kind: Literal["factory", "lab"]
    model: str
    pocket: str
    task_id: str
    rollout: int = Field(ge=0, description="Rollout number (declared, or its position among the task's rollouts).")
    source: str = Field(description="The file read, as found under the given RUNS argument.")
    source_format: Literal["result.json", "verifiers-jsonl"]
    reportable: bool
    freeze_root: str | None
    release_reason: str | None
    metrics: dict[str, float | None]
    page: str | None = Field(description="Audit page (relative); None when only metrics were recorded.")
    judge_pass_rate: float | None = None
    judge_errors: int | None = None


class ReportSummary(_Frozen):
    """What ``lae report --json`` prints and ``-o DIR`` writes as ``report.json``."""

    report_schema_version: Literal[1] = 1
    generator: str
    inputs: list[str]
    allow_mixed: bool
    mixed: bool
    reportable: bool = Field(description="Every factory pocket reportable and unmixed.")
    pockets: list[PocketReport]
    lab: list[LabModelRow]
    rollouts: list[RolloutEntry]
    errored: list[ErroredRollout] = Field(default_factory=list, description="Errored rollouts, excluded from every mean.")
    usage: UsageTotals = Field(default_factory=UsageTotals, description="Usage over every rollout read.")
    warnings: list[str]


class CriterionVerdict(_Frozen):
    """One rubric criterion as judged (or not) by the judge model."""

    id: str
    title: str
    verdict: Literal["PASS", "FAIL"] | None = Field(description="None when the call failed or the reply was malformed.")
    reasoning: str | None = None
    error: str | None = None
    raw: str | None = Field(None, description="The reply's first 500 characters when it could not be parsed.")
    proxy_passed: bool | None = Field(None, description="The deterministic proxy's result for the same criterion.")
    attempts: int = Field(0, ge=0)


class JudgeRecord(_Frozen):
    """``judge.json``: weight-0 rubric-judge telemetry for one rollout."""

    judge_schema_version: Literal[1] = 1
    weight: Literal[0] = Field(0, description="The judge never enters the reward.")
    judge_model: str
    base_url: str
    temperature: float = 0.0
    task_id: str
    pocket: str
    criteria: list[CriterionVerdict]
    pass_rate: float | None = Field(description="PASS / criteria with a verdict.")
    errors: int = Field(ge=0)


def report_json_schema() -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": REPORT_SCHEMA_ID,
            **ReportSummary.model_json_schema()}
