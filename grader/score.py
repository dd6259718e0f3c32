"""Score an agent's deliverables (and optionally its transcript) against a task's anchors.

Pipeline (SPEC section 7): read each declared deliverable under hard limits; mask
spans that repeat the matter documents verbatim; run the matching core; compute the
metrics and the reward; attach evidence for every credit, miss, flag and claim.
Scoring never raises on agent content: a hostile deliverable becomes a reason.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence


from lae import __version__
from lae.canonical import sha256_hex
from lae.catalog import find_task
from lae.jsonio import loads
from lae.grader.anchors import Anchors, ScoringBlock, load_anchors
from lae.grader.contract import SCORING_CONTRACT_VERSION, grader_source_digest
from lae.grader.deliverables import DeliverableRead, read_deliverable
from lae.grader.documents import task_document_texts
from lae.match.engine import TextAnalysis, analyze_text
from lae.match.evidence import KernelEvidence
from lae.match.masking import SourceIndex
from lae.match.normalize import TOKEN_RE, NormalizedText, normalize
from lae.match.terms import compiled_pattern, term_regex
from lae.grader.results import (ClaimReport, CriterionReport, DeliverableReport, DistractorReport, Evidence,
                                FindingReport, GraderIdentity, MaskedSpan, MatcherHit, Metrics, ReleaseInfo,
                                ScoreResult, Weights)
from lae.project import Project

__all__ = ["TaskContext", "load_task_context", "score_files", "score_reads", "read_transcript", "compute_reward",
           "grader_identity", "MAX_TRANSCRIPT_BYTES"]

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class TaskContext:
    """Everything needed to score one task, built once and reused across rollouts."""

    anchors: Anchors
    anchors_sha256: str
    index: SourceIndex
    task_dir: Path | None = None


def load_task_context(project: Project, task: str, pocket: str | None = None) -> TaskContext:
    """Load a task's anchors (by id or scenario slug) and build its document index."""
    info = find_task(project, task, pocket)
    path = project.anchors_path(info.pocket, info.task_id)
    data = path.read_bytes()
    anchors = load_anchors(path)
    texts = task_document_texts(project, anchors.pocket, anchors.task_id)
    return TaskContext(anchors, sha256_hex(data), SourceIndex(texts, anchors.scoring.mask_min_tokens),
                       project.task_dir(anchors.pocket, anchors.task_id))


@functools.lru_cache(maxsize=1)
def grader_identity() -> GraderIdentity:
    return GraderIdentity(version=__version__, scoring_contract_version=SCORING_CONTRACT_VERSION,
                          source_digest=grader_source_digest())


def read_transcript(path: Path) -> tuple[str, list[str]]:
    """The agent's own messages (assistant role) from a JSONL transcript, and notes.

    Tool outputs contain the documents, so they never count; only ``assistant``
    message content does. Unreadable lines are skipped and noted, never fatal.
    """
    notes: list[str] = []
    try:
        size = path.stat().st_size
        if size > MAX_TRANSCRIPT_BYTES:
            return "", [f"transcript {path.name} is {size} bytes, over the {MAX_TRANSCRIPT_BYTES} limit; ignored"]
        raw = path.read_bytes()
    except OSError as exc:
        return "", [f"transcript unreadable: {exc.strerror}"]
    parts: list[str] = []
    for lineno, line in enumerate(raw.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            msg = loads(line)  # depth-limited: a 100,000-deep line is skipped, not a RecursionError
        except ValueError:
            notes.append(f"transcript line {lineno}: not JSON; skipped")
            continue
        if not isinstance(msg, dict) or msg.get("role") != "assistant":
            continue
        content = msg.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"
                         and isinstance(p.get("text"), str))
    return "\n\n".join(parts), notes


def _evidence(raw: KernelEvidence | None, norm: NormalizedText, text: str, source: str) -> Evidence | None:
    """Kernel evidence (normalized offsets) as result evidence (offsets in the graded text)."""
    if raw is None:
        return None
    s, e = norm.span_in_original(raw.start, raw.end)
    hits = []
    for h in raw.hits:
        hs, he = norm.span_in_original(h.start, h.end)
        hits.append(MatcherHit(category=h.category, term=h.term, span=(hs, he), text=text[hs:he]))
    return Evidence(source=source, window=(s, e), text=text[s:e], hits=hits, reason=raw.reason,
                    assertion=raw.assertion)


def _own_chars(analysis_text: str) -> int:
    return sum(map(len, TOKEN_RE.findall(analysis_text)))


def _criteria(ctx: TaskContext, analysis: TextAnalysis, complete: bool) -> list[CriterionReport]:
    out = []
    for crit in ctx.anchors.rubric:
        p = crit.proxy
        kind = p.kind
        if kind == "finding":
            passed = analysis.finding(p.finding).credited
        elif kind == "finding_severity":
            passed = analysis.finding(p.finding).severity_window
        elif kind == "finding_remediation":
            passed = analysis.finding(p.finding).remediation_window
        elif kind == "finding_record":
            passed = analysis.finding(p.finding).record_window
        elif kind == "findings_all":
            passed = all(analysis.finding(f).credited for f in p.findings)
        elif kind == "findings_any":
            passed = sum(analysis.finding(f).credited for f in p.findings) >= p.min
        elif kind == "distractor_not_flagged":
            passed = not next(d for d in analysis.distractors if d.id == p.distractor).flagged
        elif kind == "claim_not_made":
            passed = not next(c for c in analysis.claims if c.id == p.claim).made
        elif kind == "deliverable_saved":
            passed = complete
        elif kind == "mentions":
            body = analysis.segmented.text
            found = sum(1 for t in p.terms if compiled_pattern(term_regex(t)).search(body, timeout=2.0))
            passed = found >= p.min
        else:  # pragma: no cover - the Proxy union is closed
            raise AssertionError(kind)
        out.append(CriterionReport(id=crit.id, title=crit.title, proxy=kind, passed=passed))
    return out


def compute_reward(scoring: ScoringBlock, finding_recall: float, deliverable_complete: float,
                   false_flag_rate: float, must_not_say: float) -> float:
    """reward = 0.6*finding_recall + 0.4*deliverable_complete - ffw*false_flag_rate - mnsw*must_not_say.

    Not clamped: a memo that saves nothing and asserts prohibited claims can go below 0."""
    return (scoring.finding_weight * finding_recall + scoring.deliverable_weight * deliverable_complete
            - scoring.false_flag_weight * false_flag_rate - scoring.must_not_say_weight * must_not_say)


def score_reads(ctx: TaskContext, reads: Sequence[DeliverableRead], *, transcript_text: str | None = None,
                release: ReleaseInfo, notes: Sequence[str] = ()) -> ScoreResult:
    """Score already-read deliverables (one per declared name, in declared order)."""
    anchors = ctx.anchors
    scoring = anchors.scoring
    texts = [r.text for r in reads if r.ok and r.text]
    combined = "\n\n".join(texts)
    norm = normalize(combined)
    masked = ctx.index.mask(norm)
    analysis = analyze_text(anchors.match_spec(), combined, masked, norm=norm)

    # Per-deliverable completeness: the agent's own (unmasked) text must reach the minimum.
    # Counted on the already masked combined text, over each deliverable's own stretch of it.
    reports: list[DeliverableReport] = []
    masked_text = analysis.segmented.text
    start = 0
    for r in reads:
        own = 0
        if r.ok and r.text:
            end = start + len(r.text)
            own = _own_chars(masked_text[bisect.bisect_left(norm.origin, start):bisect.bisect_left(norm.origin, end)])
            start = end + 2  # the blank line joining deliverables
        complete = bool(r.ok and own >= scoring.min_deliverable_chars)
        reason = r.reason
        if r.ok and not complete:
            reason = f"only {own} characters of the agent's own text (minimum {scoring.min_deliverable_chars})"
        reports.append(DeliverableReport(declared_name=r.declared_name, found=r.found, ok=r.ok, format=r.format,
                                         chars=len(r.text or ""), own_chars=own, complete=complete, reason=reason))
    complete_all = bool(reports) and all(d.complete for d in reports)

    transcript_analysis = None
    if transcript_text is not None:
        tnorm = normalize(transcript_text)
        transcript_analysis = analyze_text(anchors.match_spec(), transcript_text, ctx.index.mask(tnorm), norm=tnorm)

    findings = []
    for f, outcome in zip(anchors.findings, analysis.findings):
        t_credit = transcript_analysis.finding(f.id).credited if transcript_analysis else None
        ev = _evidence(outcome.credit, norm, combined, "deliverable")
        near = _evidence(outcome.near_miss, norm, combined, "deliverable")
        reason = ev.reason if ev else (near.reason if near else "neither its subject nor its problem is named")
        if not outcome.credited and outcome.example:
            reason = f"{reason}; would count: {outcome.example}"
        findings.append(FindingReport(id=f.id, title=f.title, severity=f.severity, credited=outcome.credited,
                                      transcript_credited=t_credit, evidence=ev, near_miss=near, reason=reason,
                                      status=outcome.status, example=outcome.example))
    distractors = [
        DistractorReport(id=d.id, title=d.title, flagged=o.flagged,
                         evidence=_evidence(o.evidence, norm, combined, "deliverable"),
                         declined=_evidence(o.declined, norm, combined, "deliverable"))
        for d, o in zip(anchors.distractors, analysis.distractors)
    ]
    claims = [ClaimReport(id=c.id, made=o.made, evidence=_evidence(o.evidence, norm, combined, "deliverable"))
              for c, o in zip(anchors.must_not_say, analysis.claims)]
    criteria = _criteria(ctx, analysis, complete_all)

    n_f = len(findings)
    recall = sum(f.credited for f in findings) / n_f
    ffr = (sum(d.flagged for d in distractors) / len(distractors)) if distractors else 0.0
    mns = (sum(c.made for c in claims) / len(claims)) if claims else 0.0
    t_recall = (sum(bool(f.transcript_credited) for f in findings) / n_f) if transcript_analysis else None
    cprp = sum(c.passed for c in criteria) / len(criteria)
    complete_metric = 1.0 if complete_all else 0.0
    reward = compute_reward(scoring, recall, complete_metric, ffr, mns)
    all_notes = list(notes) + [f"matcher timeout: {t}" for t in analysis.timeouts]
    orig_masked = [norm.span_in_original(s, e) for s, e in masked]
    return ScoreResult(
        task_id=anchors.task_id,
        scenario_slug=anchors.scenario_slug,
        pocket=anchors.pocket,
        anchors_sha256=ctx.anchors_sha256,
        key_sha256=anchors.provenance.key_sha256,
        grader=grader_identity(),
        release=release,
        reportable=release.reportable,
        freeze_root=release.freeze_root,
        metrics=Metrics(deliverable_complete=complete_metric, finding_recall=round(recall, 6),
                        false_flag_rate=round(ffr, 6), must_not_say=round(mns, 6),
                        transcript_recall=None if t_recall is None else round(t_recall, 6),
                        criterion_pass_rate_proxy=round(cprp, 6), reward=round(reward, 6)),
        weights=Weights(finding_weight=scoring.finding_weight, deliverable_weight=scoring.deliverable_weight,
                        false_flag_weight=scoring.false_flag_weight, must_not_say_weight=scoring.must_not_say_weight,
                        min_deliverable_chars=scoring.min_deliverable_chars),
        deliverables=reports,
        findings=findings,
        distractors=distractors,
        claims=claims,
        criteria=criteria,
        masked=[MaskedSpan(span=(s, e), text=combined[s:e]) for s, e in orig_masked],
        graded_text_chars=len(combined),
        graded_text=combined,
        notes=all_notes,
    )


def score_files(ctx: TaskContext, files: Sequence[Path], *, transcript: Path | None = None,
                release: ReleaseInfo) -> ScoreResult:
    """Score files given by path: each declared deliverable is the file whose name is
    exactly the declared name; anything else is noted and ignored."""
    by_name = {Path(f).name: Path(f) for f in files}
    reads = []
    notes = []
    for declared in ctx.anchors.deliverables:
        path = by_name.get(declared)
        if path is None:
            others = [n for n in by_name if Path(n).stem == Path(declared).stem]
            reason = f"no file named {declared!r}"
            if others:
                reason += f" ({', '.join(sorted(others))} given: a different format never satisfies a declared {Path(declared).suffix})"
            reads.append(DeliverableRead(declared_name=declared, found=False, ok=False, format=None, text="",
                                         reason=reason, bytes_read=0))
        else:
            reads.append(read_deliverable(path, declared))
    for name in sorted(set(by_name) - set(ctx.anchors.deliverables)):
        notes.append(f"{name}: not a declared deliverable; ignored")
    transcript_text = None
    if transcript is not None:
        transcript_text, t_notes = read_transcript(Path(transcript))
        notes.extend(t_notes)
    return score_reads(ctx, reads, transcript_text=transcript_text, release=release, notes=notes)
