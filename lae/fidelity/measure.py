"""Measure the grader against a careful reader's labels.

Each labelled memo is scored by the real grader (:func:`lae.grader.score.score_files`);
from its result only the public result fields are read (:func:`outcome_from_result`):
each finding credited or not, each distractor flagged or not, each claim made or not,
the reward, and the evidence text and reason. The comparison with the labels
(:func:`compare`) knows nothing else of the grader, so a new grader that fills the same
result model is measured the same way.

over-credit  = findings credited / findings labelled NOT_RAISED or DISMISSED
under-credit = findings not credited / findings labelled RAISED
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from lae.grader.results import ReleaseInfo, ScoreResult
from lae.grader.score import TaskContext, load_task_context, score_files
from lae.parallel import fork_map
from lae.project import Project

from .models import (Disagreement, FidelityReport, FindingRow, GraderSeen, KindRow, MemoRow, PocketKindRow, PocketRow,
                     Tally)
from .sets import LabelledMemo, MemoSet

__all__ = ["MEASUREMENT_RELEASE", "ItemOutcome", "MemoOutcome", "outcome_from_result", "score_memos", "compare",
           "measure"]

#: Fidelity scores are measurements of the grader, never reported scores: no freeze gate.
MEASUREMENT_RELEASE = ReleaseInfo(reportable=False, reason="fidelity measurement (not a reported score)")


@dataclass(frozen=True)
class ItemOutcome:
    """What the grader did with one finding, distractor or claim."""

    positive: bool  # credited / flagged / made
    text: str | None  # the evidence window (or near miss) in the memo
    reason: str | None


@dataclass(frozen=True)
class MemoOutcome:
    """The grader's verdict on one memo, as far as fidelity needs it."""

    reward: float
    items: dict[str, ItemOutcome]
    titles: dict[str, str]
    grader: GraderSeen


def outcome_from_result(result: ScoreResult) -> MemoOutcome:
    """The only place that reads a grader result."""
    items: dict[str, ItemOutcome] = {}
    for f in result.findings:
        shown = f.evidence or f.near_miss
        items[f.id] = ItemOutcome(f.credited, shown.text if shown else None, f.reason)
    for d in result.distractors:
        shown = d.evidence or d.declined
        items[d.id] = ItemOutcome(d.flagged, shown.text if shown else None, shown.reason if shown else None)
    for c in result.claims:
        items[c.id] = ItemOutcome(c.made, c.evidence.text if c.evidence else None,
                                  c.evidence.reason if c.evidence else None)
    titles = ({f.id: f.title for f in result.findings} | {d.id: d.title for d in result.distractors}
              | {c.id: "prohibited claim" for c in result.claims})
    grader = GraderSeen(version=result.grader.version, scoring_contract_version=result.grader.scoring_contract_version,
                        source_digest=result.grader.source_digest)
    return MemoOutcome(reward=result.metrics.reward, items=items, titles=titles, grader=grader)


# -- scoring, in parallel -----------------------------------------------------------------------

# Per process: each task's context (anchors + document index), built once. The parent
# fills it before forking, so workers inherit it.
_CONTEXTS: dict[tuple[str, str, str], TaskContext] = {}


def _context(root: str, pocket: str, task_id: str) -> TaskContext:
    key = (root, pocket, task_id)
    if key not in _CONTEXTS:
        _CONTEXTS[key] = load_task_context(Project.at(root), task_id, pocket)
    return _CONTEXTS[key]


def _score_one(job: tuple[str, str, str, str]) -> MemoOutcome:
    root, pocket, task_id, path = job
    result = score_files(_context(root, pocket, task_id), [Path(path)], release=MEASUREMENT_RELEASE)
    return outcome_from_result(result)


def score_memos(project: Project, memos: Sequence[LabelledMemo], *, jobs: int = 1) -> Iterator[MemoOutcome]:
    """Score each memo's deliverable with the real grader, in order, on ``jobs`` workers."""
    work = [(str(project.root), m.pocket, m.task_id, str(m.deliverable)) for m in memos]
    for args in dict.fromkeys(w[:3] for w in work):
        _context(*args)  # index each task once, before any worker starts
    return _in_order(work, jobs)


def _score_task(jobs: list[tuple[str, str, str, str]]) -> list[MemoOutcome]:
    return [_score_one(job) for job in jobs]


def _in_order(work: list[tuple[str, str, str, str]], jobs: int) -> Iterator[MemoOutcome]:
    # One job per task, not per memo: what the grader builds lazily on first use (compiled
    # matchers) is then built once, by the one worker that scores all of that task's memos.
    by_task: dict[tuple[str, str, str], list[tuple[str, str, str, str]]] = defaultdict(list)
    for w in work:
        by_task[w[:3]].append(w)
    pending = list(work)
    done: dict[str, MemoOutcome] = {}
    for group, outcomes in zip(by_task.values(), fork_map(_score_task, list(by_task.values()), jobs)):
        done.update((w[3], o) for w, o in zip(group, outcomes))
        while pending and pending[0][3] in done:  # yield in the given order as soon as possible
            yield done.pop(pending.pop(0)[3])


# -- comparison -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Judged:
    memo: LabelledMemo
    item_id: str
    label: str
    outcome: ItemOutcome

    @property
    def is_finding(self) -> bool:
        return self.label in ("RAISED", "NOT_RAISED", "DISMISSED")

    @property
    def category(self) -> str | None:
        """The disagreement this item is, or None when grader and label agree."""
        hit = self.outcome.positive
        if self.label == "RAISED":
            return None if hit else "under_credit"
        if self.label in ("NOT_RAISED", "DISMISSED"):
            return "over_credit" if hit else None
        if self.label in ("ESCALATED", "NOT_ESCALATED"):
            return None if hit == (self.label == "ESCALATED") else (
                "distractor_escalated_by_grader" if hit else "distractor_escalated_by_label")
        return None if hit == (self.label == "MADE") else ("claim_made_by_grader" if hit else "claim_made_by_label")


def _ratio(n: int, d: int) -> float | None:
    return round(n / d, 6) if d else None


def _tally(judged: Iterable[_Judged], rewards: Sequence[float] | None, memos: int) -> Tally:
    count: dict[str, int] = defaultdict(int)
    for j in judged:
        count[j.label] += 1
        if j.category:
            count[j.category] += 1
    raised, not_raised = count["RAISED"], count["NOT_RAISED"] + count["DISMISSED"]
    return Tally(
        memos=memos, raised=raised, raised_not_credited=count["under_credit"], not_raised=not_raised,
        not_raised_credited=count["over_credit"], over_credit=_ratio(count["over_credit"], not_raised),
        under_credit=_ratio(count["under_credit"], raised),
        distractors=count["ESCALATED"] + count["NOT_ESCALATED"],
        distractors_escalated_by_grader_only=count["distractor_escalated_by_grader"],
        distractors_escalated_by_label_only=count["distractor_escalated_by_label"],
        claims=count["MADE"] + count["NOT_MADE"], claims_made_by_grader_only=count["claim_made_by_grader"],
        claims_made_by_label_only=count["claim_made_by_label"],
        mean_reward=round(sum(rewards) / len(rewards), 6) if rewards else None)


def _group(pairs: Sequence[tuple[LabelledMemo, MemoOutcome, list[_Judged]]],
           key: Callable[[LabelledMemo], tuple[str, ...]]) -> dict[tuple[str, ...], Tally]:
    groups: dict[tuple[str, ...], list] = defaultdict(list)
    for pair in pairs:
        groups[key(pair[0])].append(pair)
    return {k: _tally([j for _m, _o, js in g for j in js], [o.reward for _m, o, _js in g], len(g))
            for k, g in sorted(groups.items())}


def _disagreement(j: _Judged, title: str) -> Disagreement:
    grader = {"over_credit": "credited", "under_credit": "not credited", "distractor_escalated_by_grader": "flagged",
              "distractor_escalated_by_label": "not flagged", "claim_made_by_grader": "made",
              "claim_made_by_label": "not made"}[j.category or ""]
    m = j.memo
    return Disagreement(pocket=m.pocket, task_id=m.task_id, memo_id=m.memo_id, kind=m.kind, item_id=j.item_id,
                        item_title=title, category=j.category, label=j.label, grader=grader,  # type: ignore[arg-type]
                        memo_sentence=j.outcome.text, grader_reason=j.outcome.reason,
                        label_sentence=m.sentences.get(j.item_id))


def compare(memo_set: MemoSet, outcomes: Sequence[MemoOutcome]) -> FidelityReport:
    """Hold each memo's outcome against its labels and tally the agreement."""
    if not outcomes:
        raise ValueError("nothing to compare: no labelled memos")
    pairs = [(m, o, [_Judged(m, i, label, o.items[i]) for i, label in m.labels.items()])
             for m, o in zip(memo_set.memos, outcomes, strict=True)]
    disagreements = [_disagreement(j, o.titles.get(j.item_id, j.item_id)) for _m, o, js in pairs for j in js
                     if j.category]
    by_finding: dict[tuple[str, str, str], list[_Judged]] = defaultdict(list)
    titles: dict[tuple[str, str, str], str] = {}
    for m, o, js in pairs:
        for j in js:
            if j.is_finding:
                by_finding[(m.pocket, m.task_id, j.item_id)].append(j)
                titles[(m.pocket, m.task_id, j.item_id)] = o.titles.get(j.item_id, j.item_id)
    return FidelityReport(
        source=memo_set.source,
        grader=outcomes[0].grader,
        totals=_tally([j for _m, _o, js in pairs for j in js], [o.reward for o in outcomes], len(pairs)),
        pockets=[PocketRow(pocket=k[0], tally=t) for k, t in _group(pairs, lambda m: (m.pocket,)).items()],
        kinds=[KindRow(kind=k[0], tally=t) for k, t in _group(pairs, lambda m: (m.kind,)).items()],
        pocket_kinds=[PocketKindRow(pocket=k[0], kind=k[1], tally=t)
                      for k, t in _group(pairs, lambda m: (m.pocket, m.kind)).items()],
        findings=[FindingRow(pocket=k[0], task_id=k[1], finding_id=k[2], title=titles[k],
                             tally=_tally(js, None, len(js))) for k, js in sorted(by_finding.items())],
        memos=[MemoRow(pocket=m.pocket, task_id=m.task_id, memo_id=m.memo_id, kind=m.kind, written=m.written,
                       deliverable=m.shown, reward=o.reward,
                       credited=[i for i, j in o.items.items() if j.positive and i in m.labels
                                 and m.labels[i] in ("RAISED", "NOT_RAISED", "DISMISSED")],
                       disagreements=sum(1 for j in js if j.category)) for m, o, js in pairs],
        disagreements=disagreements,
        warnings=list(memo_set.warnings),
    )


def measure(project: Project, memo_set: MemoSet, *, jobs: int = 1,
            progress: Callable[[Iterator[MemoOutcome]], Iterable[MemoOutcome]] | None = None) -> FidelityReport:
    """Score every memo of ``memo_set`` and compare with its labels. ``progress`` may wrap
    the stream of outcomes (the CLI's progress bar)."""
    stream = score_memos(project, memo_set.memos, jobs=jobs)
    return compare(memo_set, list(progress(stream) if progress else stream))
